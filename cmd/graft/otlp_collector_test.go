package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// otelcolVar names the OpenTelemetry Collector binary built from
// internal/tools/otelcol (.ci/run builds it and sets the variable).
const otelcolVar = "GRAFT_OTELCOL"

// otlpFile is the part of the OTLP JSON the Collector's file exporter
// writes (one export request per line) that the test reads.
type otlpFile struct {
	ResourceSpans []struct {
		Resource struct {
			Attributes []otlpAttr `json:"attributes"`
		} `json:"resource"`
		ScopeSpans []struct {
			Scope struct {
				Name string `json:"name"`
			} `json:"scope"`
			Spans []otlpSpan `json:"spans"`
		} `json:"scopeSpans"`
	} `json:"resourceSpans"`
}

type otlpSpan struct {
	TraceID      string     `json:"traceId"`
	SpanID       string     `json:"spanId"`
	ParentSpanID string     `json:"parentSpanId"`
	Name         string     `json:"name"`
	Kind         int        `json:"kind"`
	Attributes   []otlpAttr `json:"attributes"`
	resource     map[string]string
	scope        string
}

type otlpAttr struct {
	Key   string `json:"key"`
	Value struct {
		String *string `json:"stringValue"`
		Int    *string `json:"intValue"` // OTLP JSON writes 64-bit integers as strings
	} `json:"value"`
}

// attrs flattens attributes to strings.
func attrs(list []otlpAttr) map[string]string {
	out := map[string]string{}
	for _, a := range list {
		switch {
		case a.Value.String != nil:
			out[a.Key] = *a.Value.String
		case a.Value.Int != nil:
			out[a.Key] = *a.Value.Int
		}
	}
	return out
}

// startCollector runs the Collector with an OTLP/HTTP receiver on a free
// port and the file exporter writing to a file of dir, and returns the
// receiver's URL, the file, and a stop function that shuts the Collector
// down (flushing the file) and returns its logs.
func startCollector(t *testing.T, bin, dir string) (endpoint, out string, stop func() string) {
	t.Helper()
	port := freePort(t)
	out = filepath.Join(dir, "traces.jsonl")
	config := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%d
exporters:
  file:
    path: %s
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [file]
`, port, out)
	cfgPath := filepath.Join(dir, "otelcol.yaml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", "file:"+cfgPath)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	logs := bufio.NewScanner(stderr)
	var seen []string
	for ready := false; !ready; {
		if !logs.Scan() {
			_ = cmd.Wait()
			t.Fatalf("the Collector exited before it was ready; logs:\n%s", strings.Join(seen, "\n"))
		}
		seen = append(seen, logs.Text())
		ready = strings.Contains(logs.Text(), "Everything is ready")
	}
	rest := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(stderr)
		rest <- string(b)
	}()
	return "http://127.0.0.1:" + strconv.Itoa(port), out, func() string {
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		tail := <-rest
		if err := cmd.Wait(); err != nil {
			t.Errorf("the Collector's exit: %v\n%s", err, tail)
		}
		return strings.Join(seen, "\n") + "\n" + tail
	}
}

// TestOTLPToCollector runs the real cmd/graft binary with the standard
// OpenTelemetry environment pointing at a real OpenTelemetry Collector,
// sends a query carrying a traceparent, stops both, and reads the spans
// the Collector received from the file it exported them to.
func TestOTLPToCollector(t *testing.T) {
	collector := os.Getenv(otelcolVar)
	if collector == "" {
		if p, err := exec.LookPath("graft-otelcol"); err == nil {
			collector = p
		}
	}
	if collector == "" {
		testenv.Missing(t, otelcolVar+" is not set and graft-otelcol is not on PATH (build it: cd internal/tools/otelcol && go build -o /some/bin/graft-otelcol .)")
	}
	if _, err := os.Stat(collector); err != nil {
		testenv.Missing(t, fmt.Sprintf("%s=%s: %v", otelcolVar, collector, err))
	}
	goBin := testenv.LookPath(t, "go")
	dir := t.TempDir()
	bin := filepath.Join(dir, "graft")
	if out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	endpoint, exported, stopCollector := startCollector(t, collector, dir)

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

	data, err := os.ReadFile(exported)
	if err != nil {
		t.Fatalf("the Collector exported nothing: %v\ngraft:\n%s\ncollector:\n%s", err, graftLogs, colLogs)
	}
	var spans []otlpSpan
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		var f otlpFile
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("exported line: %v\n%s", err, line)
		}
		for _, rs := range f.ResourceSpans {
			res := attrs(rs.Resource.Attributes)
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					s.resource, s.scope = res, ss.Scope.Name
					spans = append(spans, s)
				}
			}
		}
	}
	byName := map[string]otlpSpan{}
	for _, s := range spans {
		if s.TraceID != traceID {
			t.Errorf("span %q has trace %s, want the traceparent's %s", s.Name, s.TraceID, traceID)
		}
		byName[s.Name] = s
	}
	root, ok := byName["query Hello"]
	if !ok {
		t.Fatalf("no request span among %d spans: %s", len(spans), data)
	}
	if root.ParentSpanID != parentID || root.Kind != 2 {
		t.Errorf("request span: parent %q kind %d, want parent %s (the traceparent's) and kind 2 (server)", root.ParentSpanID, root.Kind, parentID)
	}
	if root.scope != "github.com/graftgql/graft/graftotel" {
		t.Errorf("instrumentation scope %q", root.scope)
	}
	if r := root.resource; r["service.name"] != "graft-e2e" || r["deployment.environment.name"] != "test" {
		t.Errorf("resource %v, want service.name graft-e2e and deployment.environment.name test", r)
	}
	a := attrs(root.Attributes)
	for k, want := range map[string]string{"graphql.operation.name": "Hello", "graphql.operation.type": "query",
		"graphql.error.count": "0", "http.response.status_code": "200"} {
		if a[k] != want {
			t.Errorf("request span attribute %s = %q, want %q (all: %v)", k, a[k], want, a)
		}
	}
	if a["graft.request_id"] == "" {
		t.Errorf("request span lacks graft.request_id: %v", a)
	}
	for _, phase := range []string{"received", "parsed", "validated", "analyzed", "executed", "answered"} {
		s, ok := byName["graphql."+phase]
		if !ok || s.ParentSpanID != root.SpanID {
			t.Errorf("phase span graphql.%s missing or not a child of the request span", phase)
		}
	}
}
