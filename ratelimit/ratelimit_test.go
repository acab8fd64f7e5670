package ratelimit_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/ratelimit"
	"github.com/graftgql/graft/schema"
)

type item struct{ ID string }

// testSchema has hello (cost 1), items(first) (1 + first × its fields;
// it returns two items whatever first asks) and the subscription tick,
// which sends one event.
func testSchema(t testing.TB) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.Object[item](b, "Item")
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	schema.Query(b, "items", func(_ context.Context, a struct{ First *int }) ([]item, error) {
		return []item{{ID: "1"}, {ID: "2"}}, nil
	}, schema.CostFn(func(args map[string]any, child int) int {
		n := 10
		if v, ok := args["first"].(int); ok {
			n = v
		}
		return 1 + n*child
	}))
	schema.Subscription(b, "tick", func(context.Context, struct{}) (<-chan int, error) {
		ch := make(chan int, 1)
		ch <- 1
		close(ch)
		return ch, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newRouter(t testing.TB, opts ratelimit.Options, cfg graft.Config) *graft.Router {
	t.Helper()
	l, err := ratelimit.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	l.Install(&cfg)
	r, err := graft.NewRouter(testSchema(t), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type answer struct {
	status int
	header http.Header
	raw    string
	body   struct {
		Data       map[string]any   `json:"data"`
		Errors     []map[string]any `json:"errors"`
		Extensions struct {
			Cost *ratelimit.Cost `json:"cost"`
		} `json:"extensions"`
	}
}

func (a *answer) code() any {
	if len(a.body.Errors) == 0 {
		return nil
	}
	ext, _ := a.body.Errors[0]["extensions"].(map[string]any)
	return ext["code"]
}

// do posts body to h as the client at addr.
func do(t testing.TB, h http.Handler, addr, body string) *answer {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = addr
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	a := &answer{status: rec.Code, header: rec.Header(), raw: rec.Body.String()}
	if strings.HasPrefix(a.raw, "{") {
		if err := json.Unmarshal(rec.Body.Bytes(), &a.body); err != nil {
			t.Fatalf("not JSON: %s", a.raw)
		}
	}
	return a
}

const three = `{"query":"{ a: hello b: hello c: hello }"}`

// TestBudgetPerClient: a client spends its budget of 10 in operations of
// cost 3, each answer reporting the cost, what remains and when it
// resets; the fourth is refused with 429, Retry-After and RATE_LIMITED,
// and is not charged; another client's budget is untouched.
func TestBudgetPerClient(t *testing.T) {
	r := newRouter(t, ratelimit.Options{Budget: 10, Window: time.Hour}, graft.Config{})
	for i, want := range []int64{7, 4, 1} {
		a := do(t, r, "10.0.0.1:1000", three)
		c := a.body.Extensions.Cost
		if a.status != 200 || c == nil || c.Requested != 3 || c.Limit != 10 || c.Remaining != want {
			t.Fatalf("operation %d: %d %s", i, a.status, a.raw)
		}
		reset, err := time.Parse(time.RFC3339, c.ResetAt)
		if err != nil || reset.Before(time.Now().Add(59*time.Minute)) || reset.After(time.Now().Add(61*time.Minute)) {
			t.Fatalf("resetAt %q: %v", c.ResetAt, err)
		}
	}
	a := do(t, r, "10.0.0.1:1001", three)
	retry, _ := strconv.Atoi(a.header.Get("Retry-After"))
	if a.status != http.StatusTooManyRequests || a.code() != ratelimit.CodeRateLimited || retry < 3500 || retry > 3600 || a.body.Data != nil {
		t.Fatalf("over the budget: %d %v %s", a.status, a.header, a.raw)
	}
	// The refused operation was not charged: one of cost 1 still fits.
	if a := do(t, r, "10.0.0.1:1002", `{"query":"{ hello }"}`); a.status != 200 || a.body.Extensions.Cost.Remaining != 0 {
		t.Fatalf("cost 1 after the refusal: %d %s", a.status, a.raw)
	}
	if a := do(t, r, "10.0.0.2:1000", three); a.status != 200 || a.body.Extensions.Cost.Remaining != 7 {
		t.Fatalf("another client: %d %s", a.status, a.raw)
	}
	// An operation costing more than the whole budget never runs.
	if a := do(t, r, "10.0.0.3:1000", `{"query":"{ items(first: 50) { id } }"}`); a.status != 429 || !strings.Contains(a.raw, "more than the whole budget") {
		t.Fatalf("an operation over the whole budget: %d %s", a.status, a.raw)
	}
}

// TestBatchOperationsCharged: each operation of an HTTP batch is charged;
// those past the budget are refused with their status 429.
func TestBatchOperationsCharged(t *testing.T) {
	r := newRouter(t, ratelimit.Options{Budget: 10}, graft.Config{MaxBatch: 5})
	a := do(t, r, "10.0.0.1:1000", "["+three+","+three+","+three+","+three+"]")
	var items []struct {
		Data       any `json:"data"`
		Extensions struct {
			Status float64         `json:"status"`
			Cost   *ratelimit.Cost `json:"cost"`
		} `json:"extensions"`
		Errors []struct {
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal([]byte(a.raw), &items); err != nil || len(items) != 4 {
		t.Fatalf("%d %s", a.status, a.raw)
	}
	for i := range 3 {
		if items[i].Data == nil || items[i].Extensions.Cost == nil || items[i].Extensions.Cost.Remaining != int64(7-3*i) {
			t.Errorf("operation %d: %s", i, a.raw)
		}
	}
	if items[3].Data != nil || items[3].Extensions.Status != 429 || len(items[3].Errors) != 1 || items[3].Errors[0].Extensions["code"] != ratelimit.CodeRateLimited {
		t.Errorf("operation 3: %s", a.raw)
	}
}

// TestSubscribeCharged: each subscribe is charged, over SSE as over any
// transport; past the budget the subscription is refused.
func TestSubscribeCharged(t *testing.T) {
	r := newRouter(t, ratelimit.Options{Budget: 2}, graft.Config{})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	subscribe := func() string {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", strings.NewReader(`{"query":"subscription { tick }"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strconv.Itoa(resp.StatusCode) + " " + string(b)
	}
	for i := range 2 {
		if got := subscribe(); !strings.Contains(got, `"tick":1`) {
			t.Fatalf("subscribe %d: %s", i, got)
		}
	}
	if got := subscribe(); !strings.Contains(got, ratelimit.CodeRateLimited) || strings.Contains(got, `"tick":1`) {
		t.Fatalf("subscribe past the budget: %s", got)
	}
}

// TestChargeExecuted: a list whose computed cost assumes 10 items costs,
// once run, what it executed: the list field and one field per item of
// the two it returned.
func TestChargeExecuted(t *testing.T) {
	r := newRouter(t, ratelimit.Options{Budget: 100, ChargeExecuted: true}, graft.Config{})
	a := do(t, r, "10.0.0.1:1000", `{"query":"{ items { id } }"}`)
	c := a.body.Extensions.Cost
	if a.status != 200 || c == nil || c.Requested != 11 || c.Executed == nil || *c.Executed != 3 || c.Remaining != 97 {
		t.Fatalf("%d %s", a.status, a.raw)
	}
	a = do(t, r, "10.0.0.1:1000", `{"query":"{ items { id } }"}`)
	if c := a.body.Extensions.Cost; c == nil || c.Remaining != 94 {
		t.Fatalf("second: %d %s", a.status, a.raw)
	}
}

// TestByHeader keys by an API key header, falling back to the address.
func TestByHeader(t *testing.T) {
	r := newRouter(t, ratelimit.Options{Budget: 3, Key: ratelimit.ByHeader("X-Api-Key")}, graft.Config{})
	req := func(key string) *answer {
		rq := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(three))
		rq.Header.Set("Content-Type", "application/json")
		if key != "" {
			rq.Header.Set("X-Api-Key", key)
		}
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, rq)
		return &answer{status: rec.Code, raw: rec.Body.String()}
	}
	if a := req("k1"); a.status != 200 {
		t.Fatal(a.raw)
	}
	if a := req("k1"); a.status != 429 {
		t.Fatalf("k1 again: %s", a.raw)
	}
	if a := req("k2"); a.status != 200 {
		t.Fatalf("k2: %s", a.raw)
	}
	if a := req(""); a.status != 200 {
		t.Fatalf("no key, by address: %s", a.raw)
	}
}

func TestNewRefusesBadOptions(t *testing.T) {
	for _, o := range []ratelimit.Options{{}, {Budget: -1}, {Budget: 1, Window: -time.Second}} {
		if _, err := ratelimit.New(o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// TestMemoryStoreBounded: past its key bound, new keys share one
// spending; ended windows free their keys.
func TestMemoryStoreBounded(t *testing.T) {
	s := ratelimit.NewMemoryStore(2)
	ctx := context.Background()
	for _, k := range []string{"a", "b"} {
		if u, _ := s.Spend(ctx, k, 5, 10, time.Hour); !u.Allowed || u.Spent != 5 {
			t.Fatalf("%s: %+v", k, u)
		}
	}
	if u, _ := s.Spend(ctx, "c", 6, 10, time.Hour); !u.Allowed || u.Spent != 6 {
		t.Fatalf("c: %+v", u)
	}
	if u, _ := s.Spend(ctx, strings.Repeat("d", 1000), 6, 10, time.Hour); u.Allowed {
		t.Fatalf("d shares c's spending: %+v", u)
	}
	if s.Len() != 2 {
		t.Fatalf("%d keys held, want 2", s.Len())
	}
	if u, _ := s.Spend(ctx, "a", -100, 10, time.Hour); !u.Allowed || u.Spent != 0 {
		t.Fatalf("give back: %+v", u)
	}
}
