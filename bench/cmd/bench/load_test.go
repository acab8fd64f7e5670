package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestLoadAndFetch(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		wantErrors bool
	}{
		{"200 answers count as requests", http.StatusOK, false},
		{"other statuses count as errors", http.StatusBadRequest, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				if r.Method != http.MethodPost || r.URL.Path != "/graphql" || r.Header.Get("Content-Type") != "application/json" {
					w.WriteHeader(http.StatusTeapot)
					return
				}
				w.WriteHeader(tt.status)
				_, _ = w.Write(append([]byte("echo:"), body...))
			}))
			defer srv.Close()
			addr := strings.TrimPrefix(srv.URL, "http://")
			req := request(addr, "/graphql", []byte(`{"query":"{hello}"}`))
			status, body, err := fetch(addr, req)
			if err != nil {
				t.Fatal(err)
			}
			if status != tt.status || string(body) != `echo:{"query":"{hello}"}` {
				t.Fatalf("fetch = %d %q", status, body)
			}
			res, err := load(context.Background(), addr, req, 4, 50*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantErrors {
				if res.errors == 0 || res.requests != 0 {
					t.Errorf("requests %d, errors %d: want only errors", res.requests, res.errors)
				}
				return
			}
			if res.requests == 0 || res.errors != 0 || len(res.latencies) != res.requests {
				t.Errorf("requests %d, errors %d, latencies %d", res.requests, res.errors, len(res.latencies))
			}
			if res.percentile(50) > res.percentile(99) {
				t.Errorf("p50 %v above p99 %v", res.percentile(50), res.percentile(99))
			}
		})
	}
}

func TestLoadFailsWithoutServer(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + itoa(port)
	if _, err := load(context.Background(), addr, request(addr, "/graphql", nil), 2, 10*time.Millisecond); err == nil {
		t.Error("load against a closed port gave no error")
	}
}

// TestLoadTimeouts: a request left unanswered past requestTimeout counts as
// a timeout (an overloaded server), not as a failed request.
func TestLoadTimeouts(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		<-release
	}))
	defer srv.Close()
	defer close(release)
	old := requestTimeout
	requestTimeout = 50 * time.Millisecond
	defer func() { requestTimeout = old }()
	addr := strings.TrimPrefix(srv.URL, "http://")
	res, err := load(context.Background(), addr, request(addr, "/graphql", []byte(`{}`)), 2, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if res.timeouts != 2 || res.errors != 0 || res.requests != 0 {
		t.Errorf("timeouts %d, errors %d, requests %d; want 2, 0, 0", res.timeouts, res.errors, res.requests)
	}
}

// TestLoadAlternating: every connection switches request with the block,
// in the order 0 1 1 0 0 1 1 0; a block counts the answers to its own
// request and the CPU read around it; the paired ratios give the cost of
// request 1 over request 0. A request not answered with 200 fails the load.
func TestLoadAlternating(t *testing.T) {
	// cost stands in for the server's CPU clock: each request adds its
	// body's price before it is answered.
	var cost atomic.Int64
	price := map[string]int64{`{"a":1}`: 1000, `{"b":1}`: 3000}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		p, ok := price[string(body)]
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		cost.Add(p)
		_, _ = w.Write([]byte(`{"data":{}}`))
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	cpu := func() (time.Duration, error) { return time.Duration(cost.Load()), nil }
	reqs := [2][]byte{request(addr, "/graphql", []byte(`{"a":1}`)), request(addr, "/graphql", []byte(`{"b":1}`))}
	blocks, err := loadAlternating(context.Background(), addr, reqs, 4, 8, 50*time.Millisecond, 10*time.Millisecond, cpu)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []int
	for _, b := range blocks {
		kinds = append(kinds, b.kind)
		if b.requests == 0 {
			t.Errorf("block %+v answered nothing", b)
		}
	}
	if want := []int{0, 1, 1, 0, 0, 1, 1, 0}; !slices.Equal(kinds, want) {
		t.Fatalf("block kinds %v, want %v", kinds, want)
	}
	ratios := pairedBlockRatios(blocks)
	if len(ratios) != 4 {
		t.Fatalf("%d paired ratios, want 4", len(ratios))
	}
	// At most one request per connection straddles a block's edge.
	for _, r := range ratios {
		if r < 2.7 || r > 3.3 {
			t.Errorf("paired ratios %v, want each near 3", ratios)
			break
		}
	}
	reqs[1] = request(addr, "/graphql", []byte(`{"c":1}`))
	if _, err := loadAlternating(context.Background(), addr, reqs, 2, 2, 20*time.Millisecond, 5*time.Millisecond, cpu); err == nil || !strings.Contains(err.Error(), "not answered with 200") {
		t.Errorf("a 400 under alternating load: err %v", err)
	}
}

