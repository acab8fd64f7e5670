package graft_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/persisted"
)

// TestAPQRegistrationsLimitedPerClient: twenty clients register their
// queries in the default APQ store (1,000 entries), then one client sends
// 1,100 distinct registrations. Its queries all run, but it stores at
// most DefaultRegistrationsPerMinute of them, so every other client's
// query is still a hit; a client at another address still registers.
func TestAPQRegistrationsLimitedPerClient(t *testing.T) {
	r := newTestRouter(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ}})
	do := func(addr, body string) *reply {
		t.Helper()
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = addr
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		return &reply{status: rec.Code, raw: rec.Body.String()}
	}
	query := func(i int) string { return fmt.Sprintf("query Q%d { hello }", i) }
	hash := func(i int) string { return persisted.Hash(persisted.SHA256, query(i)) }
	for i := range 20 {
		if got := do(fmt.Sprintf("10.0.0.%d:5000", i+1), pqBody(t, query(i), "sha256Hash", hash(i), 1)); !strings.Contains(got.raw, `"hello":"world"`) {
			t.Fatalf("client %d registers: %d %s", i, got.status, got.raw)
		}
	}
	for i := 100; i < 1200; i++ {
		if got := do(fmt.Sprintf("10.0.0.99:%d", 1000+i), pqBody(t, query(i), "sha256Hash", hash(i), 1)); !strings.Contains(got.raw, `"hello":"world"`) {
			t.Fatalf("registration %d of the churning client: %d %s", i, got.status, got.raw)
		}
	}
	for i := range 20 {
		if got := do(fmt.Sprintf("10.0.0.%d:5001", i+1), pqBody(t, "", "sha256Hash", hash(i), 1)); !strings.Contains(got.raw, `"hello":"world"`) {
			t.Fatalf("client %d's query after the churn: %d %s", i, got.status, got.raw)
		}
	}
	stored := 0
	for i := 100; i < 1200; i++ {
		if got := do("10.0.0.50:1", pqBody(t, "", "sha256Hash", hash(i), 1)); strings.Contains(got.raw, `"hello":"world"`) {
			stored++
		}
	}
	if stored != persisted.DefaultRegistrationsPerMinute && stored != 2*persisted.DefaultRegistrationsPerMinute {
		// Two when the minute turned during the loop.
		t.Errorf("the churning client stored %d queries, want %d", stored, persisted.DefaultRegistrationsPerMinute)
	}
	if got := do("10.0.0.21:1", pqBody(t, query(5000), "sha256Hash", hash(5000), 1)); !strings.Contains(got.raw, `"hello":"world"`) {
		t.Fatalf("another client registers: %s", got.raw)
	}
	if got := do("10.0.0.22:1", pqBody(t, "", "sha256Hash", hash(5000), 1)); !strings.Contains(got.raw, `"hello":"world"`) {
		t.Fatalf("another client's registration was not stored: %s", got.raw)
	}
}

// TestAPQRegistrationsFromEnv reads the limit from the environment.
func TestAPQRegistrationsFromEnv(t *testing.T) {
	const name = "PERSISTED_QUERIES_REGISTRATIONS_PER_MINUTE"
	opts, err := persisted.ConfigFromLookup(func(v string) (string, bool) {
		if v == name {
			return "-1", true
		}
		return "", false
	})
	if err != nil || opts.RegistrationsPerMinute != -1 {
		t.Fatalf("%+v %v", opts, err)
	}
	if _, err := persisted.ConfigFromLookup(func(v string) (string, bool) {
		return "many", v == name
	}); err == nil || !strings.Contains(err.Error(), name) {
		t.Fatalf("a bad value: %v", err)
	}
}
