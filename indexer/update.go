package indexer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	ignore "github.com/sabhiram/go-gitignore"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/lang"
)

// SkippedDir reports whether a folder of this name is never indexed
// (version control, the default index folder, vendored dependencies,
// build output and caches).
func SkippedDir(name string) bool { return skippedDirs[name] }

// Rules decide, one path at a time, what a full Build's walk decides for
// the whole tree: skipped folders, the index folder and .gitignore files
// (with the walk's semantics, see ignored). A file watcher and Update use
// them so that the live index never takes a file a build would leave
// out. Rules are safe for concurrent use; compiled .gitignore files are
// cached and recompiled when they change.
type Rules struct {
	root     string // absolute repository root as given
	real     string // the same with symbolic links resolved
	indexDir string // real path of the index folder
	maxSize  int64

	mu    sync.Mutex
	cache map[string]ignoreFile // '/'-separated dir relative to the root -> its .gitignore
}

type ignoreFile struct {
	mod  time.Time
	size int64
	gi   *ignore.GitIgnore // nil: no .gitignore
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
		maxSize: maxSize, cache: map[string]ignoreFile{}}
}

// Root returns the repository root.
func (r *Rules) Root() string { return r.root }

// Rel returns the '/'-separated path of abs relative to the root, and
// false when abs is not inside it.
func (r *Rules) Rel(abs string) (string, bool) {
	abs = filepath.Clean(abs)
	for _, root := range []string{r.root, r.real} {
		if abs == root {
			return "", true
		}
		if within(root, abs) {
			rel, err := filepath.Rel(root, abs)
			if err == nil {
				return filepath.ToSlash(rel), true
			}
		}
	}
	return "", false
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
	var ms []matcher
	base := ""
	for i, name := range parts {
		last := i == len(parts)-1
		isDir := !last || dir
		if isDir && skippedDirs[name] || name == ".git" {
			return true
		}
		if gi := r.gitignore(base); gi != nil {
			ms = append(ms, matcher{base: base, gi: gi})
		}
		p := path.Join(base, name)
		if ignored(ms, p, isDir) {
			return true
		}
		if isDir && realPath(filepath.Join(r.root, filepath.FromSlash(p))) == r.indexDir {
			return true
		}
		base = p
	}
	return false
}

// gitignore returns the compiled .gitignore of the folder rel, or nil.
func (r *Rules) gitignore(rel string) *ignore.GitIgnore {
	p := filepath.Join(r.root, filepath.FromSlash(rel), ".gitignore")
	fi, err := os.Stat(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		delete(r.cache, rel)
		return nil
	}
	if c, ok := r.cache[rel]; ok && c.mod.Equal(fi.ModTime()) && c.size == fi.Size() {
		return c.gi
	}
	gi, err := ignore.CompileIgnoreFile(p)
	if err != nil {
		gi = nil
	}
	r.cache[rel] = ignoreFile{mod: fi.ModTime(), size: fi.Size(), gi: gi}
	return gi
}

// UpdateSummary reports an Update.
type UpdateSummary struct {
	// Generation is the published generation; Published is false when
	// nothing changed.
	Generation uint64 `json:"generation"`
	Published  bool   `json:"published"`
	// Indexed are the paths added or replaced, Removed those dropped
	// (relative, '/'-separated); both sorted.
	Indexed []string `json:"indexed"`
	Removed []string `json:"removed"`
	// Parsed counts the indexed files whose content was new to the index.
	Parsed  int     `json:"parsed"`
	Seconds float64 `json:"seconds"`
}

// Paths returns Indexed and Removed together.
func (s UpdateSummary) Paths() []string {
	return append(append([]string(nil), s.Indexed...), s.Removed...)
}

