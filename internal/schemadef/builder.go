package schemadef

import (
	"context"
	"reflect"
	"unsafe"

	"github.com/graftgql/graft/internal/validate"
)

// Builder collects type and field declarations and turns them into a
// *Schema with Build. Declarations may come in any order: a field may name
// a type that is declared later. A Builder is not safe for concurrent use.
type Builder struct {
	objects    []*objectDecl
	interfaces []*abstractDecl
	unions     []*abstractDecl
	enums      []*enumDecl
	inputs     []*inputDecl
	scalars    []*scalarDecl
	directives []*DirectiveDef // directive.go
	// docDirectives runs the directives documents apply
	// (docdirectives.go).
	docDirectives *DocumentDirectives

	query        *objectDecl
	mutation     *objectDecl
	subscription *objectDecl

	// errs holds mistakes found while declaring; Build reports them.
	errs []*BuildError
	// once records the keys of Once.
	once map[string]bool
	// constraints prints the validate tags of arguments and input fields
	// as @constraint directives (PrintConstraints).
	constraints bool
	// leafWriters are writers of Go types at positions of built-in
	// scalars (LeafWriter).
	leafWriters map[leafWriterKey]leafWriter
	// sdl holds the schema documents of a schema-first builder
	// (sdlbind.go).
	sdl *sdlDoc
	// supplied names the types and directives (as "@name") the builder
	// declares for its own features (Supplied).
	supplied map[string]bool
}

type leafWriterKey struct {
	scalar string
	goType reflect.Type
}

// New returns an empty Builder.
func New() *Builder {
	return &Builder{}
}

func (b *Builder) errorf(typeName, field, format string, args ...any) {
	b.errs = append(b.errs, newBuildError(typeName, field, format, args...))
}

// rootObject returns the builder's root object of the given name, creating
// it on first use.
func (b *Builder) rootObject(name string) *objectDecl {
	slot := &b.query
	switch name {
	case "Mutation":
		slot = &b.mutation
	case "Subscription":
		slot = &b.subscription
	}
	if *slot == nil {
		*slot = &objectDecl{name: name, goType: reflect.TypeFor[struct{}](), root: true}
		b.objects = append(b.objects, *slot)
	}
	return *slot
}

// objectDecl is an object type as declared.
type objectDecl struct {
	name   string
	goType reflect.Type
	opts   options
	root   bool
	auto   bool // registered because a field or list referred to its Go type

	// extract returns a pointer to the struct held by an interface value of
	// dynamic type *T or T (nil for a nil *T), and false for any other
	// dynamic type.
	extract func(v any) (unsafe.Pointer, bool)

	fields []*fieldDecl
}

// fieldDecl is a resolver field as declared with FieldFunc and friends, or
// an interface field declared with InterfaceType.Field.
type fieldDecl struct {
	name    string
	opts    options
	argType reflect.Type // nil when the field takes no arguments
	outType reflect.Type // the Go result type; nil for interface fields
	gqlType string       // interface fields: the declared type
	resolve Resolver
	// direct is set when the result is a Go pointer: it returns the
	// pointer itself (nil for null) instead of a pointer to a copy of it,
	// saving an allocation per call.
	direct  Resolver
	newArgs func() unsafe.Pointer // allocates a zero argument struct
	nilFunc bool                  // the declared Go function was nil
	batch   BatchResolver         // batch fields (BatchFieldFunc)
	// rawResolve and rawBatch resolve the field for a parent written
	// from raw JSON (RawFieldFunc, RawGroupFieldFunc): parent points to
	// a RawJSON.
	rawResolve Resolver
	rawBatch   BatchResolver
	// subscribe starts the event stream of a Subscription root field.
	subscribe Subscriber
}

// call is a resolver with its Go result type.
type call[R any] func(ctx context.Context, parent, args unsafe.Pointer) (R, error)

