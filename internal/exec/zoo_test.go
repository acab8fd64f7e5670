package exec_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/graftgql/graft/internal/gqlerr"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// The zoo schema exercises the executor: interfaces, unions, lists with
// nullable and non-null items, failing fields, input objects, mutations
// and concurrent resolvers.

type Pet interface{ petName() string }

type Dog struct {
	Name  string
	Barks bool
}

type Cat struct {
	Name  string
	Lives int
}

// Animal is the Go type of the union of Dog and Cat.
type Animal interface{ isAnimal() }

func (d *Dog) petName() string { return d.Name }
func (c *Cat) petName() string { return c.Name }
func (d *Dog) isAnimal()       {}
func (c *Cat) isAnimal()       {}

type Item struct {
	ID  schema.ID
	Bad bool `graphql:"-"`
	Big int64
}

// Pair is a list item whose concurrent field meets its neighbours.
type Pair struct {
	N int
}

type Wrapper struct {
	items []Item
}

type Color string

type EchoInput struct {
	Text  string
	Color *Color
	Tags  []string `default:"[\"x\"]"`
}

type EchoArgs struct {
	Input EchoInput
	Times int `default:"2"`
}

type AddArgs struct {
	N int
}

type PetsArgs struct {
	Only *string
}

type zoo struct {
	mu     sync.Mutex
	total  int
	order  []int
	cancel context.CancelFunc
}

type codedError struct{ code string }

func (e codedError) Error() string              { return "coded failure" }
func (e codedError) Extensions() map[string]any { return map[string]any{"code": e.code, "retry": true} }

var errBadItem = errors.New("bad item")

func newZoo(t testing.TB) (*zoo, *exec.Engine) {
	t.Helper()
	return newZooWith(t, exec.Options{Logger: slog.New(slog.DiscardHandler)})
}

