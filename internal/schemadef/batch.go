package schemadef

import (
	"context"
	"fmt"
	"reflect"
	"unsafe"
)

// BatchResolver is a compiled batch resolver. See Field.Batch.
type BatchResolver func(ctx context.Context, parents []unsafe.Pointer, args unsafe.Pointer) (results unsafe.Pointer, size uintptr, errs []error)

// BatchFieldFunc adds a field resolved for many parents in one call. The
// executor collects every parent that needs the field at the same place
// of the response, across list items and intermediate objects (all
// authors[].posts, all edges[].node.author), and calls fn once per
// distinct set of arguments, before the objects are written. Parents are
// passed in response order; one that several selections of the field
// reach at the same level is passed once.
//
// fn returns one result per parent, in the order of parents, and errors:
// nil when every parent succeeded, one per parent (nil for those that
// succeeded), or a single error that fails the field for every parent.
// Each failing parent gets its own field error at its own path. A panic in
// fn fails the field for every parent with an internal error, and is
// logged. ctx is the request's context, cancelled with it; fn may call
// loaders (package loader).
//
// A and R are as for FieldFunc. Options: Description, Deprecated, OfType,
// Cost, CostFn (the cost of one selection of the field, as for any field;
// batching leaves the complexity analysis unchanged).
func BatchFieldFunc[T, A, R any](obj *ObjectType[T], name string, fn func(ctx context.Context, parents []*T, args A) ([]R, []error), opts ...Option) {
	var batch BatchResolver
	if fn != nil {
		batch = compileBatch(func(ctx context.Context, parents []*T, args unsafe.Pointer) ([]R, []error) {
			var a A
			if args != nil {
				a = *(*A)(args)
			}
			return fn(ctx, parents, a)
		})
	}
	obj.decl.addBatch(name, opts, reflect.TypeFor[A](), newOf[A], reflect.TypeFor[R](), batch)
}

// BatchFieldFuncNoArgs adds a batch field without arguments. See
// BatchFieldFunc.
func BatchFieldFuncNoArgs[T, R any](obj *ObjectType[T], name string, fn func(ctx context.Context, parents []*T) ([]R, []error), opts ...Option) {
	var batch BatchResolver
	if fn != nil {
		batch = compileBatch(func(ctx context.Context, parents []*T, _ unsafe.Pointer) ([]R, []error) {
			return fn(ctx, parents)
		})
	}
	obj.decl.addBatch(name, opts, nil, nil, reflect.TypeFor[R](), batch)
}

// compileBatch turns a typed batch function into a BatchResolver that
// checks the number of results.
func compileBatch[T, R any](fn func(ctx context.Context, parents []*T, args unsafe.Pointer) ([]R, []error)) BatchResolver {
	size := reflect.TypeFor[R]().Size()
	return func(ctx context.Context, parents []unsafe.Pointer, args unsafe.Pointer) (unsafe.Pointer, uintptr, []error) {
		// []unsafe.Pointer and []*T have the same layout.
		ps := *(*[]*T)(unsafe.Pointer(&parents))
		res, errs := fn(ctx, ps, args)
		if len(errs) == 1 && (len(parents) != 1 || errs[0] != nil) {
			return nil, size, errs
		}
		if len(errs) != 0 && len(errs) != len(parents) {
			return nil, size, []error{&BatchCountError{What: "errors", Got: len(errs), Parents: len(parents)}}
		}
		if len(res) != len(parents) {
			if len(errs) == len(parents) && allErrors(errs) {
				return nil, size, errs
			}
			return nil, size, []error{&BatchCountError{What: "results", Got: len(res), Parents: len(parents)}}
		}
		if len(res) == 0 {
			return nil, size, errs
		}
		return unsafe.Pointer(unsafe.SliceData(res)), size, errs
	}
}

// BatchCountError is the error of a batch resolver that returned a
// number of results (or errors) other than one per parent: a bug of the
// resolver, answered as an internal error.
type BatchCountError struct {
	What    string // "results" or "errors"
	Got     int
	Parents int
}

func (e *BatchCountError) Error() string {
	return fmt.Sprintf("batch resolver returned %d %s for %d parents", e.Got, e.What, e.Parents)
}

// allErrors reports whether every entry of errs is an error.
func allErrors(errs []error) bool {
	for _, err := range errs {
		if err == nil {
			return false
		}
	}
	return true
}

// addBatch appends a batch field to an object declaration. Its Resolve
// calls the batch with the one parent, for the places the executor
// resolves a single parent.
func (d *objectDecl) addBatch(name string, opts []Option, argType reflect.Type, newArgs func() unsafe.Pointer, outType reflect.Type, batch BatchResolver) {
	fd := &fieldDecl{name: name, opts: collect(opts), argType: argType, newArgs: newArgs, outType: outType,
		batch: batch, nilFunc: batch == nil}
	if batch != nil {
		fd.resolve = func(ctx context.Context, parent, args unsafe.Pointer) (unsafe.Pointer, error) {
			res, _, errs := batch(ctx, []unsafe.Pointer{parent}, args)
			if len(errs) > 0 && errs[0] != nil {
				return nil, errs[0]
			}
			return res, nil
		}
	}
	d.fields = append(d.fields, fd)
}
