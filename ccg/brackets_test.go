package ccg

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
)

// The bracket lexer counts only braces that are code: none in comments,
// strings, character literals, Go raw strings, Java text blocks,
// JavaScript template text and regular expressions, while the code of a
// template's ${...} counts. start is the depth of a row's first token
// after its closing brackets, end the depth after the row, code the last
// row with more than brackets, ';' and ','.
func TestLexBrackets(t *testing.T) {
	tests := []struct {
		name, language string
		lines          []string
		start, end     []int32
		code           int
	}{
		{"blocks", "java", []string{"class A {", "  void f() {", "  }", "} else {", "}"},
			[]int32{0, 1, 1, 0, 0}, []int32{1, 2, 1, 1, 0}, 3},
		{"closers only", "java", []string{"x();", "});", "", "}()", "]);"},
			[]int32{0, -1, -1, -2, -2}, []int32{0, -1, -1, -2, -2}, 0},
		{"comments", "java", []string{"a(); // {", "/* {", " * } {", " */ }", "/** { */ b();"},
			[]int32{0, 0, 0, -1, -1}, []int32{0, 0, 0, -1, -1}, 4},
		{"strings and chars", "java", []string{`s = "{\"{";`, `c = '{';`, `d = '\'';`, `t = "}`},
			[]int32{0, 0, 0, 0}, []int32{0, 0, 0, 0}, 3},
		{"java text block", "java", []string{`s = """`, `  { \"""`, `  """;`, `}`},
			[]int32{0, 0, 0, -1}, []int32{0, 0, 0, -1}, 2},
		{"go raw string and rune", "go", []string{"s := `{", "}` + string('{')", "}"},
			[]int32{0, 0, -1}, []int32{0, 0, -1}, 1},
		{"java backquote is no string", "java", []string{"a(`{`);"},
			[]int32{0}, []int32{1}, 0},
		{"template literal", "javascript", []string{"s = `{ ${ {a: 1}.a } {", "${ f(() => { return 1; }) }`;", "}"},
			[]int32{0, 0, -1}, []int32{0, 0, -1}, 1},
		{"regex and division", "typescript", []string{"r = /[{}]\\{/g.test(s);", "x = a / b / {c: 1}.c;", "return /}/;", "}"},
			[]int32{0, 0, 0, -1}, []int32{0, 0, 0, -1}, 2},
		{"regex after a word is division", "javascript", []string{"y = x /{a:1}.a/ 2; }"},
			[]int32{0}, []int32{-1}, 0},
		// Words are read by package token's identifier rules: any script.
		{"regex after a non-ASCII word is division", "javascript", []string{"y = größe /{a:1}.a/ 2; }"},
			[]int32{0}, []int32{-1}, 0},
		{"regex flags end at the word", "javascript", []string{"r = /{/gü; {"},
			[]int32{0}, []int32{1}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			br := lexBrackets(tc.lines, 0, tc.language)
			if !slices.Equal(br.start, tc.start) || !slices.Equal(br.end, tc.end) || br.code != tc.code {
				t.Errorf("start %v end %v code %d, want %v %v %d", br.start, br.end, br.code, tc.start, tc.end, tc.code)
			}
		})
	}
	// Rows before from are not read; depths start at 0 on row from.
	br := lexBrackets([]string{"{ {", "a();", "}"}, 1, "go")
	if br.from != 1 || !slices.Equal(br.start, []int32{0, -1}) || !slices.Equal(br.end, []int32{0, -1}) || br.code != 1 {
		t.Errorf("from 1: %+v", br)
	}
}

// line adds a row that holds no statement (a closing brace, a comment).
func (t *tree) line(text string) { t.lines = append(t.lines, text) }

