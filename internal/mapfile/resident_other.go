//go:build !linux

package mapfile

func readResident() (Resident, bool) { return Resident{}, false }
