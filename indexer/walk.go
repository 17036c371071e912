package indexer

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	ignore "github.com/sabhiram/go-gitignore"

	"github.com/graphcoder/graphcoder/lang"
)

// Skip reasons, the keys of Summary.Skipped.
const (
	SkipBinary      = "binary"
	SkipNotUTF8     = "not_utf8"
	SkipTooLarge    = "too_large"
	SkipUnreadable  = "unreadable"
	SkipSymlinkLoop = "symlink_loop"
	SkipOutside     = "symlink_outside_repo"
	SkipSpecial     = "not_regular_file"
	SkipFailed      = "failed"
)

// skippedDirs are vendored, generated and tool folders never indexed.
var skippedDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".graphcoder": true,
	"node_modules": true, "vendor": true, "bower_components": true,
	"build": true, "dist": true, "target": true, ".gradle": true,
	".venv": true, "venv": true, "__pycache__": true, "site-packages": true,
	".tox": true, ".nox": true, ".mypy_cache": true, ".pytest_cache": true,
	".ruff_cache": true, ".eggs": true, ".idea": true,
}

// candidate is a file the walk selected for indexing.
type candidate struct {
	rel  string // '/'-separated, relative to the repository root
	abs  string
	size int64
}

// matcher is a compiled .gitignore file and the directory it lives in.
type matcher struct {
	base string // '/'-separated directory relative to the root, "" for the root
	gi   *ignore.GitIgnore
}

type walker struct {
	root     string // real absolute path of the repository
	indexDir string // real absolute path of the index folder, may not exist
	maxSize  int64
	files    []candidate
	skipped  map[string]int
	seen     int // files considered (not counting ignored and vendored trees)
	visited  map[fileID]bool
	// unsupported counts files no language handles.
	unsupported int
}

type fileID struct{ dev, ino uint64 }

func idOf(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}

func (w *walker) skip(reason string) { w.skipped[reason]++ }

// ignored reports whether any .gitignore from the root down matches rel.
// Each file's own negations ("!pattern") apply within that file; a deeper
// file cannot re-include what a shallower one ignores (a simplification
// of git's rules that errs on the side of indexing less).
func ignored(ms []matcher, rel string, dir bool) bool {
	for _, m := range ms {
		p := rel
		if m.base != "" {
			if !strings.HasPrefix(rel, m.base+"/") {
				continue
			}
			p = rel[len(m.base)+1:]
		}
		if dir {
			p += "/"
		}
		if m.gi.MatchesPath(p) {
			return true
		}
	}
	return false
}

// walkDir visits the directory at abs (real path real), known to the
// repository as rel. ancestors holds the identities of the directories
// on the current path, to detect loops through symbolic links.
func (w *walker) walkDir(abs, rel string, ms []matcher, ancestors map[fileID]bool) {
	entries, err := os.ReadDir(abs)
	if err != nil {
		w.skip(SkipUnreadable)
		return
	}
	if gi, err := ignore.CompileIgnoreFile(filepath.Join(abs, ".gitignore")); err == nil {
		ms = append(ms[:len(ms):len(ms)], matcher{base: rel, gi: gi})
	}
	for _, e := range entries {
		name := e.Name()
		childAbs := filepath.Join(abs, name)
		childRel := path.Join(rel, name)
		if e.IsDir() && skippedDirs[name] || name == ".git" {
			continue
		}
		typ := e.Type()
		isLink := typ&fs.ModeSymlink != 0
		var fi fs.FileInfo
		if isLink {
			target, err := filepath.EvalSymlinks(childAbs)
			if err != nil {
				if ignored(ms, childRel, false) {
					continue
				}
				w.seen++
				if _, serr := os.Stat(childAbs); errors.Is(serr, syscall.ELOOP) {
					w.skip(SkipSymlinkLoop)
				} else {
					w.skip(SkipUnreadable)
				}
				continue
			}
			if !within(w.root, target) {
				if !ignored(ms, childRel, false) {
					w.seen++
					w.skip(SkipOutside)
				}
				continue
			}
			fi, err = os.Stat(target)
			if err != nil {
				w.seen++
				w.skip(SkipUnreadable)
				continue
			}
			childAbs = target
		} else {
			fi, err = e.Info()
			if err != nil {
				w.seen++
				w.skip(SkipUnreadable)
				continue
			}
		}
		if fi.IsDir() {
			if isLink && skippedDirs[name] {
				continue
			}
			if ignored(ms, childRel, true) || w.isIndexDir(childAbs) {
				continue
			}
			id, ok := idOf(fi)
			if ok {
				if ancestors[id] {
					w.seen++
					w.skip(SkipSymlinkLoop)
					continue
				}
				if w.visited[id] {
					continue // reached twice through links: index it once
				}
				w.visited[id] = true
				ancestors[id] = true
			}
			w.walkDir(childAbs, childRel, ms, ancestors)
			if ok {
				delete(ancestors, id)
			}
			continue
		}
		if ignored(ms, childRel, false) {
			continue
		}
		if lang.ForPath(name) == nil {
			w.unsupported++
			continue
		}
		w.seen++
		if !fi.Mode().IsRegular() {
			w.skip(SkipSpecial)
			continue
		}
		if fi.Size() > w.maxSize {
			w.skip(SkipTooLarge)
			continue
		}
		w.files = append(w.files, candidate{rel: childRel, abs: childAbs, size: fi.Size()})
	}
}

func (w *walker) isIndexDir(real string) bool {
	if w.indexDir == "" {
		return false
	}
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	}
	return real == w.indexDir
}

// within reports whether path is root or inside it.
func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}

// realPath returns the absolute path with symbolic links resolved as far
// as the path exists.
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	dir, base := filepath.Split(abs)
	if dir == abs || dir == "" {
		return abs
	}
	return filepath.Join(realPath(filepath.Clean(dir)), base)
}