// AppendTarget on hand-built statement trees, where the rows are exactly
// the fixture's: what the brace walk does with each relation.
func TestAppendTargetHandBuilt(t *testing.T) {
	tests := []struct {
		name  string
		build func(t *tree) *lang.File
		preds []string // texts of the target's CF predecessors, sorted
		scope string   // text of the target's scope header, "" for top level
	}{
		{"nested inline ifs in an open method", func(t *tree) *lang.File {
			c := t.st(lang.Class, "class A {")
			f := t.st(lang.Func, "  void f() {")
			ifc := t.st(lang.If, "    if (c)")
			ifd := t.st(lang.If, "      if (d)")
			ifd.Body, ifd.InlineBody = []*lang.Stmt{t.st(lang.Simple, "        g();")}, true
			ifc.Body, ifc.InlineBody = []*lang.Stmt{ifd}, true
			f.Body = []*lang.Stmt{ifc}
			c.Body = []*lang.Stmt{f}
			return t.file("java", c)
		}, []string{"        g();", "      if (d)", "    if (c)"}, "  void f() {"},
		{"loop and method closed", func(t *tree) *lang.File {
			c := t.st(lang.Class, "class A {")
			f := t.st(lang.Func, "  void f() {")
			w := t.st(lang.Loop, "    while (x) {")
			w.Body = []*lang.Stmt{t.st(lang.Simple, "      a();")}
			f.Body = []*lang.Stmt{w}
			c.Body = []*lang.Stmt{f}
			t.line("    }")
			t.line("  }")
			return t.file("java", c)
		}, []string{"  void f() {"}, "class A {"},
		{"loop closed, then code the parser dropped", func(t *tree) *lang.File {
			f := t.st(lang.Func, "void f() {")
			w := t.st(lang.Loop, "  while (x) {")
			w.Body = []*lang.Stmt{t.st(lang.Simple, "    a();")}
			f.Body = []*lang.Stmt{w}
			t.line("  }")
			t.line("  @Deprecated")
			return t.file("java", f)
		}, []string{"    a();"}, "void f() {"},
		{"classic case closed with its switch", func(t *tree) *lang.File {
			f := t.st(lang.Func, "void f() {")
			sw := t.st(lang.Switch, "  switch (x) {")
			cs := t.st(lang.Case, "  case 1:")
			cs.Body = []*lang.Stmt{t.st(lang.Simple, "    a();")}
			sw.Clause().Cases = []*lang.Stmt{cs}
			f.Body = []*lang.Stmt{sw}
			t.line("  }")
			return t.file("java", f)
		}, []string{"    a();", "  switch (x) {"}, "void f() {"},
		{"braced case body closed, switch open", func(t *tree) *lang.File {
			f := t.st(lang.Func, "void f() {")
			sw := t.st(lang.Switch, "  switch (x) {")
			cs := t.st(lang.Case, "  case 1: {")
			cs.Body = []*lang.Stmt{t.st(lang.Simple, "    a();")}
			sw.Clause().Cases = []*lang.Stmt{cs}
			f.Body = []*lang.Stmt{sw}
			t.line("  }")
			return t.file("java", f)
		}, []string{"    a();"}, "void f() {"},
		{"inner block closed", func(t *tree) *lang.File {
			f := t.st(lang.Func, "void f() {")
			run := t.st(lang.Simple, "  run(() -> {")
			run.Clause().Inner = [][]*lang.Stmt{{t.st(lang.Simple, "    a();")}}
			f.Body = []*lang.Stmt{run}
			t.line("  });")
			return t.file("java", f)
		}, []string{"  run(() -> {"}, "void f() {"},
		{"inner block open", func(t *tree) *lang.File {
			f := t.st(lang.Func, "void f() {")
			f.Body = []*lang.Stmt{t.st(lang.Simple, "  run(() -> {")}
			return t.file("java", f)
		}, []string{"  run(() -> {"}, "  run(() -> {"},
		{"try closed", func(t *tree) *lang.File {
			f := t.st(lang.Func, "void f() {")
			try := t.st(lang.Try, "  try {")
			try.Body = []*lang.Stmt{t.st(lang.Simple, "    a();")}
			catch := t.st(lang.Catch, "  } catch (E e) {")
			catch.Body = []*lang.Stmt{t.st(lang.Raise, "    throw e;")}
			try.Clause().Handlers = []*lang.Stmt{catch}
			f.Body = []*lang.Stmt{try}
			t.line("  }")
			return t.file("java", f)
		}, []string{"    a();"}, "void f() {"},
		{"python reads no braces", func(t *tree) *lang.File {
			f := t.st(lang.Func, "def f():")
			ifx := t.st(lang.If, "  if x:")
			ifx.Body = []*lang.Stmt{t.st(lang.Simple, "    a()")}
			f.Body = []*lang.Stmt{ifx}
			t.line("}")
			return t.file("python", f)
		}, []string{"    a()"}, "def f():"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := Build(tc.build(&tree{}))
			id := g.AppendTarget()
			var preds []string
			for _, p := range g.In(id, CF) {
				preds = append(preds, g.Text(p))
			}
			slices.Sort(preds)
			scope := ""
			if s := g.Nodes[id].Scope; s != NoScope {
				scope = g.Text(s)
			}
			if !slices.Equal(preds, tc.preds) || scope != tc.scope {
				var b strings.Builder
				Write(&b, g, "text", nil)
				t.Errorf("target preds %q scope %q, want %q scope %q\n%s", preds, scope, tc.preds, tc.scope, b.String())
			}
		})
	}
}

