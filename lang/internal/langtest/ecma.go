package langtest

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// ecmaStatements become one Stmt of their type on their row.
var ecmaStatements = map[string]bool{
	"import_statement": true, "if_statement": true, "for_statement": true,
	"for_in_statement": true, "while_statement": true, "do_statement": true,
	"switch_statement": true, "switch_case": true, "switch_default": true,
	"try_statement": true, "catch_clause": true, "finally_clause": true,
	"labeled_statement": true, "break_statement": true, "continue_statement": true,
	"return_statement": true, "throw_statement": true, "with_statement": true,
	"debugger_statement": true, "expression_statement": true,
	"class_static_block": true,
}

// ecmaDeclarations become one Stmt of their type on the row of the export
// or declare statements around them.
var ecmaDeclarations = map[string]bool{
	"lexical_declaration": true, "variable_declaration": true,
	"function_declaration": true, "generator_function_declaration": true,
	"function_signature": true, "class_declaration": true,
	"abstract_class_declaration": true, "interface_declaration": true,
	"type_alias_declaration": true, "enum_declaration": true,
	"internal_module": true, "module": true, "import_alias": true,
}

var ecmaMembers = map[string]bool{
	"method_definition": true, "public_field_definition": true, "field_definition": true,
	"abstract_method_signature": true, "method_signature": true, "property_signature": true,
	"index_signature": true, "call_signature": true, "construct_signature": true,
}

// ecmaStatement reports the node types that are complete statements.
func ecmaStatement(typ string) bool {
	return (ecmaStatements[typ] && !strings.HasPrefix(typ, "switch_") && typ != "catch_clause" && typ != "finally_clause" && typ != "class_static_block") ||
		(ecmaDeclarations[typ] && typ != "module") || typ == "export_statement" || typ == "ambient_declaration"
}

// holdsAny reports whether a child of n has a type for which is holds.
func holdsAny(n *sitter.Node, is func(string) bool) bool {
	for i := 0; i < int(n.ChildCount()); i++ {
		if is(n.Child(i).Type()) {
			return true
		}
	}
	return false
}

// outerRow is the row of the outermost export or declare statement whose
// declaration n is.
func outerRow(n *sitter.Node) int {
	row := int(n.StartPoint().Row)
	for p := n.Parent(); p != nil; p = p.Parent() {
		if t := p.Type(); t != "export_statement" && t != "ambient_declaration" {
			break
		}
		row = int(p.StartPoint().Row)
	}
	return row
}

// EcmaRule is the JavaScript and TypeScript mapping seen from the syntax
// tree: statements and declarations (an exported or declared one on the
// row of its export or declare keyword), class and interface members (a
// member's row is that of the decorators before it), enum members; the
// parts of a for header are no statements, and types hold none.
func EcmaRule(v Visit) (string, int, bool, bool) {
	n := v.Node
	typ, row := n.Type(), int(n.StartPoint().Row)
	if n.IsError() {
		// An ERROR node holding complete statements is transparent.
		return "", 0, false, holdsAny(n, ecmaStatement)
	}
	if v.Parent != nil && v.Parent.IsError() && !ecmaStatement(typ) {
		return "", 0, false, false // part of an error run
	}
	if strings.HasSuffix(typ, "_type") || (strings.HasPrefix(typ, "type_") && typ != "type_assertion") {
		return typ, outerRow(n), typ == "type_alias_declaration", false
	}
	p := ""
	if v.Parent != nil {
		p = v.Parent.Type()
	}
	if p == "for_statement" || p == "for_in_statement" {
		switch v.Field {
		case "initializer", "condition", "increment", "left", "right":
			return "", 0, false, true
		}
	}
	switch {
	case typ == "expression_statement":
		if c := n.NamedChild(0); c != nil && c.Type() == "internal_module" {
			return "internal_module", row, true, true
		}
		return typ, row, true, true
	case typ == "internal_module" && p == "expression_statement":
		return "", 0, false, true
	case ecmaDeclarations[typ]:
		return typ, outerRow(n), true, true
	case typ == "export_statement":
		if n.ChildByFieldName("declaration") != nil {
			return "", 0, false, true
		}
		if val := n.ChildByFieldName("value"); val != nil {
			switch val.Type() {
			case "function_expression", "function", "class":
				return "", 0, false, true
			}
		}
		return typ, row, true, true
	case (typ == "function_expression" || typ == "function" || typ == "class") && p == "export_statement" && v.Field == "value":
		return typ, row, true, true
	case typ == "ambient_declaration":
		c := n.NamedChild(0)
		return typ, row, c != nil && c.Type() == "statement_block", true
	case ecmaMembers[typ]:
		if p != "class_body" && p != "interface_body" {
			return "", 0, false, true
		}
		for s := n.PrevNamedSibling(); s != nil && s.Type() == "decorator"; s = s.PrevNamedSibling() {
			row = int(s.StartPoint().Row)
		}
		return typ, row, true, true
	case p == "enum_body" && (typ == "property_identifier" || typ == "enum_assignment"):
		return typ, row, true, true
	}
	return typ, row, ecmaStatements[typ], true
}
