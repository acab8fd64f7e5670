package schemadef

import (
	"context"
	"reflect"
	"unsafe"

	"github.com/vektah/gqlparser/v2/ast"
)

// This file holds the built schema model: the form a *Schema takes after
// Build. The executor (internal/exec) and the limits analysis read it; the
// builder is the only code that writes it. Everything here is immutable once
// Build returns, so one *Schema may serve any number of goroutines.

// Kind is the kind of a named GraphQL type.
type Kind uint8

// The kinds of named types.
const (
	ScalarKind Kind = iota + 1
	ObjectKind
	InterfaceKind
	UnionKind
	EnumKind
	InputObjectKind
)

// String returns the introspection name of the kind (OBJECT, SCALAR, ...).
func (k Kind) String() string {
	switch k {
	case ScalarKind:
		return "SCALAR"
	case ObjectKind:
		return "OBJECT"
	case InterfaceKind:
		return "INTERFACE"
	case UnionKind:
		return "UNION"
	case EnumKind:
		return "ENUM"
	case InputObjectKind:
		return "INPUT_OBJECT"
	}
	return "UNKNOWN"
}

// Type is a named GraphQL type of a built schema.
type Type struct {
	Kind           Kind
	Name           string
	Description    string
	SpecifiedByURL string // scalars only

	Fields        []*Field     // objects and interfaces, in declaration order
	Interfaces    []*Type      // objects and interfaces: the interfaces implemented
	PossibleTypes []*Type      // interfaces and unions: the object types, sorted by name
	EnumValues    []*EnumValue // enums, in declaration order
	InputFields   []*Argument  // input objects, in declaration order
	// Directives are the directives applied to an object type.
	Directives []AppliedDirective

	// GoType is the Go type the named type was derived from (the struct type
	// for objects and input objects, the named type for enums and scalars,
	// the Go interface type for interfaces and unions). Nil for the built-in
	// scalars.
	GoType reflect.Type

	// Extension marks a type printed as `extend type` in a subgraph SDL.
	Extension bool

	// RawTypeKey is, for interfaces and unions, the member of a RawJSON
	// object that names its concrete type; empty means "__typename".
	RawTypeKey string

	fieldIndex map[string]*Field
	checkInput func(v any) error // custom scalars and DateTime
}

// CheckInput reports why v, an input value (nil, bool, int64, float64,
// string, []any or map[string]any), is not a value of the scalar t: for a
// custom scalar, the error of its UnmarshalGraphQL; for DateTime, a value
// that is not an RFC 3339 string. It returns nil for every other type;
// the executor checks built-in scalars itself.
func (t *Type) CheckInput(v any) error {
	if t.checkInput == nil {
		return nil
	}
	return t.checkInput(v)
}

// Field returns the field with the given name, or nil.
func (t *Type) Field(name string) *Field {
	return t.fieldIndex[name]
}

// TypeRefKind says whether a TypeRef is a named type, a list or a non-null
// wrapper.
type TypeRefKind uint8

// The kinds of type references.
const (
	NamedRef TypeRefKind = iota
	ListRef
	NonNullRef
)

// TypeRef is a reference to a type as it appears on a field or argument:
// a named type, possibly wrapped in lists and non-null markers.
type TypeRef struct {
	Kind   TypeRefKind
	OfType *TypeRef // ListRef and NonNullRef
	Named  *Type    // NamedRef
}

// String prints the reference in SDL form, for example "[Character!]!".
func (r *TypeRef) String() string {
	switch r.Kind {
	case ListRef:
		return "[" + r.OfType.String() + "]"
	case NonNullRef:
		return r.OfType.String() + "!"
	}
	return r.Named.Name
}

// NamedType returns the named type at the bottom of the reference.
func (r *TypeRef) NamedType() *Type {
	for r.Kind != NamedRef {
		r = r.OfType
	}
	return r.Named
}

// Field is a field of an object or interface type.
type Field struct {
	Name              string
	Description       string
	Deprecated        bool
	DeprecationReason string
	Args              []*Argument
	Type              *TypeRef

	// Cost is the field's declared cost, or nil for the default (1 plus the
	// cost of its children). See CostFunc.
	Cost CostFunc
	// Page, when not nil, says the field returns one page of a list, and
	// the cost of its item fields is multiplied by the page size
	// (PageCost). It takes precedence over Cost.
	Page *Paging

	// Concurrent marks a resolver that may run in its own goroutine beside
	// its siblings and list neighbours.
	Concurrent bool

	// Directives are the directives applied to the field (directive.go).
	Directives []AppliedDirective

	// Resolve computes the field's Go value. It is nil for a plain struct
	// field, whose value lies at Offset bytes from the parent pointer.
	// parent points to the parent's Go struct; args is the pointer returned
	// by NewArgs (nil when the field takes no arguments). The returned
	// pointer points to the result value, described by Out; a nil pointer
	// is null. (A resolver whose Go result is a pointer returns that
	// pointer itself, and Out describes its target.)
	Resolve Resolver
	Offset  uintptr

	// Batch, when not nil, resolves the field for many parents in one
	// call (see BatchFieldFunc): results points to the first of
	// len(parents) values of size bytes each, described by Out; errs is
	// nil, one error per parent, or one error for all. Resolve then calls
	// it with a single parent.
	Batch BatchResolver
	// RawResolve and RawBatch, when set, resolve the field for a parent
	// object the executor writes from RawJSON: parent (each of parents)
	// points to a RawJSON holding the object's bytes (RawFieldFunc,
	// RawGroupFieldFunc). Resolve and Batch serve Go parents.
	RawResolve Resolver
	RawBatch   BatchResolver
	// Subscribe starts the event stream of a Subscription root field; nil
	// for every other field. Each event is then passed as the parent to
	// Resolve, which returns the field's value for that event.
	Subscribe Subscriber

	// NewArgs converts coerced argument values (the result of coercing the
	// query's literals and variables with defaults applied: nil, bool,
	// int64, float64, string, []any, map[string]any, enum values as their
	// names) into the resolver's argument struct. Nil when the field takes
	// no arguments.
	NewArgs func(values map[string]any) (unsafe.Pointer, error)

	// Out describes how the executor walks the Go value of the field.
	Out *Output

	value valueType // the Go type of Value and FromValue (fieldvalue.go)
}

