package schemadef

import "context"

// Option configures a type, field, argument or enum declaration. Options
// that do not apply to a declaration are ignored.
type Option func(*options)

type options struct {
	description  string
	deprecated   string
	isDeprecated bool
	cost         CostFunc
	page         *Paging
	concurrent   bool
	typ          string
	nonNullItems bool
	args         []argDecl
	defaultLit   string
	hasDefault   bool
	resolveType  func(ctx context.Context, v any) (string, error)
	implements   []string
	specifiedBy  string

	onFields   map[string][]Option // OnField
	extension  bool                // Extension
	rawTypeKey string              // RawTypeKey (rawjson.go)
	directives []AppliedDirective  // directive.go
}

// argDecl is an argument declared with the Arg option (interface fields).
type argDecl struct {
	name    string
	gqlType string
	opts    options
}

func collect(opts []Option) options {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// Description sets the description of a type, field, argument or enum
// value.
func Description(s string) Option {
	return func(o *options) { o.description = s }
}

// Deprecated marks a field, argument, input field or enum value as
// deprecated with the given reason (DefaultDeprecationReason when empty).
func Deprecated(reason string) Option {
	return func(o *options) { o.deprecated, o.isDeprecated = deprecationReason(reason), true }
}

// DefaultDeprecationReason is the reason GraphQL gives a deprecation that
// names none.
const DefaultDeprecationReason = "No longer supported"

func deprecationReason(reason string) string {
	if reason == "" {
		return DefaultDeprecationReason
	}
	return reason
}

// Cost declares the cost of a field for the complexity limit: n plus the
// cost of its selected children (the default is 1 plus the children).
func Cost(n int) Option {
	return func(o *options) {
		o.cost = func(_ map[string]any, childCost int) int { return n + childCost }
	}
}

// CostFn declares the cost of a field as a function of its coerced
// arguments and the cost of its selected children, so that a page size can
// multiply the cost of the page.
func CostFn(fn CostFunc) Option {
	return func(o *options) { o.cost = fn }
}

// Concurrent lets the executor run the field's resolver in its own
// goroutine beside its siblings and list neighbours.
func Concurrent() Option {
	return func(o *options) { o.concurrent = true }
}

// NonNullItems makes the items of a field's list type non-null: a
// resolver returning []*Book gives [Book!]! rather than [Book]!, with no
// type string. A nil item is then a field error that nulls the list (or
// its nearest nullable parent), as for any non-null position.
func NonNullItems() Option {
	return func(o *options) { o.nonNullItems = true }
}

// OfType gives the GraphQL type of a field explicitly, for example
// "[Character]" for a Go slice whose list and items are nullable. The type
// must fit the Go type: the same list nesting and a named type that the Go
// type can be written as.
func OfType(gqlType string) Option {
	return func(o *options) { o.typ = gqlType }
}

// Arg declares an argument of an interface field: its name, its GraphQL
// type, and options Description, Deprecated and Default.
func Arg(name, gqlType string, opts ...Option) Option {
	return func(o *options) {
		o.args = append(o.args, argDecl{name: name, gqlType: gqlType, opts: collect(opts)})
	}
}

// Default gives the default value of an argument declared with Arg, as a
// GraphQL literal such as `10`, `"x"`, `JEDI` or `{first: 5}`.
func Default(literal string) Option {
	return func(o *options) { o.defaultLit, o.hasDefault = literal, true }
}

// ResolveTypeFunc overrides how an interface or union finds the concrete
// object type of a value: fn returns the name of the object type. By
// default the Go dynamic type of the value decides.
func ResolveTypeFunc(fn func(ctx context.Context, v any) (string, error)) Option {
	return func(o *options) { o.resolveType = fn }
}

// Implements declares that an object type or interface implements the
// named interfaces.
func Implements(interfaces ...string) Option {
	return func(o *options) { o.implements = append(o.implements, interfaces...) }
}

// SpecifiedBy sets the specifiedByURL of a custom scalar.
func SpecifiedBy(url string) Option {
	return func(o *options) { o.specifiedBy = url }
}
