package retrieve

// repTable returns each entry's representative (dups.go): itself unless
// it is a copy.
func repTable(ix *Index) []uint32 {
	rep := make([]uint32, ix.Len())
	for e := range rep {
		rep[e] = uint32(e)
	}
	for e := range uint32(ix.Len()) {
		if ix.isCopy(e) {
			continue
		}
		for d := ix.nextCopy(e); d != 0; d = ix.nextCopy(d) {
			rep[d] = e
		}
	}
	return rep
}
