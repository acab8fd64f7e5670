//go:build amd64 || arm64

package prefetch

import "unsafe"

// Line prefetches the cache line that holds p.
//
//go:noescape
func Line(p unsafe.Pointer)
