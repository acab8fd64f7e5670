package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
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

// logLine is a line of the service's JSON log, with its fields.
type logLine map[string]any

func (l logLine) str(k string) string { s, _ := l[k].(string); return s }

// process is the service running as a process.
type process struct {
	cmd   *exec.Cmd
	lines chan logLine // every log line, in order; closed at exit
	seen  []string
}

// waitFor reads log lines until one whose msg starts with prefix and whose
// fields include want; it fails the test if the process exits first.
func (p *process) waitFor(t *testing.T, prefix string, want map[string]string) logLine {
	t.Helper()
	for l := range p.lines {
		if !strings.HasPrefix(l.str("msg"), prefix) {
			continue
		}
		ok := true
		for k, v := range want {
			ok = ok && l.str(k) == v
		}
		if ok {
			return l
		}
	}
	t.Fatalf("the service exited before logging %q %v; logs:\n%s", prefix, want, strings.Join(p.seen, "\n"))
	return nil
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// start builds the service and runs it with env.
func start(t *testing.T, env ...string) *process {
	t.Helper()
	goBin := testenv.LookPath(t, "go")
	bin := filepath.Join(t.TempDir(), "todoservice")
	if out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	p := &process{cmd: cmd, lines: make(chan logLine, 1024)}
	raw := make(chan string, 1024)
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var l logLine
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				p.lines <- l
			}
			select {
			case raw <- sc.Text():
			default:
			}
		}
	}()
	t.Cleanup(func() {
		if t.Failed() {
			for len(raw) > 0 {
				t.Log(<-raw)
			}
		}
	})
	return p
}

func do(t *testing.T, method, url, body string, header map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// TestServiceInProduction runs the example service as a process, as it
// would run in a container, and checks what an operator relies on:
// health and readiness, the access log with the request ID, metrics on
// their own address (buckets in seconds, operation names bounded),
// traces exported to a real OpenTelemetry Collector, and the graceful
// shutdown: readiness turns false on SIGTERM while the listener still
// serves, for the drain delay, which a second signal ends.
func TestServiceInProduction(t *testing.T) {
	port, metricsPort := freePort(t), freePort(t)
	env := []string{"PORT=" + strconv.Itoa(port), "HOST=127.0.0.1", "LOG_FORMAT=json",
		"METRICS_ENABLED=true", "METRICS_ADDR=127.0.0.1:" + strconv.Itoa(metricsPort),
		"SHUTDOWN_DELAY=1h", "OTEL_SERVICE_NAME=todoservice-test"}
	var endpoint, exported string
	var stopCollector func() string
	collector := os.Getenv(testenv.OTelCollectorVar)
	if collector != "" || testenv.RequireAll() {
		collector = testenv.OTelCollector(t)
		endpoint, exported, stopCollector = testenv.StartCollector(t, collector, t.TempDir())
		env = append(env, "OTEL_EXPORTER_OTLP_ENDPOINT="+endpoint)
	}
	p := start(t, env...)
	ready := p.waitFor(t, "graft: ready", nil)
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	if got := ready.str("graphql"); got != "http://127.0.0.1:"+strconv.Itoa(port)+"/graphql" {
		t.Errorf("start-up line's graphql URL = %q", got)
	}
	if got := ready.str("metrics"); got != "http://127.0.0.1:"+strconv.Itoa(metricsPort)+"/metrics" {
		t.Errorf("start-up line's metrics URL = %q", got)
	}

	for _, path := range []string{"/health", "/ready"} {
		if status, _, body := do(t, "GET", base+path, "", nil); status != 200 {
			t.Errorf("GET %s = %d %s", path, status, body)
		}
	}

	// A mutation with the client's request ID: echoed, and in the access log.
	status, h, body := do(t, "POST", base+"/graphql", `{"query":"mutation Add { addTodo(title: \"ship it\") { id title done } }"}`,
		map[string]string{"X-Request-ID": "req-42"})
	if status != 200 || !strings.Contains(body, `"title":"ship it"`) {
		t.Fatalf("addTodo = %d %s", status, body)
	}
	if h.Get("X-Request-ID") != "req-42" {
		t.Errorf("X-Request-ID = %q, want req-42 echoed", h.Get("X-Request-ID"))
	}
	p.waitFor(t, "graphql request", map[string]string{"request_id": "req-42", "operation_name": "Add", "method": "POST"})

	// Twenty ad-hoc operation names: the metrics count them as one.
	for i := range 20 {
		q := `{"query":"query Random` + strconv.Itoa(i) + ` { todos { id } }"}`
		if status, _, body := do(t, "POST", base+"/graphql", q, nil); status != 200 {
			t.Fatalf("query = %d %s", status, body)
		}
	}
	if status, _, _ := do(t, "GET", base+"/metrics", "", nil); status != 404 {
		t.Errorf("/metrics on the API's port = %d, want 404 (METRICS_ADDR moves it)", status)
	}
	status, _, metrics := do(t, "GET", "http://127.0.0.1:"+strconv.Itoa(metricsPort)+"/metrics", "", nil)
	if status != 200 {
		t.Fatalf("/metrics = %d", status)
	}
	for _, want := range []string{`graphql_server_request_duration_seconds_bucket{`, `le="0.005"`, `le="0.1"`, `le="2.5"`,
		"go_goroutines", "process_resident_memory_bytes"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(metrics, "Random") || !strings.Contains(metrics, `graphql_operation_name="other"`) {
		t.Errorf("ad-hoc operation names not bounded:\n%s", grep(metrics, "graphql_server_requests_total"))
	}

	// SIGTERM: readiness false at once, the listener still serving.
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, "graft: draining", nil)
	if status, _, body := do(t, "GET", base+"/ready", "", nil); status != 503 || !strings.Contains(body, "shutting down") {
		t.Errorf("/ready while draining = %d %s, want 503 shutting down", status, body)
	}
	if status, _, _ := do(t, "GET", base+"/health", "", nil); status != 200 {
		t.Errorf("/health while draining = %d, want 200", status)
	}
	if status, _, body := do(t, "POST", base+"/graphql", `{"query":"{ todos { title } }"}`, nil); status != 200 || !strings.Contains(body, "ship it") {
		t.Errorf("query while draining = %d %s", status, body)
	}
	// The second signal ends the drain delay; the service exits cleanly.
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, "graft: stopped", nil)
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
	if _, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
		t.Error("the listener is still open after the service stopped")
	}

	if stopCollector == nil {
		testenv.Missing(t, "traces not checked: "+testenv.OTelCollectorVar+" is not set")
	}
	logs := stopCollector()
	spans, err := testenv.ReadSpans(t, exported)
	if err != nil {
		t.Fatalf("the Collector exported nothing: %v\n%s", err, logs)
	}
	found := false
	for _, s := range spans {
		if s.Name == "mutation Add" {
			found = true
			if s.Resource["service.name"] != "todoservice-test" || s.Attributes["http.route"] != "/graphql" ||
				s.Attributes["graft.request_id"] != "req-42" {
				t.Errorf("span %+v", s)
			}
		}
	}
	if !found {
		t.Errorf("no span of the mutation among %d", len(spans))
	}
}

// grep returns the lines of s that contain substr.
func grep(s, substr string) string {
	var out []string
	for line := range strings.Lines(s) {
		if strings.Contains(line, substr) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}
