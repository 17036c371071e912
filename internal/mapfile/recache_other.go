//go:build !linux

package mapfile

func recache(string) bool { return false }
