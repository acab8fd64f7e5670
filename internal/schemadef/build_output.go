package schemadef

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"unsafe"
)

func named(t *Type) *TypeRef      { return &TypeRef{Kind: NamedRef, Named: t} }
func listOf(r *TypeRef) *TypeRef  { return &TypeRef{Kind: ListRef, OfType: r} }
func nonNull(r *TypeRef) *TypeRef { return &TypeRef{Kind: NonNullRef, OfType: r} }
func nullable(r *TypeRef) *TypeRef {
	if r.Kind == NonNullRef {
		return r.OfType
	}
	return r
}

// refFromString resolves a type reference written in SDL form.
func (bc *build) refFromString(s string) (*TypeRef, error) {
	p, ok := parseTypeString(s)
	if !ok {
		return nil, fmt.Errorf("%q is not a GraphQL type", s)
	}
	return bc.refFromParsed(p)
}

func (bc *build) refFromParsed(p *parsedRef) (*TypeRef, error) {
	var r *TypeRef
	if p.list != nil {
		inner, err := bc.refFromParsed(p.list)
		if err != nil {
			return nil, err
		}
		r = listOf(inner)
	} else {
		ti := bc.names[p.name]
		if ti == nil && p.name == "DateTime" {
			bc.dateTime()
			ti = bc.names[p.name]
		}
		if ti == nil && p.name == uploadScalar {
			if _, err := bc.upload(); err != nil {
				return nil, err
			}
			ti = bc.names[p.name]
		}
		if ti == nil {
			return nil, fmt.Errorf("unknown type %q", p.name)
		}
		r = named(ti.t)
	}
	if p.nonNull {
		r = nonNull(r)
	}
	return r, nil
}

// outputFor finds the GraphQL type of an output of Go type gt (given
// explicitly by override, else derived) and builds its Output tree.
func (bc *build) outputFor(gt reflect.Type, override string) (*TypeRef, *Output, error) {
	return bc.outputForItems(gt, override, false)
}

// outputForItems is outputFor; nonNullItems makes the items of every
// list level of a derived type non-null (NonNullItems).
func (bc *build) outputForItems(gt reflect.Type, override string, nonNullItems bool) (*TypeRef, *Output, error) {
	if gt == rawJSONType {
		return bc.rawOutput(override) // rawjson.go
	}
	var ref *TypeRef
	var err error
	switch {
	case override != "" && nonNullItems:
		return nil, nil, errors.New("NonNullItems and OfType together: write the item's nullability in the OfType type")
	case override != "":
		ref, err = bc.refFromString(override)
	default:
		ref, err = bc.deriveOut(gt)
		if err == nil && nonNullItems {
			var ok bool
			if ref, ok = withNonNullItems(ref); !ok {
				return nil, nil, fmt.Errorf("NonNullItems on Go type %s, which is not a list", gt)
			}
		}
	}
	if err != nil {
		return nil, nil, err
	}
	if !isOutputType(ref.NamedType()) {
		return nil, nil, fmt.Errorf("%s is an input type and cannot be a field type", ref.NamedType().Name)
	}
	out, err := bc.output(gt, ref)
	if err != nil {
		return nil, nil, err
	}
	return ref, out, nil
}

// withNonNullItems returns ref with the items of every list level
// non-null; ok is false when ref is not a list.
func withNonNullItems(ref *TypeRef) (out *TypeRef, ok bool) {
	switch ref.Kind {
	case NonNullRef:
		inner, ok := withNonNullItems(ref.OfType)
		return nonNull(inner), ok
	case ListRef:
		item, _ := withNonNullItems(ref.OfType)
		if item.Kind != NonNullRef {
			item = nonNull(item)
		}
		return listOf(item), true
	}
	return ref, false
}

func isOutputType(t *Type) bool { return t.Kind != InputObjectKind }

func unsupported(gt reflect.Type) error {
	return fmt.Errorf("unsupported Go type %s", gt)
}

