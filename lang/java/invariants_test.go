package java

import (
	"fmt"
	"slices"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang"
)

// rowErrors checks the row invariants of a statement tree and returns the
// violations:
//   - every statement has 0 <= StartRow <= EndRow < len(Lines);
//   - statements never overlap by more than one row: listed in lang.Walk
//     order (source pre-order), each statement starts on or after the row
//     where the previous one ends (prev.EndRow <= next.StartRow). So two
//     statements share a row only when one ends and the next begins on
//     it, as in `a(); b();`, `if (x) y();`, or a one-line lambda body;
//   - Defs, Uses and Params are sorted and free of duplicates and empty names;
//   - kind-specific parts only appear on the kinds that own them.
func rowErrors(f *lang.File) []string {
	var errs []string
	bad := func(s *lang.Stmt, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s %s %d-%d: %s", s.Kind, s.Type, s.StartRow+1, s.EndRow+1, fmt.Sprintf(format, args...)))
	}
	var prev *lang.Stmt
	lang.Walk(f.Stmts, func(s *lang.Stmt) {
		if s.StartRow < 0 || s.EndRow >= len(f.Lines) || s.StartRow > s.EndRow {
			bad(s, "rows out of range (%d lines)", len(f.Lines))
		}
		if prev != nil && prev.EndRow > s.StartRow {
			bad(s, "starts before the previous statement %s %s %d-%d ends", prev.Kind, prev.Type, prev.StartRow+1, prev.EndRow+1)
		}
		prev = s
		if s.Type == "" {
			bad(s, "no type")
		}
		for _, names := range [][]string{s.Defs, s.Uses, s.Params} {
			for i, n := range names {
				if n == "" || (i > 0 && names[i-1] >= n) {
					bad(s, "names not a sorted set: %q", names)
					break
				}
			}
		}
		if s.Cond != nil && s.Kind != lang.Do {
			bad(s, "Cond on a %s", s.Kind)
		}
		if s.Kind == lang.Do && (s.Cond == nil || s.Cond.Kind != lang.DoCond) && s.Cond != nil {
			bad(s, "Do without DoCond")
		}
		if len(s.Cases) > 0 && s.Kind != lang.Switch {
			bad(s, "Cases on a %s", s.Kind)
		}
		for _, c := range s.Cases {
			if c.Kind != lang.Case {
				bad(s, "case of kind %s", c.Kind)
			}
		}
		for _, h := range s.Handlers {
			if h.Kind != lang.Catch {
				bad(s, "handler of kind %s", h.Kind)
			}
		}
		if s.Else != nil && s.Kind == lang.If && s.Else.Kind != lang.Else && s.Else.Kind != lang.If {
			bad(s, "else of kind %s", s.Else.Kind)
		}
		for _, in := range s.Inner {
			if len(in) == 0 {
				bad(s, "empty inner block")
			}
		}
	})
	return errs
}

func checkInvariants(t *testing.T, f *lang.File) {
	t.Helper()
	errs := rowErrors(f)
	for i, e := range errs {
		if i == 10 {
			t.Errorf("%s: ... %d more", f.Path, len(errs)-10)
			break
		}
		t.Errorf("%s: %s", f.Path, e)
	}
}

// statementTypes are the grammar nodes that each become exactly one Stmt of
// the same type starting on the same row (exceptions in coverageErrors).
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

type typeRow struct {
	typ string
	row int
}

// coverageErrors checks, independently of the builder's walk, that every
// statement node of the syntax tree maps to exactly one Stmt with its type
// and start row, unless it lies inside an ERROR node. Exceptions: the
// declaration in a classic for's init is part of the loop header; an
// expression statement that only wraps a switch becomes the Switch; a
// block directly in a class body is an instance initializer (a Func of
// type "block").
func coverageErrors(root *sitter.Node, f *lang.File) []string {
	want := map[typeRow]int{}
	var visit func(n *sitter.Node, parent string)
	visit = func(n *sitter.Node, parent string) {
		typ := n.Type()
		if n.IsError() {
			return
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
		if count {
			want[typeRow{typ, int(n.StartPoint().Row)}]++
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			visit(n.Child(i), typ)
		}
	}
	visit(root, "")

	got := map[typeRow]int{}
	lang.Walk(f.Stmts, func(s *lang.Stmt) {
		switch s.Kind {
		case lang.Error, lang.Else, lang.DoCond:
			return
		}
		if s.Type == "ERROR" {
			return
		}
		got[typeRow{s.Type, s.StartRow}]++
	})
	var errs []string
	for k, w := range want {
		if got[k] != w {
			errs = append(errs, fmt.Sprintf("%s at line %d: %d syntax nodes, %d statements", k.typ, k.row+1, w, got[k]))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			errs = append(errs, fmt.Sprintf("%s at line %d: %d statements, no syntax node", k.typ, k.row+1, g))
		}
	}
	slices.Sort(errs)
	return errs
}
