//go:build !unix

package retrieve

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
