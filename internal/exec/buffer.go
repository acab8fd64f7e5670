package exec

import "sync"

// maxPooledBuffer is the capacity above which a released buffer is left to
// the garbage collector rather than kept for reuse.
const maxPooledBuffer = 1 << 20

var bufferPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 4096)
	return &b
}}

// GetBuffer returns an empty response buffer from a pool. Pass (*b)[:0] to
// Execute, store the result back in *b, and hand b to PutBuffer once the
// response has been written.
func GetBuffer() *[]byte {
	b := bufferPool.Get().(*[]byte)
	*b = (*b)[:0]
	return b
}

// PutBuffer returns a buffer obtained from GetBuffer to the pool. The
// caller must not use it afterwards.
func PutBuffer(b *[]byte) {
	if b == nil || cap(*b) > maxPooledBuffer {
		return
	}
	bufferPool.Put(b)
}
