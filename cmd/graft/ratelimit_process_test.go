package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// TestRateLimitAcrossProcesses runs two cmd/graft processes with
// RATE_LIMIT_BUDGET=20 and one redis-server: a client's requests,
// alternating between them, share one budget. Each answer reports the
// budget left across both; the 21st point is refused with 429 and
// Retry-After by whichever process serves it. Another client's budget
// is untouched.
func TestRateLimitAcrossProcesses(t *testing.T) {
	addr, _ := testenv.StartRedis(t)
	bin := buildGraft(t)
	start := func() string {
		return startGraftProcess(t, bin, "REDIS_URL=redis://"+addr, "RATE_LIMIT_BUDGET=20", "RATE_LIMIT_KEY=header:X-Api-Key")
	}
	urls := []string{start(), start()}
	type costExt struct {
		Requested int64 `json:"requested"`
		Remaining int64 `json:"remaining"`
	}
	ask := func(url, key string) (int, string, costExt) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, url+"/graphql", strings.NewReader(`{"query":"{ __typename }"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Api-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct {
			Extensions struct {
				Cost costExt `json:"cost"`
			} `json:"extensions"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, resp.Header.Get("Retry-After"), body.Extensions.Cost
	}
	for i := range 20 {
		status, _, c := ask(urls[i%2], "client-a")
		if status != 200 || c.Requested != 1 || c.Remaining != int64(19-i) {
			t.Fatalf("request %d: %d %+v", i, status, c)
		}
	}
	for i := range 2 {
		if status, retry, _ := ask(urls[i], "client-a"); status != http.StatusTooManyRequests || retry == "" {
			t.Fatalf("past the budget on process %d: %d, Retry-After %q", i, status, retry)
		}
	}
	if status, _, c := ask(urls[1], "client-b"); status != 200 || c.Remaining != 19 {
		t.Fatalf("another client: %d %+v", status, c)
	}
}
