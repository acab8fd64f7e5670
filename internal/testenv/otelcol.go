package testenv

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// OTelCollectorVar names the OpenTelemetry Collector binary built from
// internal/tools/otelcol (.ci/run builds it and sets the variable).
const OTelCollectorVar = "GRAFT_OTELCOL"

// OTelCollector returns the path of the Collector binary (GRAFT_OTELCOL,
// else graft-otelcol on PATH), or skips the test (fails it under
// GRAFT_REQUIRE_ALL) when there is none.
func OTelCollector(t testing.TB) string {
	t.Helper()
	collector := os.Getenv(OTelCollectorVar)
	if collector == "" {
		if p, err := exec.LookPath("graft-otelcol"); err == nil {
			collector = p
		}
	}
	if collector == "" {
		Missing(t, OTelCollectorVar+" is not set and graft-otelcol is not on PATH (build it: cd internal/tools/otelcol && go build -o /some/bin/graft-otelcol .)")
	}
	if _, err := os.Stat(collector); err != nil {
		Missing(t, fmt.Sprintf("%s=%s: %v", OTelCollectorVar, collector, err))
	}
	return collector
}

// StartCollector runs the Collector bin with an OTLP/HTTP receiver on a
// free port and the file exporter writing to a file of dir, and returns
// the receiver's URL, the file, and a stop function that shuts the
// Collector down (flushing the file) and returns its logs.
func StartCollector(t testing.TB, bin, dir string) (endpoint, out string, stop func() string) {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
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

// Span is a span as the Collector's file exporter wrote it, with its
// attributes, resource attributes and scope flattened, and the names of
// its events in order.
type Span struct {
	TraceID, SpanID, ParentSpanID, Name string
	Kind                                int
	Attributes, Resource                map[string]string
	Scope                               string
	Events                              []string
}

// ReadSpans reads the spans of the file StartCollector's exporter wrote.
func ReadSpans(t testing.TB, path string) ([]Span, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var spans []Span
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		var f otlpFile
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			return nil, fmt.Errorf("exported line: %w\n%s", err, line)
		}
		for _, rs := range f.ResourceSpans {
			res := otlpAttrs(rs.Resource.Attributes)
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					var events []string
					for _, e := range s.Events {
						events = append(events, e.Name)
					}
					spans = append(spans, Span{TraceID: s.TraceID, SpanID: s.SpanID, ParentSpanID: s.ParentSpanID,
						Name: s.Name, Kind: s.Kind, Attributes: otlpAttrs(s.Attributes), Resource: res, Scope: ss.Scope.Name,
						Events: events})
				}
			}
		}
	}
	return spans, nil
}

// otlpFile is the part of the OTLP JSON the Collector's file exporter
// writes (one export request per line) that ReadSpans reads.
type otlpFile struct {
	ResourceSpans []struct {
		Resource struct {
			Attributes []otlpAttr `json:"attributes"`
		} `json:"resource"`
		ScopeSpans []struct {
			Scope struct {
				Name string `json:"name"`
			} `json:"scope"`
			Spans []struct {
				TraceID      string     `json:"traceId"`
				SpanID       string     `json:"spanId"`
				ParentSpanID string     `json:"parentSpanId"`
				Name         string     `json:"name"`
				Kind         int        `json:"kind"`
				Attributes   []otlpAttr `json:"attributes"`
				Events       []struct {
					Name string `json:"name"`
				} `json:"events"`
			} `json:"spans"`
		} `json:"scopeSpans"`
	} `json:"resourceSpans"`
}

type otlpAttr struct {
	Key   string `json:"key"`
	Value struct {
		String *string `json:"stringValue"`
		Int    *string `json:"intValue"` // OTLP JSON writes 64-bit integers as strings
	} `json:"value"`
}

// otlpAttrs flattens attributes to strings.
func otlpAttrs(list []otlpAttr) map[string]string {
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
