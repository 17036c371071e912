package indexer

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
)

var update = flag.Bool("update", false, "rewrite the golden files from git check-ignore")

// ignoreFixture is a tree of .gitignore files exercising git's pattern
// rules; every other path is an empty file (or, with a trailing '/', an
// empty folder). It is written at test time: committed .gitignore files
// would apply to this repository itself.
var ignoreFixture = map[string]string{
	".gitignore": strings.Join([]string{
		"# a comment, then a blank line",
		"",
		"*.log",
		"!keep.log",
		"/root_only.py",
		"workspace/*",
		"!workspace/keep.py",
		"build_out/",
		"docs/**/gen_*.py",
		"**/cache_dir",
		"a/**/z.py",
		`\#hash.py`,
		`\!bang.py`,
		"trailing.py   ",
		`escaped_space.py\ `,
		"[abc]_class.py",
		"[!x]_neg.py",
		"q?.py",
		"deep/**",
		"*.tmp.py",
		"!important.tmp.py",
		"[[:digit:]]num.py",
		"star*/",
		"lit[/x.py",
		"mid/*/leaf.py",
		"/anchored_dir/",
		"**/any/**/where.py",
		"ends/**",
		"!ends/back.py",
	}, "\n") + "\n",
	"pkg/.gitignore": strings.Join([]string{
		"local_*.py",
		"!local_keep.py",
		"/anchored_here.py",
		"sub/*.gen.py",
		"*.log",
		"!debug.log",
		"!root_only.py",
	}, "\n") + "\r\n",
	"pkg/sub/.gitignore": "!x.gen.py\nnested_only.py\n",
}

// ignorePaths are the paths whose fate the golden records.
var ignorePaths = []string{
	"a.py", "x.log", "keep.log", "sub/x.log", "sub/keep.log",
	"root_only.py", "pkg/root_only.py", "pkg/deeper/root_only.py",
	"workspace/a.py", "workspace/keep.py", "workspace/sub/b.py",
	"pkg/workspace/x.py", "pkg/workspace/keep.py",
	"build_out/a.py", "pkg/build_out/a.py", "build_out.py",
	"docs/gen_a.py", "docs/x/gen_a.py", "docs/x/y/gen_a.py", "docs/x/other.py", "pkg/docs/x/gen_a.py",
	"cache_dir/a.py", "pkg/cache_dir/a.py", "pkg/x/cache_dir/a.py",
	"a/z.py", "a/b/z.py", "a/b/c/z.py", "pkg/a/b/z.py",
	"#hash.py", "!bang.py", "trailing.py", "escaped_space.py ", "escaped_space.py",
	"a_class.py", "d_class.py", "y_neg.py", "x_neg.py",
	"q1.py", "q12.py", "qq.py",
	"deep/a.py", "deep/b/c.py",
	"x.tmp.py", "important.tmp.py", "pkg/important.tmp.py",
	"1num.py", "anum.py",
	"starfish/a.py", "star.py", "star/a.py",
	"lit[/x.py",
	"mid/a/leaf.py", "mid/a/b/leaf.py", "mid/leaf.py",
	"anchored_dir/a.py", "pkg/anchored_dir/a.py",
	"any/where.py", "x/any/y/where.py", "any/y/z/where.py",
	"ends/a.py", "ends/back.py", "ends/sub/back.py",
	"pkg/local_a.py", "pkg/local_keep.py", "pkg/x/local_b.py", "local_c.py",
	"pkg/anchored_here.py", "pkg/x/anchored_here.py", "anchored_here.py",
	"pkg/sub/x.gen.py", "pkg/sub/y.gen.py", "pkg/sub/deeper/y.gen.py",
	"pkg/a.log", "pkg/debug.log", "pkg/x/debug.log", "debug.log",
	"pkg/sub/nested_only.py", "pkg/nested_only.py",
}

func writeIgnoreFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{}
	for p, c := range ignoreFixture {
		files[p] = c
	}
	for _, p := range ignorePaths {
		files[p] = ""
	}
	writeTree(t, root, files)
	return root
}

// gitCheckIgnore asks git which of the paths it ignores.
func gitCheckIgnore(t *testing.T, root string, paths []string) map[string]bool {
	t.Helper()
	git := func(stdin string, args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 { // 1: none ignored
				t.Fatalf("git %v: %v", args, err)
			}
		}
		return out.String()
	}
	git("", "init", "-q")
	out := git(strings.Join(paths, "\x00")+"\x00", "check-ignore", "--no-index", "-z", "--stdin")
	ignored := map[string]bool{}
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			ignored[p] = true
		}
	}
	return ignored
}

func formatIgnored(paths []string, ignored func(string) bool) string {
	var b strings.Builder
	for _, p := range paths {
		state := "kept"
		if ignored(p) {
			state = "ignored"
		}
		fmt.Fprintf(&b, "%s\t%q\n", state, p)
	}
	return b.String()
}

