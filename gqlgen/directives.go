package gqlgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
// directive's arguments in the order of its definition>) (any, error).
// Where it runs follows the directive's locations, as under gqlgen:
//
//   - FIELD_DEFINITION and OBJECT: around the resolution of every field
//     the schema applies it to (every field of an object type it is
//     applied to); next returns the field's value, and fn may return it,
//     another value of the field's Go type, or an error. obj is nil.
//   - QUERY and MUTATION: once per operation that applies it, around the
//     execution of the operation's whole selection set. The context fn
//     passes to next is the context of every resolver of the operation;
//     next returns the data as a graphql.Marshaler, which fn returns (or
//     another graphql.Marshaler, whose JSON becomes the data). An error,
//     or a value that is not a graphql.Marshaler, makes the data null,
//     with the error as an error of the operation, without a path. obj is
//     the *ast.OperationDefinition.
//   - SUBSCRIPTION: once per subscription that applies it, around the
//     start of its stream: the context fn passes to next is the
//     subscription resolver's (the events' own resolvers get the
//     transport's context); an error refuses the subscription.
//   - FIELD: around the resolution of every field a document applies it
//     to, outside the field's schema directives; next returns the field's
//     value, as for FIELD_DEFINITION; obj is the parent object (the model
//     pointer, nil on the root types).
//   - FRAGMENT_SPREAD, INLINE_FRAGMENT, FRAGMENT_DEFINITION and
//     VARIABLE_DEFINITION: documents may apply it there, and fn is not
//     called, as gqlgen's generated code calls nothing there.
//
// Where a document applies several, the last is outermost, as in gqlgen's
// generated code. The directive's arguments come from the schema or the
// document (variables included), defaults applied. Load refuses the
// other locations (ARGUMENT_DEFINITION, INPUT_FIELD_DEFINITION, ...).
func Directive(name string, fn any) LoadOption {
	return func(o *loadOptions) {
		o.directives = append(o.directives, directiveFunc{name: name, fn: reflect.ValueOf(fn)})
	}
}

type directiveFunc struct {
	name string
	fn   reflect.Value
}

// boundDirective is a directive function checked against the schema's
// definition of the directive.
type boundDirective struct {
	def *ast.DirectiveDefinition
	fn  reflect.Value
}

// call calls the directive function with obj, next and the argument
// values argv, by name.
func (d *boundDirective) call(ctx context.Context, obj any, next func(context.Context) (any, error), argv map[string]any) (any, error) {
	ft := d.fn.Type()
	in := make([]reflect.Value, ft.NumIn())
	in[0] = reflect.ValueOf(&ctx).Elem()
	in[1] = reflect.ValueOf(&obj).Elem()
	in[2] = reflect.ValueOf(gqlgraphql.Resolver(next))
	for i, a := range d.def.Arguments {
		v, err := convertArg(argv[a.Name], ft.In(3+i))
		if err != nil {
			return nil, fmt.Errorf("directive @%s: argument %s: %w", d.def.Name, a.Name, err)
		}
		in[3+i] = v
	}
	out := d.fn.Call(in)
	err, _ := out[1].Interface().(error)
	return out[0].Interface(), err
}

// at reports whether the directive may be applied at l.
func (d *boundDirective) at(l ast.DirectiveLocation) bool {
	for _, dl := range d.def.Locations {
		if dl == l {
			return true
		}
	}
	return false
}

