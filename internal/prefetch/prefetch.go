// Package prefetch asks the processor to bring memory into its cache
// ahead of use, without waiting for it: a hint, which never faults and
// changes no result. The hub's workers use it to fetch the state of the
// streams they will deliver to next while they write to the current one.
package prefetch

import "unsafe"

// LineSize is the cache line size assumed.
const LineSize = 64

// Lines prefetches the n cache lines from p on.
func Lines(p unsafe.Pointer, n int) {
	for i := range n {
		Line(unsafe.Add(p, i*LineSize))
	}
}
