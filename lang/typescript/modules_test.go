package typescript

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/ecma"
)

// TestConfiguredResolution checks the resolution of bare specifiers
// through tsconfig.json and jsconfig.json: paths (exact and wildcard, the
// longest prefix first), baseUrl, a configuration extending another (its
// paths relative to the file that sets them), the nearest configuration
// above the importing file, comments and trailing commas, a malformed
// file taken as absent, and packages kept external.
func TestConfiguredResolution(t *testing.T) {
	dir := t.TempDir()
	write := func(p, content string) {
		t.Helper()
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("configs/base.json", `{"compilerOptions": {"paths": {"@shared/*": ["../shared/*"]}}}`)
	write("tsconfig.json", `{
  "extends": "./configs/base", // relative, without .json
  /* block comment */
  "compilerOptions": {
    "baseUrl": "src",
    "paths": {
      "@app/*": ["app/*", "fallback/*"],
      "@app/special/*": ["special/*"],
      "env": ["config/env.ts"],
    },
  },
}`)
	write("web/jsconfig.json", `{"compilerOptions": {"paths": {"~/*": ["./lib/*"]}}}`)
	write("broken/tsconfig.json", `{"compilerOptions": `)
	write("pkg/tsconfig.json", `{"extends": "../configs/base.json"}`)
	ms := ecma.Modules{}.Configure(dir)
	cases := []struct{ from, spec, want string }{
		{"src/main.ts", "@app/util", "./src/app/util"},
		{"src/main.ts", "@app/special/x.js", "./src/special/x"},
		{"src/main.ts", "env", "./src/config/env"},
		{"src/main.ts", "widgets/button", "./src/widgets/button"}, // baseUrl
		{"src/main.ts", "react", "./src/react"},                   // baseUrl first, as TypeScript does
		{"src/main.ts", "./local.js", "./src/local"},
		{"web/page.js", "~/dom", "./web/lib/dom"},       // the nearest configuration
		{"web/page.js", "react", "react"},               // no baseUrl there: a package
		{"broken/x.ts", "react", "./src/react"},         // malformed: as if absent, the root's applies
		{"src/main.ts", "@shared/a", "./src/@shared/a"}, // its own paths replace the extended ones
		{"pkg/x.ts", "@shared/a", "./shared/a"},         // extended: relative to the file that sets them
	}
	for _, c := range cases {
		got := ms.Resolve(lang.Import{Module: c.spec, Name: "x"}, c.from, "").Module
		if got != c.want {
			t.Errorf("%s from %s: module %q, want %q", c.spec, c.from, got, c.want)
		}
	}
}
