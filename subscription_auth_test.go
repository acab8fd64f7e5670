package graft_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/persisted"
	"github.com/graftgql/graft/schema"
)

type subUserKey struct{}

// whoamiServer serves Subscription.whoami, which sends the user found in
// the resolver's context once.
func whoamiServer(t *testing.T, cfg graft.Config) *httptest.Server {
	t.Helper()
	b := schema.New()
	schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
	schema.Subscription(b, "whoami", func(ctx context.Context, _ struct{}) (<-chan string, error) {
		ch := make(chan string, 1)
		user, _ := ctx.Value(subUserKey{}).(string)
		ch <- user
		close(ch)
		return ch, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

func TestWebSocketOnConnectPutsUserInContext(t *testing.T) {
	srv := whoamiServer(t, graft.Config{Subscriptions: graft.SubscriptionConfig{
		OnConnect: func(ctx context.Context, p map[string]any) (context.Context, error) {
			name, _ := p["user"].(string)
			return context.WithValue(ctx, subUserKey{}, name), nil
		},
	}})
	w := dialWS(t, srv)
	w.send(`{"type":"connection_init","payload":{"user":"ada"}}`)
	w.expect(`{"type":"connection_ack"}`)
	w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { whoami }"}}`)
	w.expect(`{"id":"1","type":"next","payload":{"data":{"whoami":"ada"}}}`)
	w.expect(`{"id":"1","type":"complete"}`)
}

func TestAuthHookOnEveryTransport(t *testing.T) {
	auth := func(ctx context.Context, r *graft.AuthRequest) (context.Context, error) {
		if r.Header("Authorization") != "Bearer ok" {
			return nil, errors.New("who are you?")
		}
		return context.WithValue(ctx, subUserKey{}, "bearer"), nil
	}
	srv := whoamiServer(t, graft.Config{Auth: auth})
	t.Run("WebSocket upgrade", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
			&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
		if err == nil || resp == nil || resp.StatusCode != 401 {
			t.Fatalf("got %v %v, want 401", err, resp)
		}
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
			&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: http.Header{"Authorization": {"Bearer ok"}}})
		if err != nil {
			t.Fatal(err)
		}
		w := &wsClient{t: t, c: c}
		defer c.CloseNow()
		w.init()
		w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { whoami }"}}`)
		w.expect(`{"id":"1","type":"next","payload":{"data":{"whoami":"bearer"}}}`)
	})
	for _, accept := range []string{"text/event-stream", `multipart/mixed;subscriptionSpec="1.0"`} {
		t.Run(accept, func(t *testing.T) {
			resp := streamPost(t, srv, accept, `{"query":"subscription { whoami }"}`)
			if resp.StatusCode != 401 {
				t.Fatalf("status %d, want 401", resp.StatusCode)
			}
			resp = streamPost(t, srv, accept, `{"query":"subscription { whoami }"}`, "Authorization", "Bearer ok")
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || !strings.Contains(string(body), `{"data":{"whoami":"bearer"}}`) {
				t.Fatalf("status %d body %q", resp.StatusCode, body)
			}
		})
	}
}

func TestSafelistRefusesUnlistedSubscriptions(t *testing.T) {
	listed := "subscription { whoami }"
	store, err := persisted.NewSafelistStore(map[string]string{persisted.Hash(persisted.SHA256, listed): listed})
	if err != nil {
		t.Fatal(err)
	}
	srv := whoamiServer(t, graft.Config{PersistedQueries: &persisted.Options{Mode: persisted.Safelist, Store: store}})
	w := dialWS(t, srv)
	w.init()
	w.send(`{"id":"1","type":"subscribe","payload":{"query":"subscription { whoami __typename }"}}`)
	w.expect(`{"id":"1","type":"error","payload":[{"message":"Persisted query not in safelist","extensions":{"code":"PERSISTED_QUERY_NOT_ALLOWED","hash":"` +
		persisted.Hash(persisted.SHA256, "subscription { whoami __typename }") + `"}}]}`)
	w.send(`{"id":"2","type":"subscribe","payload":{"query":"subscription { whoami }"}}`)
	w.expect(`{"id":"2","type":"next","payload":{"data":{"whoami":""}}}`)
	resp := streamPost(t, srv, "text/event-stream", `{"query":"subscription { whoami __typename }"}`)
	if resp.StatusCode != 403 {
		t.Fatalf("SSE unlisted: %d, want 403", resp.StatusCode)
	}
}
