package server

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/fsnotify/fsnotify"

	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/lang"
)

// WatchOptions configure [Watch].
type WatchOptions struct {
	// Rules are the repository's file rules: the watcher walks the tree
	// with them (indexer.Rules.Walk), so it watches exactly the folders a
	// build walks and reports only changes to files a build could take.
	// Required.
	Rules *indexer.Rules
	// Notify receives the absolute path of each changed file. A removed
	// or renamed path is notified whatever it was, since it may have been
	// a folder holding indexed files.
	Notify func(path string)
	// Logger receives watcher errors (default: discarded).
	Logger *log.Logger
}

// Watch watches the repository of opts.Rules with fsnotify until ctx is
// done, adding watches for folders created later. It returns once the
// initial watches are set; the returned function waits for the watcher to
// stop.
func Watch(ctx context.Context, opts WatchOptions) (wait func(), err error) {
	if opts.Notify == nil || opts.Rules == nil {
		return nil, errors.New("watch: Rules and Notify are required")
	}
	if opts.Logger == nil {
		opts.Logger = log.New(discard{}, "", 0)
	}
	root := opts.Rules.Root()
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	// addTree watches the folders of the tree at dir and returns its files.
	addTree := func(dir string) ([]string, error) {
		tree, err := opts.Rules.Walk(ctx, dir)
		if err != nil {
			return nil, err
		}
		for _, d := range tree.Dirs {
			if err := w.Add(d); err != nil {
				opts.Logger.Printf("watch %s: %v", d, err)
			}
		}
		files := make([]string, len(tree.Files))
		for i, f := range tree.Files {
			files[i] = filepath.Join(root, filepath.FromSlash(f.Rel))
		}
		return files, nil
	}
	if _, err := addTree(root); err != nil {
		w.Close()
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	match := func(p string) bool { return lang.ForPath(p) != nil && !opts.Rules.Ignored(p) }
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
						// A folder that appeared whole (moved in, or
						// created with content before its watch was set).
						files, err := addTree(ev.Name)
						if err != nil {
							opts.Logger.Printf("watch %s: %v", ev.Name, err)
						}
						for _, f := range files {
							opts.Notify(f)
						}
						continue
					}
				}
				gone := ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
				if gone || match(ev.Name) {
					opts.Notify(ev.Name)
				}
			}
		}
	}()
	return func() { <-done }, nil
}
