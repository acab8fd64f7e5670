package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft/internal/testenv"
)

// TestChatAcrossProcesses runs two cmd/graft processes serving the chat
// example with one redis-server: a message posted on one reaches a
// subscriber of the other. With Redis stopped, posting fails with an
// error and the open subscription stays; once Redis is back the
// subscription receives again (go-redis subscribes its channels again).
func TestChatAcrossProcesses(t *testing.T) {
	addr, redisSrv := testenv.StartRedis(t)
	bin := buildGraft(t)
	start := func() string { return startGraftProcess(t, bin, "GRAFT_EXAMPLE=chat", "REDIS_URL=redis://"+addr) }
	a, b := start(), start()

	req, _ := http.NewRequest(http.MethodPost, a+"/graphql",
		strings.NewReader(`{"query":"subscription { messageAdded(room: \"lobby\") { author text } }"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", `multipart/mixed;subscriptionSpec="1.0",application/json`)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	readTo(t, br, "\r\n--graphql")

	rc := redis.NewClient(&redis.Options{Addr: addr})
	defer rc.Close()
	waitNumSub := func() {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			n, err := rc.PubSubNumSub(context.Background(), "graft:ps:chat:lobby").Result()
			if err == nil && n["graft:ps:chat:lobby"] == 1 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("instance A never subscribed: %v %v", n, err)
			}
		}
	}
	postOnB := func(text string) string {
		t.Helper()
		r, err := http.Post(b+"/graphql", "application/json", strings.NewReader(
			`{"query":"mutation { postMessage(room: \"lobby\", author: \"bob\", text: \"`+text+`\") { text } }"}`))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		body, _ := io.ReadAll(r.Body)
		return string(body)
	}
	waitNumSub()
	if got := postOnB("hello"); got != `{"data":{"postMessage":{"text":"hello"}}}` {
		t.Fatalf("post: %s", got)
	}
	want := "\r\ncontent-type: application/json; charset=utf-8\r\n\r\n{\"payload\":{\"data\":{\"messageAdded\":{\"author\":\"bob\",\"text\":\"hello\"}}}}\r\n--graphql"
	if got := readTo(t, br, "\r\n--graphql"); got != want {
		t.Fatalf("\n got %q\nwant %q", got, want)
	}

	redisSrv.Stop()
	if got := postOnB("lost"); !strings.Contains(got, `"errors"`) {
		t.Fatalf("post with Redis down: %s, want an error", got)
	}
	redisSrv.Start()
	waitNumSub()
	postOnB("back")
	// Heartbeats may come first.
	for {
		got := readTo(t, br, "\r\n--graphql")
		if strings.Contains(got, `"text":"back"`) {
			break
		}
		if !strings.Contains(got, "\r\n\r\n{}\r\n") {
			t.Fatalf("unexpected part %q", got)
		}
	}
}

// readTo reads until the text read ends with suffix.
func readTo(t *testing.T, br *bufio.Reader, suffix string) string {
	t.Helper()
	var b strings.Builder
	for !strings.HasSuffix(b.String(), suffix) {
		c, err := br.ReadByte()
		if err != nil {
			t.Fatalf("reading %q: %v (got %q)", suffix, err, b.String())
		}
		b.WriteByte(c)
	}
	return b.String()
}
