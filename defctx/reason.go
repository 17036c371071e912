package defctx

import (
	"strconv"
	"strings"
)

// why is the reason a definition is offered, written out (String) only
// when it becomes the best reason of a definition: most paths read
// resolve to nothing, or to a definition with a better reason already,
// and the text was made for each of them.
type why struct {
	form whyForm
	// parts is the access path read (joined by '.'); it may be a piece
	// of appendChains' arena, so String reads it at once.
	parts []string
	text  string // whyText: the reason; whyFar: the path; whySnippet: what follows
	row   int    // the 1-based line of the path (whyNear, whyFar) or of the snippet
	snip  int    // whySnippet: the snippet's 1-based rank
	path  string // whySnippet: the snippet's file
	// declared, when not "", makes it the reason of a local's declared
	// type: "the declared type of <declared> (<reason>)".
	declared string
	byName   bool // found by name: "<reason> (by name)"
}

// whyForm is how a reason reads.
type whyForm uint8

const (
	whyText    whyForm = iota // text itself
	whyNear                   // "<path> on line <row>"
	whySlice                  // "<path> in the query's slice"
	whyFar                    // "<text> called on line <row>"
	whySnippet                // "snippet <snip> (<path>:<row>) calls <path><text>"
)

// String returns the reason's text.
func (w why) String() string {
	var s string
	switch w.form {
	case whyNear:
		s = strings.Join(w.parts, ".") + " on line " + strconv.Itoa(w.row)
	case whySlice:
		s = strings.Join(w.parts, ".") + " in the query's slice"
	case whyFar:
		s = w.text + " called on line " + strconv.Itoa(w.row)
	case whySnippet:
		s = "snippet " + strconv.Itoa(w.snip) + " (" + w.path + ":" + strconv.Itoa(w.row) + ") calls " + strings.Join(w.parts, ".") + w.text
	default:
		s = w.text
	}
	if w.declared != "" {
		s = "the declared type of " + w.declared + " (" + s + ")"
	}
	if w.byName {
		s += " (by name)"
	}
	return s
}
