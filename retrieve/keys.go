package retrieve

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// keyStore holds the entries' key token sets and their term frequencies
// from Add until Finish, which reads them twice, in entry order, to build
// the masks and postings. Per entry: the key as appendSet writes it, then
// a uvarint term frequency per key token, both as long as the entry's
// keyLen says (so no offsets are kept). They are most of a builder's
// memory (some 80 bytes per entry) and read only there, so a large build
// keeps them in a temporary file instead (SpillKeys).
type keyStore struct {
	buf  []byte
	f    *os.File // nil: buf holds everything
	size int64    // bytes written to f
	err  error
}

// spillChunk is how many bytes a spilling store gathers per write.
var spillChunk = 1 << 20

// SpillKeys has the builder keep the entries' key token sets, which only
// Finish reads, in an unlinked temporary file in dir ("" for the
// system's) rather than in memory: a few hundred megabytes less for an
// index of millions of entries, read back sequentially twice. The
// builder must then be finished with Finish (Index cannot report a read
// error). Call it before the first Add.
func (b *Builder) SpillKeys(dir string) error {
	if b.keys.f != nil || len(b.keys.buf) > 0 {
		return errors.New("spill keys: the builder has keys already")
	}
	f, err := os.CreateTemp(dir, "graphcoder-keys-*")
	if err != nil {
		return fmt.Errorf("spill keys: %w", err)
	}
	// Unlinked at once: nothing is left behind, whatever happens.
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return fmt.Errorf("spill keys: %w", err)
	}
	b.keys.f = f
	return nil
}

// endEntry writes out what the store gathered when it spills.
func (k *keyStore) endEntry() error {
	if k.f == nil || len(k.buf) < spillChunk || k.err != nil {
		return k.err
	}
	return k.write()
}

func (k *keyStore) write() error {
	n, err := k.f.WriteAt(k.buf, k.size)
	k.size += int64(n)
	k.buf = k.buf[:0]
	if err != nil {
		k.err = fmt.Errorf("spill keys: %w", err)
	}
	return k.err
}

// close releases the temporary file.
func (k *keyStore) close() {
	if k.f != nil {
		k.f.Close()
	}
	k.buf, k.f = nil, nil
}

// keyReader reads a keyStore's entries in order.
type keyReader struct {
	k    *keyStore
	buf  []byte // unread bytes
	off  int64  // next offset in the file
	room []byte
}

// reader starts a pass over the store's entries.
func (k *keyStore) reader() (*keyReader, error) {
	if k.f == nil {
		return &keyReader{k: k, buf: k.buf}, nil
	}
	if len(k.buf) > 0 {
		if err := k.write(); err != nil {
			return nil, err
		}
	}
	if k.err != nil {
		return nil, k.err
	}
	return &keyReader{k: k, room: make([]byte, 0, 2*spillChunk)}, nil
}

// next decodes the next entry, of n key tokens, appending its key to key
// and the tokens' term frequencies to tf.
func (r *keyReader) next(n int, key, tf []uint32) ([]uint32, []uint32, error) {
	if need := 2 * n * binary.MaxVarintLen32; len(r.buf) < need && r.k.f != nil && r.off < r.k.size {
		if err := r.fill(need); err != nil {
			return key, tf, err
		}
	}
	prev := uint32(0)
	for range n {
		v, k := binary.Uvarint(r.buf)
		if k <= 0 {
			return key, tf, errKeys
		}
		r.buf = r.buf[k:]
		prev += uint32(v)
		key = append(key, prev)
	}
	for range n {
		v, k := binary.Uvarint(r.buf)
		if k <= 0 {
			return key, tf, errKeys
		}
		r.buf = r.buf[k:]
		tf = append(tf, uint32(v))
	}
	return key, tf, nil
}

var errKeys = errors.New("spilled keys do not hold together")

// fill reads more of the file, so that the unread bytes are at least
// need (or all that is left).
func (r *keyReader) fill(need int) error {
	rest := copy(r.room[:cap(r.room)], r.buf)
	want := max(spillChunk, need-rest)
	if cap(r.room) < rest+want {
		grown := make([]byte, rest+want)
		copy(grown, r.room[:rest])
		r.room = grown[:0]
	}
	n, err := r.k.f.ReadAt(r.room[rest:rest+want], r.off)
	r.off += int64(n)
	if err != nil && !(errors.Is(err, io.EOF) && r.off == r.k.size) {
		return fmt.Errorf("read spilled keys: %w", err)
	}
	r.buf = r.room[:rest+n]
	return nil
}
