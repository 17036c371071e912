package tasks

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
)

// pyFile is a hand-built statement tree of a small Python file, standing in
// for a front end's output.
func pyFile() *lang.File {
	src := `import os

# a comment line here with many tokens
def helper(a, b):
    """Docstring with
    several lines of text here."""
    total = a + b * 2
    return total

class Widget(Base):
    def run(self, x):
        result = helper(x, 1) + 3
        value = compute(x,
            y, z)
        return value
w = Widget(1, 2)
os.path.join(a, b)`
	st := func(k lang.Kind, start, end int, defs ...string) *lang.Stmt {
		s := &lang.Stmt{Kind: k, StartRow: start, EndRow: end}
		s.SetNames(defs, nil, nil)
		return s
	}
	helper := st(lang.Func, 3, 3, "a", "b", "helper")
	helper.Body = []*lang.Stmt{st(lang.Simple, 4, 5), st(lang.Simple, 6, 6, "total"), st(lang.Return, 7, 7)}
	run := st(lang.Func, 10, 10, "run", "self", "x")
	run.Body = []*lang.Stmt{st(lang.Simple, 11, 11, "result"), st(lang.Simple, 12, 13, "value"), st(lang.Return, 14, 14)}
	widget := st(lang.Class, 9, 9, "Widget")
	widget.Body = []*lang.Stmt{run}
	return &lang.File{
		Path:  "pkg/mod.py",
		Lines: strings.Split(src, "\n"),
		Stmts: []*lang.Stmt{
			st(lang.Simple, 0, 0, "os"),
			st(lang.Simple, 2, 3), // a front end that glued the comment to the def
			helper, widget,
			st(lang.Simple, 15, 15, "w"),
			st(lang.Simple, 16, 16),
		},
	}
}

func lines(ts []Task) []int {
	var out []int
	for _, t := range ts {
		out = append(out, t.Line)
	}
	slices.Sort(out)
	return out
}

func TestSampleRules(t *testing.T) {
	tests := []struct {
		level Level
		want  []int
	}{
		// 0: 2 tokens; 1, 8: blank; 2: comment; 4-5: docstring; 7, 14: 2
		// tokens; 13: continuation of the statement on 12.
		{Line, []int{3, 6, 9, 10, 11, 12, 15, 16}},
		// helper( on 11, Widget( on 15; compute is not defined here and
		// headers are not API targets.
		{API, []int{11, 15}},
	}
	for _, tt := range tests {
		got, err := Sample([]*lang.File{pyFile()}, Options{Level: tt.level, N: 100, Seed: 1, CommentPrefix: "#"})
		if err != nil {
			t.Fatal(err)
		}
		if l := lines(got); !slices.Equal(l, tt.want) {
			t.Errorf("%s: lines %v, want %v", tt.level, l, tt.want)
		}
	}
}

func TestSampleTask(t *testing.T) {
	got, err := Sample([]*lang.File{pyFile()}, Options{Level: API, N: 2, Seed: 7, Repo: "demo", CommentPrefix: "#"})
	if err != nil {
		t.Fatal(err)
	}
	for i, task := range got {
		if task.ID != "demo/"+string(rune('0'+i)) || task.Repo != "demo" || task.Path != "pkg/mod.py" {
			t.Errorf("task %d: %+v", i, task)
		}
		f := pyFile()
		if task.GroundTruth != f.Lines[task.Line] {
			t.Errorf("ground truth %q, want line %d %q", task.GroundTruth, task.Line, f.Lines[task.Line])
		}
		if want := strings.Join(f.Lines[:task.Line], "\n") + "\n"; task.Prompt != want {
			t.Errorf("prompt %q, want %q", task.Prompt, want)
		}
	}
}

func TestSampleDeterministic(t *testing.T) {
	other := pyFile()
	other.Path = "a/first.py"
	files := []*lang.File{pyFile(), other}
	a, _ := Sample(files, Options{N: 5, Seed: 42, CommentPrefix: "#"})
	b, _ := Sample([]*lang.File{files[1], files[0]}, Options{N: 5, Seed: 42, CommentPrefix: "#"})
	if !slices.Equal(a, b) {
		t.Errorf("same seed, file order changed: %v vs %v", a, b)
	}
	differ := false
	for seed := uint64(0); seed < 5; seed++ {
		c, _ := Sample(files, Options{N: 5, Seed: seed, CommentPrefix: "#"})
		differ = differ || !slices.Equal(a, c)
	}
	if !differ {
		t.Error("seeds 0-4 all gave the sample of seed 42")
	}
	all, _ := Sample(files, Options{N: 1000, Seed: 3, CommentPrefix: "#"})
	if len(all) != 16 {
		t.Errorf("%d tasks, want all 16 eligible lines", len(all))
	}
}

