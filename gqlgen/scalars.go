package gqlgen

import (
	"reflect"
	"unsafe"

	gqlgraphql "github.com/99designs/gqlgen/graphql"

	"github.com/graftgql/graft/internal/schemadef"
)

// LoadOption configures Load.
type LoadOption func(*loadOptions)

type loadOptions struct {
	scalars    []func(p *Project)
	directives []directiveFunc
}

// Scalar gives Load the custom scalar name of Go type T through gqlgen's
// function-style marshalling, the pair gqlgen.yml names in `models:` for
// a scalar whose Go type has no methods of its own: marshal is the
// project's MarshalX (gqlgen's own MarshalTime, MarshalInt64, ... are of
// this shape) and unmarshal its UnmarshalX. Fields and arguments whose Go
// type is T then carry the scalar. An error from unmarshal is an error of
// the request's input; marshal must not fail (a panic in it becomes an
// error of the field).
func Scalar[T any](name string, marshal func(T) gqlgraphql.Marshaler, unmarshal func(any) (T, error)) LoadOption {
	return func(o *loadOptions) {
		o.scalars = append(o.scalars, func(p *Project) {
			sd := schemadef.BuilderOf(p.Builder)
			sd.ScalarOf(name, reflect.TypeFor[T](), func(buf []byte, ptr unsafe.Pointer) ([]byte, error) {
				w := &appendWriter{buf: buf}
				if m := marshal(*(*T)(ptr)); m != nil {
					m.MarshalGQL(w)
				} else {
					w.buf = append(w.buf, "null"...)
				}
				return w.buf, nil
			}, func(ptr unsafe.Pointer, v any) error {
				t, err := unmarshal(v)
				if err != nil {
					return err
				}
				*(*T)(ptr) = t
				return nil
			})
		})
	}
}
