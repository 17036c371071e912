package window

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// Tokenizer splits text into tokens; any token.Tokenizer fits.
type Tokenizer interface {
	Split(dst []string, text string) []string
}

// File is one file of the repository.
type File struct {
	Path  string // slash-separated, relative to the repository root
	Lines []string
}

// Options configure an Index.
type Options struct {
	Size int // lines per window (default 20)
	// CommentPrefix is the language's line-comment prefix; the model-free
	// prediction skips rows that start with it.
	CommentPrefix string
}

// Index is an in-memory sliding-window database. It is immutable after
// Build and safe for concurrent searches.
type Index struct {
	tok    Tokenizer
	size   int
	prefix string
	vocab  map[string]uint32
	files  []File
	// windows[w] is the file and first row of window w; windows are in
	// (file, row) order.
	winFile  []int32
	winStart []int32
	winLen   []int32
	setSize  []int32
	postings [][]int32 // token id -> windows holding it, ascending
	bytes    int64
	pool     sync.Pool
}

// Build indexes every window of the files. Files are sorted by path so
// that ties between windows break the same way on every run.
func Build(files []File, tok Tokenizer, opts Options) *Index {
	if opts.Size <= 0 {
		opts.Size = 20
	}
	ix := &Index{tok: tok, size: opts.Size, prefix: opts.CommentPrefix, vocab: make(map[string]uint32)}
	ix.files = slices.Clone(files)
	slices.SortStableFunc(ix.files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })

	var stamp []int32
	var buf []string
	for fi, f := range ix.files {
		// Token ids of every line, deduplicated within the line.
		lineIDs := make([][]uint32, len(f.Lines))
		for r, line := range f.Lines {
			buf = tok.Split(buf[:0], line)
			ids := make([]uint32, 0, len(buf))
			for _, t := range buf {
				id, ok := ix.vocab[t]
				if !ok {
					id = uint32(len(ix.vocab))
					ix.vocab[t] = id
					ix.postings = append(ix.postings, nil)
					stamp = append(stamp, -1)
				}
				ids = append(ids, id)
			}
			slices.Sort(ids)
			lineIDs[r] = slices.Compact(ids)
		}
		// Prefix sums of line lengths give each window's text size.
		textAt := make([]int64, len(f.Lines)+1)
		for r, line := range f.Lines {
			textAt[r+1] = textAt[r] + int64(len(line)) + 1
		}
		n := max(1, len(f.Lines)-opts.Size+1)
		if len(f.Lines) == 0 {
			n = 0
		}
		for start := 0; start < n; start++ {
			w := int32(len(ix.winFile))
			end := min(start+opts.Size, len(f.Lines))
			size := int32(0)
			for r := start; r < end; r++ {
				for _, id := range lineIDs[r] {
					if stamp[id] != w {
						stamp[id] = w
						ix.postings[id] = append(ix.postings[id], w)
						size++
					}
				}
			}
			ix.winFile = append(ix.winFile, int32(fi))
			ix.winStart = append(ix.winStart, int32(start))
			ix.winLen = append(ix.winLen, int32(end-start))
			ix.setSize = append(ix.setSize, size)
			// A stored record: the window text as value, the token id
			// set as key (4 bytes an id), the path.
			ix.bytes += textAt[end] - textAt[start] + 4*int64(size) + int64(len(f.Path))
		}
	}
	return ix
}

// Entries is the number of windows in the database.
func (ix *Index) Entries() int { return len(ix.winFile) }

// Bytes is the size the database's records would take when stored: each
// window's text, its token id set at 4 bytes an id, and its path.
func (ix *Index) Bytes() int64 { return ix.bytes }

// Query asks for the windows most similar to the code before a hole.
type Query struct {
	Path string // file of the hole, as in File.Path
	Line int    // 0-based row of the hole
	// Context is the file's lines before the hole.
	Context []string
	// Appended are predicted lines for the hole, appended to the query
	// (RepoCoder's later iterations).
	Appended []string
	// Shift returns the window after each match instead of the match.
	Shift bool
	TopK  int // default 10
}

