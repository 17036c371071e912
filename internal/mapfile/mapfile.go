package mapfile

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"slices"
	"unsafe"
)

// Version is the version of the layout documented in the package comment.
const Version = 1

// Magic ends every file.
const Magic = "GCMAPv1\x00"

// Align is the alignment of every section in the file (and so in the
// mapping, which starts on a page).
const Align = 64

const (
	nameLen     = 24
	tocEntryLen = nameLen + 8 + 8 + 4 + 4
	trailerLen  = 8 + 4 + 4 + 4 + 4 + 8
	byteOrder   = 0x01020304
)

// ErrFormat is wrapped by every error about a file that is not a mapfile
// this package reads: damaged, truncated, of another version or byte
// order.
var ErrFormat = errors.New("not a readable mapped file")

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// littleEndian reports whether the machine stores integers little end
// first, as the files do; typed sections are mapped as is only then.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// Fixed are the element types of typed sections.
type Fixed interface {
	~uint8 | ~int8 | ~uint16 | ~int16 | ~uint32 | ~int32 | ~uint64 | ~int64 | ~float32 | ~float64 | ~[2]int32
}

type tocEntry struct {
	name        string
	off, length uint64
	crc         uint32
}

// Writer writes a file section by section to an io.Writer. The first
// error is kept and returned by every later call.
type Writer struct {
	w    io.Writer
	off  uint64
	toc  []tocEntry
	open *tocEntry // the section being written
	crc  hash.Hash32
	err  error
	pad  [Align]byte
}

// NewWriter starts a file on w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, crc: crc32.New(crcTable)}
}

func (w *Writer) write(b []byte) {
	if w.err != nil {
		return
	}
	n, err := w.w.Write(b)
	w.off += uint64(n)
	if err != nil {
		w.err = err
	}
	if w.open != nil {
		w.crc.Write(b)
	}
}

func (w *Writer) end() {
	if w.open == nil {
		return
	}
	w.open.length = w.off - w.open.off
	w.open.crc = w.crc.Sum32()
	w.toc = append(w.toc, *w.open)
	w.open = nil
}

// Begin starts the section called name; what Write writes until the next
// Begin or Close is its content.
func (w *Writer) Begin(name string) error {
	w.end()
	if len(name) == 0 || len(name) > nameLen {
		return w.fail(fmt.Errorf("mapfile: section name %q: want 1 to %d bytes", name, nameLen))
	}
	for _, e := range w.toc {
		if e.name == name {
			return w.fail(fmt.Errorf("mapfile: section %q written twice", name))
		}
	}
	if r := w.off % Align; r != 0 {
		w.write(w.pad[:Align-r])
	}
	w.crc.Reset()
	w.open = &tocEntry{name: name, off: w.off}
	return w.err
}

func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return w.err
}

// Write appends b to the open section.
func (w *Writer) Write(b []byte) (int, error) {
	if w.open == nil {
		return 0, w.fail(errors.New("mapfile: write outside a section"))
	}
	w.write(b)
	if w.err != nil {
		return 0, w.err
	}
	return len(b), nil
}

// Section writes a whole section of raw bytes.
func (w *Writer) Section(name string, b []byte) error {
	if err := w.Begin(name); err != nil {
		return err
	}
	w.write(b)
	return w.err
}

// Put writes a typed section: the elements of s, little endian.
func Put[T Fixed](w *Writer, name string, s []T) error {
	if err := w.Begin(name); err != nil {
		return err
	}
	return Append(w, s)
}