// declareDirective declares d on sd after checking it against the
// schema's definition, and returns it bound.
func declareDirective(sd *schemadef.Builder, doc *ast.Schema, d directiveFunc) (*boundDirective, error) {
	def := doc.Directives[d.name]
	if def == nil {
		return nil, fmt.Errorf("gqlgen: Directive %q: the schema defines no directive @%s", d.name, d.name)
	}
	var locs []schemadef.DirectiveLocation
	onSchema := false
	for _, l := range def.Locations {
		switch l {
		case ast.LocationFieldDefinition, ast.LocationObject:
			onSchema = true
		case ast.LocationQuery, ast.LocationMutation, ast.LocationSubscription, ast.LocationField,
			ast.LocationFragmentSpread, ast.LocationInlineFragment, ast.LocationFragmentDefinition, ast.LocationVariableDefinition:
		default:
			return nil, fmt.Errorf("gqlgen: Directive %q: location %s is not supported (graft runs directive functions on FIELD_DEFINITION, OBJECT, QUERY, MUTATION, SUBSCRIPTION and FIELD)", d.name, l)
		}
		locs = append(locs, schemadef.DirectiveLocation(l))
	}
	want := "func(ctx context.Context, obj any, next graphql.Resolver"
	for _, a := range def.Arguments {
		want += ", " + a.Name + " T"
	}
	want += ") (any, error)"
	if !d.fn.IsValid() {
		return nil, fmt.Errorf("gqlgen: Directive %q is nil; gqlgen's shape is %s", d.name, want)
	}
	ft := d.fn.Type()
	if ft.Kind() != reflect.Func || ft.NumIn() != 3+len(def.Arguments) || ft.In(0) != ctxType || ft.In(1) != anyType ||
		ft.In(2) != resolverType || ft.NumOut() != 2 || ft.Out(0) != anyType || ft.Out(1) != errType {
		return nil, fmt.Errorf("gqlgen: Directive %q has type %v; gqlgen's shape is %s", d.name, ft, want)
	}
	var args []string
	for _, a := range def.Arguments {
		s := a.Name + ": " + a.Type.String()
		if a.DefaultValue != nil {
			s += " = " + a.DefaultValue.String()
		}
		args = append(args, s)
	}
	bd := &boundDirective{def: def, fn: d.fn}
	dd := schemadef.DirectiveDef{Name: def.Name, Description: def.Description, Args: strings.Join(args, ", "), Locations: locs, Repeatable: def.IsRepeatable}
	if onSchema {
		dd.Func = func(ctx context.Context, argv map[string]any, next func(context.Context) (any, error)) (any, error) {
			return bd.call(ctx, nil, next, argv)
		}
	}
	sd.DeclareDirective(dd)
	return bd, nil
}

// documentDirectives runs the directive functions of dirs where documents
// apply them: around operations and fields (see Directive).
func documentDirectives(dirs map[string]*boundDirective) *schemadef.DocumentDirectives {
	dd := &schemadef.DocumentDirectives{Names: map[string]bool{}}
	for name, d := range dirs {
		if d.at(ast.LocationQuery) || d.at(ast.LocationMutation) || d.at(ast.LocationSubscription) || d.at(ast.LocationField) {
			dd.Names[name] = true
		}
	}
	if len(dd.Names) == 0 {
		return nil
	}
	dd.Operation = func(ctx context.Context, op *ast.OperationDefinition, vars map[string]any, next func(context.Context) ([]byte, error)) ([]byte, error) {
		data := &dataMarshaler{}
		n := func(ctx context.Context) (any, error) {
			b, err := next(ctx)
			if err != nil {
				return nil, err
			}
			data.b = b
			return gqlgraphql.Marshaler(data), nil
		}
		loc := ast.DirectiveLocation(strings.ToUpper(string(op.Operation)))
		for _, a := range op.Directives {
			d := dirs[a.Name]
			if d == nil || !d.at(loc) {
				continue
			}
			inner, args := n, a.ArgumentMap(vars)
			n = func(ctx context.Context) (any, error) { return d.call(ctx, op, inner, args) }
		}
		v, err := n(ctx)
		if err != nil {
			return nil, err
		}
		if op.Operation == ast.Subscription {
			return nil, nil
		}
		if m, ok := v.(*dataMarshaler); ok && m == data {
			return data.b, nil
		}
		m, ok := v.(gqlgraphql.Marshaler)
		if !ok || m == nil {
			return nil, fmt.Errorf("unexpected type %T from directive, should be graphql.Marshaler", v)
		}
		var buf bytes.Buffer
		m.MarshalGQL(&buf)
		if !json.Valid(buf.Bytes()) {
			return nil, fmt.Errorf("the graphql.Marshaler of type %T a directive returned writes invalid JSON", v)
		}
		return buf.Bytes(), nil
	}
	dd.Field = func(ctx context.Context, field *ast.Field, parent any, vars map[string]any, next func(context.Context) (any, error)) (any, error) {
		n := next
		for _, a := range field.Directives {
			d := dirs[a.Name]
			if d == nil || !d.at(ast.LocationField) {
				continue
			}
			inner, args := n, a.ArgumentMap(vars)
			n = func(ctx context.Context) (any, error) { return d.call(ctx, parent, inner, args) }
		}
		return n(ctx)
	}
	return dd
}

// dataMarshaler is the data of an operation as the next of an operation
// directive returns it: the JSON graft wrote.
type dataMarshaler struct{ b []byte }

// MarshalGQL writes the data.
func (m *dataMarshaler) MarshalGQL(w io.Writer) { w.Write(m.b) }

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
