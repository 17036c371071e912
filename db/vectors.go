package db

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/dgraph-io/badger/v4"
	"golang.org/x/sync/errgroup"

	"github.com/graphcoder/graphcoder/embed"
)

// Dense vectors (spec section 9) are optional and stored apart from the
// file blobs, one key per blob and embeddings model (see the layout in
// doc.go), so that an index is complete and usable without them, a build
// without an embeddings server never touches them, and vectors computed
// before a failure stay for the next run.

var prefixVectors = []byte("v/")

// vectorKey returns the key of the vectors of the blob at blobKey for the
// model: "v/" + the blob key without its "f/" + 0x00 + the model.
func vectorKey(blobKey []byte, model string) []byte {
	k := append(append([]byte(nil), prefixVectors...), blobKey[len(prefixBlob):]...)
	k = append(k, 0)
	return append(k, model...)
}

// blobKeyOfVector returns the blob key a vector key belongs to.
func blobKeyOfVector(k []byte) ([]byte, bool) {
	i := bytes.LastIndexByte(k, 0) // the hash may hold zeros, the model name none
	if !bytes.HasPrefix(k, prefixVectors) || i < 0 {
		return nil, false
	}
	return append(append([]byte(nil), prefixBlob...), k[len(prefixVectors):i]...), true
}

// encodeVectors writes the vectors of a file's entries: uv dim, uv count,
// then per entry a little-endian float32 scale (0: no vector) and dim
// int8 values (zero without a vector), then the crc32 (Castagnoli) of all
// that, little endian.
func encodeVectors(dim int, vs []embed.Vector) []byte {
	b := binary.AppendUvarint(nil, uint64(dim))
	b = binary.AppendUvarint(b, uint64(len(vs)))
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v.Scale))
		if len(v.Values) == 0 {
			b = append(b, make([]byte, dim)...)
			continue
		}
		for _, x := range v.Values {
			b = append(b, byte(x))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

var errVectors = errors.New("damaged vector record")

func decodeVectors(b []byte) ([]embed.Vector, int, error) {
	if len(b) < 4 || crc32.Checksum(b[:len(b)-4], crcTable) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, 0, fmt.Errorf("%w: bad checksum", errVectors)
	}
	b = b[:len(b)-4]
	dim, k := binary.Uvarint(b)
	if k <= 0 {
		return nil, 0, errVectors
	}
	b = b[k:]
	n, k := binary.Uvarint(b)
	if k <= 0 || dim > 1<<16 || uint64(len(b)-k) != n*(4+dim) {
		return nil, 0, fmt.Errorf("%w: %d vectors of %d dimensions in %d bytes", errVectors, n, dim, len(b))
	}
	b = b[k:]
	vals := make([]int8, n*dim)
	out := make([]embed.Vector, n)
	for i := range out {
		scale := math.Float32frombits(binary.LittleEndian.Uint32(b))
		b = b[4:]
		if scale != 0 {
			if dim == 0 || !(scale > 0) || math.IsInf(float64(scale), 0) {
				return nil, 0, fmt.Errorf("%w: scale %v", errVectors, scale)
			}
			v := vals[uint64(i)*dim : uint64(i+1)*dim : uint64(i+1)*dim]
			for j := range v {
				v[j] = int8(b[j])
			}
			out[i] = embed.Vector{Scale: scale, Values: v}
		}
		b = b[dim:]
	}
	return out, int(dim), nil
}

// Vectors returns the stored vectors of the file at path for the model, one
// per entry (an entry without one has the empty Vector), or nil when the
// file has none.
func (s *Snapshot) Vectors(path, model string) ([]embed.Vector, error) {
	f, ok := s.File(path)
	if !ok {
		return nil, fmt.Errorf("vectors of %s: %w", path, errNotIndexed)
	}
	if s.txn == nil {
		return nil, errors.New("snapshot is closed")
	}
	item, err := s.txn.Get(vectorKey(s.meta.blobKey(&f), model))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("vectors of %s: %w", path, err)
	}
	var vs []embed.Vector
	err = item.Value(func(v []byte) error {
		var err error
		vs, _, err = decodeVectors(v)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("vectors of %s: %w", path, err)
	}
	return vs, nil
}

// EmbedOptions configure DB.Embed.
type EmbedOptions struct {
	Embedder embed.Embedder
	// Batch is the number of texts per request (default 32); Workers the
	// requests at once (default 2).
	Batch, Workers int
	// Paths, when set, restricts the work to these files (a live
	// update's changed files).
	Paths []string
	// Progress, when set, is called after each file, from one goroutine
	// at a time.
	Progress func(done, total int)
}

// EmbedSummary reports what DB.Embed did.
type EmbedSummary struct {
	Model    string `json:"model"`
	Files    int    `json:"files"`    // files of the generation
	Embedded int    `json:"embedded"` // files whose vectors were computed now
	Reused   int    `json:"reused"`   // files whose vectors were stored already
	Entries  int    `json:"entries"`  // entries given a vector now
	Dim      int    `json:"dim"`
	Bytes    int64  `json:"bytes"` // size of the vector records written now
}