func TestPairedBlockRatios(t *testing.T) {
	blocks := []block{
		{kind: 0, requests: 10, cpu: 100}, {kind: 1, requests: 10, cpu: 90}, // 0.9
		{kind: 1, requests: 5, cpu: 100}, {kind: 0, requests: 10, cpu: 100}, // 2
		{kind: 0, requests: 0, cpu: 100}, {kind: 1, requests: 10, cpu: 90}, // left out
		{kind: 0, requests: 10, cpu: 100}, // unpaired
	}
	if got, want := pairedBlockRatios(blocks), []float64{0.9, 2}; !slices.Equal(got, want) {
		t.Errorf("pairedBlockRatios = %v, want %v", got, want)
	}
}

// TestLoadAlternatingServers: two servers are driven in turn, one at a
// time; each pair of blocks counts both servers' answers and CPU (what a
// server spends in the other's block included), and the pairs' ratios give
// the cost of server 1's request over server 0's. A request not answered
// with 200 fails the load.
func TestLoadAlternatingServers(t *testing.T) {
	var cost [2]atomic.Int64
	start := func(s int, price int64) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.ReadAll(r.Body)
			if r.URL.Path != "/graphql" {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			cost[s].Add(price)
			if s == 0 {
				// Server 1 works in the background while server 0
				// answers (a batch exporter, say): 300 a request of 0's.
				cost[1].Add(300)
			}
			time.Sleep(100 * time.Microsecond)
			_, _ = w.Write([]byte(`{"data":{}}`))
		}))
	}
	a, b := start(0, 1000), start(1, 1200)
	defer a.Close()
	defer b.Close()
	addrs := [2]string{strings.TrimPrefix(a.URL, "http://"), strings.TrimPrefix(b.URL, "http://")}
	reqs := [2][]byte{request(addrs[0], "/graphql", []byte(`{}`)), request(addrs[1], "/graphql", []byte(`{}`))}
	cpus := [2]func() (time.Duration, error){
		func() (time.Duration, error) { return time.Duration(cost[0].Load()), nil },
		func() (time.Duration, error) { return time.Duration(cost[1].Load()), nil },
	}
	pairs, err := loadAlternatingServers(context.Background(), addrs, reqs, 4, 8, 50*time.Millisecond, cpus)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 4 {
		t.Fatalf("%d pairs, want 4", len(pairs))
	}
	for _, p := range pairs {
		if p.requests[0] == 0 || p.requests[1] == 0 {
			t.Fatalf("pair %+v: want answers from both servers", p)
		}
		// 1.2 for the request, and the background of server 0's block:
		// 0.3 times 0's requests over 1's. Counting server 1's own block
		// alone would give 1.2. At most one request per connection
		// straddles a pair's edge.
		want := 1.2 + 0.3*float64(p.requests[0])/float64(p.requests[1])
		if r := p.ratio(); r < want*0.95 || r > want*1.05 {
			t.Errorf("pair %+v: ratio %.3f, want about %.3f", p, r, want)
		}
	}
	reqs[1] = request(addrs[1], "/other", []byte(`{}`))
	if _, err := loadAlternatingServers(context.Background(), addrs, reqs, 2, 2, 20*time.Millisecond, cpus); err == nil || !strings.Contains(err.Error(), "not answered with 200") {
		t.Errorf("a 400 under alternating load: err %v", err)
	}
}
