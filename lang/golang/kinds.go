package golang

import (
	tsgo "github.com/smacker/go-tree-sitter/golang"

	"github.com/graphcoder/graphcoder/lang/internal/frontend"
)

// kind classifies the grammar's symbols for the mapping; every symbol is
// resolved once, at package init.
const (
	kOther uint8 = iota
	kError
	kSkip // types, literals, field and label names: no statements, no reads

	// Tokens.
	kAssignTok // =
	kDefine    // :=
	kLParen
	kLBrace
	kColon
	kElse
	kStar

	// Containers and declarations.
	kSourceFile
	kBlock
	kPackage
	kImportDecl
	kImportSpecList
	kImportSpec
	kConstDecl
	kConstSpec
	kVarDecl
	kVarSpecList
	kVarSpec
	kTypeDecl
	kTypeSpec
	kTypeAlias
	kFuncDecl
	kMethodDecl

	// Simple statements.
	kExprStmt
	kAssign
	kShortVar
	kIncDec
	kSend
	kReceive
	kReturn
	kGo
	kDefer
	kGoto
	kBreak
	kContinue
	kFallthrough
	kEmpty

	// Compound statements.
	kLabeled
	kIf
	kFor
	kForClause
	kRangeClause
	kExprSwitch
	kTypeSwitch
	kSelect
	kExprCase
	kTypeCase
	kDefaultCase
	kCommCase

	// Expressions and parts with their own rules.
	kIdent
	kBlank
	kSelector
	kIndex
	kCall
	kFuncLit
	kComposite
	kLiteralValue
	kKeyedElement
	kLiteralElement
	kParen
	kTypeAssert
	kTypeConv
	kUnary
	kParamList
	kParamDecl
	kTypeParamList
	kTypeParamDecl
	kStructType
	kInterfaceType
	kFieldDeclList
	kFieldDecl
	kMethodElem
	kMapType
	kGenericType
	kTypeIdent
	kFieldIdent
	kPackageIdent
	kLabelName
	kExprList
)

