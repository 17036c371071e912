package python

import (
	"testing"

	"github.com/graphcoder/graphcoder/lang"
)

func TestForID(t *testing.T) {
	for id, want := range map[string]string{
		"python": "python", "Python": "python", " py ": "python", "python3": "python",
		"cobol": "", "": "",
	} {
		got := ""
		if l := lang.ForID(id); l != nil {
			got = l.Name
		}
		if got != want {
			t.Errorf("ForID(%q) = %q, want %q", id, got, want)
		}
	}
}
