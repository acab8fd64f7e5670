package graftotel_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/graftgql/graft"
	graftotel "github.com/graftgql/graft/otel"
)

// otlpReceiver is a minimal OTLP/HTTP trace receiver: it decodes the
// protobuf ExportTraceServiceRequest of the OpenTelemetry protocol
// module and keeps the span names by trace ID.
type otlpReceiver struct {
	mu    sync.Mutex
	spans map[string][]string
	posts int
}

func (rc *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "unexpected request", http.StatusBadRequest)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req coltrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	rc.posts++
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				id := traceHex(s.TraceId)
				rc.spans[id] = append(rc.spans[id], s.Name)
			}
		}
	}
	rc.mu.Unlock()
	out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func traceHex(b []byte) string {
	const hexd = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, hexd[c>>4], hexd[c&15])
	}
	return string(out)
}

// TestOTLPHTTPEndToEnd exports a request's spans over OTLP/HTTP with the
// SDK's exporter to a receiver started by the test.
func TestOTLPHTTPEndToEnd(t *testing.T) {
	rc := &otlpReceiver{spans: map[string][]string{}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(srv.URL+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp))
	in, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoMetrics: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := graft.Config{}
	in.Install(&cfg)
	r, err := graft.NewRouter(testSchema(t), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	const traceID = "0af7651916cd43dd8448eb211c80319c"
	do(t, r, `query Shelf { books { title } }`, "traceparent", "00-"+traceID+"-b7ad6b7169203331-01")
	if err := tp.Shutdown(context.Background()); err != nil { // flushes the batch
		t.Fatal(err)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	names := rc.spans[traceID]
	want := map[string]bool{"query Shelf": false, "graphql.parsed": false, "graphql.executed": false, "graphql.answered": false}
	for _, n := range names {
		if _, ok := want[n]; ok {
			want[n] = true
		}
	}
	for n, seen := range want {
		if !seen {
			t.Fatalf("receiver lacks span %q for trace %s; got %v (%d posts)", n, traceID, rc.spans, rc.posts)
		}
	}
}
