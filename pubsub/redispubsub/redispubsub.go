// Package redispubsub is a pubsub.PubSub over Redis Pub/Sub, so that an
// event published on one instance of a server reaches the subscribers of
// every instance. It works with any go-redis UniversalClient.
//
//	client := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	ps := redispubsub.New(client, redispubsub.Options{})
//	defer ps.Close()
//
// Each instance holds one Redis connection for all its subscribers: the
// first local subscriber of a topic subscribes the Redis channel, the last
// one to leave unsubscribes it, and payloads are fanned out locally through
// a pubsub.Memory with its bounded buffers.
//
// When Redis goes away, Publish fails (bounded by Options.Timeout) and
// Subscribe fails, so the client sees an error; existing subscriptions stay
// open and go-redis reconnects and subscribes their channels again when
// Redis comes back. Redis Pub/Sub does not replay: payloads published
// while an instance was disconnected are not delivered to it.
package redispubsub

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/graftgql/graft/pubsub"
)

// Defaults for Options.
const (
	DefaultPrefix  = "graft:ps:"
	DefaultTimeout = time.Second
)

// Options configures a PubSub. The zero value is usable.
type Options struct {
	// Prefix is put before each topic to make the Redis channel. Empty
	// means DefaultPrefix. Instances that share events use the same prefix.
	Prefix string
	// Timeout bounds Publish and the subscription of a new channel. 0 (or
	// less) means DefaultTimeout.
	Timeout time.Duration
	// Buffer and DropWhenFull bound each local subscriber, as in
	// pubsub.Options.
	Buffer       int
	DropWhenFull bool
}

// PubSub is a pubsub.PubSub backed by Redis. It is safe for concurrent use.
type PubSub struct {
	client  redis.UniversalClient
	prefix  string
	timeout time.Duration
	local   *pubsub.Memory
	ps      *redis.PubSub
	done    chan struct{}

	mu   sync.Mutex
	refs map[string]int
}

// New returns a PubSub publishing and subscribing through client. Close
// releases its Redis connection; the client stays open.
func New(client redis.UniversalClient, opts Options) *PubSub {
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	p := &PubSub{
		client:  client,
		prefix:  opts.Prefix,
		timeout: opts.Timeout,
		local:   pubsub.NewMemory(pubsub.Options{Buffer: opts.Buffer, DropWhenFull: opts.DropWhenFull}),
		ps:      client.Subscribe(context.Background()),
		done:    make(chan struct{}),
		refs:    map[string]int{},
	}
	ch := p.ps.Channel(redis.WithChannelSize(1024))
	go p.receive(ch)
	return p
}

// receive fans the payloads Redis delivers out to the local subscribers.
func (p *PubSub) receive(ch <-chan *redis.Message) {
	defer close(p.done)
	for msg := range ch {
		topic, ok := strings.CutPrefix(msg.Channel, p.prefix)
		if !ok {
			continue
		}
		_ = p.local.Publish(context.Background(), topic, []byte(msg.Payload))
	}
}

// Publish sends payload to the subscribers of topic on every instance.
func (p *PubSub) Publish(ctx context.Context, topic string, payload []byte) error {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	if err := p.client.Publish(ctx, p.prefix+topic, payload).Err(); err != nil {
		return fmt.Errorf("redispubsub: publish %q: %w", topic, err)
	}
	return nil
}

// Subscribe returns a channel of the payloads published on topic, on any
// instance, until ctx is done.
func (p *PubSub) Subscribe(ctx context.Context, topic string) (<-chan []byte, error) {
	if err := p.acquire(ctx, topic); err != nil {
		return nil, err
	}
	ch, err := p.local.Subscribe(ctx, topic)
	if err != nil {
		p.release(topic)
		return nil, err
	}
	context.AfterFunc(ctx, func() { p.release(topic) })
	return ch, nil
}

// SubscribeFunc calls deliver with each payload published on topic, on
// any instance, until ctx is done, then end once; see
// pubsub.Memory.SubscribeFunc for the rules they follow.
func (p *PubSub) SubscribeFunc(ctx context.Context, topic string, deliver func(payload []byte), end func()) error {
	if err := p.acquire(ctx, topic); err != nil {
		return err
	}
	if err := p.local.SubscribeFunc(ctx, topic, deliver, end); err != nil {
		p.release(topic)
		return err
	}
	context.AfterFunc(ctx, func() { p.release(topic) })
	return nil
}

// acquire counts a local subscriber of topic, subscribing the Redis
// channel for the first one.
func (p *PubSub) acquire(ctx context.Context, topic string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.refs[topic] == 0 {
		ctx, cancel := context.WithTimeout(ctx, p.timeout)
		defer cancel()
		if err := p.ps.Subscribe(ctx, p.prefix+topic); err != nil {
			return fmt.Errorf("redispubsub: subscribe %q: %w", topic, err)
		}
	}
	p.refs[topic]++
	return nil
}

// release forgets a local subscriber of topic, unsubscribing the Redis
// channel after the last one.
func (p *PubSub) release(topic string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refs[topic]--
	if p.refs[topic] > 0 {
		return
	}
	delete(p.refs, topic)
	ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
	defer cancel()
	_ = p.ps.Unsubscribe(ctx, p.prefix+topic)
}

// Close closes the Redis subscription connection and disconnects every
// local subscriber.
func (p *PubSub) Close() error {
	err := p.ps.Close()
	<-p.done
	_ = p.local.Close()
	return err
}

var (
	_ pubsub.PubSub         = (*PubSub)(nil)
	_ pubsub.FuncSubscriber = (*PubSub)(nil)
)