// The lexer never fails, gives one depth per row, and on text without
// comments or literals (no quote, slash or backquote) counts braces
// exactly as a plain count does.
func FuzzLexBrackets(f *testing.F) {
	f.Add("class A {\n  void f() { /* } */ s = \"}\"; }\n}", 0)
	f.Add("s := `{\n}` + '{'\n}", 1)
	f.Add("x = `${ {a: `}`} }` / 2; r = /[{]/;\n}", 2)
	f.Add("t = \"\"\"\n{\n\"\"\";", 3)
	f.Fuzz(func(t *testing.T, src string, which int) {
		language := [...]string{"java", "go", "javascript", "typescript"}[uint(which)%4]
		lines := lang.SplitLines([]byte(src))
		br := lexBrackets(lines, 0, language)
		if len(br.start) != len(lines) || len(br.end) != len(lines) || br.code < -1 || br.code >= len(lines) {
			t.Fatalf("%d rows: %d starts, %d ends, code row %d", len(lines), len(br.start), len(br.end), br.code)
		}
		if len(lines) == 0 || strings.ContainsAny(src, "\"'`/") {
			return
		}
		want := int32(strings.Count(src, "{") - strings.Count(src, "}"))
		if got := br.end[len(br.end)-1]; got != want {
			t.Errorf("depth at the end %d, want %d", got, want)
		}
	})
}