// TestGitignoreMatchesGit pins the .gitignore semantics to git's: the
// golden is what git check-ignore says about the fixture (regenerated with
// -update, and compared with git itself whenever git is installed), and
// both the one-path rules (Ignored, used by the live index) and the walk
// (used by build) must agree with it.
func TestGitignoreMatchesGit(t *testing.T) {
	root := writeIgnoreFixture(t)
	golden := filepath.Join("testdata", "gitignore.golden")
	_, gitErr := exec.LookPath("git")
	var want string
	switch {
	case *update:
		if gitErr != nil {
			t.Fatal("-update needs git")
		}
		gi := gitCheckIgnore(t, root, ignorePaths)
		want = formatIgnored(ignorePaths, func(p string) bool { return gi[p] })
		must(t, os.WriteFile(golden, []byte(want), 0o644))
	default:
		b, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		want = string(b)
		if gitErr == nil {
			gi := gitCheckIgnore(t, root, ignorePaths)
			if live := formatIgnored(ignorePaths, func(p string) bool { return gi[p] }); live != want {
				t.Fatalf("git check-ignore no longer agrees with %s; rerun with -update:\n%s", golden, live)
			}
		}
	}
	os.RemoveAll(filepath.Join(root, ".git")) // the walk must not depend on it

	r := NewRules(root, "", 0)
	if got := formatIgnored(ignorePaths, func(p string) bool { return r.Ignored(filepath.Join(root, p)) }); got != want {
		t.Errorf("Rules.Ignored disagrees with git:\n%s", diffLines(want, got))
	}
	w, err := r.Walk(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	var walked []string
	for _, f := range w.Files {
		walked = append(walked, f.Rel)
	}
	// The walk lists files of a registered language only.
	var sources []string
	wantSources := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(want), "\n") {
		state, quoted, _ := strings.Cut(line, "\t")
		if p, err := strconv.Unquote(quoted); err == nil && lang.ForPath(p) != nil {
			sources = append(sources, p)
			wantSources[p] = state == "ignored"
		}
	}
	for _, p := range sources {
		if got := !slices.Contains(walked, p); got != wantSources[p] {
			t.Errorf("the walk ignores %q: %v, git: %v", p, got, wantSources[p])
		}
	}
	// A walk started below the root applies the .gitignore files above it.
	sub, err := r.Walk(context.Background(), filepath.Join(root, "pkg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sub.Files {
		if !slices.Contains(walked, f.Rel) {
			t.Errorf("walk of pkg/ takes %s, the walk of the root does not", f.Rel)
		}
	}
	if len(sub.Files) == 0 {
		t.Error("walk of pkg/ found nothing")
	}
}

func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			fmt.Fprintf(&b, "want %s\n got %s\n", a, c)
		}
	}
	return b.String()
}

func TestWildmatch(t *testing.T) {
	for _, tt := range []struct {
		glob, text string
		want       bool
	}{
		{"a*", "abc", true}, {"a*", "a/b", false}, {"a?c", "abc", true}, {"a?c", "a/c", false},
		{"**/x", "x", true}, {"**/x", "a/b/x", true}, {"a/**", "a/b/c", true}, {"a/**", "a", false},
		{"a/**/b", "a/b", true}, {"a/**/b", "a/x/y/b", true}, {"a**b", "axxb", true}, {"a**b", "a/b", false},
		{"[a-c]x", "bx", true}, {"[a-c]x", "dx", false}, {"[!a-c]x", "dx", true}, {"[^a]x", "ax", false},
		{"[]]", "]", true}, {"[a-]", "-", true}, {`\*`, "*", true}, {`\*`, "a", false}, {`a\`, "a", false},
		{"[[:alpha:]]", "q", true}, {"[[:alpha:]]", "1", false}, {"[[:nope:]]", "a", false}, {"[a", "a", false},
		{"*/b", "a/b", true}, {"*/b", "a/c/b", false}, {"[/]", "/", false},
	} {
		if got := wildmatch(tt.glob, tt.text); got != tt.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tt.glob, tt.text, got, tt.want)
		}
	}
}

// TestGitignoreRandomPatterns compares random patterns with git: folder
// d<i> holds a .gitignore of pattern i (or two, the second often a
// negation) and the same set of paths below it. It needs git.
func TestGitignoreRandomPatterns(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "b", "ab", "*", "?", "/", "**", "[ab]", "[!a]", "[a-b]", `\a`, "*a", "b*", ".py"}
	pattern := func() string {
		var b strings.Builder
		if rng.IntN(6) == 0 {
			b.WriteByte('/')
		}
		for range 1 + rng.IntN(4) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if rng.IntN(5) == 0 {
			b.WriteByte('/')
		}
		return b.String()
	}
	var rels []string
	for _, x := range []string{"a", "b", "ab"} {
		for _, y := range []string{"a.py", "b.py", "x.py"} {
			rels = append(rels, x+"/"+y, y, x+"/"+x+"/"+y)
		}
	}
	root := t.TempDir()
	files := map[string]string{}
	var paths []string
	const n = 100
	for i := range n {
		d := fmt.Sprintf("d%d", i)
		content := pattern() + "\n"
		if rng.IntN(2) == 0 {
			neg := pattern()
			if rng.IntN(2) == 0 {
				neg = "!" + neg
			}
			content += neg + "\n"
		}
		files[d+"/.gitignore"] = content
		for _, r := range rels {
			files[d+"/"+r] = ""
			paths = append(paths, d+"/"+r)
		}
	}
	writeTree(t, root, files)
	gi := gitCheckIgnore(t, root, paths)
	r := NewRules(root, "", 0)
	bad := 0
	for _, p := range paths {
		if got := r.Ignored(filepath.Join(root, p)); got != gi[p] && bad < 20 {
			bad++
			d := p[:strings.IndexByte(p, '/')]
			t.Errorf("%s: ignored %v, git says %v (patterns %q)", p, got, gi[p], files[d+"/.gitignore"])
		}
	}
}
