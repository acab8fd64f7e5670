package schema

import (
	"context"

	"github.com/graftgql/graft/internal/schemadef"
)

// Subscription adds a field with arguments to the Subscription type. fn
// starts the stream of events for one subscriber and returns the channel
// it sends them on; R is the field's type, mapped like a query result, and
// each event is executed against the field's selection set as a query
// result is. See FieldFunc for the argument struct A.
//
// The stream ends when fn closes the channel, or when the subscriber
// leaves, the server shuts down or the request is cancelled; ctx is
// cancelled in every case. A goroutine that feeds the channel must
// therefore select on ctx.Done() beside each send, and return once it is
// done, so no goroutine outlives the subscription:
//
//	schema.Subscription(b, "countdown", func(ctx context.Context, a CountdownArgs) (<-chan int, error) {
//		ch := make(chan int)
//		go func() {
//			defer close(ch)
//			for i := a.From; i >= 0; i-- {
//				select {
//				case ch <- i:
//				case <-ctx.Done():
//					return
//				}
//			}
//		}()
//		return ch, nil
//	})
//
// An error from fn ends the subscription before any event, with that
// error in the response. Options: Description, Deprecated, OfType, Cost,
// CostFn.
//
// An event is read after it is sent, by other goroutines, and must not
// change once sent, nor anything it points to: send a new value for each
// event rather than the same pointer changed. Subscribers of one selection
// share the answer to events of equal bytes (the same value, or the same
// pointer), so a pointer sent again after its target changed would be
// answered as it was the first time.
func Subscription[A, R any](b *Builder, name string, fn func(context.Context, A) (<-chan R, error), opts ...Option) {
	schemadef.Subscription(b.def(), name, fn, opts...)
}

// SubscriptionNoArgs adds a field without arguments to the Subscription
// type, as Subscription does for a field with arguments.
func SubscriptionNoArgs[R any](b *Builder, name string, fn func(context.Context) (<-chan R, error), opts ...Option) {
	var f func(context.Context, struct{}) (<-chan R, error)
	if fn != nil {
		f = func(ctx context.Context, _ struct{}) (<-chan R, error) { return fn(ctx) }
	}
	schemadef.Subscription(b.def(), name, f, opts...)
}

// Sink receives the events of a push subscription (SubscriptionSink); its
// methods may be called from any goroutine.
type Sink[R any] = schemadef.Sink[R]

// DefaultSinkQueue bounds the events a push subscription may have waiting
// for delivery.
const DefaultSinkQueue = schemadef.DefaultSinkQueue

// SubscriptionSink adds a field with arguments to the Subscription type
// whose events are pushed rather than received from a channel: fn
// registers the subscription with its source (for example
// pubsub.SubscribeFunc) and returns; the source calls the Sink's Send for
// each event and Close when it has no more. The subscription also ends
// when ctx is done, after which Send reports false. No goroutine waits on
// an idle push subscription, which makes it the cheaper form for many
// long-lived subscribers; a subscriber more than DefaultSinkQueue events
// behind is disconnected.
//
//	schema.SubscriptionSink(b, "messageAdded", func(ctx context.Context, a RoomArgs, s schema.Sink[Message]) error {
//		return pubsub.SubscribeFunc(ctx, ps, "chat:"+a.Room, func(p []byte) {
//			var m Message
//			if json.Unmarshal(p, &m) == nil {
//				s.Send(m)
//			}
//		}, s.Close)
//	})
func SubscriptionSink[A, R any](b *Builder, name string, fn func(context.Context, A, Sink[R]) error, opts ...Option) {
	schemadef.SubscriptionSink(b.def(), name, fn, opts...)
}
