package ecma

import (
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang/internal/frontend"
)

// Kinds of grammar symbols. The JavaScript, TypeScript and TSX grammars
// share their node names, so one table serves all three.
const (
	kOther uint8 = iota
	kError
	kSkip // types, literals, names that are no variables: no statements, no reads

	// Tokens.
	kColon
	kRParen
	kLBrace
	kWhile
	kStar

	// Containers.
	kProgram
	kBlock
	kClassBody
	kInterfaceBody
	kEnumBody
	kSwitchBody

	// Statements and declarations.
	kExprStmt
	kVarDecl
	kDeclarator
	kFuncDecl
	kFuncSig
	kClassDecl
	kInterface
	kTypeAlias
	kEnum
	kNamespace
	kAmbient
	kImport
	kImportAlias
	kExport
	kIf
	kElseClause
	kFor
	kForIn
	kWhileStmt
	kDo
	kSwitch
	kCase
	kDefault
	kTry
	kCatch
	kFinally
	kLabeled
	kBreak
	kContinue
	kReturn
	kThrow
	kEmpty
	kWith
	kHashBang

	// Class and interface members.
	kMethod
	kField
	kStaticBlock
	kSignature
	kDecorator
	kEnumAssign
	kAccessibility
	kHeritage
	kExtends

	// Expressions and parts with their own rules.
	kIdent
	kThis
	kSuper
	kPropIdent
	kPrivateProp
	kTypeIdent
	kMember
	kSubscript
	kArrow
	kFuncExpr
	kClassExpr
	kAssignExpr
	kAugAssign
	kUpdate
	kObject
	kPair
	kShorthandProp
	kComputedName
	kObjectPattern
	kArrayPattern
	kPairPattern
	kAssignPattern
	kObjAssignPattern
	kRestPattern
	kShorthandPattern
	kParams
	kParam
	kParen
	kNonNull
	kAs
	kJSXElement
	kJSXOpen
	kJSXClose
	kJSXAttr
	kNestedIdent
	kString
	kImportClause
	kNamespaceImport
	kNamedImports
	kImportSpec
	kRequireClause
	kExportClause
	kExportSpec
)

