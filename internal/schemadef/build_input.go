package schemadef

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/graftgql/graft/internal/validate"
)

// setter stores a coerced input value at p, the address of a Go value.
type setter func(p unsafe.Pointer, v any) error

// inField is a compiled field of an argument struct or input object.
type inField struct {
	name   string
	offset uintptr
	set    setter
}

// inputCompiled holds the compiled fields of an input object; it is filled
// when the input object is built and read-only afterwards.
type inputCompiled struct {
	fields []inField
}

// argsFor builds the arguments of a field from its argument struct.
func (bc *build) argsFor(typeName, fieldName string, at reflect.Type, alloc func() unsafe.Pointer) ([]*Argument, func(map[string]any) (unsafe.Pointer, error), bool) {
	if at.Kind() != reflect.Struct {
		bc.errorf(typeName, fieldName, "the argument type %s must be a struct", at)
		return nil, nil, false
	}
	args, fields, ok := bc.inputFields(typeName, fieldName, at)
	if !ok {
		return nil, nil, false
	}
	if len(args) == 0 {
		return nil, nil, true
	}
	checker, err := validate.Compile(at, structFieldName)
	if err != nil {
		bc.errorf(typeName, fieldName, "validate tag: %v", err)
		return nil, nil, false
	}
	newArgs := func(values map[string]any) (unsafe.Pointer, error) {
		p := alloc()
		if err := setFields(p, fields, values); err != nil {
			return nil, err
		}
		if vs := checker.Check(p, nil); len(vs) > 0 {
			return nil, &validate.Error{Violations: vs}
		}
		return p, nil
	}
	return args, newArgs, true
}