// deriveOut derives the GraphQL type of an output of Go type gt:
// pointers and interfaces nullable, other values non-null, slices lists,
// structs objects (registered under the Go type name when not declared).
func (bc *build) deriveOut(gt reflect.Type) (*TypeRef, error) {
	if ti := bc.outByGo[gt]; ti != nil {
		if gt.Kind() == reflect.Interface {
			return named(ti.t), nil
		}
		return nonNull(named(ti.t)), nil
	}
	switch gt.Kind() {
	case reflect.Pointer:
		inner, err := bc.deriveOut(gt.Elem())
		if err != nil {
			return nil, err
		}
		return nullable(inner), nil
	case reflect.Chan, reflect.Slice, reflect.Array:
		if gt.Kind() == reflect.Chan && gt.ChanDir() != reflect.RecvDir {
			return nil, unsupported(gt)
		}
		inner, err := bc.deriveOut(gt.Elem())
		if err != nil {
			return nil, err
		}
		return nonNull(listOf(inner)), nil
	case reflect.Struct:
		if gt == timeType {
			return nonNull(named(bc.dateTime())), nil
		}
		if gt == uploadType {
			return nil, fmt.Errorf("Upload is an input-only scalar: a field cannot return schema.Upload")
		}
		ti, err := bc.autoObject(gt)
		if err != nil {
			return nil, err
		}
		return nonNull(named(ti.t)), nil
	case reflect.Interface:
		return nil, fmt.Errorf("Go interface type %s is not the Go type of an interface or union; declare it with schema.Interface or schema.Union, or give the field a type", gt)
	}
	if t := bc.builtinFor(gt); t != nil {
		return nonNull(named(t)), nil
	}
	return nil, unsupported(gt)
}

// builtinFor returns the built-in scalar a basic Go type maps to.
func (bc *build) builtinFor(gt reflect.Type) *Type {
	switch gt.Kind() {
	case reflect.String:
		if gt == idType {
			return bc.names["ID"].t
		}
		return bc.names["String"].t
	case reflect.Bool:
		return bc.names["Boolean"].t
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return bc.names["Int"].t
	case reflect.Float32, reflect.Float64:
		return bc.names["Float"].t
	}
	return nil
}

// autoObject registers a struct type met in an output position as an
// object type named after the Go type.
func (bc *build) autoObject(gt reflect.Type) (*typeInfo, error) {
	if gt.Name() == "" {
		return nil, fmt.Errorf("anonymous struct type %s cannot be an object type; use a named struct", gt)
	}
	if prev := bc.names[gt.Name()]; prev != nil {
		return nil, fmt.Errorf("Go type %s would be object type %q, but that name is taken; declare it with schema.Object", gt, gt.Name())
	}
	d := &objectDecl{name: gt.Name(), goType: gt, auto: true}
	ti := &typeInfo{t: &Type{Kind: ObjectKind, Name: gt.Name(), GoType: gt}, obj: d}
	bc.names[ti.t.Name] = ti
	bc.outByGo[gt] = ti
	bc.objects = append(bc.objects, ti)
	return ti, nil
}

// output builds the Output tree for a Go type at a position of GraphQL
// type ref, checking that the two fit.
func (bc *build) output(gt reflect.Type, ref *TypeRef) (*Output, error) {
	isNonNull := ref.Kind == NonNullRef
	ref = nullable(ref)
	if gt.Kind() == reflect.Pointer && bc.outByGo[gt] == nil {
		elem, err := bc.output(gt.Elem(), ref)
		if err != nil {
			return nil, err
		}
		elem.NonNull = isNonNull
		return &Output{Kind: OutPtr, NonNull: isNonNull, Elem: elem}, nil
	}
	if ref.Kind == ListRef && gt.Kind() == reflect.Chan && gt.ChanDir() == reflect.RecvDir {
		elem, err := bc.output(gt.Elem(), ref.OfType)
		if err != nil {
			return nil, err
		}
		return &Output{Kind: OutSource, NonNull: isNonNull, Elem: elem, ElemSize: gt.Elem().Size(), Recv: chanRecv(gt)}, nil
	}
	if ref.Kind == ListRef {
		if gt.Kind() != reflect.Slice && gt.Kind() != reflect.Array {
			return nil, fmt.Errorf("type %s does not fit Go type %s: a list needs a slice or array", ref, gt)
		}
		elem, err := bc.output(gt.Elem(), ref.OfType)
		if err != nil {
			return nil, err
		}
		out := &Output{Kind: OutList, NonNull: isNonNull, Elem: elem, ElemSize: gt.Elem().Size()}
		if gt.Kind() == reflect.Array {
			out.Array, out.Len = true, gt.Len()
		}
		return out, nil
	}
	t := ref.Named
	misfit := fmt.Errorf("type %s does not fit Go type %s", t.Name, gt)
	switch t.Kind {
	case ObjectKind:
		if ti := bc.outByGo[gt]; (ti == nil || ti.t != t) && !bc.sdlBindObject(t, gt) {
			return nil, misfit
		}
		return &Output{Kind: OutObject, NonNull: isNonNull, Type: t}, nil
	case InterfaceKind, UnionKind:
		if gt.Kind() == reflect.Struct {
			// A struct whose object type is one of the abstract type's
			// possible types: the concrete type is known statically.
			if ti := bc.outByGo[gt]; ti != nil && ti.t.Kind == ObjectKind && bc.possible(t, ti) {
				return &Output{Kind: OutObject, NonNull: isNonNull, Type: ti.t}, nil
			}
			return nil, misfit
		}
		if gt.Kind() != reflect.Interface {
			return nil, misfit
		}
		return &Output{Kind: OutAbstract, NonNull: isNonNull, Type: t, ResolveType: bc.resolveType(t, gt)}, nil
	case EnumKind, ScalarKind:
		w := bc.leafWriter(t, gt)
		if w == nil {
			return nil, misfit
		}
		return &Output{Kind: OutLeaf, NonNull: isNonNull, Type: t, WriteLeaf: w, Leaf: bc.leafKind(t, gt)}, nil
	}
	return nil, misfit
}

