package validate_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/schema"
	"github.com/graftgql/graft/validate"
)

type AddBookInput struct {
	Title  string   `validate:"min=1,max=200"`
	ISBN   string   `graphql:"isbn" validate:"len=13,number,startswith=978|startswith=979"`
	Tags   []string `validate:"max=5,dive,min=1,max=20"`
	Rating *int     `validate:"min=1,max=5"`
	Email  *string  `validate:"email"`
	Code   string   `validate:"omitempty,pattern=^[A-Z]{2,3}$"`
	Extra  *Extra
}

type Extra struct {
	Kind string `validate:"oneof=paper ebook"`
}

type addArgs struct {
	Input AddBookInput
	Count int `validate:"gte=0,lt=10"`
}

func newClient(t *testing.T, runs *atomic.Int32) *grafttest.Client {
	t.Helper()
	b := schema.New()
	schema.Input[AddBookInput](b, "AddBookInput")
	schema.Input[Extra](b, "Extra")
	schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
	schema.Mutation(b, "addBook", func(_ context.Context, a addArgs) (string, error) {
		runs.Add(1)
		return a.Input.Title, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return grafttest.New(r)
}

const addBook = `mutation($in: AddBookInput!, $n: Int!) { addBook(input: $in, count: $n) }`

func TestValidInputRuns(t *testing.T) {
	var runs atomic.Int32
	c := newClient(t, &runs)
	resp := c.Do(t, addBook, map[string]any{"n": 0, "in": map[string]any{
		"title": "Go", "isbn": "9790000000001", "tags": []any{"a", "b"}, "rating": 5, "email": "a@b.c", "code": "", "extra": map[string]any{"kind": "ebook"}}})
	resp.NoErrors(t)
	if runs.Load() != 1 {
		t.Fatalf("runs = %d", runs.Load())
	}
}

// TestEveryViolationAtOnce checks that one request breaking many rules
// gets one BAD_USER_INPUT error listing each with its path, and that the
// resolver does not run.
func TestEveryViolationAtOnce(t *testing.T) {
	var runs atomic.Int32
	c := newClient(t, &runs)
	resp := c.Do(t, addBook, map[string]any{"n": 10, "in": map[string]any{
		"title": "", "isbn": "12345678901x", "tags": []any{"ok", "", "a-tag-that-is-far-too-long", "d", "e", "f"},
		"rating": 0, "email": "nope", "code": "abc", "extra": map[string]any{"kind": "scroll"}}})
	if runs.Load() != 0 {
		t.Fatal("the resolver ran")
	}
	e := resp.ErrorWithCode(t, graft.CodeBadUserInput)
	if e == nil || len(resp.Errors) != 1 {
		t.Fatalf("want one BAD_USER_INPUT error: %s", resp.Body)
	}
	got, _ := json.Marshal(e.Extensions["violations"])
	want := `[{"constraint":"min","message":"must be at least 1 character long","path":["input","title"]},` +
		`{"constraint":"len","message":"must be 13 characters long","path":["input","isbn"]},` +
		`{"constraint":"number","message":"must contain only digits","path":["input","isbn"]},` +
		`{"constraint":"startswith","message":"must start with \"978\" or must start with \"979\"","path":["input","isbn"]},` +
		`{"constraint":"max","message":"must have at most 5 items","path":["input","tags"]},` +
		`{"constraint":"min","message":"must be at least 1 character long","path":["input","tags",1]},` +
		`{"constraint":"max","message":"must be at most 20 characters long","path":["input","tags",2]},` +
		`{"constraint":"min","message":"must be at least 1","path":["input","rating"]},` +
		`{"constraint":"email","message":"must be an email address","path":["input","email"]},` +
		`{"constraint":"pattern","message":"must match ^[A-Z]{2,3}$","path":["input","code"]},` +
		`{"constraint":"oneof","message":"must be one of paper, ebook","path":["input","extra","kind"]},` +
		`{"constraint":"lt","message":"must be less than 10","path":["count"]}]`
	if string(got) != want {
		t.Errorf("violations =\n%s\nwant\n%s", got, want)
	}
	if !strings.HasPrefix(e.Message, "Invalid input: input.title: must be at least 1 character long; input.isbn:") ||
		len(e.Path) != 1 || e.Path[0] != "addBook" {
		t.Errorf("error = %q at %v", e.Message, e.Path)
	}
}

func TestLiteralsAreCheckedToo(t *testing.T) {
	var runs atomic.Int32
	c := newClient(t, &runs)
	resp := c.Do(t, `mutation { addBook(count: 1, input: {title: "x", isbn: "9780000000001", tags: ["x", ""], code: ""}) }`, nil)
	e := resp.ErrorWithCode(t, graft.CodeBadUserInput)
	if e == nil || runs.Load() != 0 {
		t.Fatalf("%s", resp.Body)
	}
	if vs := e.Extensions["violations"].([]any); len(vs) != 1 {
		t.Errorf("violations = %v", vs)
	}
}

func TestMalformedTagsFailTheBuild(t *testing.T) {
	for name, declare := range map[string]func(b *schema.Builder){
		"unknown rule": func(b *schema.Builder) {
			schema.Query(b, "q", func(context.Context, struct {
				A string `validate:"shiny"`
			}) (bool, error) {
				return true, nil
			})
		},
		"max on a bool": func(b *schema.Builder) {
			schema.Query(b, "q", func(context.Context, struct {
				A bool `validate:"max=1"`
			}) (bool, error) {
				return true, nil
			})
		},
		"email on an int": func(b *schema.Builder) {
			schema.Query(b, "q", func(context.Context, struct {
				A int `validate:"email"`
			}) (bool, error) {
				return true, nil
			})
		},
		"max without a number": func(b *schema.Builder) {
			schema.Query(b, "q", func(context.Context, struct {
				A string `validate:"max=x"`
			}) (bool, error) {
				return true, nil
			})
		},
		"bad pattern": func(b *schema.Builder) {
			schema.Query(b, "q", func(context.Context, struct {
				A string `validate:"pattern=("`
			}) (bool, error) {
				return true, nil
			})
		},
		"dive on a string": func(b *schema.Builder) {
			schema.Query(b, "q", func(context.Context, struct {
				A string `validate:"dive,min=1"`
			}) (bool, error) {
				return true, nil
			})
		},
		"empty rule": func(b *schema.Builder) {
			schema.Query(b, "q", func(context.Context, struct {
				A string `validate:"min=1,,max=2"`
			}) (bool, error) {
				return true, nil
			})
		},
	} {
		b := schema.New()
		declare(b)
		if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), "validate tag") {
			t.Errorf("%s: Build = %v", name, err)
		}
	}
}

func TestStruct(t *testing.T) {
	err := validate.Struct(&AddBookInput{Title: "Go", ISBN: "9781234567890", Tags: []string{"x"}})
	if err != nil {
		t.Fatalf("a valid struct: %v", err)
	}
	err = validate.Struct(AddBookInput{ISBN: "9781234567890"})
	var ve *validate.Error
	if !asError(err, &ve) || len(ve.Violations) != 1 || ve.Violations[0].Field() != "title" {
		t.Fatalf("Struct = %v", err)
	}
	if err := validate.Struct(42); err == nil {
		t.Error("Struct(42) succeeded")
	}
}

func asError(err error, target **validate.Error) bool {
	e, ok := err.(*validate.Error)
	*target = e
	return ok
}
