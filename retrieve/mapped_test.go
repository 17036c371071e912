package retrieve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/internal/mapfile"
	"github.com/graphcoder/graphcoder/internal/mapfile/mapfiletest"
)

// mapIndex writes ix to a file and opens it mapped.
func mapIndex(t testing.TB, ix *Index) *Index {
	t.Helper()
	m := mapfiletest.Write(t, ix.WriteTo)
	if err := m.VerifyAll(); err != nil {
		t.Fatal(err)
	}
	mix, err := Open(m, ix.tok)
	if err != nil {
		t.Fatal(err)
	}
	return mix
}

// sameIndex fails unless a and b hold the same arrays.
func sameIndex(t testing.TB, a, b *Index) {
	t.Helper()
	// A layout 1 file holds the sources otherwise compressed (the tests
	// compare their text).
	sameSrc := a.srcCodec == b.srcCodec
	if !slices.EqualFunc(a.files, b.files, func(x, y fileData) bool {
		return x.path == y.path && x.language == y.language && (!sameSrc || string(x.src) == string(y.src)) &&
			x.srcLen == y.srcLen && x.lines == y.lines && x.stmtBase == y.stmtBase && x.entryBase == y.entryBase
	}) {
		t.Fatal("files differ")
	}
	eq := func(name string, x, y any) {
		t.Helper()
		vx, vy := reflect.ValueOf(x), reflect.ValueOf(y)
		if vx.Len() == 0 && vy.Len() == 0 {
			return
		}
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("%s differs", name)
		}
	}
	if b.keep == nil || b.keep.Has("ix.frames.file") {
		eq("frames.sum", a.frameTab.sum, b.frameTab.sum)
		eq("frames.row", a.frameTab.row, b.frameTab.row)
		eq("frames.comp", a.frameTab.comp, b.frameTab.comp)
		eq("frames.raw", a.frameTab.raw, b.frameTab.raw)
		for i := range a.files {
			if a.files[i].frame0 != b.files[i].frame0 {
				t.Fatalf("file %d: first frame %d, want %d", i, b.files[i].frame0, a.files[i].frame0)
			}
		}
	} else if b.frameTab.len() != len(b.files) {
		t.Fatal("a file without the frame table gave more than a frame per file")
	}
	eq("blocks.or", a.blocks().or, b.blocks().or)
	eq("blocks.lmin", a.blocks().lmin, b.blocks().lmin)
	eq("dup", a.dup, b.dup)
	eq("postN", a.bm.postN, b.bm.postN)
	if b.keep == nil || b.keep.Has("ix.xmask.tok") {
		eq("xmask.tok", a.xmask().tok, b.xmask().tok)
		eq("xmask.bit", a.xmask().bit, b.xmask().bit)
		eq("xmask.masks", a.xmask().masks, b.xmask().masks)
		eq("xmask.or", a.xmask().or, b.xmask().or)
	} else if b.xmask().words != 0 {
		t.Fatal("a file without the second mask gave one")
	}
	eq("vocab.off", a.vocab.Off, b.vocab.Off)
	eq("vocab.bytes", a.vocab.Bytes, b.vocab.Bytes)
	eq("vocab.sorted", a.vocab.Sorted, b.vocab.Sorted)
	eq("defs.off", a.defNames.Off, b.defNames.Off)
	eq("defs.bytes", a.defNames.Bytes, b.defNames.Bytes)
	eq("stmtRows", a.stmtRows, b.stmtRows)
	eq("stmtTokOff", a.stmtTokOff, b.stmtTokOff)
	eq("stmtTokens", a.stmtTokens, b.stmtTokens)
	eq("stmtEdgeOff", a.stmtEdgeOff, b.stmtEdgeOff)
	eq("stmtEdges", a.stmtEdges, b.stmtEdges)
	eq("stmtDefOff", a.stmtDefOff, b.stmtDefOff)
	eq("stmtDefs", a.stmtDefs, b.stmtDefs)
	eq("entryOff", a.entryOff, b.entryOff)
	eq("entryBytes", a.entryBytes, b.entryBytes)
	eq("keyLen", a.keyLen, b.keyLen)
	eq("masks", a.masks, b.masks)
	eq("maskBit", a.maskBit, b.maskBit)
	eq("postOff", a.postOff, b.postOff)
	eq("post", a.post, b.post)
	eq("dl", a.bm.dl, b.bm.dl)
	eq("df", a.bm.df, b.bm.df)
	eq("maxTF", a.bm.maxTF, b.bm.maxTF)
	eq("maskAt", a.bm.maskAt, b.bm.maskAt)
	eq("maskManyAt", a.bm.maskManyAt, b.bm.maskManyAt)
	eq("postAt", a.bm.postAt, b.bm.postAt)
	eq("postManyAt", a.bm.postManyAt, b.bm.postManyAt)
	eq("maskTF.many", a.bm.maskTF.many, b.bm.maskTF.many)
	eq("maskTF.nib", []byte(a.bm.maskTF.nib), []byte(b.bm.maskTF.nib))
	eq("postTF.many", a.bm.postTF.many, b.bm.postTF.many)
	eq("postTF.nib", []byte(a.bm.postTF.nib), []byte(b.bm.postTF.nib))
	eq("vec.vals", a.vec.vals, b.vec.vals)
	eq("vec.scale", a.vec.scale, b.vec.scale)
	if a.params != b.params || a.maskWords != b.maskWords || a.bm.totalDL != b.bm.totalDL || a.vec.dim != b.vec.dim || a.vec.count != b.vec.count ||
		!maps.Equal(a.bm.dlBig, b.bm.dlBig) || !maps.Equal(a.bm.maskTF.big, b.bm.maskTF.big) || !maps.Equal(a.bm.postTF.big, b.bm.postTF.big) ||
		!maps.Equal(a.byPath, b.byPath) || len(a.explicit) != len(b.explicit) {
		t.Fatal("scalars or maps differ")
	}
	for e, g := range a.explicit {
		if h := b.explicit[e]; h == nil || !slices.Equal(g.hop, h.hop) || !slices.Equal(g.edges, h.edges) {
			t.Fatalf("explicit slice of entry %d differs", e)
		}
	}
}

