package loader

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkShared: 64 concurrent requests each load the same resource
// from an upstream that answers after 1 ms with 100 posts (about 10 KB
// of JSON, decoded on every call), through a Shared (dedupe) or each
// with its own call (direct). It reports the upstream calls per request;
// ns/op is per request.
func BenchmarkShared(b *testing.B) {
	var body strings.Builder
	body.WriteByte('[')
	for i := range 100 {
		if i > 0 {
			body.WriteByte(',')
		}
		fmt.Fprintf(&body, `{"userId":%d,"id":%d,"title":"post %d","body":"some text of the post's body, a sentence or two long"}`, i%10+1, i+1, i+1)
	}
	body.WriteByte(']')
	answer := []byte(body.String())
	type post struct {
		UserID, ID  int
		Title, Body string
	}
	for _, mode := range []string{"direct", "dedupe"} {
		b.Run(mode, func(b *testing.B) {
			var calls atomic.Int64
			fetch := func(ctx context.Context, keys []string) ([]string, []error) {
				calls.Add(1)
				time.Sleep(time.Millisecond) // the upstream's latency
				var ps []post
				if err := json.Unmarshal(answer, &ps); err != nil {
					return nil, []error{err}
				}
				return append([]string(nil), keys...), nil
			}
			shared := NewShared(fetch, SharedOptions{})
			b.SetParallelism(64)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				for pb.Next() {
					f := FetchFunc[string, string](fetch)
					if mode == "dedupe" {
						f = shared.Fetch
					}
					if _, errs := New(f).Load(ctx, "/posts"); errs != nil {
						b.Error(errs)
					}
				}
			})
			b.ReportMetric(float64(calls.Load())/float64(b.N), "calls/req")
		})
	}
}