func TestCallsAPI(t *testing.T) {
	apis := map[string]bool{"helper": true, "Widget": true}
	tests := []struct {
		line string
		want bool
	}{
		{"x = helper(1)", true},
		{"x = helper (1)", true},
		{"x = self.helper(1)", true},
		{"x = helper", false},
		{"x = helpers(1)", false},
		{`log("helper(1)")`, false},
		{"Widget w = new Widget<>();", true},
		{"Widget w = null;", false},
	}
	for _, tt := range tests {
		if got := CallsAPI(tt.line, apis); got != tt.want {
			t.Errorf("CallsAPI(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

func TestDefinedAPIsJava(t *testing.T) {
	f := &lang.File{
		Lines: []string{
			"public final class Box<T> extends Base {",
			"  @Override public <R> R map(Function<T, R> fn) throws IOException {",
			"    list.forEach(item -> {",
		},
	}
	st := func(k lang.Kind, row int, body []*lang.Stmt, defs ...string) *lang.Stmt {
		s := &lang.Stmt{Kind: k, StartRow: row, EndRow: row, Body: body}
		s.SetNames(defs, nil, nil)
		return s
	}
	f.Stmts = []*lang.Stmt{st(lang.Class, 0, []*lang.Stmt{
		st(lang.Func, 1, []*lang.Stmt{st(lang.Func, 2, nil, "item")}, "fn", "map"),
	}, "Box")}
	got := DefinedAPIs([]*lang.File{f})
	if len(got) != 2 || !got["Box"] || !got["map"] {
		t.Errorf("DefinedAPIs = %v, want Box and map (a lambda defines no API)", got)
	}
}

func TestCountTokens(t *testing.T) {
	tests := []struct {
		line string
		want int
	}{
		{"", 0},
		{"return total", 2},
		{"x = a + b", 5},
		{"os.path.join(a, b)", 10},
		{"x += 1_000", 4},
	}
	for _, tt := range tests {
		if got := CountTokens(tt.line); got != tt.want {
			t.Errorf("CountTokens(%q) = %d, want %d", tt.line, got, tt.want)
		}
	}
}

func TestJSONLRoundTrip(t *testing.T) {
	in, err := Sample([]*lang.File{pyFile()}, Options{N: 4, Seed: 9, Repo: "demo", CommentPrefix: "#"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"fpath_tuple":["demo","pkg","mod.py"]`) {
		t.Errorf("fpath_tuple not split into repository and path parts:\n%s", buf.String())
	}
	out, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(in, out) {
		t.Errorf("round trip changed tasks:\n%v\n%v", in, out)
	}
}

func TestReadPublicShape(t *testing.T) {
	f, err := os.Open("testdata/repoeval.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []Task{
		{ID: "acme_widgets/0", Repo: "acme_widgets", Path: "src/widgets/scale.py", Line: 4,
			Prompt: "import torch\n\nclass Scaler:\n    def __init__(self, scale):\n", GroundTruth: "        self.scale = scale\n"},
		{ID: "acme_widgets/1", Repo: "acme_widgets", Path: "B.java", Line: 2,
			Prompt: "package a;\nclass B {\n", GroundTruth: "    int x = helper(1, 2);"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Read =\n%+v\nwant\n%+v", got, want)
	}
}

func TestReadErrors(t *testing.T) {
	for _, in := range []string{
		"",
		"{not json}\n",
		`{"prompt":"","metadata":{"fpath_tuple":["only_repo"],"line_no":0}}`,
		`{"prompt":"","metadata":{"fpath_tuple":["r","a.py"],"line_no":-1}}`,
	} {
		if _, err := Read(strings.NewReader(in)); err == nil {
			t.Errorf("Read(%q): no error", in)
		}
	}
}

func TestDefinedAPIsGenericsAndBoundFunctions(t *testing.T) {
	f := &lang.File{
		Lines: []string{
			"func Map[T, U any](xs []T, f func(T) U) []U {",
			"export function pick<T>(items: T[]): T {",
			"export const load = async (url) => {",
			"const handler: Handler = function (req) {",
			"items.forEach((item) => {",
			"if (x == y) {",
		},
	}
	for i, defs := range [][]string{{"Map"}, {"pick"}, {"load"}, {"handler"}, {"item"}, {"x"}} {
		s := &lang.Stmt{Kind: lang.Func, StartRow: i, EndRow: i}
		s.SetNames(defs, nil, nil)
		f.Stmts = append(f.Stmts, s)
	}
	got := DefinedAPIs([]*lang.File{f})
	want := map[string]bool{"Map": true, "pick": true, "load": true, "handler": true}
	if len(got) != len(want) {
		t.Errorf("DefinedAPIs = %v, want %v", got, want)
	}
	for k := range want {
		if !got[k] {
			t.Errorf("DefinedAPIs misses %s: %v", k, got)
		}
	}
}
