// Package incremental is the example schema for @defer and @stream: fields
// that wait before they resolve, a list whose items arrive one by one,
// fields that fail, and a way to see whether an abandoned request
// cancelled its work (slowField's token). cmd/graft serves it with
// GRAFT_EXAMPLE=incremental.
package incremental

import (
	"context"
	"sync"
	"time"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/schema"
)

// Item is an item of the example: its name, slowField and child follow
// from its id.
type Item struct {
	ID   schema.ID `graphql:"id"`
	Name string    `graphql:"name"`
}

func newItem(id string) *Item { return &Item{ID: schema.ID(id), Name: "Item " + id} }

// DelayArgs are the arguments of the fields that only wait.
type DelayArgs struct {
	DelayMs *int `graphql:"delayMs" default:"0"`
}

// SlowArgs are the arguments of Query.slowField.
type SlowArgs struct {
	DelayMs *int    `graphql:"delayMs" default:"0"`
	Text    *string `graphql:"text" default:"\"slow\""`
	Token   *string `graphql:"token"`
}

// ItemArgs are the arguments of Query.item and Mutation.touch.
type ItemArgs struct {
	ID schema.ID `graphql:"id"`
}

// ItemsArgs are the arguments of Query.items.
type ItemsArgs struct {
	Count   *int `graphql:"count" default:"3"`
	DelayMs *int `graphql:"delayMs" default:"0"`
}

// TicksArgs are the arguments of Subscription.ticks.
type TicksArgs struct {
	Count   *int `graphql:"count" default:"3"`
	DelayMs *int `graphql:"delayMs" default:"10"`
}

// TokenArgs are the arguments of Query.tokenStatus.
type TokenArgs struct {
	Token string `graphql:"token"`
}

// maxTokens bounds the tokens remembered; the oldest are forgotten first.
const maxTokens = 10_000

// tokens records the progress of slowField calls by token.
type tokens struct {
	mu    sync.Mutex
	state map[string]string
	order []string
}

func (t *tokens) set(token, state string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.state[token]; !ok {
		if len(t.order) >= maxTokens {
			delete(t.state, t.order[0])
			t.order = t.order[1:]
		}
		t.order = append(t.order, token)
	}
	t.state[token] = state
}

func (t *tokens) get(token string) *string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.state[token]; ok {
		return &s
	}
	return nil
}

// wait waits ms milliseconds, or until ctx ends.
func wait(ctx context.Context, ms *int) error {
	if ms == nil || *ms <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(time.Duration(*ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// itemSource yields Items "1".."count", one every delayMs, until ctx ends.
func itemSource(ctx context.Context, a ItemsArgs, dflt int) <-chan Item {
	count, delay := dflt, 0
	if a.Count != nil {
		count = *a.Count
	}
	if a.DelayMs != nil {
		delay = *a.DelayMs
	}
	ch := make(chan Item)
	go func() {
		defer close(ch)
		for i := 1; i <= count; i++ {
			if err := wait(ctx, &delay); err != nil {
				return
			}
			select {
			case ch <- *newItem(itoa(i)):
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// Schema builds the incremental example.
func Schema() (*schema.Schema, error) {
	b := schema.New()
	b.EnableIncrementalDelivery()
	tok := &tokens{state: map[string]string{}}

	item := schema.Object[Item](b, "Item")
	schema.FieldFunc(item, "slowField", func(ctx context.Context, it *Item, a DelayArgs) (string, error) {
		if err := wait(ctx, a.DelayMs); err != nil {
			return "", err
		}
		return "slow " + string(it.ID), nil
	})
	schema.FieldFuncNoArgs(item, "child", func(_ context.Context, it *Item) (*Item, error) {
		return newItem(string(it.ID) + ".c"), nil
	}, schema.OfType("Item!"))
	schema.FieldFunc(item, "failing", func(ctx context.Context, it *Item, a DelayArgs) (*string, error) {
		if err := wait(ctx, a.DelayMs); err != nil {
			return nil, err
		}
		return nil, gqlerror.Errorf("failing %s", it.ID)
	})
	schema.FieldFunc(item, "failingNonNull", func(ctx context.Context, it *Item, a DelayArgs) (string, error) {
		if err := wait(ctx, a.DelayMs); err != nil {
			return "", err
		}
		return "", gqlerror.Errorf("failingNonNull %s", it.ID)
	})

	schema.QueryNoArgs(b, "fastField", func(context.Context) (string, error) { return "fast", nil })
	schema.Query(b, "slowField", func(ctx context.Context, a SlowArgs) (string, error) {
		if a.Token != nil {
			tok.set(*a.Token, "started")
		}
		if err := wait(ctx, a.DelayMs); err != nil {
			if a.Token != nil {
				tok.set(*a.Token, "cancelled")
			}
			return "", err
		}
		if a.Token != nil {
			tok.set(*a.Token, "completed")
		}
		return *a.Text, nil
	})
	schema.Query(b, "item", func(_ context.Context, a ItemArgs) (*Item, error) { return newItem(string(a.ID)), nil })
	schema.Query(b, "items", func(ctx context.Context, a ItemsArgs) (<-chan Item, error) {
		return itemSource(ctx, a, 3), nil
	})
	schema.Query(b, "tokenStatus", func(_ context.Context, a TokenArgs) (*string, error) { return tok.get(a.Token), nil })

	schema.Mutation(b, "touch", func(_ context.Context, a ItemArgs) (*Item, error) { return newItem(string(a.ID)), nil },
		schema.OfType("Item!"))
	schema.Subscription(b, "ticks", func(ctx context.Context, a TicksArgs) (<-chan Item, error) {
		return itemSource(ctx, ItemsArgs(a), 3), nil
	})
	return b.Build()
}
