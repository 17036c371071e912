package java

import (
	"context"
	"errors"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"

	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

// kind classifies grammar symbols for the mapping. Every tree-sitter symbol
// is resolved to a kind once, at package init, so the walk never compares
// type strings.
type kind uint8

const (
	kOther kind = iota
	kError
	kComment
	kIdent
	kThis
	kSuper
	kSkip // a subtree with no statements and no uses: types, literals, annotations

	// Tokens.
	kDot
	kColon
	kSemi
	kAssign   // =
	kCompound // += -= ...
	kIncDec   // ++ --
	kArrow    // ->
	kElse
	kWhile
	kDefault
	kLParen
	kRParen
	kLBrace

	// Containers whose children are statements.
	kBlock
	kClassBody
	kEnumBody
	kEnumBodyDecls
	kModuleBody

	// Simple statements.
	kExprStmt
	kLocalVar
	kField
	kEnumConst
	kSimpleStmt // assert, explicit constructor call, module directives, ...
	kPackage
	kImport
	kReturn
	kThrow
	kBreak
	kContinue
	kYield

	// Compound statements.
	kIf
	kWhileStmt
	kFor
	kForEach
	kDo
	kSwitch
	kSwitchBlock
	kSwitchGroup
	kSwitchRule
	kSwitchLabel
	kTry
	kCatch
	kFinally
	kResourceSpec
	kResource
	kSync
	kLabeled
	kClass
	kModule
	kMethod
	kCtor
	kCompactCtor
	kStaticInit

	// Expressions and parts with special def/use rules.
	kDeclarator
	kAssignExpr
	kUpdateExpr
	kFieldAccess
	kArrayAccess
	kCall
	kMethodRef
	kLambda
	kNew
	kInstanceof
	kTypePattern
	kRecordPattern
	kRecordComponent
	kParams // formal_parameters, inferred_parameters
	kParam  // formal_parameter, spread_parameter, receiver_parameter
	kCatchParam
	kParenExpr
	kScopedIdent
	kExplicitCtor
	kAsterisk
	kArgs
	kPattern
	kGuard
)

var kindByName = map[string]kind{
	"ERROR":         kError,
	"line_comment":  kComment,
	"block_comment": kComment,
	"identifier":    kIdent,
	"this":          kThis,
	"super":         kSuper,

	".": kDot, ":": kColon, ";": kSemi, "=": kAssign, "++": kIncDec, "--": kIncDec,
	"->": kArrow, "else": kElse, "while": kWhile, "default": kDefault,
	"(": kLParen, ")": kRParen, "{": kLBrace,
	"+=": kCompound, "-=": kCompound, "*=": kCompound, "/=": kCompound,
	"&=": kCompound, "|=": kCompound, "^=": kCompound, "%=": kCompound,
	"<<=": kCompound, ">>=": kCompound, ">>>=": kCompound,

	"block":                  kBlock,
	"constructor_body":       kBlock,
	"class_body":             kClassBody,
	"interface_body":         kClassBody,
	"annotation_type_body":   kClassBody,
	"enum_body":              kEnumBody,
	"enum_body_declarations": kEnumBodyDecls,
	"module_body":            kModuleBody,

	"expression_statement":                kExprStmt,
	"local_variable_declaration":          kLocalVar,
	"field_declaration":                   kField,
	"constant_declaration":                kField,
	"enum_constant":                       kEnumConst,
	"assert_statement":                    kSimpleStmt,
	"explicit_constructor_invocation":     kExplicitCtor,
	"annotation_type_element_declaration": kEnumConst,
	"requires_module_directive":           kSimpleStmt,
	"exports_module_directive":            kSimpleStmt,
	"opens_module_directive":              kSimpleStmt,
	"uses_module_directive":               kSimpleStmt,
	"provides_module_directive":           kSimpleStmt,
	"package_declaration":                 kPackage,
	"import_declaration":                  kImport,
	"return_statement":                    kReturn,
	"throw_statement":                     kThrow,
	"break_statement":                     kBreak,
	"continue_statement":                  kContinue,
	"yield_statement":                     kYield,

	"if_statement":                    kIf,
	"while_statement":                 kWhileStmt,
	"for_statement":                   kFor,
	"enhanced_for_statement":          kForEach,
	"do_statement":                    kDo,
	"switch_expression":               kSwitch,
	"switch_block":                    kSwitchBlock,
	"switch_block_statement_group":    kSwitchGroup,
	"switch_rule":                     kSwitchRule,
	"switch_label":                    kSwitchLabel,
	"try_statement":                   kTry,
	"try_with_resources_statement":    kTry,
	"catch_clause":                    kCatch,
	"finally_clause":                  kFinally,
	"resource_specification":          kResourceSpec,
	"resource":                        kResource,
	"synchronized_statement":          kSync,
	"labeled_statement":               kLabeled,
	"class_declaration":               kClass,
	"interface_declaration":           kClass,
	"enum_declaration":                kClass,
	"record_declaration":              kClass,
	"annotation_type_declaration":     kClass,
	"module_declaration":              kModule,
	"method_declaration":              kMethod,
	"constructor_declaration":         kCtor,
	"compact_constructor_declaration": kCompactCtor,
	"static_initializer":              kStaticInit,

	"variable_declarator":        kDeclarator,
	"assignment_expression":      kAssignExpr,
	"update_expression":          kUpdateExpr,
	"field_access":               kFieldAccess,
	"array_access":               kArrayAccess,
	"method_invocation":          kCall,
	"method_reference":           kMethodRef,
	"lambda_expression":          kLambda,
	"object_creation_expression": kNew,
	"instanceof_expression":      kInstanceof,
	"type_pattern":               kTypePattern,
	"record_pattern":             kRecordPattern,
	"record_pattern_component":   kRecordComponent,
	"formal_parameters":          kParams,
	"inferred_parameters":        kParams,
	"formal_parameter":           kParam,
	"spread_parameter":           kParam,
	"receiver_parameter":         kParam,
	"catch_formal_parameter":     kCatchParam,
	"parenthesized_expression":   kParenExpr,
	"scoped_identifier":          kScopedIdent,
	"asterisk":                   kAsterisk,
	"argument_list":              kArgs,
	"pattern":                    kPattern,
	"guard":                      kGuard,

	// Subtrees that hold neither statements nor reads of variables. Their
	// children are never visited, which also keeps the walk cheap.
	"modifiers": kSkip, "marker_annotation": kSkip, "annotation": kSkip,
	"type_identifier": kSkip, "scoped_type_identifier": kSkip, "generic_type": kSkip,
	"array_type": kSkip, "integral_type": kSkip, "floating_point_type": kSkip,
	"boolean_type": kSkip, "void_type": kSkip, "annotated_type": kSkip,
	"type_arguments": kSkip, "type_parameters": kSkip, "dimensions": kSkip,
	"superclass": kSkip, "super_interfaces": kSkip, "extends_interfaces": kSkip,
	"permits": kSkip, "throws": kSkip, "catch_type": kSkip, "wildcard": kSkip,
	"string_literal": kSkip, "character_literal": kSkip, "class_literal": kSkip,
	"decimal_integer_literal": kSkip, "hex_integer_literal": kSkip,
	"octal_integer_literal": kSkip, "binary_integer_literal": kSkip,
	"decimal_floating_point_literal": kSkip, "hex_floating_point_literal": kSkip,
	"true": kSkip, "false": kSkip, "null_literal": kSkip,
}

// symbols maps a grammar symbol to its kind and name.
type symbolInfo struct {
	kind  kind
	named bool
	name  string
}

const errorSymbol = tsflat.ErrorSymbol

var (
	language *sitter.Language
	symbols  []symbolInfo
)

func init() {
	language = java.GetLanguage()
	n := language.SymbolCount()
	symbols = make([]symbolInfo, n)
	for i := uint32(0); i < n; i++ {
		name := language.SymbolName(sitter.Symbol(i))
		named := language.SymbolType(sitter.Symbol(i)) == sitter.SymbolTypeRegular
		symbols[i] = symbolInfo{kind: kindByName[name], named: named, name: name}
	}
	// Neither the outline nor the statement mapping reads inside a string
	// literal that holds no syntax error (flatten skips the children of
	// kSkip nodes): its escape sequences and fragments, most of the
	// records of a resource bundle, are not copied out of the tree.
	tsflat.Prune(language, "string_literal")
}

func symbolOf(sym uint16) symbolInfo {
	if sym == errorSymbol {
		return symbolInfo{kind: kError, named: true, name: "ERROR"}
	}
	if int(sym) < len(symbols) {
		return symbols[sym]
	}
	return symbolInfo{}
}

// node is a syntax node copied out of tree-sitter into a flat array, so the
// mapping runs on plain Go memory instead of crossing into C for every
// question it asks of a node. Its first child, if it has one, is the node
// after it (builder.first). It is the size of a tsflat.Node and holds no
// pointer, so that flatten writes the nodes over the records it reads
// them from: a large file's records and nodes are never both in memory.
type node struct {
	kind     kind
	flags    uint8 // nodeMissing, nodeHasChild
	sym      uint16
	startRow int32
	endRow   int32 // last row holding a byte of the node
	start    uint32
	end      uint32
	next     int32 // next sibling, or -1
}

// Flags of a node.
const (
	nodeMissing  = 1 << iota // a zero-width node inserted by error recovery
	nodeHasChild             // the node has children: its first is the next node
)

// errLayout is set when node and tsflat.Node differ in size or
// alignment, which would make writing nodes over records unsafe; Parse
// then refuses to run.
var errLayout = func() error {
	if unsafe.Sizeof(node{}) != unsafe.Sizeof(tsflat.Node{}) || unsafe.Alignof(node{}) > unsafe.Alignof(tsflat.Node{}) {
		return errors.New("internal error: syntax node layout mismatch")
	}
	return nil
}()

// rowsOfChildren marks the nodes whose header rows are measured from their
// children's rows, including tokens such as ')' or 'else'.
var rowsOfChildren = [...]bool{
	kFor: true, kForEach: true, kWhileStmt: true, kIf: true, kDo: true,
	kLabeled: true, kSwitchGroup: true, kSwitchRule: true, kCatch: true,
	kTry: true, kFinally: true, kClass: true, kModule: true, kMethod: true,
	kCtor: true, kCompactCtor: true, kSync: true, kStaticInit: true,
}

func needsChildRows(k kind) bool { return int(k) < len(rowsOfChildren) && rowsOfChildren[k] }

// flatten copies the syntax tree, given as tsflat records, into nodes in
// pre-order. The children of kSkip nodes are left out (except when they
// hide a syntax error), comments are dropped. It checks ctx every few
// thousand nodes.
//
// The rows and ends it records are what the mapping reads, no more: rows of
// named nodes; rows of tokens and names only under headers whose rows are
// measured from them (elsewhere a token gets its parent's start row); the
// end of a name found by scanning the source. When the tree holds syntax
// errors every node gets its own rows and ends, since recovery breaks these
// shortcuts (zero-width tokens, names cut short).
//
// The nodes are written over the records, which are lost (flat must not
// be read afterwards): at most one node is made per record and records
// are visited in increasing order, so node k is written over record k
// or one before it, once that record is read. The records of the
// ancestors of the record being visited are behind it, so the walk keeps
// what it needs of them (their next sibling) on its own stack.
//
// marks, ascending record indexes, are replaced by the indexes of the
// nodes made of them, or of the first node made after them when none
// is (a comment, a record inside a pruned subtree), or len(nodes).
func flatten(ctx context.Context, flat []tsflat.Node, src []byte, marks []int32) ([]node, error) {
	if errLayout != nil {
		return nil, errLayout
	}
	nodes := unsafe.Slice((*node)(unsafe.Pointer(unsafe.SliceData(flat))), cap(flat))[:0]
	marked := 0
	defer func() {
		for ; marked < len(marks); marked++ {
			marks[marked] = int32(len(nodes))
		}
	}()
	if len(flat) == 0 {
		return nodes, nil
	}
	broken := flat[0].Flags&tsflat.HasError != 0

	// last[d] is the most recent node at depth d, to link siblings;
	// upNext[d] the next sibling of the record whose children are being
	// visited at depth d (the records hold no parents).
	last := make([]int32, 0, 64)
	upNext := make([]int32, 1, 64)
	depth := 0
	i := int32(0)
	for {
		for ; marked < len(marks) && marks[marked] <= i; marked++ {
			marks[marked] = int32(len(nodes))
		}
		rec := flat[i] // a copy: node len(nodes) may be written over it
		n := &rec
		info := symbolOf(n.Sym)
		keep := info.kind != kComment
		descend := false
		if keep {
			idx := int32(len(nodes))
			nd := node{kind: info.kind, sym: n.Sym, next: -1}
			parent := int32(-1)
			if depth > 0 {
				parent = last[depth-1]
			}
			leaf := !info.named || info.kind == kIdent || info.kind == kThis || info.kind == kSuper
			switch {
			case broken || !leaf:
				// A node that ends with a newline has its last byte on
				// the row before.
				nd.startRow, nd.endRow = int32(n.StartRow), int32(tsflat.LastRow(n, src))
				if broken && n.StartByte == n.EndByte && n.Flags&tsflat.Missing != 0 {
					nd.flags |= nodeMissing
				}
			case parent < 0 || needsChildRows(nodes[parent].kind):
				nd.startRow = int32(n.StartRow)
				nd.endRow = nd.startRow
			default:
				nd.startRow = nodes[parent].startRow
				nd.endRow = nd.startRow
			}
			switch info.kind {
			case kIdent, kThis, kSuper:
				nd.start = n.StartByte
				if broken {
					nd.end = n.EndByte
				} else {
					nd.end = nameEnd(src, nd.start)
				}
			case kFieldAccess:
				nd.start, nd.end = n.StartByte, n.EndByte
			}
			nodes = append(nodes, nd)
			if depth < len(last) {
				if p := last[depth]; p >= 0 {
					nodes[p].next = idx
				}
				last[depth] = idx
			} else {
				last = append(last, idx)
			}
			if parent >= 0 && nodes[parent].flags&nodeHasChild == 0 {
				// A node's first child is made right after it (the
				// walk is in pre-order).
				nodes[parent].flags |= nodeHasChild
			}
			descend = !leaf && (info.kind != kSkip || (broken && n.Flags&tsflat.HasError != 0))
			if broken && !info.named {
				descend = true
			}
		}
		// A record's first child is the record after it.
		if descend && n.Flags&tsflat.HasChild != 0 && int(i)+1 < len(flat) {
			upNext = append(upNext[:depth+1], n.Next)
			i++
			depth++
			if depth < len(last) {
				last[depth] = -1
			}
			continue
		}
		next := n.Next
		for next < 0 || int(next) >= len(flat) {
			if depth == 0 {
				return nodes, nil
			}
			next = upNext[depth]
			depth--
		}
		i = next
		if len(nodes)&0xFFF == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
}

// nameEnd returns the end offset of the identifier (or this/super) that
// starts at start: Java identifiers are letters, digits, '_' and '$', and
// any non-ASCII byte belongs to a Unicode letter in well-formed source.
func nameEnd(src []byte, start uint32) uint32 {
	i := start
	for int(i) < len(src) {
		c := src[i]
		if c >= 0x80 || c == '_' || c == '$' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') {
			i++
			continue
		}
		break
	}
	return i
}
