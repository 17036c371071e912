package mapfile

import (
	"bytes"
	"os"
	"strconv"
	"sync"
)

var statm struct {
	once sync.Once
	f    *os.File
	page int64
}

// readResident reads the second and third fields of /proc/self/statm
// (resident and shared pages), through a descriptor kept open.
func readResident() (Resident, bool) {
	statm.once.Do(func() {
		statm.f, _ = os.Open("/proc/self/statm")
		statm.page = int64(os.Getpagesize())
	})
	if statm.f == nil {
		return Resident{}, false
	}
	var buf [128]byte
	n, err := statm.f.ReadAt(buf[:], 0)
	if n == 0 && err != nil {
		return Resident{}, false
	}
	return parseStatm(buf[:n], statm.page)
}

// parseStatm reads the resident and shared page counts of a statm line.
func parseStatm(b []byte, page int64) (Resident, bool) {
	f := bytes.Fields(b)
	if len(f) < 3 {
		return Resident{}, false
	}
	rss, err1 := strconv.ParseInt(string(f[1]), 10, 64)
	shared, err2 := strconv.ParseInt(string(f[2]), 10, 64)
	if err1 != nil || err2 != nil || rss < 0 || shared < 0 {
		return Resident{}, false
	}
	return Resident{Total: rss * page, File: shared * page}, true
}