// compile returns the resolvers of a call: one returning a pointer to a
// heap copy of the result, and for pointer results one returning the
// pointer itself.
func compile[R any](fn call[R]) (boxed, direct Resolver) {
	boxed = func(ctx context.Context, parent, args unsafe.Pointer) (unsafe.Pointer, error) {
		r, err := fn(ctx, parent, args)
		if err != nil {
			return nil, err
		}
		return unsafe.Pointer(&r), nil
	}
	if reflect.TypeFor[R]().Kind() == reflect.Pointer {
		direct = func(ctx context.Context, parent, args unsafe.Pointer) (unsafe.Pointer, error) {
			r, err := fn(ctx, parent, args)
			if err != nil {
				return nil, err
			}
			return *(*unsafe.Pointer)(unsafe.Pointer(&r)), nil
		}
	}
	return boxed, direct
}

// add appends a resolver field to an object declaration.
func (d *objectDecl) add(name string, opts []Option, argType reflect.Type, newArgs func() unsafe.Pointer, outType reflect.Type, boxed, direct Resolver, nilFunc bool) {
	d.fields = append(d.fields, &fieldDecl{name: name, opts: collect(opts), argType: argType, newArgs: newArgs,
		outType: outType, resolve: boxed, direct: direct, nilFunc: nilFunc})
}

func newOf[A any]() unsafe.Pointer { return unsafe.Pointer(new(A)) }

// ObjectType is an object type declared with Object. FieldFunc and
// FieldFuncNoArgs add resolver fields to it.
type ObjectType[T any] struct {
	decl *objectDecl
}

// Name returns the GraphQL name of the object type.
func (o *ObjectType[T]) Name() string { return o.decl.name }

// Object declares an object type whose fields are derived from the
// exported fields of the Go struct T. Field names are the lowerCamel form of
// the Go names; a `graphql:"name"` tag renames a field and `graphql:"-"`
// skips it. The tags `description:".."`, `deprecated:"reason"` and
// `type:"[Character]"` give a description, a deprecation reason and an
// explicit GraphQL type (for example to make a non-pointer field nullable).
// Fields of embedded structs are promoted. Options: Description,
// Implements.
func Object[T any](b *Builder, name string, opts ...Option) *ObjectType[T] {
	gt := reflect.TypeFor[T]()
	d := &objectDecl{name: name, goType: gt, opts: collect(opts), extract: extractor[T]()}
	if gt.Kind() != reflect.Struct {
		b.errorf(name, "", "Object needs a struct type, got %s", gt)
	}
	b.objects = append(b.objects, d)
	return &ObjectType[T]{decl: d}
}

// extractor returns a function that finds the struct of type T inside an
// interface value holding a *T or a T.
func extractor[T any]() func(v any) (unsafe.Pointer, bool) {
	return func(v any) (unsafe.Pointer, bool) {
		switch x := v.(type) {
		case *T:
			return unsafe.Pointer(x), true
		case T:
			return unsafe.Pointer(&x), true
		}
		return nil, false
	}
}

// FieldFunc adds a resolver field with arguments to an object type. A is a
// struct whose exported fields are the arguments: tags `graphql:"name"`,
// `default:"<GraphQL literal>"`, `description:".."` and `deprecated:".."`;
// pointer fields are nullable arguments, other fields non-null. R is the
// result, mapped to a GraphQL type like a struct field (or given with the
// OfType option). A field named like one of T's struct fields replaces it.
// Options: Description, Deprecated, OfType, Cost, CostFn, Concurrent.
func FieldFunc[T, A, R any](obj *ObjectType[T], name string, fn func(context.Context, *T, A) (R, error), opts ...Option) {
	boxed, direct := compile(func(ctx context.Context, parent, args unsafe.Pointer) (R, error) {
		var a A
		if args != nil {
			a = *(*A)(args)
		}
		return fn(ctx, (*T)(parent), a)
	})
	obj.decl.add(name, opts, reflect.TypeFor[A](), newOf[A], reflect.TypeFor[R](), boxed, direct, fn == nil)
}