var kindByName = map[string]uint8{
	"':": kColon, "')": kRParen, "'{": kLBrace, "'while": kWhile, "'*": kStar,

	"program":         kProgram,
	"statement_block": kBlock,
	"class_body":      kClassBody,
	"interface_body":  kInterfaceBody,
	"object_type":     kInterfaceBody, // an interface body in older grammars; skipped elsewhere
	"enum_body":       kEnumBody,
	"switch_body":     kSwitchBody,

	"expression_statement":                  kExprStmt,
	"lexical_declaration":                   kVarDecl,
	"variable_declaration":                  kVarDecl,
	"variable_declarator":                   kDeclarator,
	"function_declaration":                  kFuncDecl,
	"generator_function_declaration":        kFuncDecl,
	"function_signature":                    kFuncSig,
	"class_declaration":                     kClassDecl,
	"abstract_class_declaration":            kClassDecl,
	"interface_declaration":                 kInterface,
	"type_alias_declaration":                kTypeAlias,
	"enum_declaration":                      kEnum,
	"internal_module":                       kNamespace,
	"module":                                kNamespace,
	"ambient_declaration":                   kAmbient,
	"import_statement":                      kImport,
	"import_alias":                          kImportAlias,
	"export_statement":                      kExport,
	"if_statement":                          kIf,
	"else_clause":                           kElseClause,
	"for_statement":                         kFor,
	"for_in_statement":                      kForIn,
	"while_statement":                       kWhileStmt,
	"do_statement":                          kDo,
	"switch_statement":                      kSwitch,
	"switch_case":                           kCase,
	"switch_default":                        kDefault,
	"try_statement":                         kTry,
	"catch_clause":                          kCatch,
	"finally_clause":                        kFinally,
	"labeled_statement":                     kLabeled,
	"break_statement":                       kBreak,
	"continue_statement":                    kContinue,
	"return_statement":                      kReturn,
	"throw_statement":                       kThrow,
	"empty_statement":                       kEmpty,
	"with_statement":                        kWith,
	"hash_bang_line":                        kHashBang,
	"method_definition":                     kMethod,
	"public_field_definition":               kField,
	"field_definition":                      kField,
	"class_static_block":                    kStaticBlock,
	"abstract_method_signature":             kSignature,
	"method_signature":                      kSignature,
	"property_signature":                    kSignature,
	"index_signature":                       kSignature,
	"call_signature":                        kSignature,
	"construct_signature":                   kSignature,
	"decorator":                             kDecorator,
	"enum_assignment":                       kEnumAssign,
	"accessibility_modifier":                kAccessibility,
	"class_heritage":                        kHeritage,
	"extends_clause":                        kExtends,
	"identifier":                            kIdent,
	"this":                                  kThis,
	"super":                                 kSuper,
	"property_identifier":                   kPropIdent,
	"private_property_identifier":           kPrivateProp,
	"type_identifier":                       kTypeIdent,
	"member_expression":                     kMember,
	"subscript_expression":                  kSubscript,
	"arrow_function":                        kArrow,
	"function_expression":                   kFuncExpr,
	"function":                              kFuncExpr,
	"generator_function":                    kFuncExpr,
	"class":                                 kClassExpr,
	"assignment_expression":                 kAssignExpr,
	"augmented_assignment_expression":       kAugAssign,
	"update_expression":                     kUpdate,
	"object":                                kObject,
	"pair":                                  kPair,
	"shorthand_property_identifier":         kShorthandProp,
	"computed_property_name":                kComputedName,
	"object_pattern":                        kObjectPattern,
	"array_pattern":                         kArrayPattern,
	"pair_pattern":                          kPairPattern,
	"assignment_pattern":                    kAssignPattern,
	"object_assignment_pattern":             kObjAssignPattern,
	"rest_pattern":                          kRestPattern,
	"shorthand_property_identifier_pattern": kShorthandPattern,
	"formal_parameters":                     kParams,
	"required_parameter":                    kParam,
	"optional_parameter":                    kParam,
	"parenthesized_expression":              kParen,
	"non_null_expression":                   kNonNull,
	"as_expression":                         kAs,
	"satisfies_expression":                  kAs,
	"jsx_element":                           kJSXElement,
	"jsx_opening_element":                   kJSXOpen,
	"jsx_self_closing_element":              kJSXOpen,
	"jsx_closing_element":                   kJSXClose,
	"jsx_attribute":                         kJSXAttr,
	"nested_identifier":                     kNestedIdent,
	"string":                                kString,
	"import_clause":                         kImportClause,
	"namespace_import":                      kNamespaceImport,
	"named_imports":                         kNamedImports,
	"import_specifier":                      kImportSpec,
	"import_require_clause":                 kRequireClause,
	"export_clause":                         kExportClause,
	"export_specifier":                      kExportSpec,

	// Subtrees that hold no statements and read no variables.
	"comment": kSkip, "html_comment": kSkip, "statement_identifier": kSkip,
	"number": kSkip, "regex": kSkip, "true": kSkip, "false": kSkip, "null": kSkip,
	"undefined": kSkip, "string_fragment": kSkip, "escape_sequence": kSkip,
	"meta_property": kSkip, "import": kSkip, "optional_chain": kSkip,
	"jsx_text": kSkip, "jsx_namespace_name": kSkip, "html_character_reference": kSkip,
	"glimmer_template": kSkip, "override_modifier": kSkip,
	"implements_clause": kSkip, "extends_type_clause": kSkip,
	"type_annotation": kSkip, "type_arguments": kSkip, "type_parameters": kSkip,
	"type_parameter": kSkip, "predefined_type": kSkip, "generic_type": kSkip,
	"union_type": kSkip, "intersection_type": kSkip, "array_type": kSkip,
	"tuple_type": kSkip, "function_type": kSkip, "constructor_type": kSkip,
	"conditional_type": kSkip, "infer_type": kSkip, "index_type_query": kSkip,
	"lookup_type": kSkip, "literal_type": kSkip, "mapped_type_clause": kSkip,
	"nested_type_identifier": kSkip, "optional_type": kSkip, "rest_type": kSkip,
	"parenthesized_type": kSkip, "readonly_type": kSkip, "template_literal_type": kSkip,
	"template_type": kSkip, "this_type": kSkip, "type_predicate": kSkip,
	"type_predicate_annotation": kSkip, "type_query": kSkip, "asserts": kSkip,
	"asserts_annotation": kSkip, "omitting_type_annotation": kSkip,
	"adding_type_annotation": kSkip, "opting_type_annotation": kSkip,
	"existential_type": kSkip, "flow_maybe_type": kSkip, "constraint": kSkip,
	"default_type": kSkip,
}

