package gqlgen

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	gqlgraphql "github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/internal/schemadef"
)

var (
	resolverType = reflect.TypeFor[gqlgraphql.Resolver]()
	anyType      = reflect.TypeFor[any]()
)

// Directive gives Load the Go function of the schema directive name, as
// gqlgen's generated DirectiveRoot held it: fn has gqlgen's shape
// func(ctx context.Context, obj any, next graphql.Resolver, <the
// directive's arguments in the order of its definition>) (any, error). It
// wraps the resolution of every field the schema applies the directive
// to, and of every field of an object type it is applied to: it may call
// next and return its value, another value of the field's Go type, or an
// error. obj is nil: graft does not give a directive the parent object.
// Directives at other locations (operation directives such as QUERY or
// FIELD) are refused by Load.
func Directive(name string, fn any) LoadOption {
	return func(o *loadOptions) {
		o.directives = append(o.directives, directiveFunc{name: name, fn: reflect.ValueOf(fn)})
	}
}

type directiveFunc struct {
	name string
	fn   reflect.Value
}

// declareDirective declares d on sd after checking it against the
// schema's definition.
func declareDirective(sd *schemadef.Builder, doc *ast.Schema, d directiveFunc) error {
	def := doc.Directives[d.name]
	if def == nil {
		return fmt.Errorf("gqlgen: Directive %q: the schema defines no directive @%s", d.name, d.name)
	}
	var locs []schemadef.DirectiveLocation
	for _, l := range def.Locations {
		switch l {
		case ast.LocationFieldDefinition, ast.LocationObject:
			locs = append(locs, schemadef.DirectiveLocation(l))
		default:
			return fmt.Errorf("gqlgen: Directive %q: location %s is not supported (graft runs directive functions on FIELD_DEFINITION and OBJECT)", d.name, l)
		}
	}
	want := "func(ctx context.Context, obj any, next graphql.Resolver"
	for _, a := range def.Arguments {
		want += ", " + a.Name + " T"
	}
	want += ") (any, error)"
	ft := d.fn.Type()
	if !d.fn.IsValid() || ft.Kind() != reflect.Func || ft.NumIn() != 3+len(def.Arguments) || ft.In(0) != ctxType || ft.In(1) != anyType ||
		ft.In(2) != resolverType || ft.NumOut() != 2 || ft.Out(0) != anyType || ft.Out(1) != errType {
		return fmt.Errorf("gqlgen: Directive %q has type %v; gqlgen's shape is %s", d.name, ft, want)
	}
	var args []string
	for _, a := range def.Arguments {
		s := a.Name + ": " + a.Type.String()
		if a.DefaultValue != nil {
			s += " = " + a.DefaultValue.String()
		}
		args = append(args, s)
	}
	fn := d.fn
	sd.DeclareDirective(schemadef.DirectiveDef{
		Name: def.Name, Description: def.Description, Args: strings.Join(args, ", "), Locations: locs, Repeatable: def.IsRepeatable,
		Func: func(ctx context.Context, argv map[string]any, next func(context.Context) (any, error)) (any, error) {
			in := make([]reflect.Value, ft.NumIn())
			in[0] = reflect.ValueOf(&ctx).Elem()
			in[1] = reflect.Zero(anyType)
			in[2] = reflect.ValueOf(gqlgraphql.Resolver(next))
			for i, a := range def.Arguments {
				v, err := convertArg(argv[a.Name], ft.In(3+i))
				if err != nil {
					return nil, fmt.Errorf("directive @%s: argument %s: %w", def.Name, a.Name, err)
				}
				in[3+i] = v
			}
			out := fn.Call(in)
			err, _ := out[1].Interface().(error)
			return out[0].Interface(), err
		},
	})
	return nil
}

// convertArg converts a coerced argument value (nil, bool, int64,
// float64, string, []any; enums by name) to the Go type t of a directive
// function's parameter.
func convertArg(v any, t reflect.Type) (reflect.Value, error) {
	if v == nil {
		return reflect.Zero(t), nil
	}
	if t.Kind() == reflect.Pointer {
		e, err := convertArg(v, t.Elem())
		if err != nil {
			return reflect.Value{}, err
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(e)
		return p, nil
	}
	if t.Kind() == reflect.Interface {
		return reflect.ValueOf(&v).Elem(), nil
	}
	rv := reflect.ValueOf(v)
	if list, ok := v.([]any); ok && t.Kind() == reflect.Slice {
		out := reflect.MakeSlice(t, len(list), len(list))
		for i, item := range list {
			e, err := convertArg(item, t.Elem())
			if err != nil {
				return reflect.Value{}, err
			}
			out.Index(i).Set(e)
		}
		return out, nil
	}
	if (t.Kind() == reflect.String) == (rv.Kind() == reflect.String) && rv.Type().ConvertibleTo(t) {
		return rv.Convert(t), nil
	}
	return reflect.Value{}, fmt.Errorf("%T does not convert to %s", v, t)
}
