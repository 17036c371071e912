package ecma

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/graphcoder/graphcoder/lang"
)

// Scoping: members are read through this; a file's imports are members
// of it (see Modules).
var Scoping = lang.Scoping{Receivers: []string{"this"}, Super: "super", ReExports: true}

// Modules is the module system of ES modules, shared by TypeScript and
// JavaScript (a TypeScript file imports JavaScript ones and the other way
// round). A repository file is the module "./" followed by its path
// without its extension ("./src/util" for src/util.ts), an index file
// also its folder's ("./src" for src/index.js, "." at the root), so that
// `./util.js` written in TypeScript reaches util.ts. A relative specifier
// is resolved against the importing file's folder, its extension
// dropped; a bare one ("react", "@scope/pkg/sub") names a package, kept
// as written: external, unless configured (Configure) tsconfig.json or
// jsconfig.json paths or baseUrl map it into the repository. The names a
// file imports are members of it (Scoping.ReExports), which holds for
// `export { x } from` and `export * from` and over-approximates plain
// imports harmlessly: they resolve to the definitions they name anyway.
type Modules struct {
	cfg *configs // nil: unconfigured
}

// extensions are the file name extensions a module specifier may omit,
// longest first.
var extensions = []string{".d.mts", ".d.cts", ".d.ts", ".mts", ".cts", ".tsx", ".ts", ".mjs", ".cjs", ".jsx", ".js"}

// stripExt drops a source extension from p.
func stripExt(p string) string {
	lower := strings.ToLower(p)
	for _, e := range extensions {
		if strings.HasSuffix(lower, e) {
			return p[:len(p)-len(e)]
		}
	}
	return p
}

// moduleName is the module of the repository path p (no extension).
func moduleName(p string) string {
	p = path.Clean(p)
	if p == "." {
		return "."
	}
	if strings.HasPrefix(p, "../") || p == ".." {
		return p // outside the repository: matches no file
	}
	return "./" + p
}

// ModuleNames: the path without extension; for an index file, then its
// folder.
func (Modules) ModuleNames(p, _, _ string) []string {
	base := stripExt(p)
	out := []string{moduleName(base)}
	if path.Base(base) == "index" {
		out = append(out, moduleName(path.Dir(base)))
	}
	return out
}

// Resolve: see Modules. Module "" is the file itself (a default export
// or a local name exported under another name).
func (m Modules) Resolve(imp lang.Import, p, _ string) lang.ImportRef {
	module := m.resolveSpec(imp.Module, p)
	switch {
	case imp.Name == "*":
		return lang.ImportRef{Module: module, All: true}
	case imp.Name == "":
		return lang.ImportRef{Module: module, Local: imp.Alias}
	}
	local := imp.Alias
	if local == "" {
		local = imp.Name
	}
	return lang.ImportRef{Module: module, Member: imp.Name, Local: local}
}

// resolveSpec turns a specifier written in the file at p into a module
// name.
func (m Modules) resolveSpec(spec, p string) string {
	switch {
	case spec == "":
		return m.ModuleNames(p, "", "")[0]
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		return moduleName(stripExt(path.Join(path.Dir(p), spec)))
	case strings.HasPrefix(spec, "/"):
		return spec
	}
	if m.cfg != nil {
		if r, ok := m.cfg.mapSpec(spec, path.Dir(p)); ok {
			return moduleName(stripExt(r))
		}
	}
	return spec
}

// Implicit: an ES module sees nothing it does not import.
func (Modules) Implicit(string, string) []lang.ImportRef { return nil }

// Configure reads the tsconfig.json (or jsconfig.json) nearest above each
// importing file's folder, for its compilerOptions.paths and baseUrl.
func (Modules) Configure(root string) lang.ModuleSystem {
	return Modules{cfg: &configs{root: root, byDir: map[string]*tsconfig{}}}
}

// configs caches the configuration of each folder of one repository.
type configs struct {
	root  string
	mu    sync.Mutex
	byDir map[string]*tsconfig // by absolute folder; nil: none there or above
}

// tsconfig is what resolution needs of a configuration: the folder its
// paths are relative to (baseUrl, else the configuration's own folder)
// and its path patterns, longest prefix first.
type tsconfig struct {
	base     string // absolute
	hasBase  bool   // baseUrl is set: bare specifiers are tried under it
	patterns []pathPattern
}

type pathPattern struct {
	prefix, suffix string
	wildcard       bool
	targets        []string
}

// Bounds on what configuration is read.
const (
	maxConfigBytes = 1 << 20
	maxExtends     = 4
	maxUp          = 64
)

