package eval

import (
	"context"
	"errors"
)

// OpenGraphIndex builds (or brings up to date) the graphcoder index of
// repo in indexDir and opens it for queries.
func OpenGraphIndex(ctx context.Context, repo, indexDir, tokenizer string) (GraphIndex, error) {
	return nil, errors.New("the graphcoder engine is not available in this build")
}
