// Package incremental measures what @defer buys when part of an answer
// waits on a slow upstream: the time to the first payload and to the
// last, against the same query without @defer, over HTTP against the
// incremental example. Run with
//
//	go test -bench . ./incremental
//
// The ratios (first/plain, last/plain) come from one run, each iteration
// sending both queries, so the machine's load weighs on both alike.
// gqlgen's @defer (the 2022 format, peers/gqlgendefer) runs the same
// query beside it.
package incremental

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/bench/peers/gqlgendefer"
	"github.com/graftgql/graft/examples/incremental"
)

// upstreamMs is how long the slow field waits, standing for an upstream
// call.
const upstreamMs = "20"

const (
	plainQuery    = `{"query":"{ fastField item(id: \"1\") { id name slowField(delayMs: ` + upstreamMs + `) } }"}`
	deferredQuery = `{"query":"{ fastField item(id: \"1\") { id name ... @defer { slowField(delayMs: ` + upstreamMs + `) } } }"}`
)

func server(b *testing.B) *httptest.Server {
	b.Helper()
	s, err := incremental.Schema()
	if err != nil {
		b.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(r)
	b.Cleanup(srv.Close)
	return srv
}

func post(b *testing.B, c *http.Client, url, accept, body string) *http.Response {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("status %d", resp.StatusCode)
	}
	return resp
}

// timed sends body and returns the time to the first payload (the end
// of the initial payload, "hasNext":true, or the end of a plain answer)
// and to the end of the answer, which must hold want.
func timed(b *testing.B, c *http.Client, url, accept, body, want string) (first, last time.Duration) {
	t0 := time.Now()
	resp := post(b, c, url, accept, body)
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var sb strings.Builder
	for first == 0 {
		ch, err := br.ReadByte()
		if err == io.EOF {
			first = time.Since(t0)
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		sb.WriteByte(ch)
		if ch == '}' && strings.HasSuffix(sb.String(), `"hasNext":true}`) {
			first = time.Since(t0)
		}
	}
	rest, _ := io.ReadAll(br)
	last = time.Since(t0)
	sb.Write(rest)
	if !strings.Contains(sb.String(), want) {
		b.Fatalf("answer lacks %s: %q", want, sb.String())
	}
	return first, last
}

// engine is a server under test.
type engine struct {
	name, url string
	c         *http.Client
	accept    string // what its @defer needs
	plain     time.Duration
	first     time.Duration
	last      time.Duration
}

func BenchmarkDeferSlowUpstream(b *testing.B) {
	srv := server(b)
	gq := httptest.NewServer(gqlgendefer.Handler())
	b.Cleanup(gq.Close)
	engines := []*engine{
		{name: "graft", url: srv.URL + graft.DefaultPath, c: srv.Client(), accept: "multipart/mixed;incrementalSpec=v0.2"},
		{name: "gqlgen", url: gq.URL, c: gq.Client(), accept: "multipart/mixed;deferSpec=20220824"},
	}
	n := 0
	for b.Loop() {
		for _, e := range engines {
			_, d := timed(b, e.c, e.url, "application/json", plainQuery, `"slowField":"slow 1"`)
			e.plain += d
			f, l := timed(b, e.c, e.url, e.accept, deferredQuery, `"slowField":"slow 1"`)
			e.first += f
			e.last += l
		}
		n++
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(n) / float64(time.Millisecond) }
	for _, e := range engines {
		b.ReportMetric(ms(e.plain), e.name+"-plain-ms/op")
		b.ReportMetric(ms(e.first), e.name+"-first-ms/op")
		b.ReportMetric(ms(e.last), e.name+"-last-ms/op")
		b.ReportMetric(float64(e.first)/float64(e.plain), e.name+"-first/plain")
		b.ReportMetric(float64(e.last)/float64(e.plain), e.name+"-last/plain")
	}
	g, q := engines[0], engines[1]
	b.ReportMetric(float64(g.first)/float64(q.first), "graft/gqlgen-first")
	b.ReportMetric(float64(g.last)/float64(q.last), "graft/gqlgen-last")
}
