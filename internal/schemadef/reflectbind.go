package schemadef

import (
	"context"
	"reflect"
	"slices"
	"unsafe"
)

// This file declares object types and resolver fields from reflect.Type
// values, for binders that find their Go types at run time (a gqlgen
// project's resolver structs) rather than through generic functions. The
// Go function behind a field is called through reflection; everything else
// at request time is as for the generic declarations.

// ObjectOf declares the object type name whose Go type is the struct gt,
// as Object does for a type parameter. Declaring the same name again is a
// no-op.
func (b *Builder) ObjectOf(name string, gt reflect.Type, opts ...Option) {
	if gt.Kind() != reflect.Struct {
		b.errorf(name, "", "ObjectOf needs a struct type, got %s", gt)
		return
	}
	for _, d := range b.objects {
		if d.name == name && !d.root {
			return
		}
	}
	b.objects = append(b.objects, &objectDecl{name: name, goType: gt, opts: collect(opts), extract: reflectExtractor(gt)})
}

// ReflectCall is the Go function of a field declared with FieldOf: parent
// points to the parent struct (nil for a root field), args to the
// argument struct (nil when the field takes none); it returns the result,
// a value of the field's Go result type.
type ReflectCall func(ctx context.Context, parent, args unsafe.Pointer) (reflect.Value, error)

// FieldOf adds a resolver field to the object type typeName, declared
// with ObjectOf or Object, or to a root type named by its role ("Query",
// "Mutation"). argType is its argument struct (nil for none), following
// the rules of FieldFunc's A; outType is the Go type of its result.
func (b *Builder) FieldOf(typeName, name string, argType, outType reflect.Type, call ReflectCall, opts ...Option) {
	var d *objectDecl
	switch typeName {
	case "Query", "Mutation", "Subscription":
		d = b.rootObject(typeName)
	default:
		for _, o := range b.objects {
			if o.name == typeName && !o.root {
				d = o
			}
		}
	}
	if d == nil {
		b.errorf(typeName, name, "FieldOf on a type not declared with ObjectOf")
		return
	}
	boxed := func(ctx context.Context, parent, args unsafe.Pointer) (unsafe.Pointer, error) {
		v, err := call(ctx, parent, args)
		if err != nil {
			return nil, err
		}
		p := reflect.New(outType)
		if v.IsValid() {
			p.Elem().Set(v)
		}
		return p.UnsafePointer(), nil
	}
	var direct Resolver
	if outType.Kind() == reflect.Pointer {
		direct = func(ctx context.Context, parent, args unsafe.Pointer) (unsafe.Pointer, error) {
			v, err := call(ctx, parent, args)
			if err != nil || !v.IsValid() {
				return nil, err
			}
			return v.UnsafePointer(), nil
		}
	}
	var newArgs func() unsafe.Pointer
	if argType != nil {
		newArgs = func() unsafe.Pointer { return reflect.New(argType).UnsafePointer() }
	}
	d.add(name, opts, argType, newArgs, outType, boxed, direct, call == nil)
}

// HasField reports whether a resolver field name is declared on the
// object type typeName (a root type by its role, "Query"), so that a
// binder adds its own binding only where the application gave none.
func (b *Builder) HasField(typeName, name string) bool {
	var d *objectDecl
	switch typeName {
	case "Query":
		d = b.query
	case "Mutation":
		d = b.mutation
	case "Subscription":
		d = b.subscription
	default:
		for _, o := range b.objects {
			if o.name == typeName && !o.root {
				d = o
			}
		}
	}
	return d != nil && slices.ContainsFunc(d.fields, func(fd *fieldDecl) bool { return fd.name == name })
}

// InterfaceOf declares the interface type name whose Go type is the Go
// interface gt, as Interface does for a type parameter; union declares a
// union instead (UnionOf). Declaring the same name again is a no-op.
func (b *Builder) InterfaceOf(name string, gt reflect.Type) { b.abstractOf(name, gt, false) }

