package gqlgenchatgraft

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
)

// TestChat serves the chat peer through the gqlgen module: a message
// posted reaches the room's subscribers on both streaming transports,
// with its DateTime written by gqlgen's MarshalTime; the countdown
// subscription ends; the history query returns the messages.
func TestChat(t *testing.T) {
	r, err := Router(graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := grafttest.New(r)
	for i, tr := range []grafttest.Transport{grafttest.SSE, grafttest.WebSocket} {
		t.Run(tr.String(), func(t *testing.T) {
			sub := c.Subscribe(t, tr, `subscription { messageAdded(room: "go") { id room author text createdAt } }`, nil)
			defer sub.Close()
			before := time.Now().UTC().Truncate(time.Second)
			resp := c.Do(t, `mutation { postMessage(room: "go", author: "ann", text: "hi") { id } }`, nil)
			if want := `{"data":{"postMessage":{"id":"` + string(rune('1'+i)) + `"}}}`; string(resp.Body) != want {
				t.Fatalf("got %s, want %s", resp.Body, want)
			}
			ev, ok := sub.Next(t)
			if !ok {
				t.Fatal("the subscription ended")
			}
			var got struct {
				Data struct {
					MessageAdded struct{ ID, Room, Author, Text, CreatedAt string }
				}
			}
			if err := json.Unmarshal(ev.Body, &got); err != nil {
				t.Fatal(err)
			}
			m := got.Data.MessageAdded
			at, err := time.Parse(time.RFC3339, m.CreatedAt)
			if m.Room != "go" || m.Author != "ann" || m.Text != "hi" || err != nil || at.Before(before) {
				t.Errorf("event %s", ev.Body)
			}

			cd := c.Subscribe(t, tr, `subscription { countdown(from: 2) }`, nil)
			var ticks []string
			for {
				ev, ok := cd.Next(t)
				if !ok {
					break
				}
				ticks = append(ticks, string(ev.Body))
			}
			if want := `{"data":{"countdown":2}} {"data":{"countdown":1}} {"data":{"countdown":0}}`; strings.Join(ticks, " ") != want {
				t.Errorf("countdown %q", ticks)
			}
		})
	}
	resp := c.Do(t, `{ messages(room: "go", last: 1) { id text } }`, nil)
	if want := `{"data":{"messages":[{"id":"2","text":"hi"}]}}`; string(resp.Body) != want {
		t.Errorf("got %s, want %s", resp.Body, want)
	}
}
