package gqlgen

import (
	"context"
	"reflect"
	"sync"
	"unsafe"

	gqlgraphql "github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// gqlgen keeps its field and operation contexts in the context under
// keys of an unexported type; the resolver context of a bound method
// answers them. The keys are learnt once by asking gqlgen's own getters
// of a context that records the key it is asked for, and checked by a
// round trip through gqlgen's setters.
var gqlKeys = sync.OnceValues(func() (field, op any) {
	p := &probeCtx{Context: context.Background()}
	gqlgraphql.GetFieldContext(p)
	field = p.key
	p.ret = &gqlgraphql.OperationContext{}
	gqlgraphql.GetOperationContext(p)
	op = p.key
	fc, oc := &gqlgraphql.FieldContext{}, &gqlgraphql.OperationContext{}
	if field == nil || gqlgraphql.GetFieldContext(context.WithValue(context.Background(), field, fc)) != fc {
		field = nil
	}
	if op == nil || !gqlgraphql.HasOperationContext(context.WithValue(context.Background(), op, oc)) {
		op = nil
	}
	return field, op
})

// probeCtx records the last key it is asked for and answers ret.
type probeCtx struct {
	context.Context
	key, ret any
}

func (p *probeCtx) Value(k any) any {
	p.key = k
	return p.ret
}

// fieldInfo is what a bound method's context knows of the field it
// resolves, for gqlgen's FieldContext.
type fieldInfo struct {
	object string
	def    *ast.Definition
	field  *ast.FieldDefinition
	doc    *ast.Schema
	// argType and args are the field's argument struct and its value (nil
	// for none); parent points to the parent object, of Go type
	// parentType (nil for a root field).
	argType    reflect.Type
	args       unsafe.Pointer
	parentType reflect.Type
	parent     unsafe.Pointer
}

// gqlCtx is the context a bound method receives: it answers gqlgen's
// GetFieldContext and GetOperationContext with values built on first use
// from graft's request and the field being resolved.
type gqlCtx struct {
	context.Context
	info fieldInfo
	once sync.Once
	fc   *gqlgraphql.FieldContext
	oc   *gqlgraphql.OperationContext
}

func (c *gqlCtx) Value(k any) any {
	if k != nil {
		field, op := gqlKeys()
		switch k {
		case field:
			c.build()
			return c.fc
		case op:
			c.build()
			return c.oc
		}
	}
	return c.Context.Value(k)
}

// build makes the field and operation contexts.
func (c *gqlCtx) build() {
	c.once.Do(func() {
		c.oc = &gqlgraphql.OperationContext{}
		if info := graft.RequestInfoFrom(c.Context); info != nil {
			c.oc.OperationName = info.OperationName
			c.oc.Variables = info.Variables
		}
		if c.oc.Variables == nil {
			c.oc.Variables = map[string]any{}
		}
		in := c.info
		fc := &gqlgraphql.FieldContext{Object: in.object, Args: map[string]any{}, IsMethod: true, IsResolver: true}
		if in.argType != nil && in.args != nil {
			av := reflect.NewAt(in.argType, in.args).Elem()
			for i, a := range in.field.Arguments {
				fc.Args[a.Name] = av.Field(i).Interface()
			}
		}
		fc.Field = gqlgraphql.CollectedField{Field: &ast.Field{
			Alias: in.field.Name, Name: in.field.Name, Definition: in.field, ObjectDefinition: in.def,
			SelectionSet: selectionSet(in.doc, schema.SelectionFrom(c.Context)),
		}}
		fc.Field.Selections = fc.Field.SelectionSet
		if in.parentType != nil && in.parent != nil {
			fc.Parent = &gqlgraphql.FieldContext{Result: reflect.NewAt(in.parentType, in.parent).Interface()}
		}
		c.fc = fc
	})
}

// selectionSet is graft's selection below a field as gqlgen's AST: the
// fields themselves when the selection has one object type, an inline
// fragment per object type otherwise. Fragments are already expanded and
// @skip/@include applied; arguments are not carried.
func selectionSet(doc *ast.Schema, sel schema.Selection) ast.SelectionSet {
	if sel == nil {
		return nil
	}
	types := sel.Types()
	fields := func(typeName string) ast.SelectionSet {
		def := doc.Types[typeName]
		var out ast.SelectionSet
		for _, f := range sel.Fields(typeName) {
			af := &ast.Field{Alias: f.Alias, Name: f.Name, ObjectDefinition: def}
			if def != nil {
				af.Definition = def.Fields.ForName(f.Name)
			}
			af.SelectionSet = selectionSet(doc, f.Selection)
			out = append(out, af)
		}
		return out
	}
	if len(types) == 1 {
		return fields(types[0])
	}
	var out ast.SelectionSet
	for _, t := range types {
		out = append(out, &ast.InlineFragment{TypeCondition: t, SelectionSet: fields(t), ObjectDefinition: doc.Types[t]})
	}
	return out
}
