package db

import (
	"context"
	"errors"
	"hash/fnv"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/graphcoder/graphcoder/embed"
)

// fakeEmbedder embeds a text as a few numbers derived from its hash; it
// fails every request after the first okCalls (when okCalls >= 0).
type fakeEmbedder struct {
	mu      sync.Mutex
	calls   int
	okCalls int
	texts   []string
	dim     int
}

func (f *fakeEmbedder) Name() string { return "fake:model" }

func fakeVector(text string, dim int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(text))
	x := h.Sum64()
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(int64(x>>(i%8*8))&0xff) - 100
	}
	return v
}

func (f *fakeEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.okCalls >= 0 && f.calls >= f.okCalls {
		return nil, errors.New("server gone")
	}
	f.calls++
	f.texts = append(f.texts, texts...)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = fakeVector(t, f.dim)
	}
	return out, nil
}

func vectorCount(t *testing.T, d *DB) int {
	n := 0
	d.bdb.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefixVectors})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			n++
		}
		return nil
	})
	return n
}

func TestEmbedStoresSliceVectors(t *testing.T) {
	d := openTest(t, t.TempDir())
	files := map[string]string{"a.fk": "a = 1\nb = a\n\nc = b", "b.fk": "x = 2", "c.fk": "p = 1\nq = p"}
	build(t, d, files)
	fe := &fakeEmbedder{okCalls: -1, dim: 6}
	sum, err := d.Embed(context.Background(), EmbedOptions{Embedder: fe, Batch: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	// a.fk: entries of "a = 1" (empty slice text: no vector), "b = a"
	// (text "a = 1"), "c = b" ("a = 1\nb = a"); b.fk: none; c.fk: one.
	if sum.Files != 3 || sum.Embedded != 3 || sum.Entries != 3 || sum.Dim != 6 || sum.Model != "fake:model" || sum.Bytes == 0 {
		t.Fatalf("summary %+v", sum)
	}
	if !slices.Contains(fe.texts, "a = 1\nb = a") || slices.Contains(fe.texts, "") {
		t.Errorf("texts embedded: %q", fe.texts)
	}
	snap, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	vs, err := snap.Vectors("a.fk", "fake:model")
	if err != nil || len(vs) != 3 {
		t.Fatalf("vectors of a.fk: %v, %v", vs, err)
	}
	if len(vs[0].Values) != 0 || !slices.Equal(vs[2].Values, embed.Quantize(fakeVector("a = 1\nb = a", 6)).Values) {
		t.Errorf("vectors of a.fk: %+v", vs)
	}
	if vs, err := snap.Vectors("a.fk", "other:model"); vs != nil || err != nil {
		t.Errorf("another model's vectors: %v, %v", vs, err)
	}
	snap.Close()

	// Nothing to do the second time.
	fe.calls = 0
	sum, err = d.Embed(context.Background(), EmbedOptions{Embedder: fe})
	if err != nil || sum.Embedded != 0 || sum.Reused != 3 || fe.calls != 0 || sum.Dim != 6 {
		t.Fatalf("second run: %+v, %v, %d calls", sum, err, fe.calls)
	}

	// A build replacing a.fk and dropping b.fk collects their vectors;
	// c.fk's stay.
	build(t, d, map[string]string{"a.fk": "a = 9\nb = a", "c.fk": "p = 1\nq = p"})
	if n := vectorCount(t, d); n != 1 {
		t.Fatalf("%d vector records after the rebuild, want c.fk's only", n)
	}
	sum, err = d.Embed(context.Background(), EmbedOptions{Embedder: fe})
	if err != nil || sum.Embedded != 1 || sum.Reused != 1 {
		t.Fatalf("after the rebuild: %+v, %v", sum, err)
	}
}

// TestEmbedFailureMidway: a server that fails after some requests gives a
// clear error; the files done keep their vectors, the graph index is
// untouched, and the next run embeds only the rest.
func TestEmbedFailureMidway(t *testing.T) {
	d := openTest(t, t.TempDir())
	files := map[string]string{}
	for _, p := range []string{"a", "b", "c", "d", "e", "f"} {
		files[p+".fk"] = p + "1 = 1\n" + p + "2 = " + p + "1\n" + p + "3 = " + p + "2"
	}
	build(t, d, files)
	before := snapshotFiles(t, d)
	fe := &fakeEmbedder{okCalls: 3, dim: 4}
	sum, err := d.Embed(context.Background(), EmbedOptions{Embedder: fe, Batch: 100, Workers: 1})
	if err == nil || !strings.Contains(err.Error(), "server gone") || !strings.Contains(err.Error(), "3 of 6 files have vectors") {
		t.Fatalf("error %v", err)
	}
	if sum.Embedded != 3 || vectorCount(t, d) != 3 {
		t.Fatalf("summary %+v, %d records", sum, vectorCount(t, d))
	}
	after := snapshotFiles(t, d)
	if len(after) != len(before) {
		t.Fatalf("the graph index changed: %d files, %d before", len(after), len(before))
	}
	fe.okCalls = -1
	sum, err = d.Embed(context.Background(), EmbedOptions{Embedder: fe})
	if err != nil || sum.Embedded != 3 || sum.Reused != 3 {
		t.Fatalf("second run: %+v, %v", sum, err)
	}
	// Another dimension from the same model name is refused.
	build(t, d, map[string]string{"z.fk": "z = 1\ny = z"})
	fe.dim = 5
	if _, err := d.Embed(context.Background(), EmbedOptions{Embedder: fe}); err != nil {
		t.Fatalf("a fresh generation: %v", err)
	}
}

func TestEmbedRefusals(t *testing.T) {
	d := openTest(t, t.TempDir())
	if _, err := d.Embed(context.Background(), EmbedOptions{}); err == nil {
		t.Error("no embedder accepted")
	}
	if _, err := d.Embed(context.Background(), EmbedOptions{Embedder: &fakeEmbedder{dim: 2}}); !errors.Is(err, ErrNoIndex) {
		t.Errorf("no index: %v", err)
	}
	build(t, d, map[string]string{"a.fk": "a = 1\nb = a"})
	b := testBuilder(t, d, BuildOptions{})
	if _, err := d.Embed(context.Background(), EmbedOptions{Embedder: &fakeEmbedder{okCalls: -1, dim: 2}}); err == nil || !strings.Contains(err.Error(), "build is in progress") {
		t.Errorf("during a build: %v", err)
	}
	b.Abort()
	build(t, d, map[string]string{"a.fk": "a = 1\nb = a", "b.fk": "c = 1\nd = c"})
	fe := &fakeEmbedder{okCalls: -1, dim: 2}
	if _, err := d.Embed(context.Background(), EmbedOptions{Embedder: fe}); err != nil {
		t.Fatal(err)
	}
	build(t, d, map[string]string{"a.fk": "a = 1\nb = a", "b.fk": "c = 1\nd = c", "c.fk": "e = 1\nf = e"})
	fe.dim = 3
	if _, err := d.Embed(context.Background(), EmbedOptions{Embedder: fe}); err == nil || !strings.Contains(err.Error(), "dimensions") {
		t.Errorf("another dimension: %v", err)
	}
}

func TestVectorRecordRoundTripAndDamage(t *testing.T) {
	vs := []embed.Vector{embed.Quantize([]float32{1, -2, 3}), {}, embed.Quantize([]float32{0, 0, 1})}
	b := encodeVectors(3, vs)
	got, dim, err := decodeVectors(b)
	if err != nil || dim != 3 || len(got) != 3 || len(got[1].Values) != 0 || !slices.Equal(got[0].Values, vs[0].Values) || got[2].Scale != vs[2].Scale {
		t.Fatalf("round trip: %+v %d %v", got, dim, err)
	}
	for i := range b {
		bad := slices.Clone(b)
		bad[i] ^= 0x10
		if _, _, err := decodeVectors(bad); err == nil {
			t.Fatalf("flipped byte %d accepted", i)
		}
	}
	if _, _, err := decodeVectors(b[:len(b)-5]); err == nil {
		t.Fatal("truncated record accepted")
	}
	if got, dim, err := decodeVectors(encodeVectors(0, []embed.Vector{{}, {}})); err != nil || dim != 0 || len(got) != 2 {
		t.Fatalf("no vectors: %v %d %v", got, dim, err)
	}
}

func FuzzDecodeVectors(f *testing.F) {
	f.Add(encodeVectors(3, []embed.Vector{embed.Quantize([]float32{1, 2, 3}), {}}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		vs, dim, err := decodeVectors(b)
		if err == nil {
			for _, v := range vs {
				if len(v.Values) != 0 && len(v.Values) != dim {
					t.Fatalf("vector of %d values, dim %d", len(v.Values), dim)
				}
			}
		}
	})
}

func TestCorruptVectorsInIndex(t *testing.T) {
	d := openTest(t, t.TempDir())
	build(t, d, map[string]string{"a.fk": "a = 1\nb = a"})
	if _, err := d.Embed(context.Background(), EmbedOptions{Embedder: &fakeEmbedder{okCalls: -1, dim: 4}}); err != nil {
		t.Fatal(err)
	}
	err := d.bdb.Update(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefixVectors})
		defer it.Close()
		it.Rewind()
		k := it.Item().KeyCopy(nil)
		v, _ := it.Item().ValueCopy(nil)
		v[len(v)/2] ^= 1
		return txn.Set(k, v)
	})
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := d.Snapshot()
	defer snap.Close()
	if _, err := snap.Vectors("a.fk", "fake:model"); !errors.Is(err, errVectors) || !strings.Contains(err.Error(), "a.fk") {
		t.Errorf("damaged vectors: %v", err)
	}
	if _, err := snap.Load("a.fk"); err != nil {
		t.Errorf("the blob beside damaged vectors: %v", err)
	}
}
