package chat

import (
	"context"
	"testing"

	"github.com/graftgql/graft/pubsub"
)

func TestRoomsKeepTheLast100(t *testing.T) {
	c := New(nil)
	ctx := context.Background()
	for i := range Keep + 5 {
		if _, err := c.post(ctx, postArgs{Room: "r", Author: "a", Text: string(rune('A' + i%26))}); err != nil {
			t.Fatal(err)
		}
	}
	all := 1000
	got, _ := c.messages(ctx, messagesArgs{Room: "r", Last: &all})
	if len(got) != Keep {
		t.Fatalf("%d messages kept, want %d", len(got), Keep)
	}
	last, _ := c.messages(ctx, messagesArgs{Room: "r"})
	if len(last) != 20 || last[19].ID != got[Keep-1].ID {
		t.Fatalf("default last: %d messages", len(last))
	}
	if other, _ := c.messages(ctx, messagesArgs{Room: "other"}); len(other) != 0 {
		t.Fatalf("other room has %d messages", len(other))
	}
}

func TestCountdown(t *testing.T) {
	ch, _ := countdown(context.Background(), countdownArgs{From: 3})
	var got []int
	for n := range ch {
		got = append(got, n)
	}
	if len(got) != 4 || got[0] != 3 || got[3] != 0 {
		t.Fatalf("got %v", got)
	}
}

func TestMessageAddedDeliversPostsOfItsRoom(t *testing.T) {
	ps := pubsub.NewMemory(pubsub.Options{})
	c := New(ps)
	ctx, cancel := context.WithCancel(context.Background())
	ch, err := c.messageAdded(ctx, roomArgs{Room: "r"})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = c.post(ctx, postArgs{Room: "elsewhere", Author: "a", Text: "no"})
	_, _ = c.post(ctx, postArgs{Room: "r", Author: "a", Text: "yes"})
	if m := <-ch; m.Text != "yes" || m.Room != "r" {
		t.Fatalf("got %+v", m)
	}
	cancel()
	for range ch {
	}
	if n := ps.Subscribers(topic("r")); n != 0 {
		t.Fatalf("%d subscribers after cancel", n)
	}
}
