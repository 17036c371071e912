package db

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// TestIncrementalBuild publishes a generation from the previous manifest
// plus a few replaced, added and removed paths.
func TestIncrementalBuild(t *testing.T) {
	ctx := context.Background()
	d := openTest(t, t.TempDir())
	build(t, d, map[string]string{"a.fk": "a = 1\nb = a", "b.fk": "c = 3", "c.fk": "d = 4\ne = d"})

	b := testBuilder(t, d, BuildOptions{Incremental: true})
	if err := b.Add(ctx, "b.fk", []byte("c = 33\nf = c")); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(ctx, "new.fk", []byte("g = 7")); err != nil {
		t.Fatal(err)
	}
	b.Remove("c.fk")
	b.Remove("never-indexed.fk")
	s, err := b.Finish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Published || s.Generation != 2 || s.Parsed != 2 || s.Files != 3 || s.Removed != 1 || s.CollectedBlobs != 2 {
		t.Errorf("summary = %+v", s)
	}
	got := snapshotFiles(t, d)
	if len(got) != 3 || got["c.fk"] != nil || got["a.fk"] == nil {
		t.Fatalf("files after the update: %v", got)
	}
	if l := got["b.fk"].Lines; !reflect.DeepEqual(l, []string{"c = 33", "f = c"}) {
		t.Errorf("b.fk = %q", l)
	}
	snap, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if m := snap.Meta(); m.Root != "/repo" || m.Files != 3 || m.Statements != 5 {
		t.Errorf("meta = %+v", m)
	}
	snap.Close()
	if n := blobCount(t, d); n != 3 {
		t.Errorf("%d blobs stored, want 3", n)
	}

	// Nothing changed: nothing published.
	b = testBuilder(t, d, BuildOptions{Incremental: true})
	if err := b.Add(ctx, "new.fk", []byte("g = 7")); err != nil {
		t.Fatal(err)
	}
	if s, err := b.Finish(ctx); err != nil || s.Published || s.Generation != 2 {
		t.Errorf("unchanged update: %+v, %v", s, err)
	}

	// Other parameters cannot continue the published generation.
	if _, err := NewBuilder(d, BuildOptions{Incremental: true, Hops: 2}); !errors.Is(err, ErrNotIncremental) {
		t.Errorf("incremental build with other parameters: %v", err)
	}
}
