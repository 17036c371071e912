package retrieve

import (
	"fmt"
	"slices"

	"github.com/graphcoder/graphcoder/slice"
)

// Tokenizer splits statement text into tokens. Any token.Tokenizer fits.
type Tokenizer interface {
	Name() string
	Split(dst []string, text string) []string
}

// File is one indexed file in the form the index is built from: the
// database record of a file, with token ids local to the file.
type File struct {
	Path     string // relative to the repository root, '/'-separated
	Language string
	Lines    []string
	Vocab    []string // local token id -> token
	Stmts    []Stmt
	Entries  []Entry
}

// Stmt is one statement of a File.
type Stmt struct {
	StartRow, EndRow int      // 0-based, inclusive
	Tokens           []uint32 // local ids, sorted, no duplicates
	Defs             []string // names the statement defines (for renaming)
}

// Entry is the database key of one statement: the slice taken with that
// statement standing in as the target.
type Entry struct {
	Target uint32       // statement index
	Nodes  []uint32     // statement indexes of the slice, by position
	Hop    []uint8      // per node
	Edges  []slice.Edge // between node positions
}

// Params are the slicing parameters an index was built with.
type Params struct {
	Hops          int // h
	MaxStatements int // l
}

// ValueRadius is the number of lines before and after a statement that its
// value (the retrieved code window) holds (spec section 3).
const ValueRadius = 10

type fileData struct {
	path, language string
	lines          []string
	stmtBase       uint32
}

// entry is an Entry flattened into the index's arenas.
type entry struct {
	file           int32
	target         uint32 // global statement id
	targetLocal    uint16 // position of the target among the nodes
	lastRow        int32  // last row any slice statement reaches
	keyOff, keyEnd uint32 // keyArena
	nodeOff        uint32 // nodeArena and hopArena; length in nodeLen
	nodeLen        uint16
	edgeOff        uint32 // edgeArena
	edgeLen        uint16
}

// Index is an immutable in-memory retrieval index: every entry's key token
// set (global ids), an inverted index over them, and the compact slice
// graphs the fine stage scores. It is safe for concurrent queries.
type Index struct {
	tok    Tokenizer
	params Params
	vocab  map[string]uint32

	files []fileData
	// Statements: token sets (global ids) and rows.
	stmtTokOff []uint32 // len = statements+1, into stmtTokens
	stmtTokens []uint32
	stmtRows   [][2]int32
	// Statement defs: ids into defNames, per statement.
	stmtDefOff []uint32 // len = statements+1, into stmtDefs
	stmtDefs   []uint32
	defNames   []string

	entries   []entry
	keyArena  []uint32
	nodeArena []uint32 // global statement ids
	hopArena  []uint8
	edgeArena []slice.Edge

	// postings: CSR inverted index, token -> entries whose key holds it.
	postOff []uint32
	post    []uint32

	byPath map[string]int32
}

// Builder accumulates files into an Index.
type Builder struct {
	ix     *Index
	tmp    []uint32
	defIDs map[string]uint32
}

// NewBuilder starts an index whose queries are tokenized with tok and
// sliced with params.
func NewBuilder(tok Tokenizer, params Params) *Builder {
	return &Builder{ix: &Index{
		tok: tok, params: params,
		vocab:      map[string]uint32{},
		stmtTokOff: []uint32{0},
		stmtDefOff: []uint32{0},
		byPath:     map[string]int32{},
	}, defIDs: map[string]uint32{}}
}

// Add adds one file. A malformed record (an index out of range) is an
// error and leaves the builder unchanged.
func (b *Builder) Add(f *File) error {
	if err := validate(f); err != nil {
		return fmt.Errorf("file %s: %w", f.Path, err)
	}
	ix := b.ix
	if _, dup := ix.byPath[f.Path]; dup {
		return fmt.Errorf("file %s: added twice", f.Path)
	}
	global := make([]uint32, len(f.Vocab))
	for i, t := range f.Vocab {
		id, ok := ix.vocab[t]
		if !ok {
			id = uint32(len(ix.vocab))
			ix.vocab[t] = id
		}
		global[i] = id
	}
	fi := int32(len(ix.files))
	base := uint32(len(ix.stmtRows))
	ix.files = append(ix.files, fileData{path: f.Path, language: f.Language, lines: f.Lines, stmtBase: base})
	ix.byPath[f.Path] = fi
	for _, s := range f.Stmts {
		start := len(ix.stmtTokens)
		for _, t := range s.Tokens {
			ix.stmtTokens = append(ix.stmtTokens, global[t])
		}
		ix.stmtTokens = ix.stmtTokens[:start+len(sortedSet(ix.stmtTokens[start:]))]
		ix.stmtTokOff = append(ix.stmtTokOff, uint32(len(ix.stmtTokens)))
		ix.stmtRows = append(ix.stmtRows, [2]int32{int32(s.StartRow), int32(s.EndRow)})
		for _, d := range s.Defs {
			id, ok := b.defIDs[d]
			if !ok {
				id = uint32(len(ix.defNames))
				b.defIDs[d] = id
				ix.defNames = append(ix.defNames, d)
			}
			ix.stmtDefs = append(ix.stmtDefs, id)
		}
		ix.stmtDefOff = append(ix.stmtDefOff, uint32(len(ix.stmtDefs)))
	}
	for _, e := range f.Entries {
		en := entry{
			file: fi, target: base + e.Target, targetLocal: uint16(len(e.Nodes)),
			lastRow: int32(f.Stmts[e.Target].EndRow),
			nodeOff: uint32(len(ix.nodeArena)), nodeLen: uint16(len(e.Nodes)),
			edgeOff: uint32(len(ix.edgeArena)), edgeLen: uint16(len(e.Edges)),
		}
		key := b.tmp[:0]
		for i, n := range e.Nodes {
			ix.nodeArena = append(ix.nodeArena, base+n)
			ix.hopArena = append(ix.hopArena, e.Hop[i])
			en.lastRow = max(en.lastRow, int32(f.Stmts[n].EndRow))
			if n == e.Target {
				en.targetLocal = uint16(i)
				continue
			}
			for _, t := range f.Stmts[n].Tokens {
				key = append(key, global[t])
			}
		}
		ix.edgeArena = append(ix.edgeArena, e.Edges...)
		key = sortedSet(key)
		en.keyOff = uint32(len(ix.keyArena))
		ix.keyArena = append(ix.keyArena, key...)
		en.keyEnd = uint32(len(ix.keyArena))
		b.tmp = key
		ix.entries = append(ix.entries, en)
	}
	return nil
}

