package eval

import (
	"context"
	"fmt"

	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/lang"
)

// repoFile is one parsed source file of the repository.
type repoFile struct {
	rel   string // slash path relative to the root
	file  *lang.File
	lines []string
	src   []byte
}

// loadRepo parses every file of language l that graphcoder build would
// index in the repository at root (the same walk: .gitignore, skipped
// folders, the index folder indexDir, the size limit and the file
// checks), in path order. Files that cannot be read or parsed are skipped
// and counted.
func loadRepo(ctx context.Context, root, indexDir string, l *lang.Language) ([]repoFile, int, error) {
	w, err := indexer.NewRules(root, indexDir, 0).Walk(ctx, root)
	if err != nil {
		return nil, 0, fmt.Errorf("walk %s: %w", root, err)
	}
	var files []repoFile
	skipped := 0
	for _, f := range w.Files {
		if lang.ForPath(f.Rel) != l {
			continue
		}
		src, err := indexer.ReadRepoFile(root, f.Rel, 0)
		if err != nil {
			skipped++
			continue
		}
		pf, err := l.Parse(ctx, f.Rel, src)
		if err != nil {
			if ctx.Err() != nil {
				return nil, 0, ctx.Err()
			}
			skipped++
			continue
		}
		files = append(files, repoFile{rel: f.Rel, file: pf, lines: pf.Lines, src: src})
	}
	return files, skipped, nil
}
