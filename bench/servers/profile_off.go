//go:build solo && !profile

package servers

import "errors"

// profiling is off in a solo build without the tag profile: runtime/pprof
// is not linked, so the runtime's memory profiling is off, as in a
// deployed server built without it.
const profiling = false

var errNoProfiling = errors.New("built without profiling")

func startCPUProfile(string) (func(), error) { return nil, errNoProfiling }

func writeAllocProfile(string) error { return errNoProfiling }