// setFields stores the present values of a map into a struct at p.
func setFields(p unsafe.Pointer, fields []inField, values map[string]any) error {
	for i := range fields {
		f := &fields[i]
		v, ok := values[f.name]
		if !ok {
			continue
		}
		if err := f.set(unsafe.Add(p, f.offset), v); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	return nil
}

// inputFields builds the arguments (or input fields) of a Go struct and
// their setters. where names the owner in errors: a type and a field
// (arguments) or a type alone (input objects).
func (bc *build) inputFields(typeName, owner string, st reflect.Type) ([]*Argument, []inField, bool) {
	var args []*Argument
	var fields []inField
	seen := map[string]bool{}
	ok := true
	for _, sf := range structFields(st, 0, typeName, bc) {
		name := fieldName(sf.f)
		where := name
		if owner != "" {
			where = owner + "(" + name + ")"
		}
		fail := func(format string, a ...any) {
			bc.errorf(typeName, where, format, a...)
			ok = false
		}
		switch {
		case !validName(name) || len(name) > 1 && name[:2] == "__":
			fail("%q is not a valid argument name", name)
			continue
		case seen[name]:
			fail("duplicate argument name %q", name)
			continue
		}
		seen[name] = true
		gt := sf.f.Type
		elem, isOptional := optionalElem(gt)
		if isOptional {
			gt = elem
		}
		var ref *TypeRef
		var err error
		sdlDef := bc.sdlInput(typeName, owner, name)
		if bc.sdl != nil && sdlDef == nil {
			// Reported without failing the field, so that the SDL's
			// own arguments are checked too.
			if owner != "" {
				bc.errorf(typeName, where, "the Go argument %s is not in the SDL", name)
			} else {
				bc.errorf(typeName, where, "the Go input field %s is not in the SDL", name)
			}
			continue
		}
		if override := sf.f.Tag.Get("type"); override != "" {
			ref, err = bc.refFromString(override)
		} else if sdlDef != nil {
			ref, err = bc.refFromString(sdlDef.Type.String())
		} else {
			ref, err = bc.deriveIn(gt)
		}
		if err != nil {
			fail("%v", err)
			continue
		}
		if isOptional {
			ref = nullable(ref)
		} else if sdlDef != nil && ref.Kind != NonNullRef && !nilable(gt) {
			fail("nullable %s: %s needs a Go field that can hold null (a pointer or schema.Optional), not %s", name, ref, gt)
			continue
		}
		if k := ref.NamedType().Kind; k == ObjectKind || k == InterfaceKind || k == UnionKind {
			fail("%s is an output type and cannot be an argument type", ref.NamedType().Name)
			continue
		}
		set, err := bc.setter(gt, ref)
		if err != nil {
			fail("%v", err)
			continue
		}
		if isOptional {
			set = optionalSetter(sf.f.Type, set)
		}
		a := &Argument{Name: name, Description: sf.f.Tag.Get("description"), Type: ref}
		if tag := sf.f.Tag.Get("validate"); tag != "" && bc.b.constraints {
			if args := validate.ConstraintArgs(tag, gt); args != "" {
				a.Directives = []AppliedDirective{{Name: "constraint", Args: args}}
			}
		}
		if reason, has := sf.f.Tag.Lookup("deprecated"); has {
			a.Deprecated, a.DeprecationReason = true, deprecationReason(reason)
		}
		if lit, has := sf.f.Tag.Lookup("default"); has {
			v, err := parseLiteral(lit)
			if err != nil {
				fail("default %q is not a GraphQL literal: %v", lit, err)
				continue
			}
			a.DefaultValue = v
			bc.checkDefault(typeName, where, lit, v, ref)
		}
		if a.Deprecated && ref.Kind == NonNullRef && a.DefaultValue == nil {
			fail("a required argument cannot be deprecated; make it nullable or give it a default")
		}
		args = append(args, a)
		fields = append(fields, inField{name: name, offset: sf.offset, set: set})
	}
	return args, fields, ok
}

// deriveIn derives the GraphQL type of an input of Go type gt.
func (bc *build) deriveIn(gt reflect.Type) (*TypeRef, error) {
	if ti := bc.outByGo[gt]; ti != nil && (ti.enum != nil || ti.scalar != nil) {
		if gt.Kind() == reflect.Interface {
			return named(ti.t), nil // a scalar of Go type any: nil is null
		}
		return nonNull(named(ti.t)), nil
	}
	if ti := bc.inByGo[gt]; ti != nil {
		return nonNull(named(ti.t)), nil
	}
	switch gt.Kind() {
	case reflect.Pointer:
		inner, err := bc.deriveIn(gt.Elem())
		if err != nil {
			return nil, err
		}
		return nullable(inner), nil
	case reflect.Slice:
		inner, err := bc.deriveIn(gt.Elem())
		if err != nil {
			return nil, err
		}
		return nonNull(listOf(inner)), nil
	case reflect.Struct:
		if gt == timeType {
			return nonNull(named(bc.dateTime())), nil
		}
		if gt == uploadType {
			t, err := bc.upload()
			if err != nil {
				return nil, err
			}
			return nonNull(named(t)), nil
		}
		ti, err := bc.autoInput(gt)
		if err != nil {
			return nil, err
		}
		return nonNull(named(ti.t)), nil
	}
	if t := bc.builtinFor(gt); t != nil {
		return nonNull(named(t)), nil
	}
	return nil, unsupported(gt)
}

// autoInput registers a struct type met in an argument as an input
// object named after the Go type.
func (bc *build) autoInput(gt reflect.Type) (*typeInfo, error) {
	if gt.Name() == "" {
		return nil, fmt.Errorf("anonymous struct type %s cannot be an input type; use a named struct", gt)
	}
	if prev := bc.names[gt.Name()]; prev != nil {
		return nil, fmt.Errorf("Go type %s would be input type %q, but that name is taken; declare it with schema.Input", gt, gt.Name())
	}
	d := &inputDecl{name: gt.Name(), goType: gt, auto: true}
	ti := &typeInfo{t: &Type{Kind: InputObjectKind, Name: gt.Name(), GoType: gt}, input: d}
	bc.names[ti.t.Name] = ti
	bc.inByGo[gt] = ti
	bc.inputs = append(bc.inputs, ti)
	return ti, nil
}

// buildInput builds the fields of an input object.
func (bc *build) buildInput(ti *typeInfo) {
	args, fields, _ := bc.inputFields(ti.t.Name, "", ti.input.goType)
	ti.t.InputFields = args
	bc.compiled(ti).fields = fields
	if len(args) == 0 {
		bc.errorf(ti.t.Name, "", "an input object needs at least one field")
	}
}

func (bc *build) compiled(ti *typeInfo) *inputCompiled {
	if ti.compiled == nil {
		ti.compiled = &inputCompiled{}
	}
	return ti.compiled
}

// optionalSetter stores a value into an Optional of type ot whose Value
// setter is set: Set is marked for any given value, Null for null.
func optionalSetter(ot reflect.Type, set setter) setter {
	valueOff, setOff, nullOff := ot.Field(0).Offset, ot.Field(1).Offset, ot.Field(2).Offset
	return func(p unsafe.Pointer, v any) error {
		*(*bool)(unsafe.Add(p, setOff)) = true
		if v == nil {
			*(*bool)(unsafe.Add(p, nullOff)) = true
			return nil
		}
		return set(unsafe.Add(p, valueOff), v)
	}
}

// structFieldName is fieldName as a validate.NameFunc.
func structFieldName(f reflect.StructField) string { return fieldName(f) }
