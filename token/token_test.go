package token

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/graphcoder/graphcoder/internal/realcode"
)

func TestCodeSplit(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"blank", " \t\n", nil},
		{"assign", "x = 1", []string{"x", "=", "1"}},
		{"camel", "getValue()", []string{"getValue", "get", "value", "(", ")"}},
		{"snake", "MAX_SIZE += 2", []string{"MAX_SIZE", "max", "size", "+=", "2"}},
		{"acronym", "HTTPServer", []string{"HTTPServer", "http", "server"}},
		{"digits", "utf8Decode", []string{"utf8Decode", "utf8", "decode"}},
		{"dunder", "def __init__(self):", []string{"def", "__init__", "(", "self", ")", ":"}},
		{"attribute", "self.x.y", []string{"self", ".", "x", ".", "y"}},
		{"numbers", "a = 0x1F + 1.5e-3 + .5 + 1_000L", []string{"a", "=", "0x1F", "+", "1.5e-3", "+", ".5", "+", "1_000L"}},
		{"hex minus", "0xE-1", []string{"0xE", "-", "1"}},
		{"string words", `print("Hello, wide world!")`, []string{"print", "(", "Hello", "wide", "world", ")"}},
		{"string escapes", `s = 'it\'s fooBar'`, []string{"s", "=", "it", "s", "fooBar", "foo", "bar"}},
		{"triple", "x = \"\"\"one\ntwo\"\"\" + y", []string{"x", "=", "one", "two", "+", "y"}},
		{"unterminated", "s = 'abc\nt = 1", []string{"s", "=", "abc", "t", "=", "1"}},
		{"operators", "a>>>=b; c->d :: e ... f != g", []string{"a", ">>>=", "b", ";", "c", "->", "d", "::", "e", "...", "f", "!=", "g"}},
		{"java", "for (int i = 0; i < n; i++) {", []string{"for", "(", "int", "i", "=", "0", ";", "i", "<", "n", ";", "i", "++", ")", "{"}},
		{"unicode", "größe = naïveValue", []string{"größe", "=", "naïveValue", "naïve", "value"}},
		{"symbols", "a → b", []string{"a", "→", "b"}},
		{"invalid utf8", "a\xffb", []string{"a", "\xff", "b"}},
		{"decorator", "@property", []string{"@", "property"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Code{}.Split(nil, tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Split(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// CountTokens is len(Split): on the table of TestCodeSplit, every line
// of real code and random byte strings drawn from the characters the
// scanner treats apart (it fails when an identifier's sub-words, a
// string's words or an operator are counted otherwise).
func TestCountTokens(t *testing.T) {
	check := func(text string) {
		t.Helper()
		if got, want := (Code{}).CountTokens(text), len(Code{}.Split(nil, text)); got != want {
			t.Fatalf("CountTokens(%q) = %d, want %d", text, got, want)
		}
	}
	for _, text := range []string{"", " ", "x", "getValue", "HTTPServer", "a_b_c", "__x__", "$a$B", "größeWert",
		"\"fooBar baz\"", " x  y", ">>>= ... ->", "0x1F.5e-3", "a\xffb", "é", "aB1c_D$e"} {
		check(text)
	}
	for _, l := range strings.Split(pythonSample(), "\n") {
		check(l)
	}
	const alphabet = "aZ_$09 .=-<>/*'\"\\\n\tÄß\xff€(\x00`"
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, rng.IntN(24))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		check(string(b))
	}
}

// CountTokens makes no tokens: counting a line allocates nothing, where
// Split of the same line into a fresh slice does.
func TestCountTokensAllocs(t *testing.T) {
	const line = `    def getHTTPServer(self, max_size=0x1F): return "fooBar baz" >>= größeWert`
	if n := testing.AllocsPerRun(100, func() { Code{}.CountTokens(line) }); n != 0 {
		t.Errorf("CountTokens: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { Code{}.Split(nil, line) }); n == 0 {
		t.Error("Split into a fresh slice: no allocation (the line makes no tokens?)")
	}
}

func FuzzCountTokens(f *testing.F) {
	for _, s := range []string{"getValue()", "HTTPServer x_y", "\"a bC\" 'd'", "a\xffb", ">>>=b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := (Code{}).CountTokens(text), len(Code{}.Split(nil, text)); got != want {
			t.Fatalf("CountTokens(%q) = %d, want %d", text, got, want)
		}
	})
}

func TestSplitAppends(t *testing.T) {
	dst := []string{"keep"}
	got := Code{}.Split(dst, "a b")
	if want := []string{"keep", "a", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestByName(t *testing.T) {
	for _, name := range []string{"", "code", "cl100k"} {
		tok, err := ByName(name)
		if err != nil {
			t.Fatalf("ByName(%q): %v", name, err)
		}
		if name != "" && tok.Name() != name {
			t.Errorf("ByName(%q).Name() = %q", name, tok.Name())
		}
	}
	if _, err := ByName("nope"); err == nil || !strings.Contains(err.Error(), "cl100k") {
		t.Errorf("ByName(nope) error = %v, want one listing the names", err)
	}
}

// TestCL100K checks the embedded vocabulary loads (no network involved:
// the loader reads assets compiled into the binary) and that the pieces
// concatenate back to the input.
func TestCL100K(t *testing.T) {
	tok, err := ByName("cl100k")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"", "def hello_world(x):\n    return x + 1", "größe → naïve", "\t\tfor (int i = 0; i < n; i++) {"} {
		got := tok.Split(nil, in)
		if strings.Join(got, "") != in {
			t.Errorf("Split(%q) = %q: does not concatenate back", in, got)
		}
	}
	got := tok.Split(nil, "return value")
	if want := []string{"return", " value"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Split = %q, want %q", got, want)
	}
	// Concurrent use.
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				tok.Split(nil, "x = foo(bar, baz) + 1")
			}
		}()
	}
	wg.Wait()
}

// sampleSource returns a few hundred KiB of real Python, or skips.
func sampleSource(tb testing.TB) string {
	s := pythonSample()
	if s == "" {
		tb.Skip("python stdlib not present")
	}
	return s
}

// pythonSample returns sampleSource's code, or "" when the standard
// library is not present.
func pythonSample() string {
	dir := realcode.PythonStdlib()
	if dir == "" {
		return ""
	}
	var sb strings.Builder
	for _, f := range []string{"argparse.py", "ast.py", "difflib.py", "typing.py", "inspect.py"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return ""
		}
		sb.Write(b)
	}
	return sb.String()
}

func benchmarkSplit(b *testing.B, name string) {
	tok, err := ByName(name)
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(sampleSource(b), "\n")
	var dst []string
	b.ResetTimer()
	n := 0
	bytes := 0
	for i := 0; i < b.N; i++ {
		for _, l := range lines {
			dst = tok.Split(dst[:0], l)
			n += len(dst)
			bytes += len(l) + 1
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "tokens/s")
	b.SetBytes(int64(bytes / b.N))
}

func BenchmarkCode(b *testing.B)   { benchmarkSplit(b, "code") }
func BenchmarkCL100K(b *testing.B) { benchmarkSplit(b, "cl100k") }