// FieldFuncNoArgs adds a resolver field without arguments to an object
// type. See FieldFunc.
func FieldFuncNoArgs[T, R any](obj *ObjectType[T], name string, fn func(context.Context, *T) (R, error), opts ...Option) {
	boxed, direct := compile(func(ctx context.Context, parent, _ unsafe.Pointer) (R, error) {
		return fn(ctx, (*T)(parent))
	})
	obj.decl.add(name, opts, nil, nil, reflect.TypeFor[R](), boxed, direct, fn == nil)
}

// Query adds a field with arguments to the Query type. See FieldFunc for
// the argument struct A and the result R.
func Query[A, R any](b *Builder, name string, fn func(context.Context, A) (R, error), opts ...Option) {
	rootField(b, "Query", name, fn, opts)
}

// QueryNoArgs adds a field without arguments to the Query type.
func QueryNoArgs[R any](b *Builder, name string, fn func(context.Context) (R, error), opts ...Option) {
	rootFieldNoArgs(b, "Query", name, fn, opts)
}

// Mutation adds a field with arguments to the Mutation type. Mutation
// fields run one after another, in the order of the operation.
func Mutation[A, R any](b *Builder, name string, fn func(context.Context, A) (R, error), opts ...Option) {
	rootField(b, "Mutation", name, fn, opts)
}

// MutationNoArgs adds a field without arguments to the Mutation type.
func MutationNoArgs[R any](b *Builder, name string, fn func(context.Context) (R, error), opts ...Option) {
	rootFieldNoArgs(b, "Mutation", name, fn, opts)
}

func rootField[A, R any](b *Builder, root, name string, fn func(context.Context, A) (R, error), opts []Option) {
	boxed, direct := compile(func(ctx context.Context, _, args unsafe.Pointer) (R, error) {
		var a A
		if args != nil {
			a = *(*A)(args)
		}
		return fn(ctx, a)
	})
	b.rootObject(root).add(name, opts, reflect.TypeFor[A](), newOf[A], reflect.TypeFor[R](), boxed, direct, fn == nil)
}

func rootFieldNoArgs[R any](b *Builder, root, name string, fn func(context.Context) (R, error), opts []Option) {
	boxed, direct := compile(func(ctx context.Context, _, _ unsafe.Pointer) (R, error) {
		return fn(ctx)
	})
	b.rootObject(root).add(name, opts, nil, nil, reflect.TypeFor[R](), boxed, direct, fn == nil)
}

// Errorf records a declaration mistake that Build reports as a
// *BuildError, for packages of this module that declare types for the
// application (see BuilderOf).
func (b *Builder) Errorf(typeName, field, format string, args ...any) {
	b.errorf(typeName, field, format, args...)
}

// Once reports whether key is new to the builder, recording it: a package
// that declares a type shared by several of its declarations (relay's
// PageInfo) declares it the first time only.
func (b *Builder) Once(key string) bool {
	if b.once == nil {
		b.once = map[string]bool{}
	}
	if b.once[key] {
		return false
	}
	b.once[key] = true
	return true
}

// PrintConstraints declares the @constraint directive and prints the
// validate tags of arguments and input fields as its applications in the
// schema's SDL.
func (b *Builder) PrintConstraints() {
	if b.constraints {
		return
	}
	b.constraints = true
	b.DeclareDirective(DirectiveDef{
		Name:        "constraint",
		Description: "Constraints the server checks on an argument or input field before anything runs.",
		Args:        validate.ConstraintDirectiveArgs,
		Locations:   []DirectiveLocation{LocationArgumentDefinition, LocationInputFieldDefinition},
	})
}

// LeafWriter makes values of Go type gt writable at positions of the
// built-in scalar named scalar (String, ID, ...) with w, which appends
// the JSON form of the value at p: relay writes a node's global id
// straight from the node, with no string built. w must not panic.
func (b *Builder) LeafWriter(scalar string, gt reflect.Type, w func(buf []byte, p unsafe.Pointer) ([]byte, error)) {
	if b.leafWriters == nil {
		b.leafWriters = map[leafWriterKey]leafWriter{}
	}
	b.leafWriters[leafWriterKey{scalar, gt}] = w
}
