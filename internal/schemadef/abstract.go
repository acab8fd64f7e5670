package schemadef

import (
	"context"
	"reflect"
	"unsafe"
)

// abstractDecl is an interface or union type as declared.
type abstractDecl struct {
	name    string
	goType  reflect.Type
	opts    options
	union   bool
	members []string     // unions
	fields  []*fieldDecl // interfaces

	// toAny reads the Go interface value of type goType at p.
	toAny func(p unsafe.Pointer) any
}

// InterfaceType is an interface type declared with Interface. Its fields
// are declared with Field; object types join it with the Implements
// option.
type InterfaceType[I any] struct {
	decl *abstractDecl
}

// Name returns the GraphQL name of the interface.
func (it *InterfaceType[I]) Name() string { return it.decl.name }

// Field declares a field of the interface with its GraphQL type, for
// example "[Character]". Options: Description, Deprecated, Arg.
func (it *InterfaceType[I]) Field(name, gqlType string, opts ...Option) *InterfaceType[I] {
	it.decl.fields = append(it.decl.fields, &fieldDecl{name: name, gqlType: gqlType, opts: collect(opts)})
	return it
}

// Interface declares an interface type. I is the Go type of the values
// of fields of this type, usually a Go interface that the implementing
// structs (or pointers to them) satisfy. The concrete object type of a
// value is the object type registered with Object for its Go dynamic type
// (*T or T), unless the ResolveTypeFunc option decides. Options:
// Description, ResolveTypeFunc, Implements (an interface implementing
// other interfaces; its implementations must declare those as well).
func Interface[I any](b *Builder, name string, opts ...Option) *InterfaceType[I] {
	d := &abstractDecl{name: name, goType: reflect.TypeFor[I](), opts: collect(opts), toAny: toAny[I]}
	if d.goType.Kind() != reflect.Interface {
		b.errorf(name, "", "Interface needs a Go interface type, got %s", d.goType)
	}
	b.interfaces = append(b.interfaces, d)
	return &InterfaceType[I]{decl: d}
}

// Union declares a union of the named object types. U is the Go type of
// the values of fields of this type, usually a Go interface. The concrete
// object type is found as for Interface. Options: Description,
// ResolveTypeFunc.
func Union[U any](b *Builder, name string, members []string, opts ...Option) {
	d := &abstractDecl{name: name, goType: reflect.TypeFor[U](), opts: collect(opts), union: true,
		members: append([]string(nil), members...), toAny: toAny[U]}
	if d.goType.Kind() != reflect.Interface {
		b.errorf(name, "", "Union needs a Go interface type, got %s", d.goType)
	}
	b.unions = append(b.unions, d)
}

func toAny[I any](p unsafe.Pointer) any {
	return any(*(*I)(p))
}

// concreteType is an object type that values of an abstract type may have.
type concreteType struct {
	t       *Type
	extract func(v any) (unsafe.Pointer, bool)
}

// abstractInfo holds what ResolveType needs for one interface or union; it
// is filled at the end of Build and read-only afterwards.
type abstractInfo struct {
	t        *Type
	byGo     map[reflect.Type]*concreteType
	byName   map[string]*concreteType
	override func(ctx context.Context, v any) (string, error)
}
