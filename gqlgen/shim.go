package gqlgen

import (
	"context"
	"reflect"
	"sync"
	"unsafe"

	gqlgraphql "github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/schema"
)

// gqlgen keeps its field, operation and response contexts in the
// context under keys of an unexported type; the resolver context of a
// bound method answers them. The keys are learnt once by asking gqlgen's
// own getters of a context that records the key it is asked for, and
// checked by a round trip through gqlgen's setters.
type keys struct{ field, op, resp any }

var gqlKeys = sync.OnceValue(func() keys {
	var k keys
	p := &probeCtx{Context: context.Background()}
	gqlgraphql.GetFieldContext(p)
	k.field = p.key
	p.ret = &gqlgraphql.OperationContext{}
	gqlgraphql.GetOperationContext(p)
	k.op = p.key
	p.ret = nil
	p.Context = gqlgraphql.WithResponseContext(context.Background(), presentToGraft, gqlgraphql.DefaultRecover)
	p.pass = true
	gqlgraphql.GetErrors(p)
	k.resp = p.key
	fc, oc := &gqlgraphql.FieldContext{}, &gqlgraphql.OperationContext{}
	if k.field == nil || gqlgraphql.GetFieldContext(context.WithValue(context.Background(), k.field, fc)) != fc {
		k.field = nil
	}
	if k.op == nil || !gqlgraphql.HasOperationContext(context.WithValue(context.Background(), k.op, oc)) {
		k.op = nil
	}
	return k
})

// presentToGraft is the error presenter of the response contexts bound
// methods get: graphql.AddError and AddErrorf report to graft
// (graft.AddError), as errors of the field beside its value, rather than
// to gqlgen's list.
func presentToGraft(ctx context.Context, err error) *gqlerror.Error {
	if gerr, ok := err.(*gqlerror.Error); ok && gerr.Err != nil {
		err = gerr.Err
	}
	graft.AddError(ctx, err)
	return nil
}

// probeCtx records the last key it is asked for and answers ret, or,
// when pass is set, its parent's value.
type probeCtx struct {
	context.Context
	key, ret any
	pass     bool
}

func (p *probeCtx) Value(k any) any {
	p.key = k
	if p.pass {
		return p.Context.Value(k)
	}
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
// from graft's request and the field being resolved, and gqlgen's
// response context (for graphql.AddError) with one made on first use.
type gqlCtx struct {
	context.Context
	info     fieldInfo
	once     sync.Once
	fc       *gqlgraphql.FieldContext
	oc       *gqlgraphql.OperationContext
	respOnce sync.Once
	resp     any
}

func (c *gqlCtx) Value(k any) any {
	if k != nil {
		keys := gqlKeys()
		switch k {
		case keys.field:
			c.build()
			return c.fc
		case keys.op:
			c.build()
			return c.oc
		case keys.resp:
			c.respOnce.Do(func() {
				c.resp = gqlgraphql.WithResponseContext(context.Background(), presentToGraft, gqlgraphql.DefaultRecover).Value(k)
			})
			return c.resp
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
