// Package incremental measures what @defer buys when part of an answer
// waits on a slow upstream: the time to the first payload and to the
// last, against the same query without @defer, over HTTP against the
// incremental example. Run with
//
//	go test -bench . ./incremental
//
// The ratios (first/plain, last/plain) come from one run, each iteration
// sending both queries, so the machine's load weighs on both alike.
// gqlgen's @defer needs its own generated server for this schema and is
// not part of this benchmark.
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

// readPart reads up to the end of the next part: its JSON body and the
// delimiter right behind it.
func readPart(b *testing.B, br *bufio.Reader) string {
	var sb strings.Builder
	for !strings.HasSuffix(sb.String(), "}\r\n---") {
		c, err := br.ReadByte()
		if err != nil {
			b.Fatalf("reading a part: %v (%q)", err, sb.String())
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

func BenchmarkDeferSlowUpstream(b *testing.B) {
	srv := server(b)
	url := srv.URL + graft.DefaultPath
	c := srv.Client()
	var plain, first, last time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		resp := post(b, c, url, "application/json", plainQuery)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		plain += time.Since(t0)
		if !strings.Contains(string(body), `"slowField":"slow 1"`) {
			b.Fatalf("plain answer %s", body)
		}

		t0 = time.Now()
		resp = post(b, c, url, "multipart/mixed;incrementalSpec=v0.2", deferredQuery)
		br := bufio.NewReader(resp.Body)
		initial := readPart(b, br)
		first += time.Since(t0)
		rest, _ := io.ReadAll(br)
		resp.Body.Close()
		last += time.Since(t0)
		if !strings.Contains(initial, `"hasNext":true`) || !strings.Contains(string(rest), `"slowField":"slow 1"`) {
			b.Fatalf("deferred answer %q %q", initial, rest)
		}
		n++
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(n) / float64(time.Millisecond) }
	b.ReportMetric(ms(plain), "plain-ms/op")
	b.ReportMetric(ms(first), "first-ms/op")
	b.ReportMetric(ms(last), "last-ms/op")
	b.ReportMetric(float64(first)/float64(plain), "first/plain")
	b.ReportMetric(float64(last)/float64(plain), "last/plain")
}
