package graft_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/persisted"
)

// The Accept headers real clients send, verbatim from their sources.
var clientAccepts = []struct {
	client, query, subscription string
}{
	{"Apollo Client 3", "*/*", "multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/json"},
	{"Apollo Client 4", "application/graphql-response+json,application/json;q=0.9",
		"multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/graphql-response+json,application/json;q=0.9"},
	{"urql", "application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed",
		"text/event-stream, multipart/mixed"},
	{"graphql-request", "application/graphql-response+json, application/json", ""},
	{"relay-runtime fetch", "application/json", ""},
	{"fetch without Accept", "", ""},
	{"graphql-sse", "text/event-stream", "text/event-stream"},
	{"GraphiQL", "application/json, multipart/mixed", ""},
}

// TestNegotiationPerClient sends each client's Accept header with a
// query, a mutation, a request error and a subscription: a query or
// mutation is one JSON response whenever the client accepts one, a
// subscription streams in the format the client prefers.
func TestNegotiationPerClient(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{})
	const (
		ctGraphQL = "application/graphql-response+json; charset=utf-8"
		ctJSON    = "application/json; charset=utf-8"
		ctSSE     = "text/event-stream; charset=utf-8"
		ctMP      = `multipart/mixed;boundary="graphql";subscriptionSpec="1.0"`
	)
	single := map[string]string{ // client → Content-Type of a single result
		"Apollo Client 3": ctJSON, "Apollo Client 4": ctGraphQL, "urql": ctGraphQL, "graphql-request": ctGraphQL,
		"relay-runtime fetch": ctJSON, "fetch without Accept": ctJSON, "graphql-sse": ctSSE, "GraphiQL": ctJSON,
	}
	stream := map[string]string{ // client → Content-Type of a subscription
		"Apollo Client 3": ctMP, "Apollo Client 4": ctMP, "urql": ctSSE, "graphql-sse": ctSSE,
	}
	for _, c := range clientAccepts {
		t.Run(c.client, func(t *testing.T) {
			for _, op := range []struct{ name, body, want string }{
				{"query", `{"query":"{ messages(room: \"n\") { text } }"}`, `{"data":{"messages":[]}}`},
				{"mutation", `{"query":"mutation { postMessage(room: \"n-x\", author: \"a\", text: \"hi\") { text } }"}`, `{"data":{"postMessage":{"text":"hi"}}}`},
				{"validation error", `{"query":"{ nope }"}`, `GRAPHQL_VALIDATION_FAILED`},
			} {
				resp := streamPost(t, srv, c.query, op.body)
				body, _ := io.ReadAll(resp.Body)
				if ct := resp.Header.Get("Content-Type"); ct != single[c.client] || !strings.Contains(string(body), op.want) {
					t.Errorf("%s: %d %q %s; want %q with %s", op.name, resp.StatusCode, ct, body, single[c.client], op.want)
				}
				if single[c.client] != ctSSE && strings.Contains(string(body), "event:") {
					t.Errorf("%s: a stream for a client that accepts JSON: %s", op.name, body)
				}
			}
			if c.subscription == "" {
				return
			}
			resp := streamPost(t, srv, c.subscription, `{"query":"subscription { countdown(from: 1) }"}`)
			body, _ := io.ReadAll(resp.Body)
			if ct := resp.Header.Get("Content-Type"); ct != stream[c.client] || !strings.Contains(string(body), `{"data":{"countdown":0}}`) {
				t.Errorf("subscription: %d %q %s; want %q", resp.StatusCode, ct, body, stream[c.client])
			}
		})
	}
}

// TestNegotiationSubscriptionWithoutStream: a subscription from a client
// that accepts no stream format is refused as before, not streamed.
func TestNegotiationSubscriptionWithoutStream(t *testing.T) {
	srv, _ := chatServer(t, graft.Config{})
	for _, accept := range []string{"application/json", "*/*", "text/event-stream;q=0, application/json"} {
		resp := streamPost(t, srv, accept, `{"query":"subscription { countdown(from: 1) }"}`)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 400 || !strings.Contains(string(body), "not supported over this transport") {
			t.Errorf("Accept %q: %d %s", accept, resp.StatusCode, body)
		}
	}
}

// TestURQLPersistedQueries runs urql's persisted-query exchange flow
// with its Accept header, over GET (its default for persisted queries)
// and POST: the hash alone (not found), the hash with the query, then
// the hash alone again.
func TestURQLPersistedQueries(t *testing.T) {
	const accept = "application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed"
	srv, _ := chatServer(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.APQ}})
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		t.Run(method, func(t *testing.T) {
			query := `{ messages(room: "pq-` + method + `") { text } }`
			sum := sha256.Sum256([]byte(query))
			ext := `{"persistedQuery":{"version":1,"sha256Hash":"` + hex.EncodeToString(sum[:]) + `"}}`
			send := func(withQuery bool) (int, string, string) {
				var req *http.Request
				if method == http.MethodGet {
					v := url.Values{"extensions": {ext}}
					if withQuery {
						v.Set("query", query)
					}
					req, _ = http.NewRequest(method, srv.URL+"/graphql?"+v.Encode(), nil)
				} else {
					b := `{"extensions":` + ext
					if withQuery {
						b += `,"query":` + strings.ReplaceAll(`"`+strings.ReplaceAll(query, `"`, `\"`)+`"`, "\n", "")
					}
					req, _ = http.NewRequest(method, srv.URL+"/graphql", strings.NewReader(b+"}"))
					req.Header.Set("Content-Type", "application/json")
				}
				req.Header.Set("Accept", accept)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				body, _ := io.ReadAll(resp.Body)
				return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
			}
			const ct = "application/graphql-response+json; charset=utf-8"
			if st, got, body := send(false); got != ct || !strings.Contains(body, "PERSISTED_QUERY_NOT_FOUND") {
				t.Fatalf("hash alone: %d %q %s", st, got, body)
			}
			for _, withQuery := range []bool{true, false} {
				if st, got, body := send(withQuery); st != 200 || got != ct || body != `{"data":{"messages":[]}}` {
					t.Fatalf("query sent %v: %d %q %s", withQuery, st, got, body)
				}
			}
		})
	}
}