// Hit is one retrieved window.
type Hit struct {
	Path       string
	Start, End int // rows [Start, End), 0-based
	Score      float64
	Text       string
}

// Result is the answer to a Query.
type Result struct {
	Hits []Hit // best first
	// Prediction is the model-free prediction of the hole line, "" when no
	// window aligns with a row to predict from.
	Prediction string
}

type scored struct {
	w     int32
	score float64
}

// Search returns the top windows for q and the model-free prediction.
func (ix *Index) Search(q Query) Result {
	if q.TopK <= 0 {
		q.TopK = 10
	}
	lines := append(slices.Clone(q.Context), q.Appended...)
	lines = lines[max(0, len(lines)-ix.size):]
	// The hole's row within the aligned window: right after the context.
	offset := len(lines) - len(q.Appended)

	qset := make(map[uint32]bool)
	unknown := make(map[string]bool)
	var buf []string
	for _, l := range lines {
		buf = ix.tok.Split(buf[:0], l)
		for _, t := range buf {
			if id, ok := ix.vocab[t]; ok {
				qset[id] = true
			} else {
				unknown[t] = true
			}
		}
	}
	qsize := int32(len(qset) + len(unknown))

	counts, _ := ix.pool.Get().([]int32)
	if len(counts) < len(ix.winFile) {
		counts = make([]int32, len(ix.winFile))
	}
	var touched []int32
	ids := make([]uint32, 0, len(qset))
	for id := range qset {
		ids = append(ids, id)
	}
	slices.Sort(ids) // map order must not leak into float sums or ties
	for _, id := range ids {
		for _, w := range ix.postings[id] {
			if counts[w] == 0 {
				touched = append(touched, w)
			}
			counts[w]++
		}
	}
	cands := make([]scored, 0, len(touched))
	for _, w := range touched {
		inter := counts[w]
		counts[w] = 0
		union := qsize + ix.setSize[w] - inter
		cands = append(cands, scored{w, float64(inter) / float64(union)})
	}
	ix.pool.Put(counts)
	slices.SortFunc(cands, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.w, b.w)
	})

	var res Result
	for _, c := range cands {
		full := len(res.Hits) == q.TopK
		if full && res.Prediction != "" {
			break
		}
		f := &ix.files[ix.winFile[c.w]]
		start, end := int(ix.winStart[c.w]), int(ix.winStart[c.w]+ix.winLen[c.w])
		if q.Shift {
			start, end = end, min(end+ix.size, len(f.Lines))
			if start >= end {
				continue
			}
		}
		from := int(ix.winStart[c.w]) + offset // the row aligned with the hole
		limit := len(f.Lines)
		if f.Path == q.Path {
			if end > q.Line || from >= q.Line {
				continue // leak rule: the window reaches the hole
			}
			// The query's own rows: a window there is the query aligned
			// with a shifted copy of itself, and its aligned row is a line
			// the query already holds (mostly the one right above the
			// hole). Such a window is still a hit but predicts nothing;
			// the prediction comes from the best window past them, even
			// one below the top k.
			limit = q.Line - offset
		}
		if res.Prediction == "" && from < limit {
			res.Prediction, _ = ix.predict(f, from, limit)
		}
		if full {
			continue
		}
		res.Hits = append(res.Hits, Hit{
			Path: f.Path, Start: start, End: end, Score: c.score,
			Text: strings.Join(f.Lines[start:end], "\n"),
		})
	}
	return res
}

// predict returns the first row at or after row and before limit that is
// neither blank nor a comment.
func (ix *Index) predict(f *File, row, limit int) (string, bool) {
	for ; row < limit; row++ {
		t := strings.TrimSpace(f.Lines[row])
		if t == "" || ix.prefix != "" && strings.HasPrefix(t, ix.prefix) {
			continue
		}
		return f.Lines[row], true
	}
	return "", false
}
