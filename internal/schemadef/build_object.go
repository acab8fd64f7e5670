package schemadef

import (
	"reflect"
)

// structField is an exported field of a Go struct, with embedded structs
// flattened.
type structField struct {
	f      reflect.StructField
	offset uintptr
}

// structFields lists the exported fields of a struct, promoting the fields
// of embedded (non-pointer) structs.
func structFields(gt reflect.Type, base uintptr, typeName string, bc *build) []structField {
	var out []structField
	for i := 0; i < gt.NumField(); i++ {
		f := gt.Field(i)
		if f.Anonymous && f.Tag.Get("graphql") == "" {
			ft := f.Type
			if ft.Kind() == reflect.Struct {
				out = append(out, structFields(ft, base+f.Offset, typeName, bc)...)
				continue
			}
			if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
				if f.IsExported() || hasExported(ft.Elem()) {
					bc.errorf(typeName, f.Name, "embedded pointer %s is not supported; embed the struct or tag the field graphql:\"-\"", ft)
				}
				continue
			}
		}
		if !f.IsExported() || f.Tag.Get("graphql") == "-" {
			continue
		}
		out = append(out, structField{f: f, offset: base + f.Offset})
	}
	return out
}

func hasExported(gt reflect.Type) bool {
	for i := 0; i < gt.NumField(); i++ {
		if gt.Field(i).IsExported() {
			return true
		}
	}
	return false
}

// fieldName is the GraphQL name of a struct field.
func fieldName(f reflect.StructField) string {
	if tag := f.Tag.Get("graphql"); tag != "" {
		return tag
	}
	return lowerCamel(f.Name)
}

// buildObject builds the fields of an object type.
func (bc *build) buildObject(ti *typeInfo) {
	t, d := ti.t, ti.obj
	t.fieldIndex = map[string]*Field{}
	if !d.root && d.goType.Kind() == reflect.Struct {
		for _, sf := range structFields(d.goType, 0, t.Name, bc) {
			if bc.sdlSkipStructField(t, d, fieldName(sf.f)) {
				continue
			}
			f := bc.structOutputField(t, sf, d.opts.onFields)
			if f == nil {
				continue
			}
			if t.fieldIndex[f.Name] != nil {
				bc.errorf(t.Name, f.Name, "duplicate field name %q", f.Name)
				continue
			}
			t.Fields = append(t.Fields, f)
			t.fieldIndex[f.Name] = f
		}
	}
	declared := map[string]bool{}
	for _, fd := range d.fields {
		if declared[fd.name] {
			bc.errorf(t.Name, fd.name, "duplicate field name %q", fd.name)
			continue
		}
		declared[fd.name] = true
		f := bc.resolverField(t, fd)
		if f == nil {
			continue
		}
		if old := t.fieldIndex[f.Name]; old != nil {
			// A resolver field replaces the struct field of the same name.
			for i := range t.Fields {
				if t.Fields[i] == old {
					t.Fields[i] = f
				}
			}
		} else {
			t.Fields = append(t.Fields, f)
		}
		t.fieldIndex[f.Name] = f
	}
	if len(t.Fields) == 0 {
		bc.errorf(t.Name, "", "an object type needs at least one field")
	}
}

// structOutputField builds the field of a plain struct field. Its type is
// given by an OfType option applied with OnField, else by its type tag,
// else derived from its Go type.
func (bc *build) structOutputField(t *Type, sf structField, onFields map[string][]Option) *Field {
	f := &Field{
		Name:        fieldName(sf.f),
		Description: sf.f.Tag.Get("description"),
		Offset:      sf.offset,
	}
	if reason, ok := sf.f.Tag.Lookup("deprecated"); ok {
		f.Deprecated, f.DeprecationReason = true, deprecationReason(reason)
	}
	if !validName(f.Name) || len(f.Name) > 1 && f.Name[:2] == "__" {
		bc.errorf(t.Name, f.Name, "%q is not a valid field name", f.Name)
		return nil
	}
	override := sf.f.Tag.Get("type")
	if typ := collect(onFields[f.Name]).typ; typ != "" {
		override = typ
	}
	if override == "" {
		override = bc.sdlFieldType(t.Name, f.Name)
	}
	ref, out, err := bc.outputFor(sf.f.Type, override)
	if err != nil {
		bc.errorf(t.Name, f.Name, "%v", err)
		return nil
	}
	f.Type, f.Out = ref, out
	f.value = valueType{t: sf.f.Type}
	return f
}

// resolverField builds a field declared with FieldFunc and friends.
func (bc *build) resolverField(t *Type, fd *fieldDecl) *Field {
	f := &Field{
		Name:              fd.name,
		Description:       fd.opts.description,
		Deprecated:        fd.opts.isDeprecated,
		DeprecationReason: fd.opts.deprecated,
		Cost:              fd.opts.cost,
		Page:              fd.opts.page,
		Concurrent:        fd.opts.concurrent,
		Resolve:           fd.resolve,
		Batch:             fd.batch,
		RawResolve:        fd.rawResolve,
		RawBatch:          fd.rawBatch,
		Subscribe:         fd.subscribe,
		Directives:        fd.opts.directives,
	}
	if !validName(f.Name) || len(f.Name) > 1 && f.Name[:2] == "__" {
		bc.errorf(t.Name, f.Name, "%q is not a valid field name", f.Name)
		return nil
	}
	if fd.nilFunc {
		bc.errorf(t.Name, f.Name, "the resolver function is nil")
		return nil
	}
	typ, nonNullItems := fd.opts.typ, fd.opts.nonNullItems
	if bc.sdl != nil {
		if bc.sdl.field(t.Name, f.Name) == nil {
			bc.errorf(t.Name, f.Name, "a resolver for a field the SDL does not define")
			return nil
		}
		if typ == "" {
			// The document gives the type, item nullability included.
			typ, nonNullItems = bc.sdlFieldType(t.Name, f.Name), false
		}
	}
	ref, out, err := bc.outputForItems(fd.outType, typ, nonNullItems)
	if err != nil {
		bc.errorf(t.Name, f.Name, "%v", err)
		return nil
	}
	f.Type, f.Out = ref, out
	f.value = valueType{t: fd.outType}
	if fd.direct != nil && fd.batch == nil && out.Kind == OutPtr {
		// The resolver returns the pointer itself; nil is null.
		f.Resolve, f.Out = fd.direct, out.Elem
		f.value.direct = true
	}
	if fd.argType != nil {
		args, newArgs, ok := bc.argsFor(t.Name, f.Name, fd.argType, fd.newArgs)
		if !ok {
			return nil
		}
		f.Args, f.NewArgs = args, newArgs
	}
	return f
}
