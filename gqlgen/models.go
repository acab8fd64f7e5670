package gqlgen

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/internal/schemadef"
)

// fieldEntry is a `models: X: fields: f:` entry of gqlgen.yml, or the
// same given by @goField(name:, forceResolver:) in the schema.
type fieldEntry struct {
	Resolver  bool   `yaml:"resolver"`
	FieldName string `yaml:"fieldName"`
}

// modelTypes maps the schema's object types to the Go struct types the
// resolver methods reach: a resolver's parent and result types, and from
// them, the types of the model fields and methods that bind the object
// types' fields.
func modelTypes(doc *ast.Schema, root reflect.Value, fieldName func(typeName, field string) string) map[string]reflect.Type {
	types := map[string]reflect.Type{}
	var link func(name string, t reflect.Type)
	link = func(name string, t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Chan {
			t = t.Elem()
		}
		def := doc.Types[name]
		if def == nil || def.Kind != ast.Object || t.Kind() != reflect.Struct || types[name] != nil {
			return
		}
		types[name] = t
		for _, f := range def.Fields {
			if sf, ok := structField(t, f.Name, fieldName(name, f.Name)); ok {
				link(f.Type.Name(), sf.Type)
			}
			if m, ok := reflect.PointerTo(t).MethodByName(fieldName(name, f.Name)); ok && m.Type.NumOut() > 0 {
				link(f.Type.Name(), m.Type.Out(0))
			}
		}
	}
	typeResolvers(root, doc, func(def *ast.Definition, v reflect.Value) {
		for _, f := range def.Fields {
			method := v.MethodByName(goName(f.Name))
			if !method.IsValid() {
				continue
			}
			mt := method.Type()
			if mt.NumOut() > 0 {
				link(f.Type.Name(), mt.Out(0))
			}
			if mt.NumIn() > 1 && doc.Query != def && doc.Mutation != def && doc.Subscription != def {
				link(def.Name, mt.In(1))
			}
		}
	})
	return types
}

// structField finds the struct field of t bound to the GraphQL field
// name: the one tagged `graphql:"name"`, else the field goField (gqlgen's
// Go name of the field, or the name gqlgen.yml gives), else the field of
// that name in any case, as gqlgen matches.
func structField(t reflect.Type, name, goField string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("graphql"), ","); tag == name {
			return t.Field(i), true
		}
	}
	if sf, ok := t.FieldByName(goField); ok {
		return sf, true
	}
	return t.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, goField) })
}

// bindModelMethod declares the field f of the object type typeName, whose
// model is the struct gt, as a call of the model's method m: gqlgen's
// shapes `func (m *Model) F() R`, `F() (R, error)`, and the same with a
// leading context.Context, then the field's arguments in the order of the
// schema. It reports false when m's shape is none of these.
func bindModelMethod(sd *schemadef.Builder, doc *ast.Schema, typeName string, gt reflect.Type, f *ast.FieldDefinition, m reflect.Method) bool {
	mt := m.Type // receiver first
	first := 1
	withCtx := mt.NumIn() > 1 && mt.In(1) == ctxType
	if withCtx {
		first = 2
	}
	withErr := mt.NumOut() == 2 && mt.Out(1) == errType
	if mt.NumIn() != first+len(f.Arguments) || mt.NumOut() != 1 && !withErr || mt.NumOut() == 0 {
		return false
	}
	var argType reflect.Type
	if len(f.Arguments) > 0 {
		fields := make([]reflect.StructField, len(f.Arguments))
		for i, a := range f.Arguments {
			fields[i] = reflect.StructField{Name: fmt.Sprintf("A%d", i), Type: mt.In(first + i), Tag: reflect.StructTag(`graphql:"` + a.Name + `"`)}
		}
		argType = reflect.StructOf(fields)
	}
	call := func(ctx context.Context, p, args unsafe.Pointer) (reflect.Value, error) {
		in := make([]reflect.Value, mt.NumIn())
		in[0] = reflect.NewAt(gt, p)
		if withCtx {
			ctx = &gqlCtx{Context: ctx, info: fieldInfo{object: typeName, def: doc.Types[typeName], field: f, doc: doc,
				argType: argType, args: args, parentType: gt, parent: p}}
			in[1] = reflect.ValueOf(&ctx).Elem()
		}
		if argType != nil {
			av := reflect.NewAt(argType, args).Elem()
			for i := range f.Arguments {
				in[first+i] = av.Field(i)
			}
		}
		out := m.Func.Call(in)
		if withErr {
			if err, _ := out[1].Interface().(error); err != nil {
				return reflect.Value{}, err
			}
		}
		return out[0], nil
	}
	sd.ObjectOf(typeName, gt)
	var opts []schemadef.Option
	if withCtx {
		// A method taking a context may wait, as a resolver does.
		opts = append(opts, schemadef.Concurrent())
	}
	sd.FieldOf(typeName, f.Name, argType, mt.Out(0), call, opts...)
	return true
}

// bindModelField declares the field f of the object type typeName, whose
// model is the struct gt, as a read of the struct field sf: for a struct
// field gqlgen.yml or @goField names, which graft's naming rule would not
// find.
func bindModelField(sd *schemadef.Builder, typeName string, gt reflect.Type, f *ast.FieldDefinition, sf reflect.StructField) {
	sd.ObjectOf(typeName, gt)
	sd.FieldOf(typeName, f.Name, nil, sf.Type, func(_ context.Context, p, _ unsafe.Pointer) (reflect.Value, error) {
		return reflect.NewAt(gt, p).Elem().FieldByIndex(sf.Index), nil
	})
}

// directiveArg is the value of the string argument arg of the directive
// name on a definition or field, and whether it is there.
func directiveArg(list ast.DirectiveList, name, arg string) (string, bool) {
	d := list.ForName(name)
	if d == nil {
		return "", false
	}
	a := d.Arguments.ForName(arg)
	if a == nil || a.Value == nil {
		return "", false
	}
	return a.Value.Raw, true
}
