package testenv

import (
	"bytes"
	"strings"
	"sync"
)

// Buffer is a bytes.Buffer safe for concurrent writes, such as a logger's
// from a server's goroutines, read by a test.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns what was written.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Lines returns what was written, one element a line, without the last
// newline.
func (b *Buffer) Lines() []string {
	return strings.Split(strings.TrimSpace(b.String()), "\n")
}
