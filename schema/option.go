package schema

import (
	"context"

	"github.com/graftgql/graft/internal/schemadef"
)

// Option configures a type, field, argument or enum declaration; build one
// with Description, Deprecated, Cost, CostFn, Concurrent, OfType, Arg,
// Default, ResolveTypeFunc, Implements, SpecifiedBy, RawTypeKey,
// Directive, OnField, CacheControl or Extension. Options that do not apply
// to a declaration are ignored.
type Option = schemadef.Option

// CostFunc computes the cost of one selection of a field from its coerced
// argument values (defaults applied) and the summed cost of its selected
// children. The default cost is 1 + childCost. See CostFn.
type CostFunc func(args map[string]any, childCost int) int

// Description sets the description of a type, field, argument or enum
// value.
func Description(s string) Option { return schemadef.Description(s) }

// Deprecated marks a field, argument, input field or enum value as
// deprecated with the given reason ("No longer supported" when empty).
func Deprecated(reason string) Option { return schemadef.Deprecated(reason) }

// Cost declares the cost of a field for the complexity limit: n plus the
// cost of its selected children (the default is 1 plus the children).
func Cost(n int) Option { return schemadef.Cost(n) }

// CostFn declares the cost of a field as a function of its coerced
// arguments and the cost of its selected children, so that a page size can
// multiply the cost of the page.
func CostFn(fn CostFunc) Option { return schemadef.CostFn(schemadef.CostFunc(fn)) }

// Concurrent lets the executor run the field's resolver in its own
// goroutine beside its siblings and list neighbours.
func Concurrent() Option { return schemadef.Concurrent() }

// NonNullItems makes the items of a resolver field's list type non-null
// without a type string: a resolver returning []*Book gives [Book!]!
// rather than [Book]!, and [][]*Book gives [[Book!]!]!. A nil item is then
// a field error that nulls the nearest nullable parent. It cannot be
// combined with OfType; a struct field says the same with its type tag
// (`type:"[Book!]!"`).
func NonNullItems() Option { return schemadef.NonNullItems() }

// OfType gives the GraphQL type of a field explicitly, for example
// "[Character]" for a Go slice whose list and items are nullable. The type
// must fit the Go type: the same list nesting and a named type that the Go
// type can be written as.
func OfType(gqlType string) Option { return schemadef.OfType(gqlType) }

// Arg declares an argument of an interface field: its name, its GraphQL
// type, and options Description, Deprecated and Default.
func Arg(name, gqlType string, opts ...Option) Option { return schemadef.Arg(name, gqlType, opts...) }

// Default gives the default value of an argument declared with Arg, as a
// GraphQL literal such as `10`, `"x"`, `JEDI` or `{first: 5}`.
func Default(literal string) Option { return schemadef.Default(literal) }

// ResolveTypeFunc overrides how an interface or union finds the concrete
// object type of a value: fn returns the name of the object type. By
// default the Go dynamic type of the value decides.
func ResolveTypeFunc(fn func(ctx context.Context, v any) (string, error)) Option {
	return schemadef.ResolveTypeFunc(fn)
}

// Implements declares that an object type or interface implements the
// named interfaces.
func Implements(interfaces ...string) Option { return schemadef.Implements(interfaces...) }

// SpecifiedBy sets the specifiedByURL of a custom scalar.
func SpecifiedBy(url string) Option { return schemadef.SpecifiedBy(url) }

// Paging describes a field that returns one page of a list, such as a
// Relay connection, for the complexity analysis: SizeArgs are the
// arguments that give the page size, the first one given counting
// ("first", "last"); ItemFields are the fields of the result paid once
// per item ("edges", "nodes"); DefaultSize is the size of a page when no
// size argument is given; MaxSize caps the size (0: no cap), as the
// resolver should.
type Paging = schemadef.Paging

// PageCost declares the cost of a field that returns one page of a list:
// 1, plus the page size times the cost of what is selected under the item
// fields, plus the cost of the other selected fields (pageInfo,
// totalCount) once. So books(first: 50) { edges { node { title } }
// totalCount } costs 1 + 50×3 + 1 (edges, node and title cost 1 each by
// default). It takes precedence over Cost and
// CostFn. Package relay declares it on connection fields.
func PageCost(p Paging) Option { return schemadef.PageCost(p) }
