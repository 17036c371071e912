package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/graphcoder/graphcoder/defctx"
	"github.com/graphcoder/graphcoder/eval/metrics"
	"github.com/graphcoder/graphcoder/eval/tasks"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/llm"
	"github.com/graphcoder/graphcoder/prompt"
)

// toyParser is a line-based front end for a Python-like toy language
// (".toy"): every non-blank, non-comment line is a statement; "def" lines
// are function headers defining their name. It lets the harness be tested
// independently of the real front ends.
type toyParser struct{}

var assignRE = regexp.MustCompile(`^\s*([A-Za-z_]\w*)\s*=[^=]`)
var defRE = regexp.MustCompile(`^\s*def\s+([A-Za-z_]\w*)\s*\(`)

func (toyParser) Parse(ctx context.Context, path string, src []byte) (*lang.File, error) {
	if bytes.Contains(src, []byte{0}) {
		return nil, errors.New("binary file")
	}
	f := &lang.File{Path: path, Language: "toy", Lines: strings.Split(string(src), "\n")}
	for row, line := range f.Lines {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		s := &lang.Stmt{Kind: lang.Simple, StartRow: row, EndRow: row}
		if m := defRE.FindStringSubmatch(line); m != nil {
			s.Kind = lang.Func
			s.SetNames([]string{m[1]}, nil, nil)
		} else if m := assignRE.FindStringSubmatch(line); m != nil {
			s.SetNames([]string{m[1]}, nil, nil)
		}
		f.Stmts = append(f.Stmts, s)
	}
	return f, nil
}

func init() {
	lang.Register(&lang.Language{
		Name: "toy", Extensions: []string{".toy"}, CommentPrefix: "#",
		Keywords:  []string{"def", "return", "for", "in", "import", "from"},
		NewParser: func() lang.Parser { return toyParser{} },
	})
}

var windowMethods = []string{None, Vanilla, Shifted, RepoCoder}

func TestRunToyRepo(t *testing.T) {
	opts := Options{Repo: "testdata/toyrepo", Lang: "toy", Tasks: 20, Seed: 3, Methods: windowMethods, Window: 4}
	rep, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tasks) != 20 || len(rep.Methods) != len(windowMethods) || len(rep.Records) != 20*len(windowMethods) {
		t.Fatalf("%d tasks, %d methods, %d records", len(rep.Tasks), len(rep.Methods), len(rep.Records))
	}
	byName := map[string]MethodResult{}
	for _, m := range rep.Methods {
		byName[m.Name] = m
	}
	if m := byName[None]; m.EM != 0 || m.Hit10 != 0 || m.Entries != 0 {
		t.Errorf("none without a model: %+v", m)
	}
	// The toy files repeat their patterns: retrieval must find some.
	if m := byName[Vanilla]; m.Hit10 == 0 || m.ES == 0 || m.Entries == 0 || m.Bytes == 0 {
		t.Errorf("vanilla found nothing: %+v", m)
	}
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, name := range windowMethods {
		if !strings.Contains(buf.String(), name) {
			t.Errorf("table misses %s:\n%s", name, buf.String())
		}
	}

	// Same seed, same numbers (timings aside), with several workers too.
	opts.Workers = 2
	again, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(withoutTimes(rep.Summary()), withoutTimes(again.Summary())) {
		t.Errorf("same seed, different numbers:\n%+v\n%+v", rep.Summary(), again.Summary())
	}
	if !reflect.DeepEqual(rep.Tasks, again.Tasks) {
		t.Error("same seed, different tasks")
	}
}

func withoutTimes(s Summary) Summary {
	for k, m := range s.Methods {
		m.RetrievalP50MS, m.RetrievalP95MS = 0, 0
		s.Methods[k] = m
	}
	return s
}

