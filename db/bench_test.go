package db

import (
	"context"
	"os"
	"testing"
)

// BenchmarkLoadAll decodes every record of the index named by
// GRAPHCODER_BENCH_INDEX (for example one built from the Python standard
// library), as a completion does at start.
func BenchmarkLoadAll(b *testing.B) {
	dir := os.Getenv("GRAPHCODER_BENCH_INDEX")
	if dir == "" {
		b.Skip("set GRAPHCODER_BENCH_INDEX to an index folder")
	}
	d, err := Open(dir, OpenOptions{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	entries := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := d.Snapshot()
		if err != nil {
			b.Fatal(err)
		}
		entries = 0
		err = s.ForEach(context.Background(), func(r *FileRecord) error {
			entries += len(r.Entries)
			return nil
		})
		s.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(entries), "entries")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(entries)*1e5, "s/100k-entries")
}
