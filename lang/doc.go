// Package lang defines the language-neutral statement tree that every
// front end produces and the graph builder consumes.
//
// A front end (lang/python, lang/java, lang/golang, lang/typescript,
// lang/javascript) knows its grammar; package ccg knows
// control flow and data flow. They meet here: a File is a tree of Stmt, each
// one a future vertex of the code context graph, tagged with the control
// role it plays (Kind), the rows of its own header, and the names it defines
// and uses. Keeping this seam narrow is what lets one CFG, post-dominator and
// reaching-definitions implementation serve every language.
package lang
