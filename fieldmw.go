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
	// Path is the field's response path (keys and list indexes), or nil
	// when the field is resolved ahead of writing (concurrent and batch
	// resolvers), where its position is not known yet.
	Path []any
	call *exec.FieldCall
}

// Arguments returns the field's argument values, coerced, by name (nil
// when it takes none).
func (fi *FieldInfo) Arguments() map[string]any { return fi.call.Arguments() }

// FieldMiddleware wraps the resolution of fields: all of them, those of
// one type (Type set), or one field (Type and Field set). Func resolves
// the field by calling next, and may instead return an error (the field
// becomes null with that error, as a resolver's), for example to refuse
// a user. Plain struct fields are wrapped too, without becoming
// resolvers. Middleware installed for a field runs outermost first, in
// the order of Config.FieldMiddleware.
type FieldMiddleware struct {
	Type  string
	Field string
	Func  func(ctx context.Context, info *FieldInfo, next func(context.Context) error) error
}

// middlewareFor builds the engine's per-field middleware lookup, or nil
// when there is none.
func middlewareFor(mws []FieldMiddleware, s *schema.Schema) exec.MiddlewareFor {
	model := schemadef.Model(s)
	if len(mws) == 0 && !hasDirectiveFuncs(model) {
		return nil
	}
	return func(typeName, fieldName string) exec.Middleware {
		var chain []func(context.Context, *FieldInfo, func(context.Context) error) error
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
		return func(ctx context.Context, c *exec.FieldCall, next func(context.Context) error) error {
			info := &FieldInfo{ParentType: c.ParentType, FieldName: c.FieldName, Resolver: c.Resolver, Path: c.Path, call: c}
			var step func(i int, ctx context.Context) error
			step = func(i int, ctx context.Context) error {
				if i == len(chain) {
					return next(ctx)
				}
				return chain[i](ctx, info, func(ctx context.Context) error { return step(i+1, ctx) })
			}
			return step(0, ctx)
		}
	}
}

// hasDirectiveFuncs reports whether the schema declares a directive with
// an implementation.
func hasDirectiveFuncs(m *schemadef.Schema) bool {
	for _, d := range m.Directives {
		if d.Func != nil {
			return true
		}
	}
	return false
}

// directiveChain is the middleware of the implemented directives applied
// to the object type typeName and to its field fieldName, in that order,
// with their argument values taken from the schema.
func directiveChain(m *schemadef.Schema, as *ast.Schema, typeName, fieldName string) []func(context.Context, *FieldInfo, func(context.Context) error) error {
	def := as.Types[typeName]
	if def == nil {
		return nil
	}
	applied := def.Directives
	if fd := def.Fields.ForName(fieldName); fd != nil {
		applied = append(applied[:len(applied):len(applied)], fd.Directives...)
	}
	var chain []func(context.Context, *FieldInfo, func(context.Context) error) error
	for _, a := range applied {
		d := m.Directive(a.Name)
		if d == nil || d.Func == nil {
			continue
		}
		fn, args := d.Func, a.ArgumentMap(nil)
		chain = append(chain, func(ctx context.Context, _ *FieldInfo, next func(context.Context) error) error {
			return fn(ctx, args, next)
		})
	}
	return chain
}
