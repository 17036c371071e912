package golang

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/graphcoder/graphcoder/lang"
)

// scoping: a method reads its type's members through its receiver, a
// parameter like any other (its declared type leads to the members);
// methods are declared outside their type, in any file of its package.
var scoping = lang.Scoping{DetachedMethods: true}

// modules is Go's module system: a file belongs to the package of its
// folder, named by its import path; the files of a folder see each
// other's top-level names. Unconfigured (no go.mod read), a package's
// import path is its folder relative to the repository root, which is
// right for the standard library indexed from GOROOT/src; configured
// (Configure), it is the path of the module whose go.mod is nearest
// above the folder joined with the folder's path inside it.
type modules struct {
	paths *importPaths // nil: unconfigured
}

// importPath returns the import path of the package in folder dir
// (slash-separated, relative to the repository root, "." for the root).
func (m modules) importPath(dir string) string {
	if m.paths != nil {
		if p, ok := m.paths.of(dir); ok {
			return p
		}
	}
	return vendored(dir)
}

// vendored returns the import path of a folder relative to a module or
// GOPATH root: the path after the last vendor folder (vendor/a/b is a/b),
// else the folder itself.
func vendored(dir string) string {
	if dir == "." {
		return ""
	}
	if i := strings.LastIndex(dir, "/vendor/"); i >= 0 {
		return dir[i+len("/vendor/"):]
	}
	if rest, ok := strings.CutPrefix(dir, "vendor/"); ok {
		return rest
	}
	return dir
}

// ModuleNames: the import path of the file's folder.
func (m modules) ModuleNames(p, _, root string) []string {
	ip := m.importPath(path.Dir(p))
	if ip == "" {
		ip = root // the root folder's own package, unconfigured
	}
	return []string{ip}
}

// Resolve: `import "a/b"` binds the package's name (the last element of
// the path, by convention: see packageName) to the package a/b; an
// explicit name renames it; a dot import binds every exported name of
// the package; a blank import binds nothing.
func (modules) Resolve(imp lang.Import, _, _ string) lang.ImportRef {
	switch imp.Alias {
	case ".":
		return lang.ImportRef{Module: imp.Module, All: true}
	case "_":
		return lang.ImportRef{Module: imp.Module}
	case "":
		return lang.ImportRef{Module: imp.Module, Local: packageName(strconv.Quote(imp.Module))}
	}
	return lang.ImportRef{Module: imp.Module, Local: imp.Alias}
}

// Implicit: a file sees the top-level names of its own package.
func (m modules) Implicit(p, pkg string) []lang.ImportRef {
	return []lang.ImportRef{{Module: m.ModuleNames(p, pkg, "")[0], All: true}}
}

// Configure reads the go.mod files of the repository at root (and above
// it) as folders ask for their import paths.
func (modules) Configure(root string) lang.ModuleSystem {
	return modules{paths: &importPaths{root: root, mods: map[string]modFile{}, dirs: map[string]string{}}}
}

// importPaths maps the folders of one repository to import paths through
// their nearest go.mod, caching what it read.
type importPaths struct {
	root string
	mu   sync.Mutex
	mods map[string]modFile // by folder on disk
	dirs map[string]string  // import path by folder relative to the root
}

// modFile is what a folder says of modules: whether it holds a go.mod
// with a module path.
type modFile struct {
	path string
	ok   bool
}

// maxUp bounds the folders above a package folder searched for go.mod.
const maxUp = 64

// of returns the import path of folder dir (relative to the root), and
// false when no go.mod is above it.
func (ip *importPaths) of(dir string) (string, bool) {
	ip.mu.Lock()
	defer ip.mu.Unlock()
	if p, ok := ip.dirs[dir]; ok {
		return p, p != "\x00"
	}
	abs := filepath.Join(ip.root, filepath.FromSlash(dir))
	var rel []string
	for up := 0; up < maxUp; up++ {
		mf, ok := ip.mods[abs]
		if !ok {
			mf = readModFile(filepath.Join(abs, "go.mod"))
			ip.mods[abs] = mf
		}
		if mf.ok {
			// rel holds the folders below the module's, innermost first;
			// a vendor folder holds other modules' packages.
			var elems []string
			for k := len(rel) - 1; k >= 0; k-- {
				if rel[k] == "vendor" && k > 0 {
					elems = elems[:0]
					continue
				}
				elems = append(elems, rel[k])
			}
			vendor := len(elems) < len(rel)
			if mf.path != "std" && !vendor { // the standard library's packages have no prefix
				elems = append([]string{mf.path}, elems...)
			}
			p := strings.Join(elems, "/")
			ip.dirs[dir] = p
			return p, true
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			break
		}
		rel = append(rel, filepath.Base(abs))
		abs = parent
	}
	ip.dirs[dir] = "\x00"
	return "", false
}

// maxModFile bounds the bytes of a go.mod read for its module line.
const maxModFile = 1 << 20

// readModFile returns the module path a go.mod declares; ok false when
// the file is absent, unreadable or declares none.
func readModFile(name string) modFile {
	fh, err := os.Open(name)
	if err != nil {
		return modFile{}
	}
	defer fh.Close()
	sc := bufio.NewScanner(io.LimitReader(fh, maxModFile))
	sc.Buffer(make([]byte, 0, 4096), maxModFile)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if i := bytes.Index(line, []byte("//")); i >= 0 {
			line = bytes.TrimSpace(line[:i])
		}
		rest, ok := bytes.CutPrefix(line, []byte("module"))
		if !ok || len(rest) == 0 || (rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"') {
			continue
		}
		mp := string(bytes.TrimSpace(rest))
		if uq, err := strconv.Unquote(mp); err == nil {
			mp = uq
		}
		if mp == "" || strings.ContainsAny(mp, " \t") {
			return modFile{}
		}
		return modFile{path: mp, ok: true}
	}
	return modFile{}
}
