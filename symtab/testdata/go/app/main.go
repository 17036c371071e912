package main

import (
	"fmt"

	"example.com/shop/cart"
	_ "example.com/shop/missing"
	st "example.com/shop/store"
	. "example.com/shop/util"
	"github.com/x/dep"
)

func main() {
	c := cart.New()
	fmt.Println(c.Add("x").Total(), st.Open("db").Save())
	Helper()
	dep.Dep()
}