// UnionOf declares the union type name whose Go type is the Go interface
// gt; its members come from the schema document (Builder.SDL).
func (b *Builder) UnionOf(name string, gt reflect.Type) { b.abstractOf(name, gt, true) }

func (b *Builder) abstractOf(name string, gt reflect.Type, union bool) {
	if gt.Kind() != reflect.Interface {
		b.errorf(name, "", "a Go interface type is needed, got %s", gt)
		return
	}
	list := &b.interfaces
	if union {
		list = &b.unions
	}
	if findAbstract(*list, name) != nil {
		return
	}
	*list = append(*list, &abstractDecl{name: name, goType: gt, union: union,
		toAny: func(p unsafe.Pointer) any { return reflect.NewAt(gt, p).Elem().Interface() }})
}

// SubscriptionOf adds a field to the Subscription type whose events are
// values of Go type eventType, as Subscription does for type parameters:
// open starts one subscriber's stream and returns the receiving channel
// (a reflect.Value of kind Chan whose elements are eventType values).
// argType is the argument struct (nil for none). Events are received
// through reflection.
func (b *Builder) SubscriptionOf(name string, argType, eventType reflect.Type, open func(ctx context.Context, args unsafe.Pointer) (reflect.Value, error), opts ...Option) {
	boxed := func(_ context.Context, parent, _ unsafe.Pointer) (unsafe.Pointer, error) {
		return parent, nil // the event, a heap copy made by Next
	}
	var direct Resolver
	if eventType.Kind() == reflect.Pointer {
		direct = func(_ context.Context, parent, _ unsafe.Pointer) (unsafe.Pointer, error) {
			return *(*unsafe.Pointer)(parent), nil
		}
	}
	var sub Subscriber
	if open != nil {
		sub = func(ctx context.Context, args unsafe.Pointer) (Source, error) {
			ch, err := open(ctx, args)
			if err != nil {
				return Source{}, err
			}
			if !ch.IsValid() || ch.Kind() != reflect.Chan || ch.IsNil() {
				return Source{}, errNilStream
			}
			cases := []reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: ch}, {Dir: reflect.SelectRecv}}
			return Source{Next: func(ctx context.Context) (unsafe.Pointer, bool) {
				cases[1].Chan = reflect.ValueOf(ctx.Done())
				chosen, v, ok := reflect.Select(cases)
				if chosen != 0 || !ok {
					return nil, false
				}
				p := reflect.New(eventType)
				p.Elem().Set(v)
				return p.UnsafePointer(), true
			}}, nil
		}
	}
	var newArgs func() unsafe.Pointer
	if argType != nil {
		newArgs = func() unsafe.Pointer { return reflect.New(argType).UnsafePointer() }
	}
	d := b.rootObject("Subscription")
	d.add(name, opts, argType, newArgs, eventType, boxed, direct, open == nil)
	d.fields[len(d.fields)-1].subscribe = sub
}

// ScalarOf declares the custom scalar name whose Go type is gt, written
// by appendJSON (which appends the JSON form of the value at p) and read
// by parse (which stores the coerced input value v at p), for binders
// that find a scalar's methods by reflection. Declaring the same name
// again is a no-op.
func (b *Builder) ScalarOf(name string, gt reflect.Type, appendJSON func(buf []byte, p unsafe.Pointer) ([]byte, error), parse func(p unsafe.Pointer, v any) error) {
	for _, d := range b.scalars {
		if d.name == name {
			return
		}
	}
	d := &scalarDecl{name: name, goType: gt}
	d.write = func(buf []byte, p unsafe.Pointer) (out []byte, err error) {
		defer recoverWrite(name, buf, &out, &err)
		return appendJSON(buf, p)
	}
	d.read = func(p unsafe.Pointer, v any) (err error) {
		defer recoverRead(name, &err)
		return parse(p, v)
	}
	d.check = func(v any) error {
		return d.read(reflect.New(gt).UnsafePointer(), v)
	}
	b.scalars = append(b.scalars, d)
}