var kindByName = map[string]uint8{
	"'=": kAssignTok, "':=": kDefine, "'(": kLParen, "'{": kLBrace, "':": kColon,
	"'else": kElse, "'*": kStar,

	"source_file":                    kSourceFile,
	"block":                          kBlock,
	"package_clause":                 kPackage,
	"import_declaration":             kImportDecl,
	"import_spec_list":               kImportSpecList,
	"import_spec":                    kImportSpec,
	"const_declaration":              kConstDecl,
	"const_spec":                     kConstSpec,
	"var_declaration":                kVarDecl,
	"var_spec_list":                  kVarSpecList,
	"var_spec":                       kVarSpec,
	"type_declaration":               kTypeDecl,
	"type_spec":                      kTypeSpec,
	"type_alias":                     kTypeAlias,
	"function_declaration":           kFuncDecl,
	"method_declaration":             kMethodDecl,
	"expression_statement":           kExprStmt,
	"assignment_statement":           kAssign,
	"short_var_declaration":          kShortVar,
	"inc_statement":                  kIncDec,
	"dec_statement":                  kIncDec,
	"send_statement":                 kSend,
	"receive_statement":              kReceive,
	"return_statement":               kReturn,
	"go_statement":                   kGo,
	"defer_statement":                kDefer,
	"goto_statement":                 kGoto,
	"break_statement":                kBreak,
	"continue_statement":             kContinue,
	"fallthrough_statement":          kFallthrough,
	"empty_statement":                kEmpty,
	"labeled_statement":              kLabeled,
	"if_statement":                   kIf,
	"for_statement":                  kFor,
	"for_clause":                     kForClause,
	"range_clause":                   kRangeClause,
	"expression_switch_statement":    kExprSwitch,
	"type_switch_statement":          kTypeSwitch,
	"select_statement":               kSelect,
	"expression_case":                kExprCase,
	"type_case":                      kTypeCase,
	"default_case":                   kDefaultCase,
	"communication_case":             kCommCase,
	"identifier":                     kIdent,
	"blank_identifier":               kBlank,
	"selector_expression":            kSelector,
	"index_expression":               kIndex,
	"call_expression":                kCall,
	"func_literal":                   kFuncLit,
	"composite_literal":              kComposite,
	"literal_value":                  kLiteralValue,
	"keyed_element":                  kKeyedElement,
	"literal_element":                kLiteralElement,
	"parenthesized_expression":       kParen,
	"type_assertion_expression":      kTypeAssert,
	"type_conversion_expression":     kTypeConv,
	"unary_expression":               kUnary,
	"parameter_list":                 kParamList,
	"parameter_declaration":          kParamDecl,
	"variadic_parameter_declaration": kParamDecl,
	"type_parameter_list":            kTypeParamList,
	"type_parameter_declaration":     kTypeParamDecl,
	"struct_type":                    kStructType,
	"interface_type":                 kInterfaceType,
	"field_declaration_list":         kFieldDeclList,
	"field_declaration":              kFieldDecl,
	"method_elem":                    kMethodElem,
	"map_type":                       kMapType,
	"generic_type":                   kGenericType,
	"type_identifier":                kTypeIdent,
	"field_identifier":               kFieldIdent,
	"package_identifier":             kPackageIdent,
	"label_name":                     kLabelName,
	"expression_list":                kExprList,

	// Subtrees that hold no statements and read no variables.
	"array_type": kSkip, "channel_type": kSkip, "function_type": kSkip,
	"implicit_length_array_type": kSkip, "negated_type": kSkip,
	"parenthesized_type": kSkip, "pointer_type": kSkip, "qualified_type": kSkip,
	"slice_type": kSkip, "type_arguments": kSkip, "type_elem": kSkip,
	"type_constraint": kSkip, "int_literal": kSkip, "float_literal": kSkip,
	"imaginary_literal": kSkip, "rune_literal": kSkip,
	"interpreted_string_literal": kSkip, "raw_string_literal": kSkip,
	"escape_sequence": kSkip, "true": kSkip, "false": kSkip, "nil": kSkip,
	"iota": kSkip, "comment": kSkip, "dot": kSkip,
}

var (
	grammar = withCut(frontend.NewGrammar(tsgo.GetLanguage(), kindByName, kError))

	fAlias         = grammar.Field("alias")
	fAlternative   = grammar.Field("alternative")
	fArguments     = grammar.Field("arguments")
	fBody          = grammar.Field("body")
	fCondition     = grammar.Field("condition")
	fConsequence   = grammar.Field("consequence")
	fField         = grammar.Field("field")
	fFunction      = grammar.Field("function")
	fInitializer   = grammar.Field("initializer")
	fLabel         = grammar.Field("label")
	fLeft          = grammar.Field("left")
	fName          = grammar.Field("name")
	fOperand       = grammar.Field("operand")
	fOperator      = grammar.Field("operator")
	fParameters    = grammar.Field("parameters")
	fPath          = grammar.Field("path")
	fReceiver      = grammar.Field("receiver")
	fResult        = grammar.Field("result")
	fRight         = grammar.Field("right")
	fType          = grammar.Field("type")
	fTypeParams    = grammar.Field("type_parameters")
	fUpdate        = grammar.Field("update")
	fValue         = grammar.Field("value")
	fCommunication = grammar.Field("communication")
)

// withCut sets where a large file may be parsed in pieces
// (tsflat.ParseFlat): before a declaration or a statement starting with
// a name, in the file or in the block that holds the most (not an else;
// a switch's body is no container), after a line that a newline ends (Go's semicolon
// rule: a name, a literal, a closing bracket).
func withCut(g *frontend.Grammar) *frontend.Grammar {
	g.Cut = frontend.BlockCutter(frontend.Lexis{Backtick: true, Raw: true}, frontend.LineStarts(
		nil, []string{"else"}, goLineEnds))
	return g
}

// goLineEnds are the last bytes of a line that Go's semicolon rule ends
// (a name or keyword, a number, a string or rune, a closing bracket).
const goLineEnds = ";{})]\"'`_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
