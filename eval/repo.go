package eval

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/graphcoder/graphcoder/lang"
)

// maxFileBytes skips files larger than this, as the index builder does.
const maxFileBytes = 1 << 20

// skipDirs are folders of vendored, generated or tool data.
var skipDirs = map[string]bool{
	"node_modules": true, "vendor": true, "build": true, "dist": true,
	"__pycache__": true, "target": true, "site-packages": true,
}

// repoFile is one parsed source file of the repository.
type repoFile struct {
	rel   string // slash path relative to the root
	file  *lang.File
	lines []string
	src   []byte
}

// loadRepo parses every file of language l under root, in path order.
// Files that do not parse are skipped and counted.
func loadRepo(ctx context.Context, root string, l *lang.Language) ([]repoFile, int, error) {
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // unreadable entries are skipped
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (strings.HasPrefix(name, ".") || skipDirs[name]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || lang.ForPath(p) != l {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > maxFileBytes {
			return nil
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("walk %s: %w", root, err)
	}
	slices.Sort(paths)
	parser := l.NewParser()
	var files []repoFile
	skipped := 0
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			skipped++
			continue
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			skipped++
			continue
		}
		rel = filepath.ToSlash(rel)
		f, err := parser.Parse(ctx, rel, src)
		if err != nil {
			if ctx.Err() != nil {
				return nil, 0, ctx.Err()
			}
			skipped++
			continue
		}
		lines := f.Lines
		if lines == nil {
			lines = strings.Split(string(src), "\n")
		}
		files = append(files, repoFile{rel: rel, file: f, lines: lines, src: src})
	}
	return files, skipped, nil
}
