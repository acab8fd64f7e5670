package accesslog_test

import (
	"log/slog"
	"os"
	"time"

	"github.com/graftgql/graft/accesslog"
)

// A server's logger over a buffered writer: access lines take the fast
// path, other records go through slog's JSON handler; Close writes what
// is buffered.
func Example() {
	w := accesslog.NewWriter(os.Stdout, accesslog.WriterOptions{FlushInterval: time.Second})
	h := accesslog.NewHandler(w, &accesslog.HandlerOptions{Format: accesslog.JSON})
	// graft.Config{AccessLog: slog.New(h)} logs each request through h.Log.
	h.Log(&accesslog.Entry{
		Time:   time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC),
		Method: "POST", Status: 200, OperationType: "query", OperationName: "Posts",
		Duration: 1500 * time.Microsecond, RequestID: "4bf92f35", Remote: "10.0.0.7:51234", BytesReceived: 61,
	})
	// Records logged through slog go through the same buffer.
	slog.New(h).Debug("below the handler's level: not written")
	_ = w.Close()
	// Output:
	// {"time":"2026-11-27T12:00:00Z","level":"INFO","msg":"graphql request","method":"POST","status":200,"operation_name":"Posts","operation_type":"query","duration_ms":1.5,"errors":0,"request_id":"4bf92f35","remote":"10.0.0.7:51234","bytes_received":61}
}
