package mapfile

// Recache replaces the page cache's copy of the file at path, which must
// be synced (its pages clean), with one read back in base pages, and
// reports whether it could.
//
// A process that maps a file gets resident, at a page fault, the whole
// folio of the page cache holding the page it touched, and a file just
// written sits in the page cache in the large folios of the writes (up
// to megabytes each): a search that reads a few bytes here and there of
// a freshly built snapshot file makes most of what it touches resident
// in whole megabytes. Dropping the written pages (posix_fadvise
// DONTNEED) and reading the file back with readahead off (FADV_RANDOM,
// which the kernel serves in base pages) leaves each fault mapping only
// the pages around it. It costs one read of the file, from the disk's
// cache or the disk. Where the system offers neither, it does nothing.
func Recache(path string) bool { return recache(path) }