// leakRepo writes files whose lines repeat across files, each line ending
// in a token unique in the whole repository.
func leakRepo(t *testing.T) string {
	dir := t.TempDir()
	for f := 0; f < 3; f++ {
		var b strings.Builder
		for r := 0; r < 40; r++ {
			switch r % 4 {
			case 0:
				fmt.Fprintf(&b, "def step_%d(x, y):  # u%d_%d\n", r%8, f, r)
			case 1:
				fmt.Fprintf(&b, "    a = x + y * %d + u%d_%d\n", r%3, f, r)
			case 2:
				fmt.Fprintf(&b, "    b = step_%d(a, x) - u%d_%d\n", (r+f)%8, f, r)
			default:
				fmt.Fprintf(&b, "    return a + b + u%d_%d\n", f, r)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.toy", f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var uniqueRE = regexp.MustCompile(`u\d+_\d+`)

// checkNoLeak fails the test when a method saw the target line: its unique
// token in a snippet or in the prediction, or a same-file snippet reaching
// the hole.
func checkNoLeak(errorf func(string, ...any), mu *sync.Mutex, seen map[string]int) func(Observation) {
	return func(o Observation) {
		mu.Lock()
		defer mu.Unlock()
		seen[o.Method]++
		secret := uniqueRE.FindString(o.Task.GroundTruth)
		if secret == "" {
			errorf("task %s has no unique token: %q", o.Task.ID, o.Task.GroundTruth)
			return
		}
		re := regexp.MustCompile(`\b` + secret + `\b`)
		for _, s := range o.Snippets {
			if re.MatchString(s.Text) {
				errorf("%s, task %s (%s:%d): snippet %s:%d-%d holds the target line", o.Method, o.Task.ID, o.Task.Path, o.Task.Line, s.Path, s.Start, s.End)
			}
			if s.Path == o.Task.Path && s.End > o.Task.Line {
				errorf("%s, task %s: same-file snippet %d-%d reaches the hole at %d", o.Method, o.Task.ID, s.Start, s.End, o.Task.Line)
			}
		}
		if re.MatchString(o.Prediction) {
			errorf("%s, task %s: prediction %q holds the target line", o.Method, o.Task.ID, o.Prediction)
		}
	}
}

func TestLeakRule(t *testing.T) {
	dir := leakRepo(t)
	for _, methods := range [][]string{windowMethods, {GraphCoderCoarse, GraphCoderFine, GraphCoder}} {
		var mu sync.Mutex
		seen := map[string]int{}
		for _, level := range []tasks.Level{tasks.Line, tasks.API} {
			_, err := Run(context.Background(), Options{
				Repo: dir, Lang: "toy", Level: level, Tasks: 60, Seed: 1, Methods: methods, Window: 5,
				Observe: checkNoLeak(t.Errorf, &mu, seen),
			})
			skipIfNoGraphIndex(t, err)
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range methods {
			if seen[m] == 0 {
				t.Errorf("method %s never observed", m)
			}
		}
	}
}

// skipIfNoGraphIndex skips a test while the index builder of this tree
// cannot yet build code context graphs.
func skipIfNoGraphIndex(t *testing.T, err error) {
	t.Helper()
	if err != nil && strings.Contains(err.Error(), "not wired yet") {
		t.Skipf("graphcoder index unavailable: %v", err)
	}
}

// TestRunPython is the seconds-long end-to-end run of every method on a
// small real Python repository.
func TestRunPython(t *testing.T) {
	for _, run := range []struct {
		level   tasks.Level
		methods []string
	}{{tasks.Line, windowMethods}, {tasks.API, windowMethods}, {tasks.Line, nil}, {tasks.API, nil}} {
		level := run.level
		var mu sync.Mutex
		seen := map[string]int{}
		rep, err := Run(context.Background(), Options{
			Repo: "testdata/pyrepo", Lang: "python", Level: level, Tasks: 40, Seed: 11, Methods: run.methods,
			Observe: func(o Observation) {
				mu.Lock()
				defer mu.Unlock()
				seen[o.Method]++
				for _, s := range o.Snippets {
					if s.Path == o.Task.Path && s.End > o.Task.Line {
						t.Errorf("%s, task %s: same-file snippet %d-%d reaches the hole at %d", o.Method, o.Task.ID, s.Start, s.End, o.Task.Line)
					}
				}
			},
		})
		skipIfNoGraphIndex(t, err)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		rep.WriteTable(&buf)
		t.Logf("\n%s", buf.String())
		for _, m := range rep.Methods {
			if seen[m.Name] != len(rep.Tasks) {
				t.Errorf("%s ran %d of %d tasks", m.Name, seen[m.Name], len(rep.Tasks))
			}
			if m.Name != None && (m.Entries == 0 || m.ES == 0) {
				t.Errorf("%s retrieved nothing useful: %+v", m.Name, m)
			}
		}
	}
}

// leakyGraph is a GraphIndex that breaks the leak rule on purpose, to show
// the leak check catches it.
type leakyGraph struct{ root string }

func (g leakyGraph) Retrieve(ctx context.Context, q GraphQuery) (GraphResult, error) {
	src, err := os.ReadFile(filepath.Join(g.root, q.Path))
	if err != nil {
		return GraphResult{}, err
	}
	lines := strings.Split(string(src), "\n")
	return GraphResult{
		Snippets:   []Snippet{{Path: q.Path, Start: q.Line, End: q.Line + 1, Text: lines[q.Line]}},
		Prediction: lines[q.Line],
	}, nil
}
func (leakyGraph) Entries() int { return 1 }
func (leakyGraph) Bytes() int64 { return 1 }
func (leakyGraph) Close() error { return nil }

func TestLeakCheckCatchesLeaks(t *testing.T) {
	dir := leakRepo(t)
	var mu sync.Mutex
	seen := map[string]int{}
	leaks := 0
	rep, err := Run(context.Background(), Options{
		Repo: dir, Lang: "toy", Tasks: 5, Seed: 1, Methods: []string{GraphCoder},
		OpenGraph: func(context.Context, GraphSource) (GraphIndex, error) { return leakyGraph{dir}, nil },
		Observe:   checkNoLeak(func(string, ...any) { leaks++ }, &mu, seen),
	})
	if err != nil {
		t.Fatal(err)
	}
	if leaks == 0 {
		t.Error("a method that returns the target line passed the leak check")
	}
	if m := rep.Methods[0]; m.EM != 100 || m.Hit1 != 100 {
		t.Errorf("the leaky method should score perfectly: %+v", m)
	}
}

func TestLLMGenerator(t *testing.T) {
	var mu sync.Mutex
	var prompts []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/completions" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Model  string `json:"model"`
			Prompt string `json:"prompt"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "tiny" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		mu.Lock()
		prompts = append(prompts, req.Prompt)
		mu.Unlock()
		fmt.Fprint(w, `{"model":"tiny","choices":[{"index":0,"text":"    value = side * side\nmore()","finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	backend, err := llm.New(llm.Config{Kind: llm.KindOpenAI, URL: srv.URL, Model: "tiny", StopAtLineEnd: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{
		Repo: "testdata/toyrepo", Lang: "toy", Tasks: 4, Seed: 5, Methods: []string{None, Vanilla, RepoCoder},
		Window: 4, LLM: backend,
	})
	if err != nil {
		t.Fatal(err)
	}
	// none and vanilla ask once per task, repocoder three times.
	if want := 4 * (1 + 1 + 3); len(prompts) != want {
		t.Errorf("%d requests, want %d", len(prompts), want)
	}
	for _, r := range rep.Records {
		if r.Prediction != "    value = side * side" {
			t.Errorf("prediction %q: want the model's first line", r.Prediction)
		}
	}
	withSnippets := 0
	for _, p := range prompts {
		if strings.Contains(p, "relevant code fragments") {
			withSnippets++
		}
	}
	if withSnippets == 0 || withSnippets == len(prompts) {
		t.Errorf("%d of %d prompts carry retrieved code; want the retrieval methods' only", withSnippets, len(prompts))
	}
}

func TestWriteDir(t *testing.T) {
	rep, err := Run(context.Background(), Options{Repo: "testdata/toyrepo", Lang: "toy", Tasks: 5, Seed: 1, Methods: windowMethods, Window: 4})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := rep.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "tasks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := tasks.Read(f)
	if err != nil || !reflect.DeepEqual(back, rep.Tasks) {
		t.Errorf("tasks.jsonl does not read back: %v", err)
	}
	preds, _ := os.ReadFile(filepath.Join(dir, "predictions.jsonl"))
	if n := bytes.Count(preds, []byte("\n")); n != len(rep.Records) {
		t.Errorf("predictions.jsonl has %d lines, want %d", n, len(rep.Records))
	}
	svg, _ := os.ReadFile(filepath.Join(dir, "metrics.svg"))
	if !bytes.Contains(svg, []byte("<svg")) {
		t.Error("metrics.svg is not SVG")
	}
	var s Summary
	raw, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err := json.Unmarshal(raw, &s); err != nil || s.Tasks != 5 || len(s.Methods) != len(windowMethods) {
		t.Errorf("summary.json: %v %+v", err, s)
	}
}

func TestRunErrors(t *testing.T) {
	ctx := context.Background()
	for _, o := range []Options{
		{Lang: "toy"},
		{Repo: "testdata/toyrepo", Lang: "cobol"},
		{Repo: "testdata/toyrepo", Lang: "toy", Methods: []string{"magic"}},
		{Repo: "testdata/toyrepo", Lang: "toy", Level: "file"},
		{Repo: "testdata/missing", Lang: "toy"},
	} {
		if _, err := Run(ctx, o); err == nil {
			t.Errorf("Run(%+v): no error", o)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Run(cancelled, Options{Repo: "testdata/toyrepo", Lang: "toy", Methods: windowMethods}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
}

// TestDeterministicAllMethods runs every method twice with the same seed
// (the second time with the tasks read back from RepoEval JSONL and two
// workers) and expects the same numbers.
func TestDeterministicAllMethods(t *testing.T) {
	opts := Options{Repo: "testdata/pyrepo", Lang: "python", Level: tasks.Line, Tasks: 30, Seed: 4}
	a, err := Run(context.Background(), opts)
	skipIfNoGraphIndex(t, err)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "tasks.jsonl")
	var buf bytes.Buffer
	if err := tasks.Write(&buf, a.Tasks); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.TaskFile, opts.Workers, opts.Seed = file, 2, 999
	b, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	sa, sb := withoutTimes(a.Summary()), withoutTimes(b.Summary())
	sb.Seed = sa.Seed
	if !reflect.DeepEqual(sa, sb) {
		t.Errorf("same tasks, different numbers:\n%+v\n%+v", sa, sb)
	}
	for i := range a.Records {
		ra, rb := a.Records[i], b.Records[i]
		ra.RetrievalMS, rb.RetrievalMS = 0, 0
		if !reflect.DeepEqual(ra, rb) {
			t.Errorf("record %d differs:\n%+v\n%+v", i, ra, rb)
			break
		}
	}
}

func TestOutsideQueryWindow(t *testing.T) {
	task := &tasks.Task{Path: "a.py", Line: 30}
	tests := []struct {
		name string
		sn   Snippet
		want bool
	}{
		{"other file", Snippet{Path: "b.py", Start: 10, End: 30}, true},
		{"ends where the window starts", Snippet{Path: "a.py", Start: 0, End: 10}, true},
		{"overlaps the window by a row", Snippet{Path: "a.py", Start: 0, End: 11}, false},
		{"the window itself", Snippet{Path: "a.py", Start: 10, End: 30}, false},
		{"shifted by one", Snippet{Path: "a.py", Start: 9, End: 29}, false},
		{"after the hole", Snippet{Path: "a.py", Start: 31, End: 40}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := OutsideQueryWindow(tt.sn, task, 20); got != tt.want {
				t.Errorf("OutsideQueryWindow(%+v) = %v, want %v", tt.sn, got, tt.want)
			}
		})
	}
}

// TestOutsideHits checks that a target repeating a line right above the
// hole is a hit of the query's own window only.
func TestOutsideHits(t *testing.T) {
	dir := t.TempDir()
	// Each pair of lines repeats once, two rows later, and nowhere else:
	// every hit is in the query's own window.
	var b strings.Builder
	for k := 0; k < 6; k++ {
		for range 2 {
			fmt.Fprintf(&b, "    x%d = compute(a, b) + %d\n    y%d = other(c, d) * %d\n", k, k, k, k)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "only.toy"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Repo: dir, Lang: "toy", Tasks: 24, Seed: 1, Methods: []string{Vanilla}, Window: 4})
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Methods[0]
	if m.Hit10 == 0 {
		t.Fatalf("no hits at all: %+v", m)
	}
	if m.OutHit1 != 0 || m.OutHit5 != 0 || m.OutHit10 != 0 {
		t.Errorf("hits outside the query window in a one-file repository: %+v", m)
	}
	s := rep.Summary().Methods[Vanilla]
	if s.Hit10 != round2(m.Hit10) || s.OutHit10 != 0 {
		t.Errorf("summary %+v", s)
	}
}

// TestAPIDefRecall checks the API-definition count of one prompt by hand:
// the target calls parse (defined in lib.toy, which a block shows), emit
// (defined in lib.toy outside the blocks), local (defined in the in-file
// part, so not counted) and later (defined after the hole in its file:
// counted, out of reach of a prompt of the prefix alone).
func TestAPIDefRecall(t *testing.T) {
	lib := &lang.File{Path: "lib.toy", Lines: []string{"def parse(x):", "    return x", "", "def emit(y):", "    return y"}}
	fn := func(row int, defs ...string) *lang.Stmt {
		s := &lang.Stmt{Kind: lang.Func, StartRow: row, EndRow: row}
		s.SetNames(defs, nil, nil)
		return s
	}
	lib.Stmts = []*lang.Stmt{fn(0, "parse", "x"), fn(3, "emit", "y")}
	q := &lang.File{Path: "q.toy", Lines: []string{"def local(z):", "    return z", "v = parse(local(emit(later(1))))", "def later(w):"}}
	q.Stmts = []*lang.Stmt{fn(0, "local", "z"), fn(3, "later", "w")}
	h := &harness{scorer: metrics.New("#", nil), apis: tasks.APIDefinitions([]*lang.File{lib, q})}
	task := &tasks.Task{Path: "q.toy", Line: 2, GroundTruth: q.Lines[2]}
	snips := []Snippet{{Path: "lib.toy", Start: 0, End: 2, Text: "def parse(x):\n    return x", Focus: 0}}
	c, err := h.assemble(task, q.Lines[:2], snips, nil, prompt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := h.contextRecord(task, c, nil)
	if r.APIs != 3 || r.APIsFound != 1 || r.APIsAfter != 1 {
		t.Fatalf("apis %d, found %d, after the hole %d (want 3, 1, 1): %+v", r.APIs, r.APIsFound, r.APIsAfter, r)
	}
	want := []APIMiss{{Name: "emit", Why: MissNotOffered}, {Name: "later", Why: MissNotOffered, AfterHole: true}}
	if !reflect.DeepEqual(r.Missed, want) {
		t.Errorf("missed %+v, want %+v", r.Missed, want)
	}
	// Offered in a definition block the prompt does not show: cut.
	offer := []defctx.Block{{Path: "lib.toy", Lines: []string{"def emit(y):"}, Rows: []int{4}, Score: 1}}
	want[0].Why = MissCut
	if r := h.contextRecord(task, c, offer); !reflect.DeepEqual(r.Missed, want) {
		t.Errorf("missed %+v, want %+v", r.Missed, want)
	}
	// A definition block showing emit's header row finds it; one showing
	// only its body row (within the block's span, not shown) does not.
	for _, tc := range []struct {
		rows  []int
		lines []string
		found int
	}{
		{[]int{4}, []string{"def emit(y):"}, 2},
		{[]int{1, 5}, []string{"def parse(x):", "    return y"}, 1},
	} {
		defs := []defctx.Block{{Path: "lib.toy", Lines: tc.lines, Rows: tc.rows, Score: 1}}
		c, err := h.assemble(task, q.Lines[:2], snips, defs, prompt.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r := h.contextRecord(task, c, defs); r.APIs != 3 || r.APIsFound != tc.found {
			t.Errorf("definition rows %v: apis %d, found %d (want 3, %d)", tc.rows, r.APIs, r.APIsFound, tc.found)
		}
	}
}

// TestAggregateContext averages hand-made records: two tasks, the first
// with its target in the second block, the second without.
func TestAggregateContext(t *testing.T) {
	recs := []Record{
		{Context: ContextRecord{FirstRelevant: 2, NovelIDs: 4, NovelFound: 1, APIs: 2, APIsFound: 2, Lines: 30, DupLines: 3, RelevantTokens: 50, Tokens: 900, Budget: 1000}},
		{Context: ContextRecord{FirstRelevant: 0, NovelIDs: 0, APIs: 1, APIsFound: 0, APIsAfter: 1, Lines: 10, DupLines: 1, Tokens: 700, Budget: 1000}},
	}
	got := aggregateContext(recs, 0, 1, func(r *Record) ContextRecord { return r.Context })
	want := ContextResult{Recall5: 50, Recall10: 50, MRR: 25, NovelIDRecall: 25, APIDefRecall: 50, APIDefCeiling: 50,
		DupLineShare: 10, PromptTokens: 700, Utilization: 2.5, NovelTasks: 1, APITasks: 2}
	if got != want {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}
