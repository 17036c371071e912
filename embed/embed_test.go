package embed

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randomFloats(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

func TestQuantize(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for range 100 {
		v := randomFloats(r, 1+r.IntN(64))
		q := Quantize(v)
		var norm float64
		for _, x := range v {
			norm += float64(x) * float64(x)
		}
		norm = math.Sqrt(norm)
		peak := 0
		for i, x := range q.Values {
			if d := math.Abs(float64(q.Scale)*float64(x) - float64(v[i])/norm); d > float64(q.Scale)/2+1e-6 {
				t.Fatalf("component %d: %v against %v", i, float64(q.Scale)*float64(x), float64(v[i])/norm)
			}
			peak = max(peak, int(math.Abs(float64(x))))
		}
		if peak != 127 {
			t.Fatalf("largest component quantised to %d, want 127", peak)
		}
	}
	for _, bad := range [][]float32{nil, {0, 0}, {1, float32(math.NaN())}, {float32(math.Inf(1))}} {
		if q := Quantize(bad); len(q.Values) != 0 {
			t.Errorf("Quantize(%v) = %v, want empty", bad, q)
		}
	}
}

func TestSliceText(t *testing.T) {
	if got := SliceText([]string{"a = 1", "if a:\n    b"}); got != "a = 1\nif a:\n    b" {
		t.Errorf("SliceText = %q", got)
	}
}