func validate(f *File) error {
	for i, s := range f.Stmts {
		for _, t := range s.Tokens {
			if int(t) >= len(f.Vocab) {
				return fmt.Errorf("statement %d: token %d outside a vocabulary of %d", i, t, len(f.Vocab))
			}
		}
		if s.StartRow < 0 || s.EndRow < s.StartRow || s.EndRow >= len(f.Lines) {
			return fmt.Errorf("statement %d: bad rows %d-%d", i, s.StartRow, s.EndRow)
		}
	}
	for i, e := range f.Entries {
		if int(e.Target) >= len(f.Stmts) {
			return fmt.Errorf("entry %d: target %d outside %d statements", i, e.Target, len(f.Stmts))
		}
		if len(e.Hop) != len(e.Nodes) || len(e.Nodes) > 1<<16-1 || len(e.Edges) > 1<<16-1 {
			return fmt.Errorf("entry %d: %d nodes, %d hops, %d edges", i, len(e.Nodes), len(e.Hop), len(e.Edges))
		}
		for _, n := range e.Nodes {
			if int(n) >= len(f.Stmts) {
				return fmt.Errorf("entry %d: node %d outside %d statements", i, n, len(f.Stmts))
			}
		}
		for _, ed := range e.Edges {
			if int(ed.From) >= len(e.Nodes) || int(ed.To) >= len(e.Nodes) || ed.Type > 2 {
				return fmt.Errorf("entry %d: bad edge %v", i, ed)
			}
		}
	}
	return nil
}

// Index finishes the build: it computes the inverted index. The builder
// must not be used afterwards.
func (b *Builder) Index() *Index {
	ix := b.ix
	b.ix = nil
	counts := make([]uint32, len(ix.vocab)+1)
	for _, t := range ix.keyArena {
		counts[t+1]++
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	ix.postOff = counts
	ix.post = make([]uint32, len(ix.keyArena))
	fill := slices.Clone(counts[:len(counts)-1])
	for ei := range ix.entries {
		en := &ix.entries[ei]
		for _, t := range ix.keyArena[en.keyOff:en.keyEnd] {
			ix.post[fill[t]] = uint32(ei)
			fill[t]++
		}
	}
	// Trim arenas grown by append.
	ix.stmtTokens = slices.Clip(ix.stmtTokens)
	ix.keyArena = slices.Clip(ix.keyArena)
	return ix
}

// Len returns the number of entries.
func (ix *Index) Len() int { return len(ix.entries) }

// Files returns the number of files.
func (ix *Index) Files() int { return len(ix.files) }

// Params returns the slicing parameters of the index.
func (ix *Index) Params() Params { return ix.params }

// Tokenizer returns the tokenizer queries must use.
func (ix *Index) Tokenizer() Tokenizer { return ix.tok }

// Lines returns the indexed lines of the file at path, or nil.
func (ix *Index) Lines(path string) []string {
	if fi, ok := ix.byPath[path]; ok {
		return ix.files[fi].lines
	}
	return nil
}

// Bytes estimates the memory the index holds, for capacity checks.
func (ix *Index) Bytes() int64 {
	n := int64(len(ix.stmtTokOff)+len(ix.stmtTokens)+len(ix.keyArena)+len(ix.nodeArena)+len(ix.postOff)+len(ix.post)) * 4
	n += int64(len(ix.stmtRows)) * 8
	n += int64(len(ix.hopArena)) + int64(len(ix.edgeArena))*6
	n += int64(len(ix.entries)) * 40
	for t := range ix.vocab {
		n += int64(len(t)) + 24
	}
	for _, f := range ix.files {
		for _, l := range f.lines {
			n += int64(len(l)) + 16
		}
	}
	return n
}

func (ix *Index) stmtTokensOf(s uint32) []uint32 {
	return ix.stmtTokens[ix.stmtTokOff[s]:ix.stmtTokOff[s+1]]
}

// defsOf appends to dst the names statement s defines.
func (ix *Index) defsOf(dst []string, s uint32) []string {
	for _, id := range ix.stmtDefs[ix.stmtDefOff[s]:ix.stmtDefOff[s+1]] {
		dst = append(dst, ix.defNames[id])
	}
	return dst
}

func (ix *Index) key(ei int) []uint32 {
	en := &ix.entries[ei]
	return ix.keyArena[en.keyOff:en.keyEnd]
}

// sortedSet sorts s in place and returns its prefix without duplicates.
func sortedSet(s []uint32) []uint32 {
	slices.Sort(s)
	return slices.Compact(s)
}
