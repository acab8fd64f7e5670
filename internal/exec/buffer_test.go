package exec

import "testing"

func TestBufferPool(t *testing.T) {
	tests := []struct {
		name string
		size int
	}{
		{"small buffer is reused empty", 100},
		{"oversized buffer is dropped", maxPooledBuffer + 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := GetBuffer()
			*b = append((*b)[:0], make([]byte, tc.size)...)
			PutBuffer(b)
			if got := GetBuffer(); len(*got) != 0 {
				t.Fatalf("GetBuffer returned %d bytes, want an empty buffer", len(*got))
			}
		})
	}
	PutBuffer(nil)
}
