package db

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// SchemaVersion is the version of the layout documented in the package
// comment. An index of any other version is refused.
const SchemaVersion = 6

// AnalysisVersion names the output of the front ends, the graph builder
// and the slicer that produced a blob. It is part of every blob's key, so
// a graphcoder whose analysis changed never reuses a blob of the old one:
// bump it whenever a front end, package ccg or package slice changes what
// it produces for some input (statements, rows, defs, edges, slices). An
// index whose blobs are all of another version is rebuilt in full by the
// next build; it stays readable until then.
const AnalysisVersion = 6

// analysisVersion is AnalysisVersion; tests change it to simulate a new
// analysis.
var analysisVersion = AnalysisVersion

// SchemaError reports an index of another schema version.
type SchemaError struct {
	Dir       string
	Have      int
	Want      int
	haveValue string
}

func (e *SchemaError) Error() string {
	have := strconv.Itoa(e.Have)
	if e.haveValue != "" {
		have = strconv.Quote(e.haveValue)
	}
	return fmt.Sprintf("index %s has schema %s, this graphcoder reads %d: remove it or run `graphcoder build --rebuild REPO`",
		e.Dir, have, e.Want)
}

var (
	keySchema  = []byte("meta/schema")
	keyCurrent = []byte("meta/current")
	keyDirty   = []byte("meta/dirty")
	prefixGen  = []byte("g/")
	prefixBlob = []byte("f/")
)

