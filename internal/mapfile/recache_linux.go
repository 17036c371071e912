package mapfile

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

func recache(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fd := int(f.Fd())
	if unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED) != nil || unix.Fadvise(fd, 0, 0, unix.FADV_RANDOM) != nil {
		return false
	}
	buf := make([]byte, 1<<20)
	for {
		_, err := f.Read(buf)
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
	}
}
