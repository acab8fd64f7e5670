package schemadef

import (
	"context"
	"errors"
	"reflect"
	"unsafe"
)

// Subscriber starts the event stream of a Subscription root field. args is
// the argument struct as Field.Resolve receives it. ctx stays alive for as
// long as the subscription runs and is cancelled when it ends, whatever
// the reason.
type Subscriber func(ctx context.Context, args unsafe.Pointer) (Source, error)

// Events yields the events of one subscription. It blocks until the next
// event and returns a pointer to it, or reports false once the stream has
// ended: the source closed, or ctx is done.
type Events func(ctx context.Context) (unsafe.Pointer, bool)

// errNilStream is returned when a subscription resolver returns neither a
// channel nor an error.
var errNilStream = errors.New("the subscription resolver returned a nil channel")

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
func Subscription[A, R any](b *Builder, name string, fn func(context.Context, A) (<-chan R, error), opts ...Option) {
	var open func(context.Context, A) (Source, error)
	if fn != nil {
		open = func(ctx context.Context, a A) (Source, error) {
			ch, err := fn(ctx, a)
			if err != nil {
				return Source{}, err
			}
			if ch == nil {
				return Source{}, errNilStream
			}
			return Source{Next: func(ctx context.Context) (unsafe.Pointer, bool) {
				select {
				case v, ok := <-ch:
					if !ok {
						return nil, false
					}
					return unsafe.Pointer(&v), true
				case <-ctx.Done():
					return nil, false
				}
			}}, nil
		}
	}
	addSubscription[A, R](b, name, opts, open)
}

// addSubscription declares the Subscription root field name, whose
// events are R values, each resolved as a resolver returning it would
// be. open starts a subscription with the field's arguments; nil declares
// the field without a resolver.
func addSubscription[A, R any](b *Builder, name string, opts []Option, open func(context.Context, A) (Source, error)) {
	// Resolve receives the event as its parent and returns it.
	boxed, direct := compile(func(_ context.Context, parent, _ unsafe.Pointer) (R, error) {
		return *(*R)(parent), nil
	})
	var sub Subscriber
	if open != nil {
		sub = func(ctx context.Context, args unsafe.Pointer) (Source, error) {
			var a A
			if args != nil {
				a = *(*A)(args)
			}
			return open(ctx, a)
		}
	}
	d := b.rootObject("Subscription")
	d.add(name, opts, reflect.TypeFor[A](), newOf[A], reflect.TypeFor[R](), boxed, direct, open == nil)
	d.fields[len(d.fields)-1].subscribe = sub
}
