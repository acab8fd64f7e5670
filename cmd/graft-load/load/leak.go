package load

import (
	"runtime"
	"time"
)

// SettleGoroutines waits, up to within, for the goroutine count to come
// back to at most limit (connections closing and handlers returning take
// a moment after a run), and returns the last count seen.
func SettleGoroutines(limit int, within time.Duration) int {
	deadline := time.Now().Add(within)
	for {
		n := runtime.NumGoroutine()
		if n <= limit || time.Now().After(deadline) {
			return n
		}
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond)
	}
}

// HeapAfterGC runs the garbage collector and returns the bytes of live
// heap objects.
func HeapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