// mapSpec maps a bare specifier through the configuration of the
// importing folder dir (relative to the root) to a path relative to the
// root.
func (c *configs) mapSpec(spec, dir string) (string, bool) {
	cfg := c.of(filepath.Join(c.root, filepath.FromSlash(dir)))
	if cfg == nil {
		return "", false
	}
	target := ""
	for _, pp := range cfg.patterns {
		if len(pp.targets) == 0 {
			continue
		}
		if !pp.wildcard {
			if spec == pp.prefix {
				target = pp.targets[0]
				break
			}
			continue
		}
		if len(spec) >= len(pp.prefix)+len(pp.suffix) && strings.HasPrefix(spec, pp.prefix) && strings.HasSuffix(spec, pp.suffix) {
			star := spec[len(pp.prefix) : len(spec)-len(pp.suffix)]
			target = strings.Replace(pp.targets[0], "*", star, 1)
			break
		}
	}
	if target == "" {
		if !cfg.hasBase {
			return "", false
		}
		target = spec
	}
	abs := filepath.Join(cfg.base, filepath.FromSlash(target))
	rel, err := filepath.Rel(c.root, abs)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// of returns the configuration that applies in folder dir (absolute).
func (c *configs) of(dir string) *tsconfig {
	c.mu.Lock()
	defer c.mu.Unlock()
	var walked []string
	var found *tsconfig
	for up := 0; up < maxUp; up++ {
		if cfg, ok := c.byDir[dir]; ok {
			found = cfg
			break
		}
		walked = append(walked, dir)
		if cfg := readConfig(dir); cfg != nil {
			found = cfg
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for _, d := range walked {
		c.byDir[d] = found
	}
	return found
}

// readConfig reads tsconfig.json, else jsconfig.json, of folder dir;
// nil when neither is there, readable and well formed.
func readConfig(dir string) *tsconfig {
	for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
		file := filepath.Join(dir, name)
		if _, err := os.Stat(file); err != nil {
			continue
		}
		var opts compilerOptions
		if !loadOptions(file, &opts, 0) {
			return nil
		}
		cfg := &tsconfig{base: dir}
		if opts.pathsDir != "" {
			cfg.base = opts.pathsDir
		}
		if opts.BaseURL != nil {
			cfg.base, cfg.hasBase = filepath.Join(opts.baseDir, filepath.FromSlash(*opts.BaseURL)), true
		}
		for pat, targets := range opts.Paths {
			pp := pathPattern{targets: targets}
			if i := strings.IndexByte(pat, '*'); i >= 0 {
				pp.prefix, pp.suffix, pp.wildcard = pat[:i], pat[i+1:], true
			} else {
				pp.prefix = pat
			}
			cfg.patterns = append(cfg.patterns, pp)
		}
		// The longest prefix wins, exact patterns before wildcards.
		sort.Slice(cfg.patterns, func(i, j int) bool {
			a, b := cfg.patterns[i], cfg.patterns[j]
			if a.wildcard != b.wildcard {
				return !a.wildcard
			}
			if len(a.prefix) != len(b.prefix) {
				return len(a.prefix) > len(b.prefix)
			}
			return a.prefix < b.prefix
		})
		return cfg
	}
	return nil
}

// compilerOptions are the options read, with the folders they are
// relative to (those of the configuration that set them, which may be
// one extended).
type compilerOptions struct {
	BaseURL *string             `json:"baseUrl"`
	Paths   map[string][]string `json:"paths"`

	baseDir, pathsDir string
}

// loadOptions reads the compilerOptions of a configuration file into
// opts, those of the configurations it extends (relative paths only)
// first, so that its own override them.
func loadOptions(file string, opts *compilerOptions, depth int) bool {
	fh, err := os.Open(file)
	if err != nil {
		return false
	}
	data, err := io.ReadAll(io.LimitReader(fh, maxConfigBytes))
	fh.Close()
	if err != nil {
		return false
	}
	var doc struct {
		Extends         json.RawMessage `json:"extends"`
		CompilerOptions compilerOptions `json:"compilerOptions"`
	}
	if err := json.Unmarshal(stripJSONC(data), &doc); err != nil {
		return false
	}
	dir := filepath.Dir(file)
	if depth < maxExtends && len(doc.Extends) > 0 {
		var ext []string
		var one string
		if json.Unmarshal(doc.Extends, &one) == nil {
			ext = []string{one}
		} else {
			_ = json.Unmarshal(doc.Extends, &ext)
		}
		for _, e := range ext {
			if !strings.HasPrefix(e, "./") && !strings.HasPrefix(e, "../") {
				continue // a package's configuration: not in the repository
			}
			base := filepath.Join(dir, filepath.FromSlash(e))
			if !strings.HasSuffix(base, ".json") {
				base += ".json"
			}
			loadOptions(base, opts, depth+1)
		}
	}
	co := doc.CompilerOptions
	if co.BaseURL != nil {
		opts.BaseURL, opts.baseDir = co.BaseURL, dir
	}
	if co.Paths != nil {
		opts.Paths, opts.pathsDir = co.Paths, dir
	}
	return true
}

// stripJSONC turns the JSON with comments and trailing commas that
// tsconfig.json allows into JSON: comments become spaces, a comma before
// a closing bracket or brace is dropped.
func stripJSONC(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(data)-1)
			out = append(out, data[i:j+1]...)
			i = j
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			i += 2 + end + 1
			out = append(out, ' ')
		case c == ']' || c == '}':
			k := len(out) - 1
			for k >= 0 && (out[k] == ' ' || out[k] == '\t' || out[k] == '\n' || out[k] == '\r') {
				k--
			}
			if k >= 0 && out[k] == ',' {
				out = append(out[:k], out[k+1:]...)
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
