package java

import (
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

func checkInvariants(t *testing.T, f *lang.File) { langtest.CheckInvariants(t, f) }

// statementTypes are the grammar nodes that each become exactly one Stmt of
// the same type starting on the same row (exceptions in javaRule).
var statementTypes = map[string]bool{
	"expression_statement": true, "local_variable_declaration": true,
	"field_declaration": true, "constant_declaration": true, "enum_constant": true,
	"assert_statement": true, "explicit_constructor_invocation": true,
	"package_declaration": true, "import_declaration": true,
	"return_statement": true, "throw_statement": true, "break_statement": true,
	"continue_statement": true, "yield_statement": true,
	"if_statement": true, "while_statement": true, "for_statement": true,
	"enhanced_for_statement": true, "do_statement": true, "switch_expression": true,
	"switch_block_statement_group": true, "switch_rule": true,
	"try_statement": true, "try_with_resources_statement": true,
	"catch_clause": true, "finally_clause": true, "synchronized_statement": true,
	"labeled_statement": true, "class_declaration": true,
	"interface_declaration": true, "enum_declaration": true,
	"record_declaration": true, "annotation_type_declaration": true,
	"annotation_type_element_declaration": true, "module_declaration": true,
	"method_declaration": true, "constructor_declaration": true,
	"compact_constructor_declaration": true, "static_initializer": true,
	"requires_module_directive": true, "exports_module_directive": true,
	"opens_module_directive": true, "uses_module_directive": true,
	"provides_module_directive": true,
}

// javaRule is the Java mapping seen from the syntax tree: every statement
// node maps to exactly one Stmt with its type and start row, unless it lies
// inside an ERROR node. Exceptions: the declaration in a classic for's init
// is part of the loop header; an expression statement that only wraps a
// switch becomes the Switch; a block directly in a class body is an
// instance initializer (a Func of type "block").
func javaRule(v langtest.Visit) (string, int, bool, bool) {
	n := v.Node
	if n.IsError() {
		return "", 0, false, false
	}
	typ, parent := n.Type(), ""
	if v.Parent != nil {
		parent = v.Parent.Type()
	}
	count := statementTypes[typ]
	switch {
	case typ == "local_variable_declaration" && parent == "for_statement":
		count = false
	case typ == "expression_statement" && n.NamedChildCount() > 0 && n.NamedChild(0).Type() == "switch_expression":
		count = false
	case typ == "block" && (parent == "class_body" || parent == "enum_body_declarations"):
		count = true
	}
	return typ, int(n.StartPoint().Row), count, true
}

func coverageErrors(root *sitter.Node, f *lang.File) []string {
	return langtest.CoverageErrors(root, f, javaRule)
}
