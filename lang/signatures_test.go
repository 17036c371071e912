package lang

import "testing"

func TestSignaturesCompact(t *testing.T) {
	java := Signatures{Modifiers: []string{"public", "private", "final", "synchronized"}, MarkerAnnotations: true, BodyOpen: "{"}
	for _, tc := range []struct {
		s        Signatures
		row, out string
	}{
		{java, "    public static Wrap simpleWrap(String source) {", "    static Wrap simpleWrap(String source)"},
		{java, "\tprivate final synchronized void run() throws IOException {", "\tvoid run() throws IOException"},
		{java, "    @Override public String toString() {", "    String toString()"},
		{java, "    @Override", ""},
		{java, "    @SuppressWarnings(\"unchecked\") public T get() {", "    @SuppressWarnings(\"unchecked\") public T get()"}, // stops at what it keeps,
		{java, "    @java.lang.Deprecated void old() {", "    @java.lang.Deprecated void old()"},
		{java, "public @interface Marker {", "@interface Marker"},
		{java, "        String part(String s) {  ", "        String part(String s)"},
		{java, "            int b,", "            int b,"}, // a continuation row
		{java, "    public", ""},
		{java, "", ""},
		{java, "    publicity(int x) {", "    publicity(int x)"},
		{Signatures{}, "    public void f() {", "    public void f() {"},
		{Signatures{BodyOpen: ":"}, "def f(x):", "def f(x)"},
	} {
		if got := tc.s.Compact(tc.row); got != tc.out {
			t.Errorf("Compact(%q) = %q, want %q", tc.row, got, tc.out)
		}
	}
}
