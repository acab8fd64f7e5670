package grafttest_test

import (
	"net/http"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/chat"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/pubsub"
)

// TestSubscribe subscribes over each transport, then publishes at once:
// Subscribe returns only once the subscription is registered, so the
// event is never lost, with no sleep in between.
func TestSubscribe(t *testing.T) {
	s, err := chat.New(pubsub.NewMemory(pubsub.Options{})).Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	// An application's mux with the router inside.
	mux := http.NewServeMux()
	mux.Handle("/graphql", r)
	c := grafttest.New(mux)
	for _, tr := range []grafttest.Transport{grafttest.SSE, grafttest.WebSocket} {
		t.Run(tr.String(), func(t *testing.T) {
			room := "room-" + tr.String()
			for i := range 20 { // a lost event would show within a few tries
				sub := c.Subscribe(t, tr, `subscription($r: String!) { messageAdded(room: $r) { text } }`, map[string]any{"r": room})
				c.Do(t, `mutation($r: String!) { postMessage(room: $r, author: "a", text: "hi") { id } }`, map[string]any{"r": room}).NoErrors(t)
				ev, ok := sub.Next(t)
				if !ok || string(ev.Data) != `{"messageAdded":{"text":"hi"}}` {
					t.Fatalf("try %d: event %v %v", i, ev, ok)
				}
				sub.Close()
			}
			countdown := c.Subscribe(t, tr, `subscription { countdown(from: 2) }`, nil)
			var got []string
			for {
				ev, ok := countdown.Next(t)
				if !ok {
					break
				}
				got = append(got, string(ev.Data))
			}
			if len(got) != 3 || got[2] != `{"countdown":0}` {
				t.Errorf("countdown events %v", got)
			}
			bad := c.Subscribe(t, tr, `subscription { nope }`, nil)
			ev, ok := bad.Next(t)
			if !ok || !ev.HasErrorCode("GRAPHQL_VALIDATION_FAILED") {
				t.Errorf("validation error: %v %v", ev, ok)
			}
		})
	}
}