// TestMappedIndex: an index written and mapped holds the same arrays and
// answers every query as the one built in memory, alone and as the base
// of a snapshot with a delta and masked files.
func TestMappedIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	ctx := context.Background()
	for trial := range 12 {
		alphabet := 3 + r.IntN(60)
		nFiles := 1 + r.IntN(6)
		b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 30})
		b.maskBits = []int{0, 3, 64, 128}[r.IntN(4)]
		b.cutter.size = []int{frameBytes, 1, 30, 200}[r.IntN(4)]
		for i := range nFiles {
			f := randomFile(r, fmt.Sprintf("f%d.py", i), 1+r.IntN(60), alphabet)
			if trial%3 == 1 {
				f = longSliceFile(r, fmt.Sprintf("f%d.py", i), 1+r.IntN(80), alphabet)
			}
			if trial%4 == 0 {
				f.Vectors = randomVectors(r, len(f.Entries), 8)
			}
			if err := b.Add(f); err != nil {
				t.Fatal(err)
			}
		}
		built := b.Index()
		// Every third trial writes the file without the second mask, as
		// files written before it: the reader goes without, and answers
		// the same.
		// Every fourth, in layout 1, as files written before frames: the
		// reader reads each source whole, the same text.
		writeSecondMask = trial%3 != 2
		if trial%4 == 3 {
			legacySource = legacyZstd
		}
		mapped := mapIndex(t, built)
		writeSecondMask, legacySource = true, nil
		if mapped.keep.Has("ix.xmask.tok") != (trial%3 != 2) {
			t.Fatalf("trial %d: second mask stored %v", trial, mapped.keep.Has("ix.xmask.tok"))
		}
		// The bands of long keys are stored with the second mask, and read
		// back as built; without, the reader goes without them too.
		if bl, ml := built.longPost(), mapped.longPost(); trial%3 != 2 && len(bl.min) > 0 {
			if !slices.Equal(ml.min, bl.min) || !slices.Equal(ml.all, bl.all) || !bytes.Equal(ml.post, bl.post) {
				t.Fatalf("trial %d: bands read %v, built %v", trial, ml.min, bl.min)
			}
		} else if len(ml.min) > 0 || mapped.keep.Has("ix.long.min") {
			t.Fatalf("trial %d: bands %v read from a file written without them", trial, ml.min)
		}
		sameIndex(t, built, mapped)

		delta := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 30})
		delta.Add(randomFile(r, "f0.py", 1+r.IntN(30), alphabet))
		delta.Add(randomFile(r, "new.py", 1+r.IntN(30), alphabet))
		dix := delta.Index()
		masked := []string{fmt.Sprintf("f%d.py", nFiles-1)}
		pairs := [][2]*Snapshot{{{base: built}, {base: mapped}}}
		sb, err := NewSnapshot(built, dix, masked)
		if err != nil {
			t.Fatal(err)
		}
		sm, err := NewSnapshot(mapped, dix, masked)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, [2]*Snapshot{sb, sm})
		for pi, p := range pairs {
			for qi := range 10 {
				qs := [2]*Query{}
				seed := r.Uint64()
				for i, s := range p {
					qs[i] = snapshotQuery(rand.New(rand.NewPCG(seed, 1)), s, nFiles+2, alphabet)
				}
				what := fmt.Sprintf("trial %d pair %d query %d", trial, pi, qi)
				for _, rk := range []Ranker{Jaccard(), BM25(DefaultBM25), Dense()} {
					equalHits(t, what+" "+rk.Name(), mustRank(t, rk, p[1], qs[1], 7), mustRank(t, rk, p[0], qs[0], 7))
				}
				for _, mode := range Modes() {
					got, _, err := p[1].Search(ctx, qs[1], Options{Mode: mode, TopK: 5})
					if err != nil {
						t.Fatal(err)
					}
					want, _, _ := p[0].Search(ctx, qs[0], Options{Mode: mode, TopK: 5})
					if !reflect.DeepEqual(stripNaN(got), stripNaN(want)) {
						t.Fatalf("%s mode %s: mapped %v, built %v", what, mode, got, want)
					}
					if !slices.Equal(p[1].Values(got), p[0].Values(want)) {
						t.Fatalf("%s mode %s: values differ", what, mode)
					}
				}
			}
			for i := range nFiles + 1 {
				path := fmt.Sprintf("f%d.py", i)
				if !slices.Equal(p[1].Lines(path), p[0].Lines(path)) {
					t.Fatalf("%s lines differ", path)
				}
				if got := textLines(p[1].Text(path)); !slices.Equal(got, p[0].Lines(path)) {
					t.Fatalf("%s row by row %q, want %q", path, got, p[0].Lines(path))
				}
			}
		}
	}
}

