package main

import (
	"fmt"

	"example.com/shop/cart"
)

func main() {
	c := cart.New(nil)
	c.Add("x")
	fmt.Println(c.Total())
}
