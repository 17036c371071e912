package p

import (
	_ "embed"
	"example.com/mod/v2"
	"fmt"
	"github.com/smacker/go-tree-sitter"
	"gopkg.in/yaml.v3"
	. "math"
	str "strings"
)

import "os"

const Pi = 3.14

const (
	A = iota
	B
	C = A + B
)

var (
	x, y = 1, 2
	z    int
)

type (
	Point struct {
		X, Y int
		fmt.Stringer
	}
	Shape interface {
		Area() float64
		~int | ~float64
	}
	ID = string
)

type Empty struct{}

type List[T any] struct {
	items []T
}

func init() {
	const local = "v"
	var buf str.Builder
	type pair struct{ a, b int }
	fmt.Fprint(&buf, local, pair{a: 1, b: 2}, os.Args, Sqrt(2), yaml.Marshal, sitter.NewParser, mod.X)
}
