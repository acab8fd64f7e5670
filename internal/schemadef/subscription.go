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
	// Resolve receives the event as its parent and returns it, as a
	// resolver returning R would.
	boxed, direct := compile(func(_ context.Context, parent, _ unsafe.Pointer) (R, error) {
		return *(*R)(parent), nil
	})
	var sub Subscriber
	if fn != nil {
		sub = func(ctx context.Context, args unsafe.Pointer) (Source, error) {
			var a A
			if args != nil {
				a = *(*A)(args)
			}
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
	d := b.rootObject("Subscription")
	d.add(name, opts, reflect.TypeFor[A](), newOf[A], reflect.TypeFor[R](), boxed, direct, fn == nil)
	d.fields[len(d.fields)-1].subscribe = sub
}
