package golang

import (
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/internal/realcode"
	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// statementTypes become exactly one Stmt of the same type on the same row,
// unless goRule says otherwise.
var statementTypes = map[string]bool{
	"package_clause": true, "function_declaration": true, "method_declaration": true,
	"expression_statement": true, "assignment_statement": true,
	"short_var_declaration": true, "inc_statement": true, "dec_statement": true,
	"send_statement": true, "return_statement": true, "go_statement": true,
	"defer_statement": true, "goto_statement": true, "break_statement": true,
	"continue_statement": true, "fallthrough_statement": true,
	"labeled_statement": true, "if_statement": true, "for_statement": true,
	"expression_switch_statement": true, "type_switch_statement": true,
	"select_statement": true, "expression_case": true, "type_case": true,
	"default_case": true, "communication_case": true,
}

// grouped reports a declaration written with parentheses.
func grouped(n *sitter.Node) bool {
	return langtest.HasChild(n, "(") || langtest.HasChild(n, "var_spec_list") || langtest.HasChild(n, "import_spec_list")
}

// goRule is the Go mapping seen from the syntax tree: statements in a
// header (init and post statements, comm clauses) are part of it;
// ungrouped declarations are one statement, grouped ones one per spec;
// the fields and methods of a declared struct or interface type are
// statements of their own.
func goRule(v langtest.Visit) (string, int, bool, bool) {
	n := v.Node
	typ, row := n.Type(), int(n.StartPoint().Row)
	if n.IsError() {
		return "", 0, false, false
	}
	switch v.Field {
	case "initializer", "update", "communication":
		return "", 0, false, true
	}
	if (strings.HasSuffix(typ, "_type") && typ != "struct_type" && typ != "interface_type") || typ == "type_arguments" {
		// Types hold no statements: a function literal in an array
		// length is part of the type's declaration.
		return "", 0, false, false
	}
	switch typ {
	case "import_declaration", "const_declaration", "var_declaration", "type_declaration":
		return typ, row, !grouped(n), true
	case "import_spec", "const_spec", "var_spec", "type_spec", "type_alias":
		p := v.Parent.Type()
		return typ, row, p == "import_spec_list" || p == "var_spec_list" || (p != "var_declaration" && p != "import_declaration" && grouped(v.Parent)), true
	case "field_declaration", "method_elem", "type_elem":
		// Members of a declared type: struct_type > field_declaration_list >
		// field_declaration, or interface_type > method_elem.
		owner := v.Parent
		if owner.Type() == "field_declaration_list" {
			owner = owner.Parent()
		}
		declared := owner != nil && owner.Parent() != nil && owner.Parent().Type() == "type_spec"
		return typ, row, declared, true
	}
	return typ, row, statementTypes[typ], true
}

// TestGoRootProperties parses a sample of the Go standard library (400
// files of $(go env GOROOT)/src, 100 with -short, GRAPHCODER_SAMPLE=0 for
// every file) and checks the row invariants and that every statement node
// maps to exactly one statement.
func TestGoRootProperties(t *testing.T) {
	dir := realcode.GoSrc()
	if dir == "" {
		t.Skip("no Go installation found")
	}
	files := realcode.Sample(realcode.Files(dir, []string{".go"}), langtest.SampleSize(400, 100))
	langtest.Properties(t, NewParser(), func(string) *sitter.Language { return grammar.Lang }, goRule, files)
}

// BenchmarkRatio measures the front end against tree-sitter's parse alone
// on a fixed sample of 200 GOROOT/src files.
func BenchmarkRatio(b *testing.B) {
	dir := realcode.GoSrc()
	if dir == "" {
		b.Skip("no Go installation found")
	}
	files := realcode.Sample(realcode.Files(dir, []string{".go"}), 200)
	langtest.BenchRatio(b, NewParser(), func(string) *sitter.Language { return grammar.Lang }, files)
}
