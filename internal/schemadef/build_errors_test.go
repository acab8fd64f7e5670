package schemadef_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unsafe"

	schema "github.com/graftgql/graft/internal/schemadef"
)

type (
	errPet interface{ pet() }
	errDog struct{ Name string }
	errCat struct{ Lives int }

	withChan    struct{ C chan int }
	withFunc    struct{ F func() }
	withMap     struct{ M map[string]int }
	withComplex struct{ Z complex128 }
	withUnsafe  struct{ P unsafe.Pointer }
	withAny     struct{ V any }
	plain       struct{ Name string }
	twoNames    struct {
		A string `graphql:"same"`
		B string `graphql:"same"`
	}
	badDefault struct {
		First *int `default:"\"ten\""`
	}
	badEnumDefault struct {
		Ep *errEpisode `default:"SEVEN"`
	}
	nullDefault struct {
		First int `default:"null"`
	}
	hugeDefault struct {
		First *int `default:"99999999999"`
	}
	notLiteral struct {
		First *int `default:"{{"`
	}
	errEpisode int
)

func (errDog) pet() {}
func (errCat) pet() {}

func noop[R any](context.Context) (R, error) {
	var r R
	return r, nil
}

func withQuery(b *schema.Builder) *schema.Builder {
	schema.QueryNoArgs(b, "ok", noop[string])
	return b
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name      string
		build     func() *schema.Builder
		typ, fld  string
		substring string
	}{
		{"missing Query", schema.New, "Query", "", "no Query fields"},
		{"duplicate type names", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[plain](b, "Thing")
			schema.Object[errDog](b, "Thing")
			return b
		}, "Thing", "", "duplicate type name"},
		{"duplicate struct field names", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[twoNames](b, "Two")
			return b
		}, "Two", "same", "duplicate field name"},
		{"duplicate resolver field names", func() *schema.Builder {
			b := schema.New()
			schema.QueryNoArgs(b, "x", noop[string])
			schema.QueryNoArgs(b, "x", noop[int])
			return b
		}, "Query", "x", "duplicate field name"},
		{"chan field", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[withChan](b, "T")
			return b
		}, "T", "c", "unsupported Go type chan int"},
		{"func field", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[withFunc](b, "T")
			return b
		}, "T", "f", "unsupported Go type func()"},
		{"map field", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[withMap](b, "T")
			return b
		}, "T", "m", "unsupported Go type map[string]int"},
		{"complex field", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[withComplex](b, "T")
			return b
		}, "T", "z", "unsupported Go type complex128"},
		{"unsafe pointer field", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[withUnsafe](b, "T")
			return b
		}, "T", "p", "unsupported Go type unsafe.Pointer"},
		{"undeclared Go interface", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[withAny](b, "T")
			return b
		}, "T", "v", "not the Go type of an interface or union"},
		{"unsupported resolver result", func() *schema.Builder {
			b := schema.New()
			schema.QueryNoArgs(b, "m", noop[map[string]string])
			return b
		}, "Query", "m", "unsupported Go type"},
		{"interface without implementations", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Interface[errPet](b, "Pet").Field("name", "String")
			return b
		}, "Pet", "", "no implementations"},
		{"object missing an interface field", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Interface[errPet](b, "Pet").Field("name", "String")
			schema.Object[errCat](b, "Cat", schema.Implements("Pet"))
			return b
		}, "Cat", "name", "missing field name of interface Pet"},
		{"object field of the wrong type", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Interface[errPet](b, "Pet").Field("lives", "String")
			schema.Object[errCat](b, "Cat", schema.Implements("Pet"))
			return b
		}, "Cat", "lives", "does not fit type String of interface Pet"},
		{"object field less strict than the interface", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Interface[errPet](b, "Pet").Field("name", "String!")
			schema.Object[errDog](b, "Dog", schema.Implements("Pet"))
			o := schema.Object[errCat](b, "Cat", schema.Implements("Pet"))
			schema.FieldFuncNoArgs(o, "name", func(context.Context, *errCat) (*string, error) { return nil, nil })
			return b
		}, "Cat", "name", "does not fit type String!"},
		{"implements an unknown interface", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[errCat](b, "Cat", schema.Implements("Animal"))
			return b
		}, "Cat", "", `unknown interface "Animal"`},
		{"implements a non-interface", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[errDog](b, "Dog")
			schema.Object[errCat](b, "Cat", schema.Implements("Dog"))
			return b
		}, "Cat", "", "not an interface"},
		{"type override with another named type", func() *schema.Builder {
			b := schema.New()
			schema.QueryNoArgs(b, "n", noop[int], schema.OfType("String"))
			return b
		}, "Query", "n", "type String does not fit Go type int"},
		{"type override with a list on a scalar", func() *schema.Builder {
			b := schema.New()
			schema.QueryNoArgs(b, "n", noop[string], schema.OfType("[String]"))
			return b
		}, "Query", "n", "a list needs a slice"},
		{"type override with an unknown type", func() *schema.Builder {
			b := schema.New()
			schema.QueryNoArgs(b, "n", noop[string], schema.OfType("Strin"))
			return b
		}, "Query", "n", `unknown type "Strin"`},
		{"type override that is not a type", func() *schema.Builder {
			b := schema.New()
			schema.QueryNoArgs(b, "n", noop[string], schema.OfType("[String"))
			return b
		}, "Query", "n", "is not a GraphQL type"},
		{"interface field of an unknown type", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Interface[errPet](b, "Pet").Field("name", "Nom")
			schema.Object[errDog](b, "Dog", schema.Implements("Pet"))
			return b
		}, "Pet", "name", `unknown type "Nom"`},
		{"union with an unknown member", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Union[errPet](b, "Pets", []string{"Dog", "Hamster"})
			schema.Object[errDog](b, "Dog")
			return b
		}, "Pets", "", `unknown member type "Hamster"`},
		{"default of the wrong type", func() *schema.Builder {
			b := schema.New()
			schema.Query(b, "n", func(context.Context, badDefault) (int, error) { return 0, nil })
			return b
		}, "Query", "n(first)", `default "ten" does not fit type Int`},
		{"default outside 32 bits", func() *schema.Builder {
			b := schema.New()
			schema.Query(b, "n", func(context.Context, hugeDefault) (int, error) { return 0, nil })
			return b
		}, "Query", "n(first)", "does not fit type Int"},
		{"null default for a non-null argument", func() *schema.Builder {
			b := schema.New()
			schema.Query(b, "n", func(context.Context, nullDefault) (int, error) { return 0, nil })
			return b
		}, "Query", "n(first)", "null for a non-null type"},
		{"undeclared enum value as default", func() *schema.Builder {
			b := schema.New()
			schema.Enum(b, "Episode", []schema.EnumValueDef[errEpisode]{{Name: "ONE", Value: 1}})
			schema.Query(b, "n", func(context.Context, badEnumDefault) (int, error) { return 0, nil })
			return b
		}, "Query", "n(ep)", "SEVEN is not a value of enum Episode"},
		{"default that is not a literal", func() *schema.Builder {
			b := schema.New()
			schema.Query(b, "n", func(context.Context, notLiteral) (int, error) { return 0, nil })
			return b
		}, "Query", "n(first)", "is not a GraphQL literal"},
		{"argument type that is not a struct", func() *schema.Builder {
			b := schema.New()
			schema.Query(b, "n", func(context.Context, int) (int, error) { return 0, nil })
			return b
		}, "Query", "n", "must be a struct"},
		{"object from a non-struct", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[int](b, "Number")
			return b
		}, "Number", "", "needs a struct type"},
		{"invalid type name", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[plain](b, "my-type")
			return b
		}, "my-type", "", "not a valid GraphQL type name"},
		{"reserved type name", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Object[plain](b, "__Plain")
			return b
		}, "__Plain", "", "reserved"},
		{"enum without values", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Enum[errEpisode](b, "Episode", nil)
			return b
		}, "Episode", "", "at least one value"},
		{"duplicate enum value", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Enum(b, "Episode", []schema.EnumValueDef[errEpisode]{{Name: "A", Value: 1}, {Name: "A", Value: 2}})
			return b
		}, "Episode", "A", "duplicate enum value"},
		{"scalar without Marshaler", func() *schema.Builder {
			b := withQuery(schema.New())
			schema.Scalar[plain](b, "Plain")
			return b
		}, "Plain", "", "does not implement schema.Marshaler"},
		{"input type as a field type", func() *schema.Builder {
			b := schema.New()
			schema.Input[plain](b, "PlainInput")
			schema.QueryNoArgs(b, "p", noop[string], schema.OfType("PlainInput"))
			return b
		}, "Query", "p", "input type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.build().Build()
			if err == nil {
				t.Fatalf("Build succeeded, want an error; SDL:\n%s", s.SDL())
			}
			if s != nil {
				t.Errorf("Build returned a schema along with the error")
			}
			var found bool
			for _, e := range buildErrors(err) {
				if e.Type == tt.typ && e.Field == tt.fld && strings.Contains(e.Message, tt.substring) {
					found = true
				}
			}
			if !found {
				t.Errorf("no BuildError{Type: %q, Field: %q} containing %q in:\n%v", tt.typ, tt.fld, tt.substring, err)
			}
		})
	}
}

// buildErrors unpacks the joined errors of Build.
func buildErrors(err error) []*schema.BuildError {
	var out []*schema.BuildError
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return nil
	}
	for _, e := range joined.Unwrap() {
		var be *schema.BuildError
		if errors.As(e, &be) {
			out = append(out, be)
		}
	}
	return out
}

func TestBuildErrorMessage(t *testing.T) {
	tests := []struct {
		err  schema.BuildError
		want string
	}{
		{schema.BuildError{Message: "m"}, "schema: m"},
		{schema.BuildError{Type: "T", Message: "m"}, "schema: T: m"},
		{schema.BuildError{Type: "T", Field: "f", Message: "m"}, "schema: T.f: m"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
