package load

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures Run.
type Options struct {
	// URL is the server's base URL, for example http://127.0.0.1:4000.
	URL string
	// Clients is the number of concurrent clients. Default 32.
	Clients int
	// Duration bounds the run. Default 10s.
	Duration time.Duration
	// MaxRequests bounds the requests sent in all; 0 means no bound.
	MaxRequests int
	// Seed makes the mix reproducible.
	Seed uint64
	// Client sends the requests. Default a client with a 10s timeout.
	Client *http.Client
}

// Report is the outcome of a run.
type Report struct {
	Requests int
	Elapsed  time.Duration
	// Outcomes counts the answers that matched the contract, by kind.
	Outcomes map[string]int
	// Unexpected counts the others, by kind, status and code; a transport
	// failure counts under "kind: error".
	Unexpected map[string]int
	// Examples holds one body per unexpected outcome.
	Examples map[string]string
}

// RequestsPerSecond is the throughput of the run.
func (r Report) RequestsPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// UnexpectedCount is the number of answers that did not match.
func (r Report) UnexpectedCount() int {
	n := 0
	for _, c := range r.Unexpected {
		n += c
	}
	return n
}

// String prints the report, one outcome a line, sorted.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d requests in %v: %.0f requests/s\n", r.Requests, r.Elapsed.Round(time.Millisecond), r.RequestsPerSecond())
	for _, m := range []struct {
		title string
		m     map[string]int
	}{{"expected", r.Outcomes}, {"UNEXPECTED", r.Unexpected}} {
		keys := make([]string, 0, len(m.m))
		for k := range m.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "  %-10s %-50s %d\n", m.title, k, m.m[k])
		}
	}
	for k, v := range r.Examples {
		fmt.Fprintf(&b, "  example of %s: %.300s\n", k, v)
	}
	return b.String()
}

// Run sends the mix from opts.Clients concurrent clients until
// opts.Duration passes, opts.MaxRequests are sent or ctx is done.
func Run(ctx context.Context, opts Options) (Report, error) {
	if opts.URL == "" {
		return Report{}, errors.New("load: Options.URL is empty")
	}
	if opts.Clients <= 0 {
		opts.Clients = 32
	}
	if opts.Duration <= 0 {
		opts.Duration = 10 * time.Second
	}
	client := opts.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: opts.Clients}}
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Duration)
	defer cancel()
	var sent atomic.Int64
	var mu sync.Mutex
	rep := Report{Outcomes: map[string]int{}, Unexpected: map[string]int{}, Examples: map[string]string{}}
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < opts.Clients; c++ {
		rng := rand.New(rand.NewPCG(opts.Seed, uint64(c)))
		wg.Go(func() {
			for ctx.Err() == nil {
				if n := sent.Add(1); opts.MaxRequests > 0 && n > int64(opts.MaxRequests) {
					return
				}
				req := pick(rng)
				key, ok, example := send(ctx, client, opts.URL, req)
				if !ok && ctx.Err() != nil {
					return // the run ended while the request was in flight
				}
				mu.Lock()
				rep.Requests++
				if ok {
					rep.Outcomes[key]++
				} else {
					rep.Unexpected[key]++
					if _, seen := rep.Examples[key]; !seen {
						rep.Examples[key] = example
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	rep.Elapsed = time.Since(start)
	if c, ok := client.Transport.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
	return rep, nil
}

// send makes one request and checks its answer: the status and the code
// of the first error, a JSON body with data or errors.
func send(ctx context.Context, client *http.Client, base string, r request) (key string, ok bool, example string) {
	hr, err := http.NewRequestWithContext(ctx, r.method, base+r.target, strings.NewReader(r.body))
	if err != nil {
		return r.kind + ": error", false, err.Error()
	}
	if r.contentType != "" {
		hr.Header.Set("Content-Type", r.contentType)
	}
	resp, err := client.Do(hr)
	if err != nil {
		return r.kind + ": error", false, err.Error()
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return r.kind + ": error", false, err.Error()
	}
	var body struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(raw, &body); err != nil || (len(body.Data) == 0 && len(body.Errors) == 0) {
		return fmt.Sprintf("%s: %d not JSON", r.kind, resp.StatusCode), false, string(raw)
	}
	code := ""
	if len(body.Errors) > 0 {
		code, _ = body.Errors[0].Extensions["code"].(string)
	}
	if resp.StatusCode == r.status && (code == r.code || (r.altCode != "" && code == r.altCode)) {
		if code != "" {
			return r.kind + " " + code, true, ""
		}
		return r.kind, true, ""
	}
	return fmt.Sprintf("%s: %d %s", r.kind, resp.StatusCode, code), false, string(raw)
}
