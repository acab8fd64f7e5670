package graftotel_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/incremental"
	"github.com/graftgql/graft/graftotel"
)

// TestSpanPerDeferredFragment: an incremental response has one span per
// deferred fragment and per stream, children of the request's span,
// carrying the label, the path and the errors.
func TestSpanPerDeferredFragment(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	in, err := graftotel.New(graftotel.Options{TracerProvider: tp, NoMetrics: true})
	if err != nil {
		t.Fatal(err)
	}
	cfg := graft.Config{}
	in.Install(&cfg)
	s, err := incremental.Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	const query = `query Parts { item(id: "1") { id ... @defer(label: "slow") { slowField(delayMs: 5) } ` +
		`... @defer(label: "bad") { failing } child { ... @defer { name } } } ` +
		`items(count: 2) @stream(label: "list") { id } }`
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", strings.NewReader(`{"query":`+quote(query)+`}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "multipart/mixed;incrementalSpec=v0.2")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"hasNext":false`) {
		t.Fatalf("not an incremental response: %s", body)
	}
	var root sdktrace.ReadOnlySpan
	parts := map[string]tracetest.SpanStub{}
	for _, sp := range exp.GetSpans() {
		switch sp.Name {
		case "query Parts":
			root = sp.Snapshot()
		case "GraphQL defer", "GraphQL stream":
			a := attribute.NewSet(sp.Attributes...)
			label, _ := a.Value("graphql.incremental.label")
			parts[sp.Name+" "+label.AsString()] = sp
		}
	}
	if root == nil {
		t.Fatalf("no request span among %d", len(exp.GetSpans()))
	}
	for name, want := range map[string]struct {
		path   string
		errors int64
	}{
		"GraphQL defer slow":  {`["item"]`, 0},
		"GraphQL defer bad":   {`["item"]`, 1},
		"GraphQL defer ":      {`["item","child"]`, 0},
		"GraphQL stream list": {`["items"]`, 0},
	} {
		sp, ok := parts[name]
		if !ok {
			t.Errorf("no span %q; have %v", name, keys(parts))
			continue
		}
		a := attribute.NewSet(sp.Attributes...)
		if v, _ := a.Value("graphql.incremental.path"); v.AsString() != want.path {
			t.Errorf("%s: path %q, want %q", name, v.AsString(), want.path)
		}
		if v, _ := a.Value("graphql.error.count"); v.AsInt64() != want.errors {
			t.Errorf("%s: %d errors, want %d", name, v.AsInt64(), want.errors)
		}
		if sp.Parent.SpanID() != root.SpanContext().SpanID() {
			t.Errorf("%s: parent %v, want the request span", name, sp.Parent.SpanID())
		}
		if sp.EndTime.Before(sp.StartTime) {
			t.Errorf("%s: ends before it starts", name)
		}
	}
	if len(parts) != 4 {
		t.Errorf("%d part spans, want 4: %v", len(parts), keys(parts))
	}
}

func keys(m map[string]tracetest.SpanStub) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
