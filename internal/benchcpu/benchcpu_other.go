//go:build !unix

package benchcpu

import "time"

// ProcessTime is 0 where getrusage does not exist.
func ProcessTime() time.Duration { return 0 }
