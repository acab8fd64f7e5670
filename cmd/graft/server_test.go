package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
	"github.com/graftgql/graft/persisted"
)

// call sends a request and returns status, headers and body.
func call(t *testing.T, method, target, body string, header map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, target, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

const helloQuery = "{ hello }"

func helloHash() string {
	sum := sha256.Sum256([]byte(helloQuery))
	return hex.EncodeToString(sum[:])
}

// apqExtension is the persisted-query extension for helloQuery.
func apqExtension() string {
	return `{"persistedQuery":{"version":1,"sha256Hash":"` + helloHash() + `"}}`
}

var jsonHeader = map[string]string{"Content-Type": "application/json"}

// checkAPQ runs Apollo's APQ exchange against base: miss, register, hit
// over GET. With registered, the query is already known (a shared store).
func checkAPQ(t *testing.T, base string, registered bool) {
	t.Helper()
	hashOnly := `{"extensions":` + apqExtension() + `}`
	status, _, body := call(t, "POST", base+"/graphql", hashOnly, jsonHeader)
	if !registered {
		if status != 200 || !strings.Contains(body, "PERSISTED_QUERY_NOT_FOUND") {
			t.Fatalf("hash-only POST = %d %s, want 200 PERSISTED_QUERY_NOT_FOUND", status, body)
		}
		withQuery := `{"query":"` + helloQuery + `","extensions":` + apqExtension() + `}`
		status, _, body = call(t, "POST", base+"/graphql", withQuery, jsonHeader)
	}
	if status != 200 || !strings.Contains(body, `"hello":"world"`) {
		t.Fatalf("persisted query POST = %d %s, want data.hello", status, body)
	}
	get := base + "/graphql?extensions=" + url.QueryEscape(apqExtension())
	status, h, body := call(t, "GET", get, "", map[string]string{"client-require-preflight": "1"})
	if status != 200 || !strings.Contains(body, `"hello":"world"`) {
		t.Fatalf("persisted query GET = %d %s, want data.hello", status, body)
	}
	if h.Get("Cache-Control") == "" {
		t.Error("persisted query GET hit without Cache-Control")
	}
}

func TestServerAutomaticPersistedQueriesInMemory(t *testing.T) {
	hs := startServer(t, nil)
	checkAPQ(t, hs.URL, false)
}

func TestServerPersistedQueriesOff(t *testing.T) {
	hs := startServer(t, map[string]string{"PERSISTED_QUERIES_MODE": "off"})
	status, _, body := call(t, "POST", hs.URL+"/graphql", `{"extensions":`+apqExtension()+`}`, jsonHeader)
	if status != 200 || !strings.Contains(body, "PERSISTED_QUERY_NOT_SUPPORTED") {
		t.Errorf("persisted query with them off = %d %s, want PERSISTED_QUERY_NOT_SUPPORTED", status, body)
	}
}

func TestServerCSRFAndCORSFromEnvironment(t *testing.T) {
	tests := []struct {
		name       string
		env        map[string]string
		origin     string
		wantGET    int
		wantOrigin string
	}{
		{"defaults: CSRF on, any origin", nil, "https://any.example", 400, "*"},
		{"CSRF off", map[string]string{"CSRF_PROTECTION": "off"}, "https://any.example", 200, "*"},
		{"listed origin", map[string]string{"CORS_ORIGINS": "https://a.example, https://b.example"}, "https://b.example", 400, "https://b.example"},
		{"unlisted origin", map[string]string{"CORS_ORIGINS": "https://a.example"}, "https://c.example", 400, ""},
		{"CORS off", map[string]string{"CORS_ORIGINS": "off"}, "https://any.example", 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := startServer(t, tt.env)
			if status, _, body := call(t, "GET", hs.URL+"/graphql?query=%7Bhello%7D", "", nil); status != tt.wantGET {
				t.Errorf("GET without a preflight header = %d %s, want %d", status, body, tt.wantGET)
			}
			_, h, _ := call(t, "OPTIONS", hs.URL+"/graphql", "", map[string]string{
				"Origin": tt.origin, "Access-Control-Request-Method": "POST",
				"Access-Control-Request-Headers": "client-require-preflight,content-type",
			})
			if got := h.Get("Access-Control-Allow-Origin"); got != tt.wantOrigin {
				t.Errorf("preflight Allow-Origin = %q, want %q", got, tt.wantOrigin)
			}
		})
	}
}

