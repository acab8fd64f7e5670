package testenv

import "testing"

// Layout checks a struct's memory layout for a test that keeps what a
// hot path reads together: its size must lie in (minSize, maxSize] (a
// size class whose objects start on a cache line), and each field named
// in ends must end within the first limit bytes (ends maps a field's
// name to its offset plus its size). maxSize 0 checks no size.
func Layout(t testing.TB, typ string, size, minSize, maxSize, limit uintptr, ends map[string]uintptr) {
	t.Helper()
	if maxSize != 0 && (size <= minSize || size > maxSize) {
		t.Errorf("a %s is %d bytes, out of the %d-byte size class", typ, size, maxSize)
	}
	for name, end := range ends {
		if end > limit {
			t.Errorf("%s.%s ends at byte %d, past the first %d", typ, name, end, limit)
		}
	}
}
