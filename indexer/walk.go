package indexer

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/graphcoder/graphcoder/lang"
)

// Skip reasons, the keys of Summary.Skipped.
const (
	SkipBinary      = "binary"
	SkipNotUTF8     = "not_utf8"
	SkipBadName     = "name_not_utf8"
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

// Rules are the repository's file rules: the folders never indexed, the
// index folder, the .gitignore files (with git's semantics, see
// ignoreFile; .git/info/exclude below them all), the size limit and the
// file checks of ReadFile. Walk applies them to a whole tree for a build,
// the evaluation and a file watcher; SkipDir, Ignored and Update apply
// them one path at a time, so that the live index never takes a file a
// build would leave out. Rules are safe for concurrent use; compiled
// .gitignore files are cached and read again when they change.
type Rules struct {
	root     string // absolute repository root as given
	real     string // the same with symbolic links resolved
	indexDir string // real path of the index folder
	maxSize  int64

	mu    sync.Mutex
	cache map[string]cachedIgnore // '/'-separated folder relative to the root -> its .gitignore
}

type cachedIgnore struct {
	mod  time.Time
	size int64
	f    *ignoreFile // nil: no .gitignore
}

// NewRules returns the rules of the repository at repo, whose index lives
// in indexDir ("" means repo/.graphcoder). maxSize is the largest file
// indexed (0 means DefaultMaxFileSize).
func NewRules(repo, indexDir string, maxSize int64) *Rules {
	abs, err := filepath.Abs(repo)
	if err != nil {
		abs = repo
	}
	if indexDir == "" {
		indexDir = filepath.Join(abs, ".graphcoder")
	}
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	return &Rules{root: filepath.Clean(abs), real: realPath(abs), indexDir: realPath(indexDir),
		maxSize: maxSize, cache: map[string]cachedIgnore{}}
}

// Root returns the repository root.
func (r *Rules) Root() string { return r.root }

// Rel returns the '/'-separated path of abs relative to the root (see
// RelPath), and false when abs is not inside it. The root itself is "".
func (r *Rules) Rel(abs string) (string, bool) {
	abs = filepath.Clean(abs)
	if abs == r.root || abs == r.real {
		return "", true
	}
	rel, err := RelPath(r.root, abs)
	return rel, err == nil
}

// SkipDir reports whether the folder at abs (or any folder above it inside
// the repository) is left out of the index: a skipped name, the index
// folder, or ignored by a .gitignore. The root itself is never skipped;
// a folder outside the repository always is.
func (r *Rules) SkipDir(abs string) bool {
	rel, ok := r.Rel(abs)
	if !ok {
		return true
	}
	return rel != "" && r.excluded(rel, true)
}

// Ignored reports whether the file at abs is left out by a folder rule or
// a .gitignore, or lies outside the repository. It does not look at the
// file itself (language, size, content); Update does.
func (r *Rules) Ignored(abs string) bool {
	rel, ok := r.Rel(abs)
	if !ok || rel == "" {
		return true
	}
	return r.excluded(rel, false)
}

// excluded applies the rules to rel and every folder above it.
func (r *Rules) excluded(rel string, dir bool) bool {
	parts := strings.Split(rel, "/")
	stack := r.rootIgnores()
	base := ""
	for i, name := range parts {
		isDir := i < len(parts)-1 || dir
		if isDir && skippedDirs[name] || name == ".git" {
			return true
		}
		if f := r.gitignore(base); f != nil {
			stack = append(stack, f)
		}
		p := path.Join(base, name)
		if ignoredBy(stack, p, isDir) {
			return true
		}
		if isDir && realPath(filepath.Join(r.root, filepath.FromSlash(p))) == r.indexDir {
			return true
		}
		base = p
	}
	return false
}

// rootIgnores returns the ignore files below every .gitignore: the
// repository's .git/info/exclude.
func (r *Rules) rootIgnores() []*ignoreFile {
	if f := r.cached(filepath.Join(r.root, ".git", "info", "exclude"), "\x00exclude", ""); f != nil {
		return []*ignoreFile{f}
	}
	return nil
}

// gitignore returns the compiled .gitignore of the folder rel, or nil.
func (r *Rules) gitignore(rel string) *ignoreFile {
	return r.cached(filepath.Join(r.root, filepath.FromSlash(rel), ".gitignore"), rel, rel)
}

// cached returns the compiled ignore file at p (of folder base), read again
// when it changed.
func (r *Rules) cached(p, key, base string) *ignoreFile {
	fi, err := os.Stat(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil || !fi.Mode().IsRegular() {
		delete(r.cache, key)
		return nil
	}
	if c, ok := r.cache[key]; ok && c.mod.Equal(fi.ModTime()) && c.size == fi.Size() {
		return c.f
	}
	f := readIgnore(p, base)
	r.cache[key] = cachedIgnore{mod: fi.ModTime(), size: fi.Size(), f: f}
	return f
}

// File is a file a walk selected for indexing.
type File struct {
	Rel  string // '/'-separated, relative to the repository root
	Abs  string // the file to read (a link's target)
	Size int64
}

// WalkResult is what a walk found.
type WalkResult struct {
	// Files are the files to index, in path order.
	Files []File
	// Dirs are the folders walked (real paths), the start first.
	Dirs []string
	// Skipped counts the files left out, by reason (the Skip constants).
	Skipped map[string]int
	// Seen counts the files of a registered language considered (not
	// those under ignored or skipped folders).
	Seen int
	// Unsupported counts files no language handles.
	Unsupported int
}

// Walk walks the folder at abs (the root, or a folder inside the
// repository) with the rules: it leaves out skipped, ignored and index
// folders, files of no language (counted in Unsupported), special files,
// files over the size limit, names that are not UTF-8, links that leave
// the repository and link loops; a folder reached twice through links is
// walked once. Content is not read (ReadFile checks it). A start folder the
// rules leave out gives an empty result. Walk stops early, with ctx's
// error, when ctx is done.
func (r *Rules) Walk(ctx context.Context, abs string) (*WalkResult, error) {
	w := &walker{rules: r, ctx: ctx, res: &WalkResult{Skipped: map[string]int{}}, visited: map[fileID]bool{}}
	abs, err := filepath.Abs(abs)
	if err != nil {
		return nil, err
	}
	rel, ok := r.Rel(abs)
	if !ok || (rel != "" && r.excluded(rel, true)) {
		return w.res, ctx.Err()
	}
	start := realPath(abs)
	st, err := os.Stat(start)
	if err != nil {
		return nil, err
	}
	// The ignore files of the folders above the start.
	stack := r.rootIgnores()
	base := ""
	if rel != "" {
		for _, name := range strings.Split(rel, "/") {
			if f := r.gitignore(base); f != nil {
				stack = append(stack, f)
			}
			base = path.Join(base, name)
		}
	}
	anc := map[fileID]bool{}
	if id, ok := idOf(st); ok {
		anc[id], w.visited[id] = true, true
	}
	w.walkDir(start, rel, stack, anc)
	return w.res, ctx.Err()
}

type walker struct {
	rules   *Rules
	ctx     context.Context
	res     *WalkResult
	visited map[fileID]bool
}

type fileID struct{ dev, ino uint64 }

func idOf(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}

func (w *walker) skip(reason string) { w.res.Seen++; w.res.Skipped[reason]++ }

// walkDir visits the folder at abs (a real path), known to the repository
// as rel. ancestors holds the identities of the folders on the current
// path, to detect loops through symbolic links.
func (w *walker) walkDir(abs, rel string, stack []*ignoreFile, ancestors map[fileID]bool) {
	if w.ctx.Err() != nil {
		return
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		w.skip(SkipUnreadable)
		return
	}
	w.res.Dirs = append(w.res.Dirs, abs)
	if f := w.rules.gitignore(rel); f != nil {
		stack = append(stack[:len(stack):len(stack)], f)
	}
	r := w.rules
	for _, e := range entries {
		name := e.Name()
		childAbs := filepath.Join(abs, name)
		childRel := path.Join(rel, name)
		if e.IsDir() && skippedDirs[name] || name == ".git" {
			continue
		}
		isLink := e.Type()&fs.ModeSymlink != 0
		var fi fs.FileInfo
		if isLink {
			target, err := filepath.EvalSymlinks(childAbs)
			if err != nil {
				if ignoredBy(stack, childRel, false) {
					continue
				}
				if _, serr := os.Stat(childAbs); errors.Is(serr, syscall.ELOOP) {
					w.skip(SkipSymlinkLoop)
				} else {
					w.skip(SkipUnreadable)
				}
				continue
			}
			if !within(r.real, target) {
				if !ignoredBy(stack, childRel, false) {
					w.skip(SkipOutside)
				}
				continue
			}
			if fi, err = os.Stat(target); err != nil {
				w.skip(SkipUnreadable)
				continue
			}
			childAbs = target
		} else if fi, err = e.Info(); err != nil {
			w.skip(SkipUnreadable)
			continue
		}
		if fi.IsDir() {
			if isLink && skippedDirs[name] || ignoredBy(stack, childRel, true) || w.isIndexDir(childAbs) {
				continue
			}
			id, ok := idOf(fi)
			if ok {
				if ancestors[id] {
					w.skip(SkipSymlinkLoop)
					continue
				}
				if w.visited[id] {
					continue // reached twice through links: walk it once
				}
				w.visited[id] = true
				ancestors[id] = true
			}
			w.walkDir(childAbs, childRel, stack, ancestors)
			if ok {
				delete(ancestors, id)
			}
			continue
		}
		if ignoredBy(stack, childRel, false) {
			continue
		}
		if lang.ForPath(name) == nil {
			w.res.Unsupported++
			continue
		}
		switch {
		case !utf8.ValidString(childRel):
			w.skip(SkipBadName)
		case !fi.Mode().IsRegular():
			w.skip(SkipSpecial)
		case fi.Size() > r.maxSize:
			w.skip(SkipTooLarge)
		default:
			w.res.Seen++
			w.res.Files = append(w.res.Files, File{Rel: childRel, Abs: childAbs, Size: fi.Size()})
		}
	}
}

func (w *walker) isIndexDir(real string) bool {
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	}
	return real == w.rules.indexDir
}
