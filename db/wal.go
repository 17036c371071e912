package db

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A writer killed with its memtables unflushed leaves write-ahead logs
// (NNNNN.mem) whose tail is unfinished (they are preallocated and
// mmapped). Badger replays such a log only when it may truncate it, that
// is read-write; a read-only open fails with "Log truncate required". A
// reader must never write to the index, so openShadow gives it the last
// published generation another way: a private folder of links to the
// index's files in which each log is replaced by a copy of its valid
// prefix, opened read-only. walEnd computes that prefix the way Badger's
// replay does (badger v4, memtable.go: logFile.iterate); should it ever
// disagree, Badger refuses the copy, and the reader gets an error, never a
// wrong index.

// walHeaderSize is the log file header: an encryption key id and a base IV.
const walHeaderSize = 20

// Entry meta bits of Badger's log (value.go).
const (
	walBitTxn    = 1 << 6
	walBitFinTxn = 1 << 7
)

var (
	walCRC       = crc32.MakeTable(crc32.Castagnoli)
	errWALBroken = errors.New("log entry broken")
)

// walEnd returns the offset past the last complete transaction of the
// write-ahead log at path.
func walEnd(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := f.Seek(walHeaderSize, io.SeekStart); err != nil {
		return 0, err
	}
	r := bufio.NewReaderSize(f, 1<<16)
	off := int64(walHeaderSize)
	valid := off
	var lastCommit uint64
	var kv []byte
	for {
		meta, key, value, n, err := walEntry(r, &kv)
		if err != nil || len(key) == 0 {
			return valid, nil // the end, or the unfinished tail
		}
		off += n
		switch {
		case meta&walBitTxn != 0:
			ts := keyTs(key)
			if lastCommit == 0 {
				lastCommit = ts
			}
			if lastCommit != ts {
				return valid, nil
			}
		case meta&walBitFinTxn != 0:
			ts, err := strconv.ParseUint(string(value), 10, 64)
			if err != nil || ts != lastCommit {
				return valid, nil
			}
			lastCommit = 0
			valid = off
		default:
			if lastCommit != 0 {
				return valid, nil
			}
			valid = off
		}
	}
}

// walEntry reads one log entry: header (meta, user meta, key length, value
// length, expiry), key, value, and a big-endian CRC-32C of all before it.
func walEntry(r *bufio.Reader, buf *[]byte) (meta byte, key, value []byte, n int64, err error) {
	h := crc32.New(walCRC)
	var hdr [2 + 3*binary.MaxVarintLen64]byte
	if _, err := io.ReadFull(r, hdr[:2]); err != nil {
		return 0, nil, nil, 0, err
	}
	hl := 2
	var lens [3]uint64
	for i := range lens {
		v, err := binary.ReadUvarint(r)
		if err != nil {
			return 0, nil, nil, 0, err
		}
		lens[i] = v
		hl += binary.PutUvarint(hdr[hl:], v)
	}
	klen, vlen := uint32(lens[0]), uint32(lens[1])
	if klen > 1<<16 {
		return 0, nil, nil, 0, errWALBroken
	}
	total := int(klen) + int(vlen)
	if cap(*buf) < total {
		*buf = make([]byte, total)
	}
	kv := (*buf)[:total]
	if _, err := io.ReadFull(r, kv); err != nil {
		return 0, nil, nil, 0, errWALBroken
	}
	var sum [4]byte
	if _, err := io.ReadFull(r, sum[:]); err != nil {
		return 0, nil, nil, 0, errWALBroken
	}
	h.Write(hdr[:hl])
	h.Write(kv)
	if h.Sum32() != binary.BigEndian.Uint32(sum[:]) {
		return 0, nil, nil, 0, errWALBroken
	}
	return hdr[0], kv[:klen], kv[klen:], int64(hl + total + 4), nil
}

// keyTs is the version Badger appends to every stored key.
func keyTs(key []byte) uint64 {
	if len(key) <= 8 {
		return 0
	}
	return math.MaxUint64 - binary.BigEndian.Uint64(key[len(key)-8:])
}

// makeShadow fills the empty folder shadow with links to the files of the
// index in dir, except for the lock file, empty value logs (left out) and
// the write-ahead logs, which it copies up to their valid end.
func makeShadow(dir, shadow string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		src, dst := filepath.Join(dir, name), filepath.Join(shadow, name)
		fi, err := e.Info()
		if err != nil {
			return err
		}
		switch {
		case name == "LOCK":
		case strings.HasSuffix(name, ".vlog") && fi.Size() == 0:
			// Created by the killed writer and never sized: it holds no
			// value, and Badger could not open it read-only.
		case strings.HasSuffix(name, ".mem"):
			end, err := walEnd(src)
			if err != nil {
				return fmt.Errorf("read log %s: %w", name, err)
			}
			if end <= walHeaderSize {
				// No complete entry (or a log created and killed before
				// it was even sized): nothing to replay, leave it out.
				continue
			}
			if err := copyPrefix(src, dst, end); err != nil {
				return fmt.Errorf("copy log %s: %w", name, err)
			}
		default:
			abs, err := filepath.Abs(src)
			if err != nil {
				return err
			}
			if err := os.Symlink(abs, dst); err != nil {
				return err
			}
		}
	}
	return nil
}

func copyPrefix(src, dst string, n int64) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.CopyN(out, in, n); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
