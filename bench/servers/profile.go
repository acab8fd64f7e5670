//go:build !solo || profile

package servers

import (
	"os"
	"runtime/pprof"
)

// profiling says whether this binary can write profiles (-cpuprofile,
// -allocprofile). Linking runtime/pprof keeps the runtime's memory
// profiling on, which costs resident memory (its bucket table) that a
// deployed server built without it does not pay, so a solo build links it
// only with the tag profile, which the load generator adds under -profile.
const profiling = true

// startCPUProfile starts a CPU profile written to path ("" for none) and
// returns what stops it.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// writeAllocProfile writes the allocation profile to path.
func writeAllocProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.Lookup("allocs").WriteTo(f, 0)
}