// Resolver is a compiled field resolver. See Field.Resolve.
type Resolver func(ctx context.Context, parent unsafe.Pointer, args unsafe.Pointer) (unsafe.Pointer, error)

// CostFunc computes the cost of one selection of a field from its coerced
// argument values (defaults applied) and the summed cost of its selected
// children. The default cost is 1 + childCost.
type CostFunc func(args map[string]any, childCost int) int

// Argument is a field argument or an input-object field.
type Argument struct {
	Name              string
	Description       string
	Type              *TypeRef
	DefaultValue      *ast.Value // nil when there is no default
	Deprecated        bool
	DeprecationReason string
	// Directives are printed after the argument in the SDL: @constraint
	// with Builder.PrintConstraints.
	Directives []AppliedDirective
}

// EnumValue is one value of an enum type.
type EnumValue struct {
	Name              string
	Description       string
	Deprecated        bool
	DeprecationReason string
}

// OutKind is the kind of an Output node.
type OutKind uint8

// The kinds of output nodes.
const (
	// OutLeaf is a scalar or enum value written by Output.WriteLeaf.
	OutLeaf OutKind = iota + 1
	// OutObject is a Go struct of the object type Output.Type; the pointer
	// points to the struct itself.
	OutObject
	// OutAbstract is a Go interface value of an interface or union type;
	// Output.ResolveType finds the concrete object.
	OutAbstract
	// OutList is a Go slice (or array) whose elements are described by Elem.
	OutList
	// OutPtr is a Go pointer; nil means null, else the pointee is
	// described by Elem.
	OutPtr
)

// OutSource is a Go receive-only channel at a list position: the list's
// items, described by Elem, are received one by one with Output.Recv
// until the channel is closed, so a @stream field can send each item as
// soon as it exists. A nil channel is an empty list.
const OutSource = OutRaw + 1

// LeafKind names the built-in leaf writers the executor may inline.
type LeafKind uint8

// The inlined leaf writers.
const (
	// LeafOther is any other writer: call WriteLeaf.
	LeafOther LeafKind = iota
	// LeafString is a Go string kind written as a JSON string (String, ID).
	LeafString
	// LeafInt is a Go int written as a GraphQL Int: a value outside 32
	// bits is an error.
	LeafInt
	// LeafBool is a Go bool.
	LeafBool
)

// Output describes a Go value at one position of a field's GraphQL type:
// how to read it from memory, and whether a null there violates a non-null
// type. The executor walks it with unsafe pointers, so no reflection runs
// while a query executes.
type Output struct {
	Kind OutKind

	// NonNull is set when the GraphQL type at this position is non-null.
	// On an OutPtr node it applies to the pointee's position as well.
	NonNull bool

	// Elem describes the elements of a list or the target of a pointer.
	Elem *Output
	// ElemSize is the size in bytes of one list element (OutList).
	ElemSize uintptr
	// Array is set for a Go array of Len elements rather than a slice.
	Array bool
	Len   int

	// Type is the named GraphQL type (leaves, objects and abstract types).
	Type *Type

	// WriteLeaf appends the JSON form of the scalar or enum value at p to
	// buf. An error (an integer outside 32 bits, an undeclared enum value,
	// a custom scalar that fails to marshal) becomes a field error.
	WriteLeaf func(buf []byte, p unsafe.Pointer) ([]byte, error)
	// Leaf says which built-in writer WriteLeaf is, so the executor may
	// write the commonest leaves without calling it; LeafOther for any
	// other writer.
	Leaf LeafKind

	// ResolveType returns the concrete object type of the Go interface
	// value at p and a pointer to its struct, or (nil, nil, nil) when the
	// interface value is nil.
	ResolveType func(ctx context.Context, p unsafe.Pointer) (*Type, unsafe.Pointer, error)

	// Recv receives the next item of the channel at p (OutSource): a
	// pointer to a copy of the item, or ok false once the channel is
	// closed (or nil). When ctx ends first it returns ctx's error.
	Recv func(ctx context.Context, p unsafe.Pointer) (item unsafe.Pointer, ok bool, err error)
}
