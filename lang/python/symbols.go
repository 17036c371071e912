package python

import (
	sitter "github.com/smacker/go-tree-sitter"
	tspython "github.com/smacker/go-tree-sitter/python"
)

// nt is the front end's own small enumeration of the grammar node types it
// tells apart; every other node type is ntOther and is walked generically.
type nt uint8

const (
	ntOther nt = iota
	ntError
	ntComment
	ntModule
	ntBlock
	// simple statements
	ntExpressionStatement
	ntImport
	ntFutureImport
	ntImportFrom
	ntPrint
	ntAssert
	ntReturn
	ntDelete
	ntRaise
	ntPass
	ntBreak
	ntContinue
	ntGlobal
	ntNonlocal
	ntExec
	ntTypeAlias
	// compound statements and their clauses
	ntIf
	ntElif
	ntElse
	ntFor
	ntWhile
	ntTry
	ntExcept
	ntExceptGroup
	ntFinally
	ntWith
	ntWithClause
	ntWithItem
	ntFunctionDef
	ntClassDef
	ntDecorated
	ntDecorator
	ntMatch
	ntCaseClause
	// expressions
	ntIdentifier
	ntAttribute
	ntSubscript
	ntCall
	ntKeywordArgument
	ntLambda
	ntLambdaParameters
	ntListComp
	ntSetComp
	ntDictComp
	ntGenerator
	ntForIn
	ntNamedExpression
	ntAssignment
	ntAugAssignment
	ntPatternList
	ntTuplePattern
	ntListPattern
	ntTuple
	ntList
	ntParenthesized
	ntListSplatPattern
	ntListSplat
	ntDictSplatPattern
	ntParameters
	ntDefaultParameter
	ntTypedParameter
	ntTypedDefaultParameter
	ntAsPattern
	ntAsPatternTarget
	ntDottedName
	ntAliasedImport
	ntTypeParameter
	ntType
	ntExpressionList
	ntGenericType
	ntRelativeImport
	ntWildcardImport
	ntString
	ntConcatString
	ntArgumentList
	// case patterns
	ntCasePattern
	ntUnionPattern
	ntDictPattern
	ntKeywordPattern
	ntSplatPattern
	ntClassPattern
	// anonymous tokens
	ntColon
	ntComma
	ntAs
	ntUnderscore
	ntAsync
	ntTypeKeyword
	ntCount
)

// namedTypes maps the grammar's named node types to nt.
var namedTypes = map[string]nt{
	"comment": ntComment, "module": ntModule, "block": ntBlock,
	"expression_statement": ntExpressionStatement, "import_statement": ntImport,
	"future_import_statement": ntFutureImport, "import_from_statement": ntImportFrom,
	"print_statement": ntPrint, "assert_statement": ntAssert, "return_statement": ntReturn,
	"delete_statement": ntDelete, "raise_statement": ntRaise, "pass_statement": ntPass,
	"break_statement": ntBreak, "continue_statement": ntContinue,
	"global_statement": ntGlobal, "nonlocal_statement": ntNonlocal,
	"exec_statement": ntExec, "type_alias_statement": ntTypeAlias,
	"if_statement": ntIf, "elif_clause": ntElif, "else_clause": ntElse,
	"for_statement": ntFor, "while_statement": ntWhile, "try_statement": ntTry,
	"except_clause": ntExcept, "except_group_clause": ntExceptGroup,
	"finally_clause": ntFinally, "with_statement": ntWith, "with_clause": ntWithClause,
	"with_item": ntWithItem, "function_definition": ntFunctionDef,
	"class_definition": ntClassDef, "decorated_definition": ntDecorated,
	"decorator": ntDecorator, "match_statement": ntMatch, "case_clause": ntCaseClause,
	"identifier": ntIdentifier, "attribute": ntAttribute, "subscript": ntSubscript,
	"call": ntCall, "keyword_argument": ntKeywordArgument, "lambda": ntLambda,
	"lambda_parameters": ntLambdaParameters, "list_comprehension": ntListComp,
	"set_comprehension": ntSetComp, "dictionary_comprehension": ntDictComp,
	"generator_expression": ntGenerator, "for_in_clause": ntForIn,
	"named_expression": ntNamedExpression, "assignment": ntAssignment,
	"augmented_assignment": ntAugAssignment, "pattern_list": ntPatternList,
	"tuple_pattern": ntTuplePattern, "list_pattern": ntListPattern,
	"tuple": ntTuple, "list": ntList, "parenthesized_expression": ntParenthesized,
	"list_splat_pattern": ntListSplatPattern, "list_splat": ntListSplat,
	"dictionary_splat_pattern": ntDictSplatPattern, "parameters": ntParameters,
	"default_parameter": ntDefaultParameter, "typed_parameter": ntTypedParameter,
	"typed_default_parameter": ntTypedDefaultParameter, "as_pattern": ntAsPattern,
	"as_pattern_target": ntAsPatternTarget, "dotted_name": ntDottedName,
	"aliased_import": ntAliasedImport, "type_parameter": ntTypeParameter,
	"type": ntType, "expression_list": ntExpressionList, "generic_type": ntGenericType,
	"relative_import": ntRelativeImport, "wildcard_import": ntWildcardImport,
	"string": ntString, "concatenated_string": ntConcatString, "argument_list": ntArgumentList,
	"case_pattern": ntCasePattern, "union_pattern": ntUnionPattern,
	"dict_pattern": ntDictPattern, "keyword_pattern": ntKeywordPattern,
	"splat_pattern": ntSplatPattern, "class_pattern": ntClassPattern,
}

