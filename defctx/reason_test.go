package defctx

import (
	"fmt"
	"strings"
	"testing"
)

// A reason written out reads as the reasons were written before they
// were kept unwritten (the formats below), for every form and with the
// declared type and by-name wrappings.
func TestWhyString(t *testing.T) {
	parts := []string{"self", "parser", "feed"}
	join := strings.Join(parts, ".")
	for _, tc := range []struct {
		w    why
		want string
	}{
		{why{text: "the class of the cursor"}, "the class of the cursor"},
		{why{form: whyNear, parts: parts, row: 12}, fmt.Sprintf("%s on line %d", join, 12)},
		{why{form: whySlice, parts: parts[:1]}, "self" + " in the query's slice"},
		{why{form: whyFar, text: "a.b", row: 3}, fmt.Sprintf("%s called on line %d", "a.b", 3)},
		{why{form: whySnippet, parts: parts, snip: 2, path: "p/q.py", row: 40, text: " on the next line"},
			fmt.Sprintf("snippet %d (%s:%d) calls %s%s", 2, "p/q.py", 40, join, " on the next line")},
		{why{form: whySnippet, parts: parts, snip: 1, path: "a.java", row: 7},
			fmt.Sprintf("snippet %d (%s:%d) calls %s%s", 1, "a.java", 7, join, "")},
		{why{form: whyNear, parts: parts, row: 5, declared: "self"},
			fmt.Sprintf("the declared type of %s (%s)", "self", fmt.Sprintf("%s on line %d", join, 5))},
		{why{form: whyFar, text: "f", row: 9, byName: true}, fmt.Sprintf("%s called on line %d", "f", 9) + " (by name)"},
	} {
		if got := tc.w.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.w, got, tc.want)
		}
	}
}
