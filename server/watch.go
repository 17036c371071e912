package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"

	"github.com/fsnotify/fsnotify"
)

// WatchOptions configure [Watch].
type WatchOptions struct {
	// Root is the directory watched recursively.
	Root string
	// SkipDir reports directories (absolute paths) not to watch: pass the
	// indexer's rules (indexer.Rules.SkipDir) so that the watcher leaves
	// out exactly the folders a build does. Default: none.
	SkipDir func(path string) bool
	// Match reports the files whose changes matter (default: all). A
	// removed or renamed path is notified whatever Match says, since it
	// may have been a folder holding indexed files.
	Match func(path string) bool
	// Notify receives the absolute path of each changed file.
	Notify func(path string)
	// Logger receives watcher errors (default: discarded).
	Logger *log.Logger
}

// Watch watches a directory tree with fsnotify until ctx is done, adding
// watches for directories created later. It returns once the initial
// watches are set; the returned function waits for the watcher to stop.
func Watch(ctx context.Context, opts WatchOptions) (wait func(), err error) {
	if opts.Notify == nil {
		return nil, errors.New("watch: nil Notify")
	}
	if opts.Logger == nil {
		opts.Logger = log.New(discard{}, "", 0)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", opts.Root, err)
	}
	skip := func(path string) bool { return opts.SkipDir != nil && opts.SkipDir(path) }
	addTree := func(root string) error {
		return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root {
					return err
				}
				return nil // an unreadable subfolder is not fatal
			}
			if !d.IsDir() {
				return nil
			}
			if p != root && skip(p) {
				return filepath.SkipDir
			}
			if err := w.Add(p); err != nil {
				opts.Logger.Printf("watch %s: %v", p, err)
			}
			return nil
		})
	}
	if err := addTree(opts.Root); err != nil {
		w.Close()
		return nil, fmt.Errorf("watch %s: %w", opts.Root, err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer w.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				opts.Logger.Printf("watch: %v", err)
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Has(fsnotify.Chmod) && !ev.Has(fsnotify.Write) {
					continue
				}
				if ev.Has(fsnotify.Create) {
					if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
						if !skip(ev.Name) {
							_ = addTree(ev.Name)
							notifyTree(ev.Name, opts)
						}
						continue
					}
				}
				gone := ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
				if gone || opts.Match == nil || opts.Match(ev.Name) {
					opts.Notify(ev.Name)
				}
			}
		}
	}()
	return func() { <-done }, nil
}

// notifyTree reports the files of a directory that appeared whole (moved
// in, or created with content before its watch was set).
func notifyTree(root string, opts WatchOptions) {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root && opts.SkipDir != nil && opts.SkipDir(p) {
				return filepath.SkipDir
			}
			return nil
		}
		if opts.Match == nil || opts.Match(p) {
			opts.Notify(p)
		}
		return nil
	})
}
