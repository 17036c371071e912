package indexer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/snapfile"
)

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
		MaxStatements: meta.MaxStatements, Root: meta.Root, Incremental: true, Snapshot: snapfile.Writer{}})
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
	if r.excluded(rel, false) || lang.ForPath(rel) == nil || !fi.Mode().IsRegular() ||
		fi.Size() > r.maxSize || !utf8.ValidString(rel) {
		return nil, false
	}
	content, err := readSource(r.root, rel, r.maxSize)
	if err != nil {
		return nil, false
	}
	return content, true
}
