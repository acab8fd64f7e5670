package chat

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/graftgql/graft"
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
	s, err := c.Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql",
		strings.NewReader(`{"query":"subscription { messageAdded(room: \"r\") { room text } }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	for ps.Subscribers(topic("r")) != 1 {
		runtime.Gosched()
	}
	ctx := context.Background()
	_, _ = c.post(ctx, postArgs{Room: "elsewhere", Author: "a", Text: "no"})
	_, _ = c.post(ctx, postArgs{Room: "r", Author: "a", Text: "yes"})
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(line, "data: ") {
			if want := `data: {"data":{"messageAdded":{"room":"r","text":"yes"}}}` + "\n"; line != want {
				t.Fatalf("got %q, want %q", line, want)
			}
			break
		}
	}
	_ = resp.Body.Close()
	for ps.Subscribers(topic("r")) != 0 {
		runtime.Gosched()
	}
}
