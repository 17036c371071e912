package db

// MemoryBudget returns the memory the store may hold on the Go heap
// while it is open: its write buffer (one memtable, allocated whole when
// the store is opened for writing and filled as writes arrive), its block
// cache and its table index cache, as the store is opened. A process
// setting itself a memory limit adds it to what it needs besides.
func (d *DB) MemoryBudget() int64 {
	bo := badgerOptions(d.dir, d.readOnly)
	n := bo.BlockCacheSize + bo.IndexCacheSize
	if !d.readOnly {
		n += bo.MemTableSize
	}
	return n
}
