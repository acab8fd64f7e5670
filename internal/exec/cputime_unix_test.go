//go:build unix

package exec_test

import (
	"syscall"
	"time"
)

// processCPU returns the user and system CPU time the process has used, so
// benchmarks can report CPU per operation, which a busy machine distorts
// far less than wall-clock time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
