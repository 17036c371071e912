package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every front end is reachable through the engine: a repository holding a
// structural twin in Go, TypeScript, TSX and JavaScript completes each
// language's copy from its twin of the same language.
func TestEveryLanguageCompletes(t *testing.T) {
	repo := t.TempDir()
	twins := map[string]string{
		"go/a.go":  "package p\n\nfunc sumA(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n",
		"go/b.go":  "package p\n\nfunc sumB(ys []int) int {\n\ttotal := 0\n\tfor _, y := range ys {\n\t\ttotal += y\n\t}\n\treturn total\n}\n",
		"ts/a.ts":  "export function sumA(xs: number[]): number {\n  let total = 0;\n  for (const x of xs) {\n    total += x;\n  }\n  return total;\n}\n",
		"ts/b.tsx": "export function sumB(ys: number[]): number {\n  let total = 0;\n  for (const y of ys) {\n    total += y;\n  }\n  return total;\n}\n",
		"js/a.js":  "function sumA(xs) {\n  let total = 0;\n  for (const x of xs) {\n    total += x;\n  }\n  return total;\n}\n",
		"js/b.mjs": "export function sumB(ys) {\n  let total = 0;\n  for (const y of ys) {\n    total += y;\n  }\n  return total;\n}\n",
	}
	for rel, src := range twins {
		p := filepath.Join(repo, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := openRepo(t, repo)
	for _, tc := range []struct{ path, lang, twin string }{
		{"go/b.go", "go", "go/a.go"},
		{"ts/b.tsx", "typescript", "ts/a.ts"},
		{"js/b.mjs", "javascript", "js/a.js"},
	} {
		// Complete the line after the loop's body: the return.
		lines := strings.Split(twins[tc.path], "\n")
		line := 0
		for i, l := range lines {
			if strings.Contains(l, "return total") {
				line = i + 1
			}
		}
		res, err := e.Complete(context.Background(), Request{Path: tc.path, Line: line})
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if res.Language != tc.lang {
			t.Errorf("%s: language %q, want %q", tc.path, res.Language, tc.lang)
		}
		found := false
		for _, s := range res.Snippets {
			found = found || s.Path == tc.twin
			if !strings.HasPrefix(s.Path, strings.Split(tc.path, "/")[0]+"/") {
				t.Errorf("%s: snippet from %s, another language", tc.path, s.Path)
			}
		}
		if !found {
			t.Errorf("%s: no snippet from its twin %s: %+v", tc.path, tc.twin, res.Snippets)
		}
		if !strings.Contains(res.Prediction, "return total") {
			t.Errorf("%s: prediction %q, want the twin's return", tc.path, res.Prediction)
		}
	}
}
