package graft

import (
	"context"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/schema"
)

// FieldInfo describes the field a FieldMiddleware wraps.
type FieldInfo struct {
	// ParentType and FieldName name the field ("Query", "user").
	ParentType string
	FieldName  string
	// Resolver is false for a plain struct field.
	Resolver bool
	// Path is the field's response path: keys (string) and list indexes
	// (int), for fields resolved in place and for those resolved ahead of
	// writing (concurrent and batch resolvers) alike.
	Path []any
	call *exec.FieldCall
}

// Arguments returns the field's argument values, coerced, by name (nil
// when it takes none).
func (fi *FieldInfo) Arguments() map[string]any { return fi.call.Arguments() }

// Parent returns the object the field is resolved on: a pointer to its Go
// struct (a *T for an object type declared with schema.Object[T]), or nil
// for the fields of the root types. An authorization middleware can read
// the owner of a record from it.
func (fi *FieldInfo) Parent() any { return fi.call.Parent() }

// FieldMiddleware wraps the resolution of fields: all of them, those of
// one type (Type set), or one field (Type and Field set).
//
// Func resolves the field by calling next, which returns the field's Go
// value (a string for a String field of Go type string, the *T or []T a
// resolver returned; nil for null), and returns the value to write:
// next's, or a replacement of the field's Go type (or of the same basic
// kind, such as a string for a named string type). A value of another Go
// type fails the field with an internal error, logged. Func may instead
// return an error without calling next (the field becomes null with that
// error, as a resolver's), for example to refuse a user.
//
// Plain struct fields are wrapped too, without becoming resolvers. Batch
// fields (schema.GroupFieldFunc) are wrapped once per parent, with that
// parent's path: Func runs for every parent first, up to its call of
// next; then the batch function runs once with the parents whose
// middleware called next (in response order), and each next returns its
// parent's result. Parents are taken 256 at a time, so a level with more
// of them calls the batch function once per 256 parents. A parent refused
// by its middleware never reaches the batch. The batch receives its own context, not those given to next.
//
// Middleware installed for a field runs outermost first, in the order of
// Config.FieldMiddleware, then the directives of the field's type, then
// those of the field. Installing none keeps the executor on its fast
// path: no allocation and no call per field.
type FieldMiddleware struct {
	Type  string
	Field string
	Func  func(ctx context.Context, info *FieldInfo, next func(context.Context) (any, error)) (any, error)
}

// fieldFunc is the type of FieldMiddleware.Func.
type fieldFunc = func(ctx context.Context, info *FieldInfo, next func(context.Context) (any, error)) (any, error)

// middlewareFor builds the engine's per-field middleware lookup, or nil
// when there is none.
func middlewareFor(mws []FieldMiddleware, s *schema.Schema) exec.MiddlewareFor {
	model := schemadef.Model(s)
	if len(mws) == 0 && !hasDirectiveFuncs(model) {
		return nil
	}
	return func(typeName, fieldName string) exec.Middleware {
		var chain []fieldFunc
		for _, m := range mws {
			if m.Func == nil || m.Type != "" && m.Type != typeName || m.Field != "" && m.Field != fieldName {
				continue
			}
			chain = append(chain, m.Func)
		}
		chain = append(chain, directiveChain(model, s.AST(), typeName, fieldName)...)
		if len(chain) == 0 {
			return nil
		}
		return func(ctx context.Context, c *exec.FieldCall, next exec.Next) (any, error) {
			run := &chainRun{info: FieldInfo{ParentType: c.ParentType, FieldName: c.FieldName, Resolver: c.Resolver, Path: c.Path, call: c},
				chain: chain, last: next}
			return run.step(ctx)
		}
	}
}

// chainRun is one run of a field's middleware chain: the FieldInfo all
// of them see and the position in the chain.
type chainRun struct {
	info  FieldInfo
	chain []fieldFunc
	last  exec.Next
	i     int
}

// step runs the next middleware of the chain, or the field's resolution
// after the last one. Each middleware receives step as its next.
func (c *chainRun) step(ctx context.Context) (any, error) {
	if c.i == len(c.chain) {
		return c.last(ctx)
	}
	c.i++
	v, err := c.chain[c.i-1](ctx, &c.info, c.step)
	c.i--
	return v, err
}

// hasDirectiveFuncs reports whether the schema declares an executable
// directive with an implementation.
func hasDirectiveFuncs(m *schemadef.Schema) bool {
	for _, d := range m.Directives {
		if d.Func != nil && d.Printing == schemadef.DirectiveEverywhere {
			return true
		}
	}
	return false
}

// directiveChain is the middleware of the implemented directives applied
// to the object type typeName and to its field fieldName, in that order,
// with their argument values taken from the schema.
func directiveChain(m *schemadef.Schema, as *ast.Schema, typeName, fieldName string) []fieldFunc {
	def := as.Types[typeName]
	if def == nil {
		return nil
	}
	applied := def.Directives
	if fd := def.Fields.ForName(fieldName); fd != nil {
		applied = append(applied[:len(applied):len(applied)], fd.Directives...)
	}
	var chain []fieldFunc
	for _, a := range applied {
		d := m.Directive(a.Name)
		if d == nil || d.Func == nil {
			continue
		}
		fn, args := d.Func, a.ArgumentMap(nil)
		chain = append(chain, func(ctx context.Context, _ *FieldInfo, next func(context.Context) (any, error)) (any, error) {
			return fn(ctx, args, next)
		})
	}
	return chain
}
