package graftserver_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/graftserver"
	"github.com/graftgql/graft/internal/envconf"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/pubsub"
	"github.com/graftgql/graft/schema"
)

// deepSchema has a field whose selections nest as deep as asked.
func deepSchema(pubsub.PubSub) (*schema.Schema, error) {
	type node struct{ N int }
	b := schema.New()
	obj := schema.Object[node](b, "Node")
	schema.FieldFuncNoArgs(obj, "next", func(ctx context.Context, n *node) (*node, error) { return &node{n.N + 1}, nil })
	schema.QueryNoArgs(b, "root", func(context.Context) (*node, error) { return &node{}, nil })
	return b.Build()
}

// serve runs svc with env on a loopback port until the test ends and
// returns its URL. onShutdown, when set, runs as shutdown begins.
func serve(t *testing.T, svc graftserver.Service, env map[string]string, onShutdown func(url string)) string {
	url, _ := serveStop(t, svc, env, onShutdown)
	return url
}

// serveStop is serve, also returning a function that stops the service
// and waits for Run to return.
func serveStop(t *testing.T, svc graftserver.Service, env map[string]string, onShutdown func(url string)) (string, func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	svc.Env = func(name string) (string, bool) { v, ok := env[name]; return v, ok }
	svc.Stderr = io.Discard
	started := make(chan struct{})
	svc.Serve = func(o *graft.ServeOptions) {
		o.Listener = ln
		o.OnStart = func(string) { close(started) }
		if onShutdown != nil {
			o.OnShutdown = func() { onShutdown(url) }
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- graftserver.Run(ctx, svc) }()
	select {
	case <-started:
	case err := <-done:
		cancel()
		t.Fatalf("Run: %v", err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return url, stop
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestCodeWinsOverEnvironment: what Service.Config sets wins over the
// variable, and the variables it leaves alone still apply.
func TestCodeWinsOverEnvironment(t *testing.T) {
	env := map[string]string{"GRAPHQL_MAX_DEPTH": "2", "GRAPHQL_MAX_ALIASES": "1"}
	depth4 := `{"query":"{ root { next { next { next { n: __typename } } } } }"}`
	envOnly := serve(t, graftserver.Service{Schema: deepSchema}, env, nil)
	if status, body := post(t, envOnly+"/graphql", depth4); status != 400 || !strings.Contains(body, "COMPLEXITY_LIMIT_EXCEEDED") {
		t.Fatalf("GRAPHQL_MAX_DEPTH=2 let depth 4 through: %d %s", status, body)
	}
	code := serve(t, graftserver.Service{Schema: deepSchema, Config: func(c *graft.Config) error {
		c.Complexity.MaxDepth = 5
		return nil
	}}, env, nil)
	if status, body := post(t, code+"/graphql", depth4); status != 200 || strings.Contains(body, "errors") {
		t.Fatalf("Config's MaxDepth 5 did not win over GRAPHQL_MAX_DEPTH=2: %d %s", status, body)
	}
	if status, body := post(t, code+"/graphql", `{"query":"{ a: root { n: __typename } }"}`); status != 400 || !strings.Contains(body, "COMPLEXITY_LIMIT_EXCEEDED") {
		t.Fatalf("GRAPHQL_MAX_ALIASES=1 no longer applies: %d %s", status, body)
	}
}

// TestReadiness: a service's own check fails /ready (naming it, without
// its error), and readiness turns false as shutdown begins, while the
// listener still answers.
func TestReadiness(t *testing.T) {
	var healthy bool
	var mu sync.Mutex
	check := graft.Check{Name: "database", Fn: func(context.Context) error {
		mu.Lock()
		defer mu.Unlock()
		if !healthy {
			return errors.New("dial tcp 10.0.0.7:5432: refused")
		}
		return nil
	}}
	var during struct{ ready, health int }
	var readyBody string
	url, stop := serveStop(t, graftserver.Service{Schema: deepSchema, Checks: []graft.Check{check}}, nil, func(url string) {
		during.ready, readyBody = get(t, url+"/ready")
		during.health, _ = get(t, url+"/health")
	})
	status, body := get(t, url+"/ready")
	if status != 503 || !strings.Contains(body, `"database":"unavailable"`) || strings.Contains(body, "10.0.0.7") {
		t.Fatalf("/ready with the check failing = %d %s", status, body)
	}
	mu.Lock()
	healthy = true
	mu.Unlock()
	if status, body := get(t, url+"/ready"); status != 200 {
		t.Fatalf("/ready with the check passing = %d %s", status, body)
	}
	// Stop the service: its shutdown hook asks /ready and /health.
	stop()
	if during.ready != 503 || !strings.Contains(readyBody, "shutting down") || during.health != 200 {
		t.Errorf("as shutdown began: /ready %d %q, /health %d; want 503 shutting down and 200", during.ready, readyBody, during.health)
	}
}

// TestMetricsOnTheirOwnAddress: with METRICS_ADDR the metrics are served
// there and not beside the API.
func TestMetricsOnTheirOwnAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	url := serve(t, graftserver.Service{Schema: deepSchema}, map[string]string{"METRICS_ENABLED": "true", "METRICS_ADDR": addr}, nil)
	if status, body := post(t, url+"/graphql", `{"query":"{ root { n: __typename } }"}`); status != 200 {
		t.Fatalf("query = %d %s", status, body)
	}
	if status, _ := get(t, url+"/metrics"); status != 404 {
		t.Errorf("/metrics beside the API = %d, want 404", status)
	}
	status, body := get(t, "http://"+addr+"/metrics")
	if status != 200 || !strings.Contains(body, "graphql_server_requests_total") {
		t.Errorf("/metrics on METRICS_ADDR = %d %.300s", status, body)
	}
}

// TestHelpOfAService: a service's --help lists every variable graftserver
// reads, under the service's name, and not cmd/graft's own.
func TestHelpOfAService(t *testing.T) {
	var out, errOut bytes.Buffer
	code := graftserver.Command(context.Background(), graftserver.Service{Name: "shop", Schema: deepSchema},
		[]string{"--help"}, nil, &out, &errOut)
	if code != 0 {
		t.Fatalf("--help exited %d: %s", code, &errOut)
	}
	if !strings.Contains(out.String(), "usage: shop [serve]") {
		t.Errorf("--help does not name the service:\n%s", &out)
	}
	for _, s := range envconf.Sections() {
		for _, v := range s.Vars {
			has := strings.Contains(out.String(), "  "+v.Name+" ")
			if want := s.Reader != "cmd/graft"; has != want {
				t.Errorf("--help lists %s: %v, want %v", v.Name, has, want)
			}
		}
	}
}

// TestSDLCommand prints the service's own schema.
func TestSDLCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := graftserver.Command(context.Background(), graftserver.Service{Schema: deepSchema}, []string{"sdl"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("sdl exited %d: %s", code, &errOut)
	}
	if !strings.Contains(out.String(), "type Node") || !strings.Contains(out.String(), "root: Node") {
		t.Errorf("sdl:\n%s", &out)
	}
}

// TestOperationNameCapFromEnvironment: METRICS_MAX_OPERATION_NAMES bounds
// the names the metrics keep. Two persisted operations with a cap of one:
// the first keeps its name, the second is counted as other.
func TestOperationNameCapFromEnvironment(t *testing.T) {
	url := serve(t, graftserver.Service{Schema: deepSchema},
		map[string]string{"METRICS_ENABLED": "true", "METRICS_MAX_OPERATION_NAMES": "1"}, nil)
	for _, q := range []string{"query First { root { n: __typename } }", "query Second { root { n: __typename } }"} {
		ext := `{"persistedQuery":{"version":1,"sha256Hash":"` + persisted.Hash(persisted.SHA256, q) + `"}}`
		if status, body := post(t, url+"/graphql", `{"query":"`+q+`","extensions":`+ext+`}`); status != 200 {
			t.Fatalf("register %s: %d %s", q, status, body)
		}
		if status, body := post(t, url+"/graphql", `{"extensions":`+ext+`}`); status != 200 || strings.Contains(body, "errors") {
			t.Fatalf("hit %s: %d %s", q, status, body)
		}
	}
	_, metrics := get(t, url+"/metrics")
	if !strings.Contains(metrics, `graphql_operation_name="First"`) || strings.Contains(metrics, `graphql_operation_name="Second"`) ||
		!strings.Contains(metrics, `graphql_operation_name="other"`) {
		t.Errorf("with a cap of one, want First and other:\n%s", metrics)
	}
}
