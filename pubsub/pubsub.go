// Package pubsub carries events between the code that publishes them (a
// mutation) and the subscriptions that deliver them to clients. A topic is
// a string such as "chat:room:general"; a payload is bytes, usually JSON,
// so every implementation can send it across processes.
//
// Memory delivers within one process. redispubsub delivers through Redis
// Pub/Sub, so an event published on one instance reaches the subscribers
// of every instance.
//
//	ps := pubsub.NewMemory(pubsub.Options{})
//	events, err := ps.Subscribe(ctx, "chat:general") // ends when ctx is done
//	_ = ps.Publish(ctx, "chat:general", []byte(`{"text":"hi"}`))
package pubsub

import (
	"context"
	"errors"
	"sync"
)

// DefaultBuffer is the number of events a subscriber may have waiting when
// Options.Buffer is 0.
const DefaultBuffer = 64

// ErrClosed is returned by Publish and Subscribe after Close.
var ErrClosed = errors.New("pubsub: closed")

// PubSub delivers each payload published on a topic to every current
// subscriber of that topic. Implementations are safe for concurrent use.
type PubSub interface {
	// Publish sends payload to the subscribers of topic. It does not wait
	// for them to read it.
	Publish(ctx context.Context, topic string, payload []byte) error
	// Subscribe returns a channel that receives the payloads published on
	// topic from now on. The channel is closed when ctx is done, when the
	// subscriber falls more than the buffer behind (see Options), or when
	// the PubSub is closed; nothing is left running after that.
	Subscribe(ctx context.Context, topic string) (<-chan []byte, error)
}

// Options configures the bounded buffer of each subscriber.
type Options struct {
	// Buffer is the number of payloads a subscriber may have waiting; 0
	// means DefaultBuffer.
	Buffer int
	// DropWhenFull drops the payloads a full subscriber cannot take. By
	// default a subscriber that falls that far behind is disconnected: its
	// channel is closed, so a slow consumer never holds unbounded memory
	// nor slows the others.
	DropWhenFull bool
}

// Memory is an in-process PubSub.
type Memory struct {
	buffer int
	drop   bool

	mu     sync.Mutex
	topics map[string]map[*subscriber]struct{}
	closed bool
}

type subscriber struct {
	topic string
	ch    chan []byte
	stop  func() bool // stops the context.AfterFunc
}

// NewMemory returns an in-process PubSub.
func NewMemory(opts Options) *Memory {
	if opts.Buffer <= 0 {
		opts.Buffer = DefaultBuffer
	}
	return &Memory{buffer: opts.Buffer, drop: opts.DropWhenFull, topics: map[string]map[*subscriber]struct{}{}}
}

// Publish delivers payload to the current subscribers of topic. A
// subscriber whose buffer is full is disconnected, or misses the payload
// with Options.DropWhenFull.
func (m *Memory) Publish(_ context.Context, topic string, payload []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	for s := range m.topics[topic] {
		select {
		case s.ch <- payload:
		default:
			if !m.drop {
				m.removeLocked(s)
			}
		}
	}
	return nil
}

// Subscribe returns a channel of the payloads published on topic until ctx
// is done.
func (m *Memory) Subscribe(ctx context.Context, topic string) (<-chan []byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := &subscriber{topic: topic, ch: make(chan []byte, m.buffer)}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	subs := m.topics[topic]
	if subs == nil {
		subs = map[*subscriber]struct{}{}
		m.topics[topic] = subs
	}
	subs[s] = struct{}{}
	s.stop = context.AfterFunc(ctx, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.removeLocked(s)
	})
	return s.ch, nil
}

// Subscribers returns the number of current subscribers of topic.
func (m *Memory) Subscribers(topic string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.topics[topic])
}

// Close disconnects every subscriber; later calls fail with ErrClosed.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, subs := range m.topics {
		for s := range subs {
			m.removeLocked(s)
		}
	}
	m.closed = true
	return nil
}

// removeLocked ends subscriber s once; m.mu is held.
func (m *Memory) removeLocked(s *subscriber) {
	subs := m.topics[s.topic]
	if _, ok := subs[s]; !ok {
		return
	}
	delete(subs, s)
	if len(subs) == 0 {
		delete(m.topics, s.topic)
	}
	s.stop()
	close(s.ch)
}

var _ PubSub = (*Memory)(nil)