// Embed computes and stores the vectors of every file of the published
// generation that has none for opts.Embedder's model: for each entry the
// embedding of its context sequence slice (embed.SliceText of the slice's
// statements other than the target; an entry with an empty slice text gets
// none). Each file's vectors are written as soon as they are complete, so
// when the server fails midway the files done stay done, the next Embed
// only computes the others, and the index stays usable without them. It
// holds the build lock.
func (d *DB) Embed(ctx context.Context, opts EmbedOptions) (EmbedSummary, error) {
	if opts.Embedder == nil {
		return EmbedSummary{}, errors.New("embed: no embeddings backend")
	}
	model := opts.Embedder.Name()
	sum := EmbedSummary{Model: model}
	if model == "" || strings.ContainsRune(model, 0) {
		return sum, fmt.Errorf("embed: bad model name %q", model)
	}
	if d.readOnly {
		return sum, fmt.Errorf("embed %s: opened read-only", d.dir)
	}
	if !d.startBuild() {
		return sum, fmt.Errorf("embed %s: a build is in progress", d.dir)
	}
	defer d.endBuild()
	if opts.Batch <= 0 {
		opts.Batch = 32
	}
	if opts.Workers <= 0 {
		opts.Workers = min(2, runtime.GOMAXPROCS(0))
	}

	snap, err := d.Snapshot()
	if err != nil {
		return sum, err
	}
	defer snap.Close()
	files := snap.Files()
	if opts.Paths != nil {
		var some []FileInfo
		for _, p := range opts.Paths {
			if f, ok := snap.File(p); ok {
				some = append(some, f)
			}
		}
		files = some
	}
	sum.Files = len(files)
	var todo []*FileInfo
	for i := range files {
		item, err := snap.txn.Get(vectorKey(snap.meta.blobKey(&files[i]), model))
		switch {
		case errors.Is(err, badger.ErrKeyNotFound):
			todo = append(todo, &files[i])
		case err != nil:
			return sum, fmt.Errorf("embed %s: %w", d.dir, err)
		default:
			sum.Reused++
			if sum.Dim == 0 {
				_ = item.Value(func(v []byte) error {
					if _, dim, err := decodeVectors(v); err == nil {
						sum.Dim = dim
					}
					return nil
				})
			}
		}
	}

	var mu sync.Mutex // guards sum and the progress count
	done := sum.Reused
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.Workers)
	for _, f := range todo {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			rec, err := snap.load(f)
			if err != nil {
				return err
			}
			vs, entries, err := embedRecord(gctx, opts.Embedder, rec, opts.Batch)
			if err != nil {
				return fmt.Errorf("embed %s: %w", f.Path, err)
			}
			mu.Lock()
			dim := 0
			for _, v := range vs {
				if len(v.Values) > 0 {
					dim = len(v.Values)
					break
				}
			}
			if dim > 0 && sum.Dim > 0 && dim != sum.Dim {
				mu.Unlock()
				return fmt.Errorf("embed %s: the server returns %d dimensions, the stored vectors of %s have %d (rebuild the index, or keep the model)", f.Path, dim, model, sum.Dim)
			}
			if dim > 0 {
				sum.Dim = dim
			}
			mu.Unlock()
			blob := encodeVectors(dim, vs)
			// As for blobs: room first, a full disk is a signal otherwise.
			if err := d.CheckSpace(); err != nil {
				return fmt.Errorf("embed %s: %w: %w", f.Path, ErrStorage, err)
			}
			if err := guard(func() error {
				return d.bdb.Update(func(txn *badger.Txn) error {
					return txn.Set(vectorKey(snap.meta.blobKey(f), model), blob)
				})
			}); err != nil {
				return fmt.Errorf("embed %s: %w: %w", f.Path, ErrStorage, storageError(err))
			}
			mu.Lock()
			sum.Embedded++
			sum.Entries += entries
			sum.Bytes += int64(len(blob))
			done++
			if opts.Progress != nil {
				opts.Progress(done, len(files))
			}
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return sum, fmt.Errorf("%w (%d of %d files have vectors; run again to embed the rest)", err, sum.Reused+sum.Embedded, sum.Files)
	}
	return sum, ctx.Err()
}

// embedRecord embeds the slice text of every entry of rec, batch texts
// per request. It returns one Vector per entry and the number given one.
func embedRecord(ctx context.Context, e embed.Embedder, rec *FileRecord, batch int) ([]embed.Vector, int, error) {
	texts := make([]string, len(rec.Entries))
	var stmts []string
	for i := range rec.Entries {
		en := &rec.Entries[i]
		stmts = stmts[:0]
		for _, n := range en.Nodes {
			if n == en.Target || int(n) >= len(rec.Stmts) {
				continue
			}
			s := &rec.Stmts[n]
			if s.StartRow >= 0 && s.EndRow < len(rec.Lines) && s.StartRow <= s.EndRow {
				stmts = append(stmts, strings.Join(rec.Lines[s.StartRow:s.EndRow+1], "\n"))
			}
		}
		texts[i] = embed.SliceText(stmts)
	}
	out := make([]embed.Vector, len(texts))
	var idx []int
	var pending []string
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		vecs, err := e.Embed(ctx, pending)
		if err != nil {
			return err
		}
		if len(vecs) != len(pending) {
			return fmt.Errorf("%d embeddings for %d texts", len(vecs), len(pending))
		}
		for j, v := range vecs {
			out[idx[j]] = embed.Quantize(v)
		}
		idx, pending = idx[:0], pending[:0]
		return nil
	}
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			continue
		}
		idx = append(idx, i)
		pending = append(pending, t)
		if len(pending) == batch {
			if err := flush(); err != nil {
				return nil, 0, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, 0, err
	}
	n := 0
	dim := 0
	for _, v := range out {
		if len(v.Values) > 0 {
			if dim == 0 {
				dim = len(v.Values)
			}
			if len(v.Values) != dim {
				return nil, 0, fmt.Errorf("embeddings of %d and %d dimensions for one file", dim, len(v.Values))
			}
			n++
		}
	}
	return out, n, nil
}
