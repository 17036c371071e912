package store

// Base saves.
type Base struct{ path string }

// Save saves.
func (b *Base) Save() error { return nil }

// Open opens a store.
func Open(name string) *Base { return &Base{path: name} }

// Saver is anything that saves.
type Saver interface {
	Save() error
}
