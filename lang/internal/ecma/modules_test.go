package ecma

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzStripJSONC: stripping comments and trailing commas never panics,
// never grows the input by more than its comments, and leaves JSON
// without comments meaning the same.
func FuzzStripJSONC(f *testing.F) {
	for _, s := range []string{
		`{"a": 1}`, `{"a": [1, 2,], /* c */ "b": "x//y", // d` + "\n}", `{"s": "a\"/*b*/"}`,
		`/* unterminated`, `"unterminated`, `[,]`, `{"a":{"b":[{},],},}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out := stripJSONC(data)
		if len(out) > len(data) {
			t.Fatalf("grew from %d to %d bytes", len(data), len(out))
		}
		var want any
		if json.Unmarshal(data, &want) != nil {
			return
		}
		var got any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("valid JSON %q became invalid %q: %v", data, out, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q means %v, stripped %q means %v", data, want, out, got)
		}
	})
}

func TestStripJSONC(t *testing.T) {
	in := `{
  // a comment
  "paths": {"@a/*": ["src/*",],}, /* block */
  "url": "http://x//y",
}`
	var v map[string]any
	if err := json.Unmarshal(stripJSONC([]byte(in)), &v); err != nil {
		t.Fatal(err)
	}
	if v["url"] != "http://x//y" || v["paths"] == nil {
		t.Errorf("got %v", v)
	}
}