func newZooWith(t testing.TB, opts exec.Options) (*zoo, *exec.Engine) {
	t.Helper()
	z := &zoo{}
	b := schema.New()
	schema.Interface[Pet](b, "Pet").Field("name", "String!")
	schema.Object[Dog](b, "Dog", schema.Implements("Pet"))
	schema.Object[Cat](b, "Cat", schema.Implements("Pet"))
	schema.Union[Animal](b, "Animal", []string{"Dog", "Cat"})
	schema.Enum(b, "Color", []schema.EnumValueDef[Color]{{Name: "RED", Value: "red"}, {Name: "GREEN", Value: "green"}})
	schema.Input[EchoInput](b, "EchoInput")

	item := schema.Object[Item](b, "Item")
	schema.FieldFuncNoArgs(item, "name", func(_ context.Context, it *Item) (string, error) {
		if it.Bad {
			return "", errBadItem
		}
		return "item " + string(it.ID), nil
	})
	wrapper := schema.Object[Wrapper](b, "Wrapper")
	schema.FieldFuncNoArgs(wrapper, "items", func(_ context.Context, w *Wrapper) ([]Item, error) { return w.items, nil })

	items := []Item{{ID: "1"}, {ID: "2", Bad: true}, {ID: "3"}}
	schema.QueryNoArgs(b, "hello", func(context.Context) (string, error) { return "world", nil })
	schema.QueryNoArgs(b, "maybe", func(context.Context) (*string, error) { s := "maybe"; return &s, nil })
	schema.QueryNoArgs(b, "items", func(context.Context) ([]*Item, error) {
		return []*Item{&items[0], &items[1], nil, &items[2]}, nil
	}, schema.OfType("[Item]"))
	schema.QueryNoArgs(b, "strictItems", func(context.Context) ([]*Item, error) {
		return []*Item{&items[0], &items[1]}, nil
	}, schema.OfType("[Item!]"))
	schema.QueryNoArgs(b, "wrapper", func(context.Context) (*Wrapper, error) {
		return &Wrapper{items: items}, nil
	})
	schema.Query(b, "pets", func(_ context.Context, a PetsArgs) ([]Pet, error) {
		all := []Pet{&Dog{Name: "Rex", Barks: true}, &Cat{Name: "Tom", Lives: 9}}
		if a.Only != nil {
			var out []Pet
			for _, p := range all {
				if p.petName() == *a.Only {
					out = append(out, p)
				}
			}
			return out, nil
		}
		return all, nil
	}, schema.OfType("[Pet!]!"))
	schema.QueryNoArgs(b, "animals", func(context.Context) ([]Animal, error) {
		return []Animal{&Cat{Name: "Tom", Lives: 9}, &Dog{Name: "Rex"}}, nil
	}, schema.OfType("[Animal!]!"))
	schema.Query(b, "echo", func(_ context.Context, a EchoArgs) (string, error) {
		color := "none"
		if a.Input.Color != nil {
			color = string(*a.Input.Color)
		}
		return fmt.Sprintf("%s x%d color=%s tags=%v", a.Input.Text, a.Times, color, a.Input.Tags), nil
	})
	schema.QueryNoArgs(b, "boom", func(context.Context) (*string, error) { panic("kaboom") })
	schema.QueryNoArgs(b, "coded", func(context.Context) (*string, error) {
		return nil, fmt.Errorf("wrapped: %w", &gqlerror.Error{Message: "forbidden", Extensions: map[string]any{"code": "FORBIDDEN"}})
	})
	schema.QueryNoArgs(b, "custom", func(context.Context) (*string, error) { return nil, codedError{code: "TEAPOT"} })
	schema.QueryNoArgs(b, "plain", func(context.Context) (*string, error) { return nil, errors.New("plain failure") })
	schema.QueryNoArgs(b, "text", func(context.Context) (string, error) {
		return "q\"b\\n\n\t\x01\x1f<\u2028é😀\xff end", nil
	})
	schema.QueryNoArgs(b, "bigs", func(context.Context) ([]*int, error) {
		one, big, three := 1, int(wide64<<40), 3
		return []*int{&one, &big, &three}, nil
	})
	schema.QueryNoArgs(b, "strictBigs", func(context.Context) ([]int, error) {
		return []int{1, int(wide64 << 40), 3}, nil
	}, schema.OfType("[Int!]"))
	schema.QueryNoArgs(b, "big", func(context.Context) (*int, error) { n := int(wide64 << 40); return &n, nil })
	schema.QueryNoArgs(b, "stop", func(context.Context) (*string, error) {
		if z.cancel != nil {
			z.cancel()
		}
		s := "stopped"
		return &s, nil
	})
	var barrier sync.WaitGroup
	barrier.Add(2)
	rendezvous := func(context.Context) (*string, error) {
		barrier.Done()
		done := make(chan struct{})
		go func() { barrier.Wait(); close(done) }()
		select {
		case <-done:
			s := "met"
			return &s, nil
		case <-time.After(10 * time.Second):
			return nil, errors.New("siblings did not run concurrently")
		}
	}
	// Three list items whose "meet" fields wait for each other: they can
	// only finish when the items' resolvers run together.
	var items3 sync.WaitGroup
	items3.Add(3)
	pair := schema.Object[Pair](b, "Pair")
	schema.FieldFuncNoArgs(pair, "meet", func(_ context.Context, p *Pair) (string, error) {
		items3.Done()
		done := make(chan struct{})
		go func() { items3.Wait(); close(done) }()
		select {
		case <-done:
			return fmt.Sprintf("pair %d met", p.N), nil
		case <-time.After(10 * time.Second):
			return "", errors.New("list items did not run concurrently")
		}
	}, schema.Concurrent())
	schema.QueryNoArgs(b, "pairs", func(context.Context) ([]*Pair, error) {
		return []*Pair{{N: 1}, nil, {N: 2}, {N: 3}}, nil
	})
	schema.QueryNoArgs(b, "left", rendezvous, schema.Concurrent())
	schema.QueryNoArgs(b, "right", rendezvous, schema.Concurrent())
	schema.Mutation(b, "add", func(_ context.Context, a AddArgs) (int, error) {
		z.mu.Lock()
		defer z.mu.Unlock()
		z.total += a.N
		z.order = append(z.order, a.N)
		return z.total, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatalf("build zoo schema: %v", err)
	}
	return z, exec.New(s, opts)
}

// run prepares, selects, coerces and executes, returning the response
// body (or the error response of the phase that failed).
func run(t testing.TB, ctx context.Context, e *exec.Engine, query, opName string, vars map[string]any) string {
	t.Helper()
	doc, errs := e.Prepare(query)
	if errs != nil {
		return string(gqlerr.AppendResponse(nil, errs, nil))
	}
	op, gerr := doc.Operation(opName)
	if gerr != nil {
		return string(gqlerr.AppendResponse(nil, gqlerror.List{gerr}, nil))
	}
	coerced, errs := e.CoerceVariables(op, vars)
	if errs != nil {
		return string(gqlerr.AppendResponse(nil, errs, nil))
	}
	return string(e.Execute(ctx, op, coerced, nil, nil))
}

// wide64 is 1, as a variable: an int past Int's range is then no
// constant, which would not compile where int is 32 bits wide.
var wide64 int64 = 1