// TestClosers: the brackets open at the end of a brace-language source,
// innermost first, with none in comments or literals, after the block
// comment the source ends in; nothing for a balanced source, one ending
// in a literal spanning rows, or a language without braces.
func TestClosers(t *testing.T) {
	tests := []struct {
		name, language string
		lines          []string
		want           string
	}{
		{"class and method", "java", []string{"class A {", "  void f() {", "    g();"}, "\n}\n}\n"},
		{"open call and lambda", "java", []string{"class A {", "  void f() {", "    run(() -> {", "      x(a,"}, ")\n})\n}\n}\n"},
		{"array", "go", []string{"var a = []int{", "  f(b[i"}, "])\n}\n"},
		{"brackets in literals and comments", "java", []string{`class A { // {`, `  String s = "{(";`, `  char c = '(';`, `  /* { */`}, "\n}\n"},
		{"balanced", "java", []string{"class A {", "}"}, ""},
		{"in a block comment", "java", []string{"class A {", "  /**", "   * {@code f(}"}, "*/\n}\n"},
		{"in a block comment after code", "go", []string{"func f() {", "\tg(a, /* b"}, "*/)\n}\n"},
		{"balanced, in a block comment", "java", []string{"class A {}", "/*"}, ""},
		{"in a text block", "java", []string{"class A {", `  String s = """`}, ""},
		{"template", "typescript", []string{"const s = `${f({"}, "\n})}`\n"},
		{"in template text", "typescript", []string{"f(`a"}, ""},
		{"python", "python", []string{"def f(", "    a,"}, ""},
	}
	for _, tc := range tests {
		if got := Closers(tc.lines, tc.language); got != tc.want {
			t.Errorf("%s: Closers = %q, want %q", tc.name, got, tc.want)
		}
	}
	deep := []string{strings.Repeat("{", 3*maxClosers)}
	if got := Closers(deep, "java"); strings.Count(got, "}") != maxClosers {
		t.Errorf("closed %d of %d braces, want the innermost %d", strings.Count(got, "}"), 3*maxClosers, maxClosers)
	}
}

// TestOpenComment: where the block comment open at the end of a source
// starts, none when the source ends outside one (a closed comment, a
// line comment, a comment opener inside a literal) or is not in a brace
// language.
func TestOpenComment(t *testing.T) {
	tests := []struct {
		name, language string
		lines          []string
		row, col       int
		ok             bool
	}{
		{"javadoc", "java", []string{"class A {", "  int x;", "  /**", "   * Returns"}, 2, 2, true},
		{"after code on its row", "go", []string{"func f() {", "\tx := 1 /* a", "\tb"}, 1, 8, true},
		{"the last of two", "java", []string{"/* a */", "class A {", "  /* b"}, 2, 2, true},
		{"closed", "java", []string{"class A {", "  /** doc */"}, -1, -1, false},
		{"line comment", "java", []string{"class A {", "  // /*"}, -1, -1, false},
		{"in a string", "java", []string{"class A {", `  String s = "/*";`}, -1, -1, false},
		{"python", "python", []string{`"""`, "doc"}, -1, -1, false},
	}
	for _, tc := range tests {
		row, col, ok := OpenComment(tc.lines, tc.language)
		if row != tc.row || col != tc.col || ok != tc.ok {
			t.Errorf("%s: OpenComment = %d, %d, %v; want %d, %d, %v", tc.name, row, col, ok, tc.row, tc.col, tc.ok)
		}
	}
}

// TestCommentBlocks: the runs of rows holding whole comments only, blank
// rows between them included; a comment begun or ended on a row of code,
// one still open at the end and comment markers inside literals make no
// run; nothing for a language without braces.
func TestCommentBlocks(t *testing.T) {
	tests := []struct {
		name, language string
		lines          []string
		want           [][2]int
	}{
		{"licence and javadoc", "java", []string{"/*", " * licence", " */", "package p;", "", "/** Doc. */", "", "// more", "class A {"},
			[][2]int{{0, 2}, {5, 7}}},
		{"comment after code", "java", []string{"int x; /* a", " b */", "int y;"}, nil},
		{"comment before code", "java", []string{"// a", "/* b", " c */ int z;"}, [][2]int{{0, 0}}},
		{"open at the end", "java", []string{"int x;", "// a", "/** b"}, [][2]int{{1, 1}}},
		{"markers in literals", "java", []string{`String s = "/*";`, `String t = """`, `// not a comment`, `""";`}, nil},
		{"go raw string", "go", []string{"var s = `", "// x", "`", "// y"}, [][2]int{{3, 3}}},
		{"python", "python", []string{"# a", "x = 1"}, nil},
	}
	for _, tc := range tests {
		if got := CommentBlocks(tc.lines, tc.language); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: CommentBlocks = %v, want %v", tc.name, got, tc.want)
		}
	}
}
