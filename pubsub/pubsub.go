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
	"unsafe"
)

// DefaultBuffer is the number of events a subscriber may have waiting when
// Options.Buffer is 0.
const DefaultBuffer = 64

// DefaultBufferBytes is the number of payload bytes a subscriber may have
// waiting when Options.BufferBytes is 0.
const DefaultBufferBytes = 1 << 20

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
	// BufferBytes bounds the bytes of the payloads a subscriber may have
	// waiting; 0 means DefaultBufferBytes. A payload larger than the bound
	// is still delivered to a subscriber with nothing waiting.
	BufferBytes int
	// DropWhenFull drops the payloads a full subscriber cannot take. By
	// default a subscriber that falls that far behind (in payloads or in
	// bytes) is disconnected: its channel is closed, so a slow consumer
	// never holds unbounded memory nor slows the others.
	DropWhenFull bool
}

// Memory is an in-process PubSub.
type Memory struct {
	buffer int
	bytes  int
	drop   bool

	mu sync.Mutex
	// topics holds each topic's subscribers with their SubscribeFunc
	// function (nil for a chanSubscriber): a publish to thousands calls
	// each function without reading its subscriber.
	topics map[string]map[*subscriber]func([]byte)
	closed bool
}

type subscriber struct {
	topic string
	fn    func([]byte) // SubscribeFunc's; nil for a chanSubscriber
	end   func()       // SubscribeFunc's
	stop  func() bool  // stops the context.AfterFunc
}

// chanSubscriber is a subscriber of Subscribe, with its channel and
// what waits in it; a SubscribeFunc subscriber, which has none, is the
// smaller subscriber alone.
type chanSubscriber struct {
	subscriber // first: the Memory holds its address
	ch         chan []byte
	sizes      []int // of the payloads sent on ch, oldest first
	bytes      int   // their sum
}

// chanSub returns the chanSubscriber s is the first field of, nil for a
// SubscribeFunc subscriber.
func (s *subscriber) chanSub() *chanSubscriber {
	if s.fn != nil {
		return nil
	}
	return (*chanSubscriber)(unsafe.Pointer(s))
}

// fits reports whether payload may be sent to s's channel without
// exceeding the bounds, first forgetting the payloads the subscriber has
// taken since the last publish (the channel is first in, first out).
func (s *chanSubscriber) fits(payload []byte, maxCount, maxBytes int) bool {
	if taken := len(s.sizes) - len(s.ch); taken > 0 {
		for _, n := range s.sizes[:taken] {
			s.bytes -= n
		}
		s.sizes = append(s.sizes[:0], s.sizes[taken:]...)
	}
	return len(s.sizes) < maxCount && (len(s.sizes) == 0 || s.bytes+len(payload) <= maxBytes)
}

// NewMemory returns an in-process PubSub.
func NewMemory(opts Options) *Memory {
	if opts.Buffer <= 0 {
		opts.Buffer = DefaultBuffer
	}
	if opts.BufferBytes <= 0 {
		opts.BufferBytes = DefaultBufferBytes
	}
	return &Memory{buffer: opts.Buffer, bytes: opts.BufferBytes, drop: opts.DropWhenFull, topics: map[string]map[*subscriber]func([]byte){}}
}

// Publish delivers payload to the current subscribers of topic. A
// subscriber whose buffer is full is disconnected, or misses the payload
// with Options.DropWhenFull. SubscribeFunc's subscribers are called in
// turn. Subscribers share payload: none may modify it.
func (m *Memory) Publish(_ context.Context, topic string, payload []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	for s, fn := range m.topics[topic] {
		if fn != nil {
			fn(payload)
			continue
		}
		switch cs := s.chanSub(); {
		case cs.fits(payload, m.buffer, m.bytes):
			cs.ch <- payload // cannot block: only publishers send, under m.mu
			cs.sizes = append(cs.sizes, len(payload))
			cs.bytes += len(payload)
		case !m.drop:
			m.removeLocked(s)
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
	s := &chanSubscriber{subscriber: subscriber{topic: topic}, ch: make(chan []byte, m.buffer)}
	if err := m.add(ctx, &s.subscriber); err != nil {
		return nil, err
	}
	return s.ch, nil
}

// SubscribeFunc calls deliver with each payload published on topic from
// now on, and end once when the subscription ends: ctx is done or the
// Memory is closed. deliver and end run in the publisher's goroutine with
// the Memory locked: they must return quickly, must not keep payload
// past their return unless they copy it, and must not call the Memory.
// Unlike Subscribe, it keeps no buffer and no goroutine per subscriber:
// bounding what waits is the caller's business. When ctx has a method
// AfterFunc(func()) (stop func() bool), as the context of a
// schema.SubscriptionSink function does, the Memory asks it, rather than
// context.AfterFunc, to tell it when ctx is done.
func (m *Memory) SubscribeFunc(ctx context.Context, topic string, deliver func(payload []byte), end func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if deliver == nil {
		deliver = func([]byte) {} // a nil fn marks a chanSubscriber
	}
	return m.add(ctx, &subscriber{topic: topic, fn: deliver, end: end})
}

// add registers s until ctx is done.
func (m *Memory) add(ctx context.Context, s *subscriber) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	subs := m.topics[s.topic]
	if subs == nil {
		subs = map[*subscriber]func([]byte){}
		m.topics[s.topic] = subs
	}
	subs[s] = s.fn
	remove := func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.removeLocked(s)
	}
	if a, ok := ctx.(afterFuncer); ok {
		s.stop = a.AfterFunc(remove)
	} else {
		s.stop = context.AfterFunc(ctx, remove)
	}
	return nil
}

// afterFuncer is a context that schedules a call for when it is done
// itself, as context.AfterFunc describes: the context graft hands a
// push subscription's source does so with the registration the
// subscription already holds, which saves one per subscriber.
type afterFuncer interface {
	AfterFunc(func()) (stop func() bool)
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
	if cs := s.chanSub(); cs != nil {
		close(cs.ch)
	} else if s.end != nil {
		s.end()
	}
}

var _ PubSub = (*Memory)(nil)

// FuncSubscriber is implemented by a PubSub that can call a function for
// each payload instead of sending it on a channel (Memory, redispubsub),
// which saves a buffer and a goroutine per subscriber. See
// Memory.SubscribeFunc for the rules deliver and end follow.
type FuncSubscriber interface {
	SubscribeFunc(ctx context.Context, topic string, deliver func(payload []byte), end func()) error
}

// SubscribeFunc calls deliver with each payload published on topic until
// ctx is done, then end once (also when ps ends the subscription). It
// uses ps's SubscribeFunc when it has one; otherwise a goroutine reads
// ps.Subscribe's channel. deliver must return quickly and not keep
// payload unless it copies it.
func SubscribeFunc(ctx context.Context, ps PubSub, topic string, deliver func(payload []byte), end func()) error {
	if fs, ok := ps.(FuncSubscriber); ok {
		return fs.SubscribeFunc(ctx, topic, deliver, end)
	}
	ch, err := ps.Subscribe(ctx, topic)
	if err != nil {
		return err
	}
	go func() {
		for p := range ch {
			deliver(p)
		}
		end()
	}()
	return nil
}

var _ FuncSubscriber = (*Memory)(nil)