// checkSchema verifies meta/schema, writing it into a fresh index.
func (d *DB) checkSchema() error {
	var have []byte
	var hasCurrent bool
	err := d.view(func(txn *badger.Txn) error {
		it, err := txn.Get(keySchema)
		if err == nil {
			have, err = it.ValueCopy(nil)
			if err != nil {
				return err
			}
		} else if !errors.Is(err, badger.ErrKeyNotFound) {
			return err
		}
		_, err = txn.Get(keyCurrent)
		hasCurrent = err == nil
		if err != nil && !errors.Is(err, badger.ErrKeyNotFound) {
			return err
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read index %s: %w", d.dir, storageError(err))
	}
	if have == nil {
		if d.readOnly || hasCurrent {
			return &SchemaError{Dir: d.dir, Want: SchemaVersion, haveValue: "none"}
		}
		return storageError(guard(func() error {
			return d.bdb.Update(func(txn *badger.Txn) error {
				return txn.Set(keySchema, []byte(strconv.Itoa(SchemaVersion)))
			})
		}))
	}
	v, err := strconv.Atoi(string(have))
	if err != nil {
		return &SchemaError{Dir: d.dir, Want: SchemaVersion, haveValue: string(have)}
	}
	if v != SchemaVersion {
		return &SchemaError{Dir: d.dir, Have: v, Want: SchemaVersion}
	}
	return nil
}

// Dir returns the index directory.
func (d *DB) Dir() string { return d.dir }

// GenMeta describes one generation of the index.
type GenMeta struct {
	Generation    uint64 `json:"generation"`
	Tokenizer     string `json:"tokenizer"`
	Hops          int    `json:"hops"`
	MaxStatements int    `json:"max_statements"`
	// Analysis is the AnalysisVersion of the generation's blobs.
	Analysis   int       `json:"analysis"`
	Root       string    `json:"root"`
	Created    time.Time `json:"created"`
	Files      int       `json:"files"`
	Lines      int       `json:"lines"`
	Statements int       `json:"statements"`
	Entries    int       `json:"entries"`
	Chunks     int       `json:"chunks"`
}

// FileInfo is a file of a generation's manifest.
type FileInfo struct {
	Path       string
	Hash       [32]byte // sha256 of the content
	Language   string
	Lines      int
	Statements int // also the number of entries
	BlobBytes  int
}

func genPrefix(gen uint64) []byte { return fmt.Appendf(nil, "g/%016x/", gen) }

func genMetaKey(gen uint64) []byte { return append(genPrefix(gen), "meta"...) }

func chunkKey(gen uint64, n int) []byte { return fmt.Appendf(genPrefix(gen), "m/%08x", n) }

// blobTag names the parameters that shape a blob.
func blobTag(language, tokenizer string, hops, maxStmts, analysis int) string {
	return fmt.Sprintf("/%s/%s/%d/%d/a%d", language, tokenizer, hops, maxStmts, analysis)
}

func blobKey(hash [32]byte, tag string) []byte {
	k := make([]byte, 0, len(prefixBlob)+32+len(tag))
	k = append(k, prefixBlob...)
	k = append(k, hash[:]...)
	return append(k, tag...)
}

func (m *GenMeta) blobKey(f *FileInfo) []byte {
	return blobKey(f.Hash, blobTag(f.Language, m.Tokenizer, m.Hops, m.MaxStatements, m.Analysis))
}

// parseGen extracts the generation of a g/ key.
func parseGen(key []byte) (uint64, bool) {
	if !bytes.HasPrefix(key, prefixGen) || len(key) < len(prefixGen)+16 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(key[len(prefixGen):len(prefixGen)+16]), 16, 64)
	return v, err == nil
}

// currentGen returns the published generation, or ok false.
func currentGen(txn *badger.Txn) (gen uint64, ok bool, err error) {
	it, err := txn.Get(keyCurrent)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	err = it.Value(func(v []byte) error {
		if len(v) != 8 {
			return fmt.Errorf("bad meta/current value of %d bytes", len(v))
		}
		gen = binary.BigEndian.Uint64(v)
		return nil
	})
	return gen, err == nil, err
}

// readGen reads a generation's metadata and manifest.
func readGen(txn *badger.Txn, gen uint64) (*GenMeta, []FileInfo, error) {
	it, err := txn.Get(genMetaKey(gen))
	if err != nil {
		return nil, nil, fmt.Errorf("read generation %d: %w", gen, err)
	}
	meta := &GenMeta{}
	if err := it.Value(func(v []byte) error { return json.Unmarshal(v, meta) }); err != nil {
		return nil, nil, fmt.Errorf("read generation %d: %w", gen, err)
	}
	files := make([]FileInfo, 0, meta.Files)
	for n := 0; n < meta.Chunks; n++ {
		it, err := txn.Get(chunkKey(gen, n))
		if err != nil {
			return nil, nil, fmt.Errorf("read manifest chunk %d of generation %d: %w", n, gen, err)
		}
		err = it.Value(func(v []byte) error {
			var err error
			files, err = decodeManifest(files, v)
			return err
		})
		if err != nil {
			return nil, nil, fmt.Errorf("read manifest chunk %d of generation %d: %w", n, gen, err)
		}
	}
	if len(files) != meta.Files {
		return nil, nil, fmt.Errorf("generation %d: manifest lists %d files, metadata says %d", gen, len(files), meta.Files)
	}
	return meta, files, nil
}

func appendManifest(dst []byte, f *FileInfo) []byte {
	dst = appendString(dst, f.Path)
	dst = append(dst, f.Hash[:]...)
	dst = appendString(dst, f.Language)
	dst = binary.AppendUvarint(dst, uint64(f.Lines))
	dst = binary.AppendUvarint(dst, uint64(f.Statements))
	return binary.AppendUvarint(dst, uint64(f.BlobBytes))
}

func decodeManifest(files []FileInfo, v []byte) ([]FileInfo, error) {
	r := &reader{b: v}
	for len(r.b) > 0 && r.err == nil {
		var f FileInfo
		f.Path = string(r.bytes(r.count("path"), "path"))
		copy(f.Hash[:], r.bytes(32, "hash"))
		f.Language = string(r.bytes(r.count("language"), "language"))
		f.Lines = int(r.uvarint("lines"))
		f.Statements = int(r.uvarint("statements"))
		f.BlobBytes = int(r.uvarint("blob size"))
		if r.err == nil {
			files = append(files, f)
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("manifest: %w", r.err)
	}
	return files, nil
}
