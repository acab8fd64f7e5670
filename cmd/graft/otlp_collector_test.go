package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// TestOTLPToCollector runs the real cmd/graft binary with the standard
// OpenTelemetry environment pointing at a real OpenTelemetry Collector,
// sends a query carrying a traceparent, stops both, and reads the spans
// the Collector received from the file it exported them to.
func TestOTLPToCollector(t *testing.T) {
	collector := testenv.OTelCollector(t)
	goBin := testenv.LookPath(t, "go")
	dir := t.TempDir()
	bin := filepath.Join(dir, "graft")
	if out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	endpoint, exported, stopCollector := testenv.StartCollector(t, collector, dir)

	port := freePort(t)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "HOST=127.0.0.1", "LOG_FORMAT=json",
		"OTEL_EXPORTER_OTLP_ENDPOINT="+endpoint, "OTEL_EXPORTER_OTLP_HEADERS=x-graft-test=1",
		"OTEL_SERVICE_NAME=graft-e2e", "OTEL_RESOURCE_ATTRIBUTES=deployment.environment.name=test",
		"OTEL_TRACES_SAMPLER=parentbased_always_on")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	logs := bufio.NewScanner(stderr)
	url := waitForStartLine(t, logs)
	rest := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(stderr)
		rest <- string(b)
	}()

	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	req, _ := http.NewRequest(http.MethodPost, url+"/graphql", strings.NewReader(`{"query":"query Hello { hello }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("traceparent", "00-"+traceID+"-"+parentID+"-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"hello":"world"`) {
		t.Fatalf("query = %d %s", resp.StatusCode, body)
	}

	// Stopping graft flushes its batched spans to the Collector; stopping
	// the Collector then flushes its file.
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	graftLogs := <-rest
	if err := cmd.Wait(); err != nil {
		t.Fatalf("graft's exit after SIGTERM: %v\n%s", err, graftLogs)
	}
	colLogs := stopCollector()

	spans, err := testenv.ReadSpans(t, exported)
	if err != nil {
		t.Fatalf("the Collector exported nothing: %v\ngraft:\n%s\ncollector:\n%s", err, graftLogs, colLogs)
	}
	byName := map[string]testenv.Span{}
	for _, s := range spans {
		if s.TraceID != traceID {
			t.Errorf("span %q has trace %s, want the traceparent's %s", s.Name, s.TraceID, traceID)
		}
		byName[s.Name] = s
	}
	root, ok := byName["query Hello"]
	if !ok {
		t.Fatalf("no request span among %d spans: %v", len(spans), spans)
	}
	if root.ParentSpanID != parentID || root.Kind != 2 {
		t.Errorf("request span: parent %q kind %d, want parent %s (the traceparent's) and kind 2 (server)", root.ParentSpanID, root.Kind, parentID)
	}
	if root.Scope != "github.com/graftgql/graft/graftotel" {
		t.Errorf("instrumentation scope %q", root.Scope)
	}
	if r := root.Resource; r["service.name"] != "graft-e2e" || r["deployment.environment.name"] != "test" {
		t.Errorf("resource %v, want service.name graft-e2e and deployment.environment.name test", r)
	}
	a := root.Attributes
	for k, want := range map[string]string{"graphql.operation.name": "Hello", "graphql.operation.type": "query",
		"graphql.error.count": "0", "http.response.status_code": "200",
		"http.request.method": "POST", "url.path": "/graphql", "http.route": "/graphql"} {
		if a[k] != want {
			t.Errorf("request span attribute %s = %q, want %q (all: %v)", k, a[k], want, a)
		}
	}
	if a["graft.request_id"] == "" {
		t.Errorf("request span lacks graft.request_id: %v", a)
	}
	// The phases are events of the request's span, in order, and the
	// request is one span.
	want := []string{"graphql.received", "graphql.parsed", "graphql.validated", "graphql.analyzed", "graphql.executed"}
	if !slices.Equal(root.Events, want) || len(spans) != 1 {
		t.Errorf("request span's events %v, want %v; %d spans, want 1", root.Events, want, len(spans))
	}
}
