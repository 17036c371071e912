package token

import (
	"reflect"
	"testing"
)

// The lexical rules are shared by the tokenizer, the evaluation's metrics
// and the renaming of predictions; these cases pin them.
func TestIdentRules(t *testing.T) {
	for _, tt := range []struct {
		r           rune
		start, part bool
	}{
		{'a', true, true}, {'Z', true, true}, {'_', true, true}, {'$', true, true},
		{'7', false, true}, {'é', true, true}, {'ж', true, true}, {'界', true, true},
		{'\u0301', false, true}, // combining acute accent (Mn)
		{'٣', false, true},      // Arabic-Indic digit three (Nd)
		{'.', false, false}, {'-', false, false}, {'→', false, false}, {' ', false, false},
		{'\uFFFD', false, false},
	} {
		if IsIdentStart(tt.r) != tt.start || IsIdentPart(tt.r) != tt.part {
			t.Errorf("%q: start %v part %v, want %v %v", tt.r, IsIdentStart(tt.r), IsIdentPart(tt.r), tt.start, tt.part)
		}
	}
	for _, tt := range []struct {
		text string
		i    int
		want int
	}{
		{"abc def", 0, 3}, {"a1_b$ x", 0, 5}, {"naïve+1", 0, 6}, {"x→y", 0, 1},
		{"e\u0301t", 0, 4}, {"+a", 0, 0}, {"a\xffb", 0, 1},
	} {
		if got := IdentEnd(tt.text, tt.i); got != tt.want {
			t.Errorf("IdentEnd(%q, %d) = %d, want %d", tt.text, tt.i, got, tt.want)
		}
	}
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"outer", true}, {"_x1", true}, {"$el", true}, {"naïve", true}, {"размер", true},
		{"", false}, {"1x", false}, {"a-b", false}, {"a b", false}, {"a.b", false},
		{"\u0301e", false}, {"a\xff", false},
	} {
		if got := IsIdent(tt.s); got != tt.want {
			t.Errorf("IsIdent(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestStringEnd(t *testing.T) {
	type word struct {
		text  string
		ident bool
	}
	for _, tt := range []struct {
		name, text string
		end        int
		words      []word
	}{
		{"double", `"ab 12" x`, 7, []word{{"ab", true}, {"12", false}}},
		{"single", `'it' x`, 4, []word{{"it", true}}},
		{"escaped quote", `"a\"b" x`, 6, []word{{"a", true}, {"b", true}}},
		{"trailing backslash", `"a\`, 3, []word{{"a", true}}},
		{"triple spans lines", "\"\"\"one\ntwo\"\"\" x", 13, []word{{"one", true}, {"two", true}}},
		{"triple escaped", `"""a\""""`, 9, []word{{"a", true}}},
		{"empty", `"" x`, 2, nil},
		{"unterminated ends at the line", "'abc\nd", 5, []word{{"abc", true}}},
		{"unterminated at the end", `"abc`, 4, []word{{"abc", true}}},
		{"backquote spans lines", "`a\nb` x", 5, []word{{"a", true}, {"b", true}}},
		{"unicode words", `"größe → naïve"`, 20, []word{{"größe", true}, {"naïve", true}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []word
			end := StringEnd(tt.text, 0, func(s, e int, ident bool) { got = append(got, word{tt.text[s:e], ident}) })
			if end != tt.end || !reflect.DeepEqual(got, tt.words) {
				t.Errorf("StringEnd(%q) = %d %v, want %d %v", tt.text, end, got, tt.end, tt.words)
			}
			if e := StringEnd(tt.text, 0, nil); e != end {
				t.Errorf("without words: %d, want %d", e, end)
			}
		})
	}
}
