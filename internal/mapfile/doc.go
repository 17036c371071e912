// Package mapfile owns the container format of the files graphcoder maps
// into memory instead of decoding (the retrieval-ready snapshot of an
// index generation): named sections of raw little-endian arrays, each
// aligned and checksummed, listed in a table of contents at the end.
//
// A reader maps the whole file read-only (mmap) and hands out the
// sections as slices of the mapping: opening costs a few system calls
// whatever the file's size, and only the pages a search touches are ever
// read from disk. The table of contents is checked when a file is opened;
// a section's checksum is checked by Verify, which reads it through the
// file (not the mapping), so that checking a large file does not make its
// pages part of the process's resident memory.
//
// # Layout (Version 1)
//
//	sections       each starts at a multiple of Align; zero padding between
//	toc            per section: 24 bytes name (NUL padded), uint64 offset,
//	               uint64 length, uint32 crc32 (Castagnoli) of its bytes,
//	               uint32 zero
//	trailer        32 bytes: uint64 toc offset, uint32 section count,
//	               uint32 crc32 of the toc, uint32 Version, uint32 byte
//	               order mark 0x01020304 (as written), 8 bytes Magic
//
// All integers are little endian. A file of another version, byte order
// or magic, or whose table of contents fails its checksum or points
// outside the file, is refused with an error wrapping ErrFormat.
package mapfile
