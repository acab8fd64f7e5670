package schemadef

import (
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// linkInterfaces connects object types and interfaces to the interfaces
// they declare.
func (bc *build) linkInterfaces() {
	for _, ti := range bc.objects {
		bc.link(ti.t, ti.obj.opts.implements)
	}
	for _, d := range bc.b.interfaces {
		if ti := bc.names[d.name]; ti != nil && ti.abstract == d {
			bc.link(ti.t, d.opts.implements)
		}
	}
}

func (bc *build) link(t *Type, names []string) {
	for _, name := range names {
		it := bc.names[name]
		switch {
		case it == nil:
			bc.errorf(t.Name, "", "implements unknown interface %q", name)
			continue
		case it.t.Kind != InterfaceKind:
			bc.errorf(t.Name, "", "implements %q, which is not an interface", name)
			continue
		case it.t == t:
			bc.errorf(t.Name, "", "an interface cannot implement itself")
			continue
		case slices.Contains(t.Interfaces, it.t):
			bc.errorf(t.Name, "", "implements %q twice", name)
			continue
		}
		t.Interfaces = append(t.Interfaces, it.t)
		if t.Kind == ObjectKind {
			it.t.PossibleTypes = append(it.t.PossibleTypes, t)
		}
	}
}

// buildAbstracts builds interface fields and union members.
func (bc *build) buildAbstracts() {
	for _, list := range [][]*abstractDecl{bc.b.interfaces, bc.b.unions} {
		for _, d := range list {
			ti := bc.names[d.name]
			if ti == nil || ti.abstract != d {
				continue // a duplicate name, already reported
			}
			if d.union {
				bc.buildUnion(ti)
			} else {
				bc.buildInterface(ti)
			}
		}
	}
}

func (bc *build) buildInterface(ti *typeInfo) {
	t := ti.t
	t.fieldIndex = map[string]*Field{}
	for _, fd := range ti.abstract.fields {
		if !validName(fd.name) || strings.HasPrefix(fd.name, "__") {
			bc.errorf(t.Name, fd.name, "%q is not a valid field name", fd.name)
			continue
		}
		if t.fieldIndex[fd.name] != nil {
			bc.errorf(t.Name, fd.name, "duplicate field name %q", fd.name)
			continue
		}
		ref, err := bc.refFromString(fd.gqlType)
		if err != nil {
			bc.errorf(t.Name, fd.name, "%v", err)
			continue
		}
		if !isOutputType(ref.NamedType()) {
			bc.errorf(t.Name, fd.name, "%s is an input type and cannot be a field type", ref.NamedType().Name)
			continue
		}
		f := &Field{Name: fd.name, Description: fd.opts.description, Type: ref,
			Deprecated: fd.opts.isDeprecated, DeprecationReason: fd.opts.deprecated, Cost: fd.opts.cost, Page: fd.opts.page}
		for _, ad := range fd.opts.args {
			where := fd.name + "(" + ad.name + ")"
			if !validName(ad.name) {
				bc.errorf(t.Name, where, "%q is not a valid argument name", ad.name)
				continue
			}
			aref, err := bc.refFromString(ad.gqlType)
			if err != nil {
				bc.errorf(t.Name, where, "%v", err)
				continue
			}
			a := &Argument{Name: ad.name, Description: ad.opts.description, Type: aref,
				Deprecated: ad.opts.isDeprecated, DeprecationReason: ad.opts.deprecated}
			if ad.opts.hasDefault {
				v, err := parseLiteral(ad.opts.defaultLit)
				if err != nil {
					bc.errorf(t.Name, where, "default %q is not a GraphQL literal: %v", ad.opts.defaultLit, err)
					continue
				}
				a.DefaultValue = v
				bc.checkDefault(t.Name, where, ad.opts.defaultLit, v, aref)
			}
			f.Args = append(f.Args, a)
		}
		t.Fields = append(t.Fields, f)
		t.fieldIndex[f.Name] = f
	}
	if len(t.Fields) == 0 {
		bc.errorf(t.Name, "", "an interface needs at least one field; declare them with Field")
	}
}

func (bc *build) buildUnion(ti *typeInfo) {
	t := ti.t
	for _, name := range ti.abstract.members {
		m := bc.names[name]
		switch {
		case m == nil:
			bc.errorf(t.Name, "", "unknown member type %q", name)
		case m.t.Kind != ObjectKind:
			bc.errorf(t.Name, "", "member %q is not an object type", name)
		case slices.Contains(t.PossibleTypes, m.t):
			bc.errorf(t.Name, "", "member %q is listed twice", name)
		default:
			t.PossibleTypes = append(t.PossibleTypes, m.t)
		}
	}
	if len(ti.abstract.members) == 0 {
		bc.errorf(t.Name, "", "a union needs at least one member type")
	}
}

// checkImplementations checks that every interface is implemented and
// that each object has the fields of its interfaces with fitting types.
func (bc *build) checkImplementations() {
	for _, d := range bc.b.interfaces {
		ti := bc.names[d.name]
		if ti == nil || ti.abstract != d {
			continue
		}
		if len(ti.t.PossibleTypes) == 0 {
			bc.errorf(d.name, "", "interface has no implementations; add schema.Implements(%q) to an object type", d.name)
		}
		for _, obj := range ti.t.PossibleTypes {
			bc.checkImplements(obj, ti.t)
		}
		for _, super := range ti.t.Interfaces {
			bc.checkImplements(ti.t, super)
		}
	}
}

// checkTransitive checks that a type implementing an interface also
// declares the interfaces that one implements, as GraphQL requires.
func (bc *build) checkTransitive(t, iface *Type) {
	for _, super := range iface.Interfaces {
		if !slices.Contains(t.Interfaces, super) {
			bc.errorf(t.Name, "", "implements %s, so it must also implement %s", iface.Name, super.Name)
		}
	}
}

func (bc *build) checkImplements(obj, iface *Type) {
	bc.checkTransitive(obj, iface)
	for _, want := range iface.Fields {
		got := obj.Field(want.Name)
		if got == nil {
			bc.errorf(obj.Name, want.Name, "missing field %s of interface %s", want.Name, iface.Name)
			continue
		}
		if !bc.subtype(got.Type, want.Type) {
			bc.errorf(obj.Name, want.Name, "type %s does not fit type %s of interface %s", got.Type, want.Type, iface.Name)
		}
		for _, wa := range want.Args {
			var ga *Argument
			for _, a := range got.Args {
				if a.Name == wa.Name {
					ga = a
				}
			}
			if ga == nil || ga.Type.String() != wa.Type.String() {
				bc.errorf(obj.Name, want.Name, "needs argument %s: %s of interface %s", wa.Name, wa.Type, iface.Name)
			}
		}
		for _, ga := range got.Args {
			if ga.Type.Kind != NonNullRef || ga.DefaultValue != nil {
				continue
			}
			if !slices.ContainsFunc(want.Args, func(a *Argument) bool { return a.Name == ga.Name }) {
				bc.errorf(obj.Name, want.Name, "argument %s is required but not part of interface %s", ga.Name, iface.Name)
			}
		}
	}
}

// subtype reports whether a field of type got satisfies type want.
func (bc *build) subtype(got, want *TypeRef) bool {
	if want.Kind == NonNullRef {
		return got.Kind == NonNullRef && bc.subtype(got.OfType, want.OfType)
	}
	if got.Kind == NonNullRef {
		return bc.subtype(got.OfType, want)
	}
	if want.Kind == ListRef || got.Kind == ListRef {
		return want.Kind == ListRef && got.Kind == ListRef && bc.subtype(got.OfType, want.OfType)
	}
	if got.Named == want.Named {
		return true
	}
	return (want.Named.Kind == InterfaceKind || want.Named.Kind == UnionKind) &&
		slices.Contains(want.Named.PossibleTypes, got.Named)
}

// finishAbstracts sorts possible types and fills the tables ResolveType
// reads.
func (bc *build) finishAbstracts() {
	for _, ti := range bc.names {
		if ti.info == nil {
			continue
		}
		slices.SortFunc(ti.t.PossibleTypes, func(a, b *Type) int { return strings.Compare(a.Name, b.Name) })
		for _, pt := range ti.t.PossibleTypes {
			oi := bc.names[pt.Name]
			if oi.obj.goType == nil {
				continue // an object type of the SDL bound to no Go type, reported
			}
			extract := oi.obj.extract
			if extract == nil {
				extract = reflectExtractor(oi.obj.goType)
			}
			c := &concreteType{t: pt, extract: extract}
			ti.info.byName[pt.Name] = c
			ti.info.byGo[oi.obj.goType] = c
			ti.info.byGo[reflect.PointerTo(oi.obj.goType)] = c
		}
	}
}

// reflectExtractor is the extractor of an object type registered without
// generics (from a Go type met in a field).
func reflectExtractor(gt reflect.Type) func(v any) (unsafe.Pointer, bool) {
	pt := reflect.PointerTo(gt)
	return func(v any) (unsafe.Pointer, bool) {
		rv := reflect.ValueOf(v)
		switch rv.Type() {
		case pt:
			return rv.UnsafePointer(), true
		case gt:
			cp := reflect.New(gt)
			cp.Elem().Set(rv)
			return cp.UnsafePointer(), true
		}
		return nil, false
	}
}
