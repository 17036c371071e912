package indexer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/graphcoder/graphcoder/lang"
)

// The file policy: what graphcoder reads as a source file, for the build,
// the live index, completion and the evaluation alike.
var (
	// ErrOutsideRepo reports a path that does not lie inside the
	// repository, or a link that leads out of it.
	ErrOutsideRepo = errors.New("path is outside the repository")
	// ErrNotRegular reports a folder, FIFO, socket or device.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge reports a file over the size limit, or over the limits
	// of what one file may hold (lang.MaxStatements, lang.MaxSyntaxNodes).
	ErrTooLarge = lang.ErrTooLarge
	// ErrBinary reports content with a NUL byte.
	ErrBinary = errors.New("binary file")
	// ErrNotUTF8 reports content that is not valid UTF-8.
	ErrNotUTF8 = errors.New("not UTF-8 text")
)

// CheckText reports whether content is text graphcoder indexes and
// completes in: valid UTF-8 without NUL bytes (anywhere in the file).
func CheckText(content []byte) error {
	if bytes.IndexByte(content, 0) >= 0 {
		return ErrBinary
	}
	if !utf8.Valid(content) {
		return ErrNotUTF8
	}
	return nil
}

// CheckSize reports whether content of n bytes is within maxSize (0 means
// DefaultMaxFileSize).
func CheckSize(n, maxSize int64) error {
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	if n > maxSize {
		return fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, n, maxSize)
	}
	return nil
}

// ReadFile reads the source file at path: a regular file (links followed)
// of at most maxSize bytes (0 means DefaultMaxFileSize) holding text
// (CheckText). A FIFO, socket or device is refused without being read, so
// reading never blocks on a pipe nor streams a device; a file that grows
// past the limit while it is read is refused too. Errors wrap the
// package's Err values or the file system's.
func ReadFile(path string, maxSize int64) ([]byte, error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	if err := CheckSize(fi.Size(), maxSize); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// O_NONBLOCK: should the file have been replaced by a FIFO since the
	// Stat, opening it does not wait for a writer; the Stat of the open
	// file below then refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	buf := bytes.NewBuffer(make([]byte, 0, min(fi.Size(), maxSize)+1))
	if _, err := buf.ReadFrom(io.LimitReader(f, maxSize+1)); err != nil {
		return nil, err
	}
	content := buf.Bytes()
	if err := CheckSize(int64(len(content)), maxSize); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := CheckText(content); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return content, nil
}

// RelPath returns the '/'-separated name inside the repository at root of
// path (absolute, or relative to root), as the build's walk names files:
// the folders of the path are resolved through their links, its last
// element is not (a link inside the repository names itself). A path whose
// folders lead out of the repository, and the root itself, are
// ErrOutsideRepo. Whether reading the file would follow a link out of the
// repository is ReadRepoFile's concern.
func RelPath(root, path string) (string, error) {
	if path == "" {
		return "", fmt.Errorf("empty path: %w", ErrOutsideRepo)
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("repository root: %w", err)
	}
	p := filepath.FromSlash(path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(absRoot, p)
	}
	dir, name := filepath.Split(filepath.Clean(p))
	if rel, ok := inside(realPath(absRoot), filepath.Join(realPath(dir), name)); ok {
		return rel, nil
	}
	return "", fmt.Errorf("%s: %w %s", path, ErrOutsideRepo, absRoot)
}

// inside returns the '/'-separated path of p below root, when p lies
// strictly inside root.
func inside(root, p string) (string, bool) {
	if !within(root, p) || p == root {
		return "", false
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// ReadRepoFile reads the file named rel (see RelPath) of the repository at
// root with ReadFile, refusing with ErrOutsideRepo a path whose links lead
// out of the repository, as the build's walk does.
func ReadRepoFile(root, rel string, maxSize int64) ([]byte, error) {
	abs, err := filepath.Abs(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	if _, ok := inside(realPath(root), target); !ok {
		return nil, fmt.Errorf("%s leads to %s: %w", rel, target, ErrOutsideRepo)
	}
	return ReadFile(target, maxSize)
}

// skipReason maps a ReadFile error to the Summary.Skipped reason.
func skipReason(err error) string {
	switch {
	case errors.Is(err, ErrNotRegular):
		return SkipSpecial
	case errors.Is(err, ErrTooLarge):
		return SkipTooLarge
	case errors.Is(err, ErrBinary):
		return SkipBinary
	case errors.Is(err, ErrNotUTF8):
		return SkipNotUTF8
	case errors.Is(err, ErrOutsideRepo):
		return SkipOutside
	case errors.Is(err, syscall.ELOOP):
		return SkipSymlinkLoop
	case errors.Is(err, fs.ErrNotExist):
		return SkipUnreadable
	}
	return SkipUnreadable
}

// within reports whether path is root or inside it.
func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator)) || root == string(filepath.Separator)
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
