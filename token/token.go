package token

import (
	"fmt"
	"sort"
	"strings"
)

// Tokenizer splits text into tokens. Implementations are safe for
// concurrent use.
type Tokenizer interface {
	// Name is the name ByName accepts, recorded in an index.
	Name() string
	// Split appends the tokens of text to dst and returns it.
	Split(dst []string, text string) []string
}

// Default is the name of the default tokenizer.
const Default = "code"

var constructors = map[string]func() (Tokenizer, error){
	"code":   func() (Tokenizer, error) { return Code{}, nil },
	"cl100k": newCL100K,
}

// Names lists the available tokenizers.
func Names() []string {
	names := make([]string, 0, len(constructors))
	for n := range constructors {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ByName returns the tokenizer called name; "" means Default.
func ByName(name string) (Tokenizer, error) {
	if name == "" {
		name = Default
	}
	c, ok := constructors[name]
	if !ok {
		return nil, fmt.Errorf("unknown tokenizer %q (have %s)", name, strings.Join(Names(), ", "))
	}
	return c()
}