// possible reports whether the object obj is a possible type of the
// abstract type t, from the declarations (usable before linking ends).
func (bc *build) possible(t *Type, obj *typeInfo) bool {
	ti := bc.names[t.Name]
	if ti == nil || ti.abstract == nil || obj.obj == nil {
		return false
	}
	if ti.abstract.union {
		for _, m := range ti.abstract.members {
			if m == obj.t.Name {
				return true
			}
		}
		return false
	}
	for _, name := range obj.obj.opts.implements {
		if name == t.Name {
			return true
		}
	}
	return false
}

// resolveType returns the ResolveType function for values of Go interface
// type gt at a position of abstract type t.
func (bc *build) resolveType(t *Type, gt reflect.Type) func(ctx context.Context, p unsafe.Pointer) (*Type, unsafe.Pointer, error) {
	ti := bc.names[t.Name]
	info := ti.info
	read := func(p unsafe.Pointer) any { return reflect.NewAt(gt, p).Elem().Interface() }
	switch {
	case gt == ti.abstract.goType:
		read = ti.abstract.toAny
	case gt.NumMethod() == 0:
		read = func(p unsafe.Pointer) any { return *(*any)(p) }
	default:
		if other := bc.outByGo[gt]; other != nil && other.abstract != nil {
			read = other.abstract.toAny
		}
	}
	return func(ctx context.Context, p unsafe.Pointer) (*Type, unsafe.Pointer, error) {
		v := read(p)
		if v == nil {
			return nil, nil, nil
		}
		var c *concreteType
		if info.override != nil {
			name, err := info.override(ctx, v)
			if err != nil {
				return nil, nil, err
			}
			if c = info.byName[name]; c == nil {
				return nil, nil, fmt.Errorf("%s resolved to %q, which is not one of its possible types", t.Name, name)
			}
		} else if c = info.byGo[reflect.TypeOf(v)]; c == nil {
			return nil, nil, fmt.Errorf("no object type of %s is registered for Go type %T", t.Name, v)
		}
		ptr, ok := c.extract(v)
		if !ok {
			return nil, nil, fmt.Errorf("%s resolved to %q, but the value is a %T", t.Name, c.t.Name, v)
		}
		if ptr == nil {
			return nil, nil, nil
		}
		return c.t, ptr, nil
	}
}

// chanRecv returns the Recv function of a receive-only channel type ct.
// Items arrive over time, each after a wait, so the reflection of one
// receive costs nothing beside it.
func chanRecv(ct reflect.Type) func(ctx context.Context, p unsafe.Pointer) (unsafe.Pointer, bool, error) {
	et := ct.Elem()
	return func(ctx context.Context, p unsafe.Pointer) (unsafe.Pointer, bool, error) {
		ch := reflect.NewAt(ct, p).Elem()
		if ch.IsNil() {
			return nil, false, nil
		}
		cases := [2]reflect.SelectCase{
			{Dir: reflect.SelectRecv, Chan: ch},
			{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())},
		}
		chosen, v, ok := reflect.Select(cases[:])
		if chosen == 1 {
			return nil, false, ctx.Err()
		}
		if !ok {
			return nil, false, nil
		}
		item := reflect.New(et)
		item.Elem().Set(v)
		return item.UnsafePointer(), true, nil
	}
}