// TestServerRedis shares persisted queries between two servers through a
// real Redis and turns readiness to 503 when Redis stops.
func TestServerRedis(t *testing.T) {
	addr, redis := testenv.StartRedis(t)
	env := map[string]string{"REDIS_URL": "redis://" + addr + "/0"}
	first, second := startServer(t, env), startServer(t, env)

	if status, _, body := call(t, "GET", second.URL+"/ready", "", nil); status != 200 {
		t.Fatalf("/ready with Redis up = %d %s", status, body)
	}
	checkAPQ(t, first.URL, false)
	checkAPQ(t, second.URL, true)

	redis.Stop()
	status, _, body := call(t, "GET", second.URL+"/ready", "", nil)
	if status != 503 || !strings.Contains(body, `"redis":"unavailable"`) || !strings.Contains(body, `"redis-pubsub":"unavailable"`) || strings.Contains(body, "refused") {
		t.Errorf("/ready with Redis down = %d %s, want 503 naming the store and the Pub/Sub, without the error", status, body)
	}
	if status, _, _ := call(t, "GET", second.URL+"/health", "", nil); status != 200 {
		t.Errorf("/health with Redis down = %d, want 200", status)
	}
	status, _, body = call(t, "POST", second.URL+"/graphql", `{"query":"{ hello }"}`, jsonHeader)
	if status != 200 || !strings.Contains(body, `"hello":"world"`) {
		t.Errorf("plain query with Redis down = %d %s, want it to run", status, body)
	}

	// Redis comes back empty: readiness reaches it through the store's
	// circuit breaker and closes it, and APQ works again.
	redis.Start()
	if status, _, body := call(t, "GET", second.URL+"/ready", "", nil); status != 200 {
		t.Fatalf("/ready with Redis back = %d %s", status, body)
	}
	checkAPQ(t, second.URL, false)
}

func TestServerSafelistFromManifest(t *testing.T) {
	const listed = "query Hello { hello }"
	manifest, err := persisted.BuildManifest(map[string]string{"hello.graphql": listed})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "manifest.json")
	if err := os.WriteFile(path, manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	var m struct {
		Operations []struct{ ID, Body string } `json:"operations"`
	}
	if err := json.Unmarshal(manifest, &m); err != nil || len(m.Operations) != 1 {
		t.Fatalf("manifest %s: %v", manifest, err)
	}
	hs := startServer(t, map[string]string{"PERSISTED_QUERIES_MANIFEST": path})

	byHash := `{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + m.Operations[0].ID + `"}}}`
	if status, _, body := call(t, "POST", hs.URL+"/graphql", byHash, jsonHeader); status != 200 || !strings.Contains(body, `"hello":"world"`) {
		t.Errorf("listed hash = %d %s, want data.hello", status, body)
	}
	if status, _, body := call(t, "POST", hs.URL+"/graphql", `{"query":"{ authors { name } }"}`, jsonHeader); status != 403 || !strings.Contains(body, "PERSISTED_QUERY_NOT_ALLOWED") {
		t.Errorf("unlisted query = %d %s, want 403 PERSISTED_QUERY_NOT_ALLOWED", status, body)
	}

}

// TestStartUpSaysWhatAndWhere checks the start-up lines: which example is
// served, and the URLs of GraphQL and GraphiQL.
func TestStartUpSaysWhatAndWhere(t *testing.T) {
	srv := startServer(t, map[string]string{"GRAFT_EXAMPLE": "starwars"})
	log := srv.log.String()
	// Serve reports a listener on every interface as localhost.
	url := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	for _, want := range []string{"serving the starwars example", "graphql=" + url + "/graphql", "graphiql=" + url + "/graphiql"} {
		if !strings.Contains(log, want) {
			t.Errorf("start-up log lacks %q:\n%s", want, log)
		}
	}
}

// TestServerMasksErrorsByDefault: with the default settings an
// unexpected resolver error (a plain Go error: it may name a host, a
// table, a path) reaches the client as "Internal server error";
// GRAPHQL_MASK_ERRORS=false shows it.
func TestServerMasksErrorsByDefault(t *testing.T) {
	const q = `{"query":"{ hero { name secretBackstory } }"}`
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"GRAFT_EXAMPLE": "starwars"}, `"message":"Internal server error"`},
		{map[string]string{"GRAFT_EXAMPLE": "starwars", "GRAPHQL_MASK_ERRORS": "false"}, `"message":"secretBackstory is secret."`},
	} {
		hs := startServer(t, tc.env)
		status, _, body := call(t, "POST", hs.URL+"/graphql", q, jsonHeader)
		if status != 200 || !strings.Contains(body, tc.want) || !strings.Contains(body, `"name":"R2-D2"`) {
			t.Errorf("%v: %d %s, want %s", tc.env, status, body, tc.want)
		}
	}
}
