package schema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
)

// TestSubscriptionNoArgs declares a subscription without arguments and
// reads its events.
func TestSubscriptionNoArgs(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "hi", nil })
	schema.SubscriptionNoArgs(b, "ticks", func(ctx context.Context) (<-chan int, error) {
		ch := make(chan int, 2)
		ch <- 1
		ch <- 2
		close(ch)
		return ch, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.SDL(), "type Subscription {\n  ticks: Int!\n}") {
		t.Fatalf("SDL:\n%s", s.SDL())
	}
	e := exec.New(s, exec.Options{})
	doc, errs := e.Prepare(`subscription { ticks }`)
	if errs != nil {
		t.Fatal(errs)
	}
	op, _ := doc.Operation("")
	st, body := e.Subscribe(context.Background(), op, nil, nil)
	if st == nil {
		t.Fatalf("Subscribe: %s", body)
	}
	var got []string
	for {
		ev, ok := st.Next(context.Background())
		if !ok {
			break
		}
		got = append(got, string(st.Execute(context.Background(), ev, nil)))
	}
	if strings.Join(got, " ") != `{"data":{"ticks":1}} {"data":{"ticks":2}}` {
		t.Fatalf("events %v", got)
	}
}