// stripNaN makes candidates comparable with reflect.DeepEqual (NaN is
// not equal to itself).
func stripNaN(cs []Candidate) []Candidate {
	out := slices.Clone(cs)
	for i := range out {
		if out[i].SED != out[i].SED {
			out[i].SED = -1
		}
	}
	return out
}

// TestMappedDamage: a mapped index whose sections hold damaged bytes is
// refused when opened, or its searches fail with ErrDamaged or answer;
// nothing panics.
// openDamaged writes good to path with n random bytes of section sec
// overwritten, and opens it: nil when the open refuses it with ErrDamaged
// (any other error fails t).
func openDamaged(t *testing.T, r *rand.Rand, good []byte, sec mapfile.SectionInfo, n int, path string) *Index {
	t.Helper()
	bad := slices.Clone(good)
	for range n {
		bad[sec.Offset+r.Int64N(sec.Length)] = byte(r.Uint32())
	}
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := mapfile.Open(path)
	if err != nil {
		t.Fatal(err) // the table of contents is intact
	}
	mix, err := Open(m, wordTokenizer{})
	if err != nil {
		if !errors.Is(err, ErrDamaged) {
			t.Fatalf("section %s: %v", sec.Name, err)
		}
		return nil
	}
	return mix
}

func TestMappedDamage(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 30})
	b.cutter.size = 40 // several frames a file
	var files []*File
	for i := range 3 {
		files = append(files, randomFile(r, fmt.Sprintf("f%d.py", i), 40, 30))
		b.Add(files[len(files)-1])
	}
	cp := *files[0] // whose entries chain to f0's (dups.go)
	cp.Path = "f3.py"
	files = append(files, &cp)
	b.Add(&cp)
	ix := b.Index()
	if ix.dup == nil {
		t.Fatal("no chain of copies")
	}
	m0 := mapIndex(t, ix).keep
	good, err := os.ReadFile(m0.Path())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bad")
	ctx := context.Background()
	// The queries are made on the index built in memory: the damaged
	// one's vocabulary may be damaged too.
	var qs []*Query
	for range 4 {
		qs = append(qs, snapshotQuery(r, &Snapshot{base: ix}, 3, 30))
	}
	for _, sec := range m0.Sections() {
		if sec.Length == 0 {
			continue
		}
		for trial := range 6 {
			mix := openDamaged(t, r, good, sec, 1+trial, path)
			if mix == nil {
				continue
			}
			if strings.HasPrefix(sec.Name, "ix.frames.") || sec.Name == "ix.src" {
				// Damage in the sources or their frame table is refused,
				// or every window reads right or is reported.
				if err := sameWindows(mix, files); err != nil && mix.SourceError() == nil {
					t.Fatalf("section %s: %v, and no source error", sec.Name, err)
				}
			}
			s, err := NewSnapshot(mix, nil, []string{"f1.py"})
			if err != nil {
				if !errors.Is(err, ErrDamaged) {
					t.Fatalf("section %s: %v", sec.Name, err)
				}
				continue
			}
			for qi, q := range qs {
				for _, mode := range Modes() {
					cands, _, err := s.Search(ctx, q, Options{Mode: mode, TopK: 5})
					if err != nil && !errors.Is(err, ErrDamaged) {
						t.Fatalf("section %s query %d: %v", sec.Name, qi, err)
					}
					s.Values(cands)
					s.Vote(q, cands, 3, 0)
					for i := range cands {
						s.Predict(q, &cands[i])
						s.Statement(&cands[i])
					}
				}
			}
			s.Lines("f0.py")
			textLines(s.Text("f0.py"))
		}
	}
}
