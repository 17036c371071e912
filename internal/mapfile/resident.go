package mapfile

// Resident is what the process holds in memory, in bytes: the resident
// set (VmRSS) and the part of it that is file-backed or shared (the
// mapped pages of files, this package's among them, and of the
// executable).
type Resident struct {
	Total, File int64
}

// ReadResident returns the process's resident set. Where the system does
// not tell (ok false), it returns zeros. It costs a system call (on
// Linux, a read of /proc/self/statm, whose counters the kernel keeps per
// process: microseconds, whatever the mappings' sizes).
func ReadResident() (r Resident, ok bool) { return readResident() }
