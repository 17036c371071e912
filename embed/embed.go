package embed

import (
	"context"
	"math"
	"strings"
)

// Embedder turns texts into embedding vectors, one per text, all of the
// same dimension.
type Embedder interface {
	// Name identifies the model (e.g. "ollama:nomic-embed-text"): vectors
	// are stored under it, and only a query embedded by the same name is
	// compared with them.
	Name() string
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Vector is an embedding quantised to 8 bits: Scale x Values approximates
// the embedding scaled to unit length, so that inner products approximate
// cosine similarities. The empty Vector stands for none.
type Vector struct {
	Scale  float32
	Values []int8
}

// Quantize scales v to unit length and rounds it to a Vector, the largest
// component to +-127. A vector of length zero, or holding a NaN or an
// infinity, gives the empty Vector.
func Quantize(v []float32) Vector {
	var norm, peak float64
	for _, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return Vector{}
		}
		norm += f * f
		peak = max(peak, math.Abs(f))
	}
	if norm == 0 || math.IsInf(norm, 0) {
		return Vector{}
	}
	norm = math.Sqrt(norm)
	scale := peak / norm / 127
	out := Vector{Scale: float32(scale), Values: make([]int8, len(v))}
	for i, x := range v {
		out.Values[i] = int8(max(-127, min(127, math.Round(float64(x)/norm/scale))))
	}
	return out
}

// SliceText is the text embedded for a slice: the texts of its statements
// other than the target, in slice order, one per line.
func SliceText(stmts []string) string { return strings.Join(stmts, "\n") }