// anonTypes maps the anonymous tokens the front end looks at to nt.
var anonTypes = map[string]nt{
	":": ntColon, ",": ntComma, "as": ntAs, "_": ntUnderscore, "async": ntAsync,
	"type": ntTypeKeyword,
}

// fieldID names the grammar fields the front end reads.
type fieldID uint8

const (
	fNone fieldID = iota
	fAlias
	fAlternative
	fBody
	fCondition
	fConsequence
	fDefinition
	fFunction
	fGuard
	fKey
	fLeft
	fName
	fObject
	fAttribute
	fParameters
	fReturnType
	fRight
	fSubject
	fSuperclasses
	fType
	fTypeParameters
	fValue
	fModuleName
	fExpression
	fCause
)

var fieldNames = map[string]fieldID{
	"alias": fAlias, "alternative": fAlternative, "body": fBody,
	"condition": fCondition, "consequence": fConsequence, "definition": fDefinition,
	"function": fFunction, "guard": fGuard, "key": fKey, "left": fLeft,
	"name": fName, "object": fObject, "attribute": fAttribute,
	"parameters": fParameters, "return_type": fReturnType, "right": fRight,
	"subject": fSubject, "superclasses": fSuperclasses, "type": fType,
	"type_parameters": fTypeParameters, "value": fValue,
	"module_name": fModuleName, "expression": fExpression, "cause": fCause,
}

// grammar holds the per-symbol tables, built once from the language.
type grammar struct {
	lang   *sitter.Language
	types  []nt      // by symbol id
	names  []string  // grammar node type by symbol id
	fields []fieldID // by field id
}

const errorSymbol = 0xFFFF // tree-sitter's ts_builtin_sym_error

var py = newGrammar()

func newGrammar() *grammar {
	l := tspython.GetLanguage()
	g := &grammar{lang: l}
	n := int(l.SymbolCount())
	g.types = make([]nt, n)
	g.names = make([]string, n)
	for i := 0; i < n; i++ {
		s := sitter.Symbol(i)
		name := l.SymbolName(s)
		g.names[i] = name
		switch l.SymbolType(s) {
		case sitter.SymbolTypeRegular:
			g.types[i] = namedTypes[name]
		case sitter.SymbolTypeAnonymous:
			g.types[i] = anonTypes[name]
		}
	}
	for i := 1; ; i++ {
		name := l.FieldName(i)
		if name == "" {
			break
		}
		for len(g.fields) <= i {
			g.fields = append(g.fields, fNone)
		}
		g.fields[i] = fieldNames[name]
	}
	return g
}

// typeOf returns the nt of a record.
func (g *grammar) typeOf(n *node) nt {
	if n.sym == errorSymbol {
		return ntError
	}
	if int(n.sym) < len(g.types) {
		return g.types[n.sym]
	}
	return ntOther
}

// typeName returns the grammar node type of a record.
func (g *grammar) typeName(n *node) string {
	if n.sym == errorSymbol {
		return "ERROR"
	}
	if int(n.sym) < len(g.names) {
		return g.names[n.sym]
	}
	return "unknown"
}

func (g *grammar) fieldOf(n *node) fieldID {
	if int(n.field) < len(g.fields) {
		return g.fields[n.field]
	}
	return fNone
}
