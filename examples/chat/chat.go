// Package chat is the subscriptions example served by cmd/graft with
// GRAFT_EXAMPLE=chat: rooms of messages kept in memory (the last 100 per
// room), a postMessage mutation that publishes each message through a
// pubsub.PubSub, and two subscriptions: messageAdded(room:) and
// countdown(from:). With a Redis PubSub, a message posted on one instance
// reaches the subscribers of every instance; each instance keeps the
// messages it has seen.
package chat

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/graftgql/graft/pubsub"
	"github.com/graftgql/graft/schema"
)

// SDL is the example's schema, exactly.
const SDL = `scalar DateTime
type Message { id: ID!  room: String!  author: String!  text: String!  createdAt: DateTime! }
type Query { messages(room: String!, last: Int = 20): [Message!]! }
type Mutation { postMessage(room: String!, author: String!, text: String!): Message! }
type Subscription {
  messageAdded(room: String!): Message!
  countdown(from: Int!): Int!
}
`

// Keep is the number of messages kept per room.
const Keep = 100

// CountdownInterval is the pause between two countdown events.
const CountdownInterval = 10 * time.Millisecond

// Message is a chat message.
type Message struct {
	ID        schema.ID `json:"id"`
	Room      string    `json:"room"`
	Author    string    `json:"author"`
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"createdAt"`
}

// Chat holds the rooms of one instance.
type Chat struct {
	ps     pubsub.PubSub
	prefix string
	seq    atomic.Int64
	last   atomic.Pointer[decoded] // see decode

	mu    sync.Mutex
	rooms map[string][]Message
}

// New returns a Chat publishing through ps (nil means an in-memory
// PubSub).
func New(ps pubsub.PubSub) *Chat {
	if ps == nil {
		ps = pubsub.NewMemory(pubsub.Options{})
	}
	// Message IDs start from the time so instances rarely collide.
	return &Chat{ps: ps, prefix: strconv.FormatInt(time.Now().UnixNano(), 36) + "-", rooms: map[string][]Message{}}
}

// Schema builds the example with an in-memory PubSub.
func Schema() (*schema.Schema, error) { return New(nil).Schema() }

type messagesArgs struct {
	Room string
	Last *int `default:"20"`
}

type postArgs struct {
	Room   string
	Author string
	Text   string
}

type roomArgs struct {
	Room string
}

type countdownArgs struct {
	From int
}

// Schema builds the chat schema served by c.
func (c *Chat) Schema() (*schema.Schema, error) {
	b := schema.New()
	schema.Object[Message](b, "Message")
	schema.Query(b, "messages", c.messages, schema.OfType("[Message!]!"))
	schema.Mutation(b, "postMessage", c.post)
	schema.SubscriptionSink(b, "messageAdded", c.messageAdded)
	schema.Subscription(b, "countdown", countdown)
	return b.Build()
}

func (c *Chat) messages(_ context.Context, a messagesArgs) ([]Message, error) {
	last := 20
	if a.Last != nil {
		last = max(*a.Last, 0)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	msgs := c.rooms[a.Room]
	if len(msgs) > last {
		msgs = msgs[len(msgs)-last:]
	}
	return append([]Message(nil), msgs...), nil
}

func (c *Chat) post(ctx context.Context, a postArgs) (Message, error) {
	m := Message{
		ID:        schema.ID(c.prefix + strconv.FormatInt(c.seq.Add(1), 10)),
		Room:      a.Room,
		Author:    a.Author,
		Text:      a.Text,
		CreatedAt: time.Now().UTC(),
	}
	payload, err := json.Marshal(m)
	if err != nil {
		return Message{}, err
	}
	if err := c.ps.Publish(ctx, topic(a.Room), payload); err != nil {
		return Message{}, err
	}
	c.keep(m)
	return m, nil
}

// keep stores m in its room, dropping the oldest past Keep.
func (c *Chat) keep(m Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	msgs := append(c.rooms[m.Room], m)
	if len(msgs) > Keep {
		msgs = append(msgs[:0:0], msgs[len(msgs)-Keep:]...)
	}
	c.rooms[m.Room] = msgs
}

func topic(room string) string { return "chat:" + room }

// messageAdded pushes the messages of a room to the subscriber as the
// PubSub delivers them: no goroutine or buffer waits on an idle
// subscriber.
func (c *Chat) messageAdded(ctx context.Context, a roomArgs, s schema.Sink[Message]) error {
	return pubsub.SubscribeFunc(ctx, c.ps, topic(a.Room), func(payload []byte) {
		if m, ok := c.decode(payload); ok {
			s.Send(m)
		}
	}, s.Close)
}

// decoded is a payload and its message.
type decoded struct {
	payload []byte
	m       Message
}

// decode decodes a published message. The PubSub hands the same payload
// to every subscriber of the room, so the last one decoded is kept and
// a fan-out to many subscribers decodes it once.
func (c *Chat) decode(payload []byte) (Message, bool) {
	if d := c.last.Load(); d != nil && len(d.payload) == len(payload) && len(payload) > 0 &&
		unsafe.SliceData(d.payload) == unsafe.SliceData(payload) {
		return d.m, true
	}
	var m Message
	if json.Unmarshal(payload, &m) != nil {
		return Message{}, false
	}
	c.last.Store(&decoded{payload, m})
	return m, true
}

// countdown emits from, from-1, ..., 0, one every CountdownInterval.
func countdown(ctx context.Context, a countdownArgs) (<-chan int, error) {
	out := make(chan int)
	go func() {
		defer close(out)
		t := time.NewTicker(CountdownInterval)
		defer t.Stop()
		for i := a.From; i >= 0; i-- {
			if i != a.From {
				select {
				case <-t.C:
				case <-ctx.Done():
					return
				}
			}
			select {
			case out <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}
