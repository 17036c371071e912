package retrieve

// ScannedSections names the sections of a mapped index (WriteTo) that a
// search reads through whole or nearly: the Jaccard stage's masks and key
// lengths and its block bounds, BM25's lengths and largest term
// frequencies, and the vocabulary every query token is looked up in. A
// reader releasing the mapping's pages between searches keeps these
// mapped (mapfile.File.Release): the next search would map them all again
// at a page fault per block. Every other section is read where a query's
// tokens and candidates lead.
func ScannedSections() []string {
	return []string{"ix.masks", "ix.keyLen", "ix.blocks.or", "ix.blocks.lmin", "ix.xmask.masks", "ix.xmask.or",
		"ix.dl", "ix.maxTF", "ix.vocab.Off", "ix.vocab.Bytes", "ix.vocab.Sorted"}
}
