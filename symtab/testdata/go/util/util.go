package util

// Helper helps.
func Helper() {}
