package schema

import (
	"context"

	"github.com/graftgql/graft/internal/schemadef"
)

// GroupFieldFunc adds a field with a group resolver: one call resolves the
// field for the group of parents that need it at one place of the
// response. (graft says "group" for these resolvers, "fetch" for a
// loader's calls and "batch" for an HTTP batch of operations.) The
// executor collects every parent that needs the field at the same place
// of the response, across list items and intermediate objects (all
// authors[].posts, all edges[].node.author), and calls fn once per
// distinct set of arguments, before the objects are written. Parents are
// passed in response order; one that several selections of the field
// reach at the same level is passed once. Nothing waits on a timer: a
// level's batches are sent as soon as the level is known.
//
// fn returns one result per parent, in the order of parents, and errors:
// nil when every parent succeeded, one per parent (nil for those that
// succeeded), or a single error that fails the field for every parent.
// Each failing parent gets its own field error at its own path. A panic in
// fn fails the field for every parent with an internal error, and is
// logged. ctx is the request's context, cancelled with it; fn may call
// loaders (package loader).
//
// A and R are as for FieldFunc. Options are those of any field (see
// Option); Cost and CostFn give the cost of one selection of the field, as
// for any field: grouping leaves the complexity analysis unchanged.
func GroupFieldFunc[T, A, R any](obj *ObjectType[T], name string, fn func(ctx context.Context, parents []*T, args A) ([]R, []error), opts ...Option) {
	schemadef.BatchFieldFunc(obj.impl, name, fn, opts...)
}

// GroupFieldFuncNoArgs adds a field with a group resolver and no
// arguments. See GroupFieldFunc.
func GroupFieldFuncNoArgs[T, R any](obj *ObjectType[T], name string, fn func(ctx context.Context, parents []*T) ([]R, []error), opts ...Option) {
	schemadef.BatchFieldFuncNoArgs(obj.impl, name, fn, opts...)
}

// BatchFieldFunc is GroupFieldFunc's former name.
//
// Deprecated: use GroupFieldFunc; BatchFieldFunc goes in the next release.
func BatchFieldFunc[T, A, R any](obj *ObjectType[T], name string, fn func(ctx context.Context, parents []*T, args A) ([]R, []error), opts ...Option) {
	GroupFieldFunc(obj, name, fn, opts...)
}

// BatchFieldFuncNoArgs is GroupFieldFuncNoArgs's former name.
//
// Deprecated: use GroupFieldFuncNoArgs; BatchFieldFuncNoArgs goes in the
// next release.
func BatchFieldFuncNoArgs[T, R any](obj *ObjectType[T], name string, fn func(ctx context.Context, parents []*T) ([]R, []error), opts ...Option) {
	GroupFieldFuncNoArgs(obj, name, fn, opts...)
}