// Update re-indexes the given paths (absolute, or relative to the root)
// into the open index d and publishes a new generation: the published one
// with these paths replaced, added or removed. Nothing else is walked,
// read or hashed. A path that no longer exists, is left out by the rules
// (a .gitignore, a skipped folder) or is not an indexable file (no
// language, too large, binary, not UTF-8) is removed from the index; a
// folder that no longer exists removes every indexed file under it. The
// index must have been built already (see Build).
func Update(ctx context.Context, d *db.DB, r *Rules, paths []string) (UpdateSummary, error) {
	start := time.Now()
	snap, err := d.Snapshot()
	if err != nil {
		return UpdateSummary{}, fmt.Errorf("update index: %w", err)
	}
	meta := snap.Meta()
	indexed := snap.Files()
	snap.Close()

	type change struct {
		rel     string
		keep    bool // false: remove
		content []byte
	}
	var changes []change
	seen := map[string]bool{}
	inIndex := make(map[string]bool, len(indexed))
	for i := range indexed {
		inIndex[indexed[i].Path] = true
	}
	add := func(rel string, keep bool, content []byte) {
		if !keep && !inIndex[rel] {
			return // not indexed and not to be: nothing to do
		}
		if !seen[rel] {
			seen[rel] = true
			changes = append(changes, change{rel, keep, content})
		}
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.root, filepath.FromSlash(p))
		}
		rel, ok := r.Rel(p)
		if !ok || rel == "" {
			continue
		}
		fi, statErr := os.Stat(p)
		if statErr != nil || fi.IsDir() {
			// A folder gone (or left out): drop what the index holds under it.
			if statErr == nil && !r.SkipDir(p) {
				continue // an existing folder: its files are notified one by one
			}
			for i := range indexed {
				if strings.HasPrefix(indexed[i].Path, rel+"/") {
					add(indexed[i].Path, false, nil)
				}
			}
			add(rel, false, nil)
			continue
		}
		content, ok := r.readIndexable(p, rel, fi)
		add(rel, ok, content)
	}
	if len(changes) == 0 {
		return UpdateSummary{Generation: meta.Generation, Seconds: time.Since(start).Seconds()}, nil
	}

	b, err := db.NewBuilder(d, db.BuildOptions{Tokenizer: meta.Tokenizer, Hops: meta.Hops,
		MaxStatements: meta.MaxStatements, Root: meta.Root, Incremental: true})
	if err != nil {
		return UpdateSummary{}, fmt.Errorf("update index: %w", err)
	}
	var sum UpdateSummary
	for _, c := range changes {
		if !c.keep {
			b.Remove(c.rel)
			sum.Removed = append(sum.Removed, c.rel)
			continue
		}
		if err := b.Add(ctx, c.rel, c.content); err != nil {
			if ctx.Err() != nil || errors.Is(err, db.ErrStorage) {
				b.Abort()
				return UpdateSummary{}, fmt.Errorf("update index: %w", err)
			}
			b.Remove(c.rel) // a file that fails to index is left out, as Build does
			sum.Removed = append(sum.Removed, c.rel)
			continue
		}
		sum.Indexed = append(sum.Indexed, c.rel)
	}
	ds, err := b.Finish(ctx)
	if err != nil {
		return UpdateSummary{}, fmt.Errorf("update index: %w", err)
	}
	slices.Sort(sum.Indexed)
	slices.Sort(sum.Removed)
	sum.Generation, sum.Published, sum.Parsed = ds.Generation, ds.Published, ds.Parsed
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

// readIndexable returns the content of the file at abs when Build would
// index it, and nil otherwise.
func (r *Rules) readIndexable(abs, rel string, fi fs.FileInfo) ([]byte, bool) {
	if r.excluded(rel, false) || lang.ForPath(rel) == nil || !fi.Mode().IsRegular() || fi.Size() > r.maxSize {
		return nil, false
	}
	if lfi, err := os.Lstat(abs); err == nil && lfi.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(abs)
		if err != nil || !within(r.real, target) {
			return nil, false
		}
	}
	content, err := readFile(abs)
	if err != nil || int64(len(content)) > r.maxSize {
		return nil, false
	}
	if bytes.IndexByte(content[:min(len(content), 8<<10)], 0) >= 0 || !utf8.Valid(content) {
		return nil, false
	}
	return content, true
}
