package schemadef

import "reflect"

type inputDecl struct {
	name   string
	goType reflect.Type
	opts   options
	auto   bool
}

// Input declares an input object type from the Go struct T, for use as an
// argument or inside other input objects. Its fields follow the rules of
// argument structs (see FieldFunc). Struct types used in arguments without
// Input are registered under their Go type name. Options: Description.
func Input[T any](b *Builder, name string, opts ...Option) {
	d := &inputDecl{name: name, goType: reflect.TypeFor[T](), opts: collect(opts)}
	if d.goType.Kind() != reflect.Struct {
		b.errorf(name, "", "Input needs a struct type, got %s", d.goType)
	}
	b.inputs = append(b.inputs, d)
}