// Append appends the elements of s, little endian, to the open section.
func Append[T Fixed](w *Writer, s []T) error {
	if len(s) == 0 {
		return w.err
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*size)
	if littleEndian {
		_, err := w.Write(b)
		return err
	}
	// Swap each 2, 4 or 8-byte word ([2]int32: two words) into a buffer.
	word := size
	if word == 8 && isPair[T]() {
		word = 4
	}
	buf := make([]byte, 0, min(len(b), 1<<16))
	for i := 0; i < len(b); i += word {
		for j := word - 1; j >= 0; j-- {
			buf = append(buf, b[i+j])
		}
		if len(buf) == cap(buf) {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

func isPair[T Fixed]() bool {
	var zero T
	_, ok := any(zero).([2]int32)
	return ok
}

// Close ends the last section and writes the table of contents and the
// trailer. The file is complete only when Close returns nil.
func (w *Writer) Close() error {
	w.end()
	if w.err != nil {
		return w.err
	}
	if r := w.off % 8; r != 0 {
		w.write(w.pad[:8-r])
	}
	tocOff := w.off
	toc := make([]byte, 0, len(w.toc)*tocEntryLen)
	for _, e := range w.toc {
		var name [nameLen]byte
		copy(name[:], e.name)
		toc = append(toc, name[:]...)
		toc = binary.LittleEndian.AppendUint64(toc, e.off)
		toc = binary.LittleEndian.AppendUint64(toc, e.length)
		toc = binary.LittleEndian.AppendUint32(toc, e.crc)
		toc = binary.LittleEndian.AppendUint32(toc, 0)
	}
	w.write(toc)
	tr := binary.LittleEndian.AppendUint64(nil, tocOff)
	tr = binary.LittleEndian.AppendUint32(tr, uint32(len(w.toc)))
	tr = binary.LittleEndian.AppendUint32(tr, crc32.Checksum(toc, crcTable))
	tr = binary.LittleEndian.AppendUint32(tr, Version)
	tr = binary.LittleEndian.AppendUint32(tr, byteOrder)
	tr = append(tr, Magic...)
	w.write(tr)
	return w.err
}

// File is an open, mapped file. Its sections are slices of the mapping:
// they stay valid until Close, and must not be used after it. A File is
// safe for concurrent use.
//
// The garbage collector does not see references into the mapping: a File
// that becomes unreachable is unmapped, so whatever holds its sections
// must also hold the File, and keep it reachable (runtime.KeepAlive)
// while it reads them.
type File struct {
	path    string
	f       *os.File
	data    []byte
	secs    map[string]tocEntry
	cleanup runtime.Cleanup
}

// Open maps the file at path and reads its table of contents.
func Open(path string) (*File, error) {
	if !littleEndian {
		return nil, fmt.Errorf("open %s: %w: this machine is big endian", path, ErrFormat)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("open %s: %w: not a regular file", path, ErrFormat)
	}
	size := st.Size()
	if size < trailerLen || size != int64(int(size)) {
		f.Close()
		return nil, fmt.Errorf("open %s: %w: %d bytes", path, ErrFormat, size)
	}
	data, err := mapFile(f, int(size))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open %s: map: %w", path, err)
	}
	m := &File{path: path, f: f, data: data}
	m.cleanup = runtime.AddCleanup(m, func(data []byte) { unmapFile(data) }, data)
	if err := m.readTOC(); err != nil {
		m.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return m, nil
}

func (m *File) readTOC() error {
	d := m.data
	tr := d[len(d)-trailerLen:]
	if string(tr[24:]) != Magic {
		return fmt.Errorf("%w: bad magic", ErrFormat)
	}
	if v := binary.LittleEndian.Uint32(tr[16:]); v != Version {
		return fmt.Errorf("%w: version %d, this graphcoder reads %d", ErrFormat, v, Version)
	}
	if binary.LittleEndian.Uint32(tr[20:]) != byteOrder {
		return fmt.Errorf("%w: written on a machine of another byte order", ErrFormat)
	}
	tocOff := binary.LittleEndian.Uint64(tr)
	n := uint64(binary.LittleEndian.Uint32(tr[8:]))
	end := uint64(len(d) - trailerLen)
	if tocOff > end || (end-tocOff) != n*tocEntryLen {
		return fmt.Errorf("%w: bad table of contents", ErrFormat)
	}
	toc := d[tocOff:end]
	if crc32.Checksum(toc, crcTable) != binary.LittleEndian.Uint32(tr[12:]) {
		return fmt.Errorf("%w: table of contents checksum mismatch", ErrFormat)
	}
	m.secs = make(map[string]tocEntry, n)
	for i := range n {
		b := toc[i*tocEntryLen : (i+1)*tocEntryLen]
		name := string(b[:nameLen])
		for j := range name {
			if name[j] == 0 {
				name = name[:j]
				break
			}
		}
		e := tocEntry{name: name, off: binary.LittleEndian.Uint64(b[nameLen:]),
			length: binary.LittleEndian.Uint64(b[nameLen+8:]), crc: binary.LittleEndian.Uint32(b[nameLen+16:])}
		if e.off%Align != 0 || e.off > tocOff || e.length > tocOff-e.off {
			return fmt.Errorf("%w: section %q lies outside the file", ErrFormat, name)
		}
		if _, dup := m.secs[name]; dup || name == "" {
			return fmt.Errorf("%w: section %q listed twice", ErrFormat, name)
		}
		m.secs[name] = e
	}
	return nil
}

// Path returns the file's path.
func (m *File) Path() string { return m.path }

// Size returns the file's size in bytes.
func (m *File) Size() int64 { return int64(len(m.data)) }

// Has reports whether the file has a section called name.
func (m *File) Has(name string) bool {
	_, ok := m.secs[name]
	return ok
}

// Section returns the bytes of the section called name.
func (m *File) Section(name string) ([]byte, error) {
	e, ok := m.secs[name]
	if !ok {
		return nil, fmt.Errorf("%s: %w: no section %q", m.path, ErrFormat, name)
	}
	return m.data[e.off : e.off+e.length : e.off+e.length], nil
}

// Get returns the section called name as a slice of T.
func Get[T Fixed](m *File, name string) ([]T, error) {
	b, err := m.Section(name)
	if err != nil {
		return nil, err
	}
	s, err := View[T](b)
	if err != nil {
		return nil, fmt.Errorf("%s: section %q: %w", m.path, name, err)
	}
	return s, nil
}

// View returns b as a slice of T: b must be aligned for T and hold a
// whole number of them.
func View[T Fixed](b []byte) ([]T, error) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b)%size != 0 {
		return nil, fmt.Errorf("%w: %d bytes are no whole number of %d-byte values", ErrFormat, len(b), size)
	}
	if len(b) == 0 {
		return nil, nil
	}
	if uintptr(unsafe.Pointer(&b[0]))%uintptr(unsafe.Alignof(zero)) != 0 {
		return nil, fmt.Errorf("%w: misaligned", ErrFormat)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size), nil
}

// Verify checks the checksum of the section called name, reading it
// through the file rather than the mapping.
func (m *File) Verify(name string) error {
	e, ok := m.secs[name]
	if !ok {
		return fmt.Errorf("%s: %w: no section %q", m.path, ErrFormat, name)
	}
	return m.verify(e)
}

func (m *File) verify(e tocEntry) error {
	buf := make([]byte, min(1<<20, max(e.length, 1)))
	h := crc32.New(crcTable)
	for off, end := int64(e.off), int64(e.off+e.length); off < end; {
		n := int(min(int64(len(buf)), end-off))
		if _, err := m.f.ReadAt(buf[:n], off); err != nil {
			return fmt.Errorf("%s: section %q: %w", m.path, e.name, err)
		}
		h.Write(buf[:n])
		off += int64(n)
	}
	if h.Sum32() != e.crc {
		return fmt.Errorf("%s: %w: section %q checksum mismatch", m.path, ErrFormat, e.name)
	}
	return nil
}

// VerifyAll checks every section's checksum.
func (m *File) VerifyAll() error {
	for _, e := range m.secs {
		if err := m.verify(e); err != nil {
			return err
		}
	}
	return nil
}

// Release takes the file's mapped pages out of the process's resident
// memory without unmapping it: the sections stay valid, and the pages a
// later read touches are mapped again from the page cache (which keeps
// them, shared and reclaimable, until the kernel needs the memory). A
// search maps whatever it touches, and the kernel maps a file's pages in
// large blocks (whole folios of the page cache, hundreds of kilobytes),
// so without Release a long-running reader ends up with most of a large
// file resident. It costs a system call and, after it, a page fault per
// block the next reads touch. Release may run while other goroutines read
// the sections; it must not run concurrently with Close.
//
// The pages wholly inside the sections named keep stay mapped: those a
// reader reads through every time, which it would only map again.
func (m *File) Release(keep ...string) error {
	if m.data == nil {
		return nil
	}
	for _, r := range m.releaseRanges(keep) {
		if err := releaseMapped(m.data[r[0]:r[1]]); err != nil {
			return fmt.Errorf("release %s: %w", m.path, err)
		}
	}
	return nil
}

// releaseRanges returns the byte ranges of the mapping Release(keep)
// releases, page aligned: all of it less the whole pages of the kept
// sections.
func (m *File) releaseRanges(keep []string) [][2]int {
	page := os.Getpagesize()
	var kept [][2]int
	for _, name := range keep {
		e, ok := m.secs[name]
		if !ok {
			continue
		}
		lo := (int(e.off) + page - 1) / page * page
		hi := int(e.off+e.length) / page * page
		if lo < hi {
			kept = append(kept, [2]int{lo, hi})
		}
	}
	slices.SortFunc(kept, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	var out [][2]int
	at := 0
	for _, k := range kept {
		if k[0] > at {
			out = append(out, [2]int{at, k[0]})
		}
		at = max(at, k[1])
	}
	if at < len(m.data) {
		out = append(out, [2]int{at, len(m.data)})
	}
	return out
}

// Close unmaps the file. No section may be used afterwards.
func (m *File) Close() error {
	var err error
	if m.data != nil {
		m.cleanup.Stop()
		err = unmapFile(m.data)
		m.data = nil
	}
	if m.f != nil {
		if cerr := m.f.Close(); err == nil {
			err = cerr
		}
		m.f = nil
	}
	return err
}

func unsafeBytes(w []uint64) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w))
}

// SectionInfo describes one section of a file.
type SectionInfo struct {
	Name           string
	Offset, Length int64
}

// Sections lists the file's sections by offset.
func (m *File) Sections() []SectionInfo {
	out := make([]SectionInfo, 0, len(m.secs))
	for _, e := range m.secs {
		out = append(out, SectionInfo{e.name, int64(e.off), int64(e.length)})
	}
	slices.SortFunc(out, func(a, b SectionInfo) int { return cmp.Compare(a.Offset, b.Offset) })
	return out
}
