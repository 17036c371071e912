package token

import (
	"fmt"
	"sync"

	tiktoken "github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// CL100K is the byte-pair encoding of the paper's implementation. Its
// tokens are the decoded pieces of each BPE id (a piece may be part of a
// multi-byte character).
type CL100K struct {
	enc    *tiktoken.Tiktoken
	pieces []string // id -> decoded piece
}

var (
	cl100kOnce sync.Once
	cl100k     *CL100K
	cl100kErr  error
)

// newCL100K loads the embedded vocabulary once per process.
func newCL100K() (Tokenizer, error) {
	cl100kOnce.Do(func() {
		tiktoken.SetBpeLoader(loader.NewOfflineLoader())
		enc, err := tiktoken.GetEncoding("cl100k_base")
		if err != nil {
			cl100kErr = fmt.Errorf("load cl100k vocabulary: %w", err)
			return
		}
		ranks, err := loader.NewOfflineLoader().LoadTiktokenBpe("cl100k_base.tiktoken")
		if err != nil {
			cl100kErr = fmt.Errorf("load cl100k vocabulary: %w", err)
			return
		}
		pieces := make([]string, 0, len(ranks)+512)
		for piece, id := range ranks {
			for id >= len(pieces) {
				pieces = append(pieces, "")
			}
			pieces[id] = piece
		}
		cl100k = &CL100K{enc: enc, pieces: pieces}
	})
	return cl100k, cl100kErr
}

// Name returns "cl100k".
func (*CL100K) Name() string { return "cl100k" }

// Split appends the BPE pieces of text to dst.
func (t *CL100K) Split(dst []string, text string) []string {
	for _, id := range t.enc.EncodeOrdinary(text) {
		if id >= 0 && id < len(t.pieces) && t.pieces[id] != "" {
			dst = append(dst, t.pieces[id])
		} else {
			dst = append(dst, t.enc.Decode([]int{id}))
		}
	}
	return dst
}
