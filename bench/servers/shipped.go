package servers

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/graftgql/graft/bench/check"
)

// shippedPeer is cmd/graft, the ready-to-run server, as a user runs it:
// its blog example with its defaults (access log, request IDs, CORS,
// CSRF protection, limits, GraphiQL, automatic persisted queries), and
// env added. Each entry differs from graft-shipped-nolog by one setting,
// so its cost is the ratio of the two.
type shippedPeer struct {
	name string
	env  []string
}

var shippedPeers = []shippedPeer{
	{"graft-shipped", nil}, // as shipped: the access log on
	{"graft-shipped-nolog", []string{"ACCESS_LOG=false"}},
	{"graft-shipped-metrics", []string{"ACCESS_LOG=false", "METRICS_ENABLED=true"}},
	{"graft-shipped-tracing", []string{"ACCESS_LOG=false", "OTEL_TRACES_EXPORTER=otlp",
		"OTEL_TRACES_SAMPLER=parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG=0.01"}},
}

// ShippedBase is the entry the other cmd/graft entries are compared with.
const ShippedBase = "graft-shipped-nolog"

// IsShipped says whether name is an entry of cmd/graft as shipped.
func IsShipped(name string) bool {
	for _, p := range shippedPeers {
		if p.name == name {
			return true
		}
	}
	return false
}

var shipped struct {
	mu   sync.Mutex
	bin  string
	sink string // the OTLP receiver's base URL
}

// BuildShipped builds cmd/graft of the graft module this bench module
// replaces into dir (static, as for a container image) and makes it the
// binary the cmd/graft entries run. env is added to the build's. With
// $GRAFT_BENCH_SHIPPED_BIN set, that binary runs instead (an earlier
// build of cmd/graft, to compare).
func BuildShipped(ctx context.Context, dir string, env []string) (string, error) {
	if bin := os.Getenv("GRAFT_BENCH_SHIPPED_BIN"); bin != "" {
		shipped.mu.Lock()
		shipped.bin = bin
		shipped.mu.Unlock()
		return bin, nil
	}
	out, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", "github.com/graftgql/graft").Output()
	if err != nil {
		return "", fmt.Errorf("finding the graft module: %w", err)
	}
	root := strings.TrimSpace(string(out))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "graft-shipped")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/graft")
	build.Dir = root
	build.Env = append(append(os.Environ(), "CGO_ENABLED=0"), env...)
	if b, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building cmd/graft (go build ./cmd/graft in %s): %w\n%s", root, err, b)
	}
	shipped.mu.Lock()
	shipped.bin = bin
	shipped.mu.Unlock()
	return bin, nil
}

// otlpSink starts, once, an OTLP/HTTP receiver on loopback in this
// process that accepts and discards every export, and returns its base
// URL: the tracing entry exports its sampled spans there.
func otlpSink() string {
	shipped.mu.Lock()
	defer shipped.mu.Unlock()
	if shipped.sink != "" {
		return shipped.sink
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "http://127.0.0.1:9" // nothing listens: the exporter drops its batches
	}
	go func() {
		_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.WriteHeader(http.StatusOK)
		}))
	}()
	shipped.sink = "http://" + ln.Addr().String()
	return shipped.sink
}

// shippedServers returns the cmd/graft entries. They are ready when
// /health answers, and their standard error (the logs, access log
// included) is read and discarded as a log collector would.
func shippedServers() []Server {
	var out []Server
	for _, p := range shippedPeers {
		p := p
		out = append(out, Server{
			Name: p.name, Check: check.Exact, APQ: true, Health: "/health",
			Command: func(port int, _ string) ([]string, []string) {
				shipped.mu.Lock()
				bin := shipped.bin
				shipped.mu.Unlock()
				if bin == "" {
					bin = "graft-shipped: not built (servers.BuildShipped)"
				}
				env := []string{"GRAFT_EXAMPLE=blog", "HOST=127.0.0.1", "PORT=" + strconv.Itoa(port)}
				env = append(env, p.env...)
				for _, e := range p.env {
					if e == "OTEL_TRACES_EXPORTER=otlp" {
						env = append(env, "OTEL_EXPORTER_OTLP_ENDPOINT="+otlpSink())
					}
				}
				return []string{bin}, env
			},
		})
	}
	return out
}
