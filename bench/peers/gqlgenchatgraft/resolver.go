// Resolvers of the chat project, unchanged from ../gqlgenchat but for
// the package name.

package gqlgenchatgraft

import (
	"context"
	"strconv"
	"sync"
	"time"
)

// Resolver holds the rooms and their subscribers in memory.
type Resolver struct {
	mu   sync.Mutex
	seq  int
	msgs map[string][]*Message
	subs map[string]map[chan *Message]struct{}
}

// NewResolver returns an empty chat.
func NewResolver() *Resolver {
	return &Resolver{msgs: map[string][]*Message{}, subs: map[string]map[chan *Message]struct{}{}}
}

// Query returns the query resolvers.
func (r *Resolver) Query() QueryResolver { return (*queryResolver)(r) }

// Mutation returns the mutation resolvers.
func (r *Resolver) Mutation() MutationResolver { return (*mutationResolver)(r) }

// Subscription returns the subscription resolvers.
func (r *Resolver) Subscription() SubscriptionResolver { return (*subscriptionResolver)(r) }

type queryResolver Resolver

func (q *queryResolver) Messages(_ context.Context, room string, last *int) ([]*Message, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	m := q.msgs[room]
	if last != nil && len(m) > *last {
		m = m[len(m)-*last:]
	}
	return append([]*Message(nil), m...), nil
}

type mutationResolver Resolver

func (m *mutationResolver) PostMessage(_ context.Context, room, author, text string) (*Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seq++
	msg := &Message{ID: strconv.Itoa(m.seq), Room: room, Author: author, Text: text, CreatedAt: time.Now().UTC()}
	kept := append(m.msgs[room], msg)
	if len(kept) > 100 {
		kept = kept[len(kept)-100:]
	}
	m.msgs[room] = kept
	for ch := range m.subs[room] {
		select {
		case ch <- msg:
		default: // a full subscriber misses the message
		}
	}
	return msg, nil
}

type subscriptionResolver Resolver

func (s *subscriptionResolver) MessageAdded(ctx context.Context, room string) (<-chan *Message, error) {
	ch := make(chan *Message, 64)
	s.mu.Lock()
	if s.subs[room] == nil {
		s.subs[room] = map[chan *Message]struct{}{}
	}
	s.subs[room][ch] = struct{}{}
	s.mu.Unlock()
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		delete(s.subs[room], ch)
		s.mu.Unlock()
	})
	return ch, nil
}

func (s *subscriptionResolver) Countdown(ctx context.Context, from int) (<-chan int, error) {
	ch := make(chan int)
	go func() {
		defer close(ch)
		for i := from; i >= 0; i-- {
			select {
			case ch <- i:
			case <-ctx.Done():
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	return ch, nil
}