// fieldIDs are the grammar's ids of the fields the mapping reads; they
// differ between grammars.
type fieldIDs struct {
	alternative, argument, body, condition, consequence, declaration,
	finalizer, handler, increment, initializer, label, left, name, object,
	parameter, parameters, pattern, property, right, source, value, typ,
	index, key, function, constructor, alias, returnType uint16
}

// cut proposes where a large file may be parsed in pieces
// (tsflat.ParseFlat): before a declaration in the file or in the block
// that holds the most, after a statement's end (a line ending in ';',
// '{' or '}': a declaration keyword cannot continue an expression, so
// the line before ends there).
var cut = frontend.BlockCutter(frontend.Lexis{Backtick: true}, frontend.LineStarts(
	[]string{"function", "class", "export", "const", "let", "var", "async", "interface",
		"type", "enum", "import", "declare", "abstract", "namespace", "module"}, nil, ";{}"))

// Grammar is one of the JavaScript, TypeScript and TSX grammars with its
// symbols resolved for the mapping.
type Grammar struct {
	g *frontend.Grammar
	f fieldIDs
}

// NewGrammar resolves the symbols and fields of a grammar.
func NewGrammar(l *sitter.Language) *Grammar {
	g := frontend.NewGrammar(l, kindByName, kError)
	g.Cut = cut
	return &Grammar{g: g, f: fieldIDs{
		alternative: g.Field("alternative"), argument: g.Field("argument"),
		body: g.Field("body"), condition: g.Field("condition"),
		consequence: g.Field("consequence"), declaration: g.Field("declaration"),
		finalizer: g.Field("finalizer"), handler: g.Field("handler"),
		increment: g.Field("increment"), initializer: g.Field("initializer"),
		label: g.Field("label"), left: g.Field("left"), name: g.Field("name"),
		object: g.Field("object"), parameter: g.Field("parameter"),
		parameters: g.Field("parameters"), pattern: g.Field("pattern"),
		property: g.Field("property"), right: g.Field("right"),
		source: g.Field("source"), value: g.Field("value"), typ: g.Field("type"),
		index: g.Field("index"), key: g.Field("key"), function: g.Field("function"),
		constructor: g.Field("constructor"), alias: g.Field("alias"),
		returnType: g.Field("return_type"),
	}}
}

// Language is the tree-sitter grammar.
func (g *Grammar) Language() *sitter.Language { return g.g.Lang }

// Keywords are the reserved words of JavaScript and TypeScript (ECMAScript
// reserved words, those reserved in strict mode, and the literals). The
// contextual keywords (as, async, get, set, of, type, declare, namespace,
// readonly, ...) are left out: code uses them as names.
var Keywords = []string{
	"await", "break", "case", "catch", "class", "const", "continue", "debugger",
	"default", "delete", "do", "else", "enum", "export", "extends", "false",
	"finally", "for", "function", "if", "implements", "import", "in",
	"instanceof", "interface", "let", "new", "null", "package", "private",
	"protected", "public", "return", "static", "super", "switch", "this",
	"throw", "true", "try", "typeof", "var", "void", "while", "with", "yield",
}
