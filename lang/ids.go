package lang

import "strings"

// editorIDs maps the language identifiers editors send to the names of
// the front ends: LSP's languageId and Tabby's "language" both follow VS
// Code's list (https://code.visualstudio.com/docs/languages/identifiers),
// and some clients send short names. A front end whose name is its
// editors' identifier needs no entry; one whose editors use other names
// adds them here.
var editorIDs = map[string]string{
	"py":              "python",
	"python3":         "python",
	"golang":          "go",
	"typescriptreact": "typescript",
	"ts":              "typescript",
	"tsx":             "typescript",
	"javascriptreact": "javascript",
	"js":              "javascript",
	"jsx":             "javascript",
}

// ForID returns the registered language an editor's language identifier
// names (in any case), or nil. It is how a request without a file name,
// or with one of no known extension, finds its language.
func ForID(id string) *Language {
	id = strings.ToLower(strings.TrimSpace(id))
	if name, ok := editorIDs[id]; ok {
		id = name
	}
	if id == "" {
		return nil
	}
	return ByName(id)
}
