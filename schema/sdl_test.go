package schema_test

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/sdl")

// Go types of the schema-first tests.
type (
	sdlBook struct {
		ID     schema.ID
		Title  string
		Tags   []string
		Status sdlStatus
		Note   *string
	}
	sdlAuthor struct {
		Name string
	}
	sdlStatus  string
	sdlMedia   interface{ media() }
	sdlNode    interface{ node() }
	sdlBookArg struct{ ID schema.ID }
	sdlPageArg struct {
		First *int
	}
	sdlMoney struct{ cents int }
)

func (sdlBook) media()   {}
func (sdlAuthor) media() {}
func (sdlBook) node()    {}

func (m sdlMoney) MarshalGraphQL() (any, error) { return m.cents, nil }
func (m *sdlMoney) UnmarshalGraphQL(v any) error {
	n, _ := v.(int64)
	m.cents = int(n)
	return nil
}

var sdlBooks = []sdlBook{{ID: "b1", Title: "Dune", Tags: []string{"sf"}, Status: "OUT"}}

// sdlBase is a document the bindings of sdlBaseBindings fit exactly; each
// golden case breaks one of the two.
const sdlBase = `"""A book."""
type Book implements Node {
  id: ID!
  title: String!
  tags: [String!]!
  status: Status!
  note: String
}

type Author {
  name: String!
}

interface Node {
  id: ID!
}

union Media = Book | Author

enum Status {
  IN
  OUT
}

type Query {
  book(id: ID!): Book
  books(first: Int = 10): [Book!]!
  media: [Media!]!
}
`

type sdlBindings struct {
	statusValues []schema.EnumValueDef[sdlStatus]
	implements   []string
	members      []string
	extra        func(b *schema.Builder)
	bookArgs     bool
}

func (o sdlBindings) apply(b *schema.Builder) {
	values := o.statusValues
	if values == nil {
		values = []schema.EnumValueDef[sdlStatus]{{Name: "IN", Value: "IN"}, {Name: "OUT", Value: "OUT"}}
	}
	schema.Enum(b, "Status", values)
	schema.Interface[sdlNode](b, "Node")
	schema.Union[sdlMedia](b, "Media", o.members)
	schema.Object[sdlBook](b, "Book", schema.Implements(o.implements...))
	schema.Object[sdlAuthor](b, "Author")
	schema.Query(b, "book", func(_ context.Context, a sdlBookArg) (*sdlBook, error) {
		return &sdlBooks[0], nil
	})
	schema.Query(b, "books", func(_ context.Context, a sdlPageArg) ([]sdlBook, error) {
		return sdlBooks, nil
	})
	schema.QueryNoArgs(b, "media", func(context.Context) ([]sdlMedia, error) {
		return []sdlMedia{sdlBooks[0], sdlAuthor{Name: "Herbert"}}, nil
	})
	if o.extra != nil {
		o.extra(b)
	}
}

func TestSDLBindsExactly(t *testing.T) {
	b := schema.New().SDL("books.graphql", sdlBase)
	sdlBindings{}.apply(b)
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if s.SDL() != sdlBase {
		t.Errorf("SDL() = %s", s.SDL())
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	resp := grafttest.New(r).Do(t, `{ book(id: "b1") { id title tags status note } books { id }
		media { __typename ... on Author { name } ... on Book { title } }
		__type(name: "Book") { description fields { name } } }`, nil)
	want := `{"data":{"book":{"id":"b1","title":"Dune","tags":["sf"],"status":"OUT","note":null},"books":[{"id":"b1"}],` +
		`"media":[{"__typename":"Book","title":"Dune"},{"__typename":"Author","name":"Herbert"}],` +
		`"__type":{"description":"A book.","fields":[{"name":"id"},{"name":"title"},{"name":"tags"},{"name":"status"},{"name":"note"}]}}}`
	if string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
}

// TestSDLBuildErrors checks Build's errors, every one with its position
// in the document, for a broken variant of each kind of mismatch; the
// messages are in testdata/sdl/<case>.golden (go test -update rewrites
// them).
func TestSDLBuildErrors(t *testing.T) {
	cases := []struct {
		name string
		sdl  func(string) string
		bind sdlBindings
	}{
		{"missing_resolver", func(s string) string {
			return strings.Replace(s, "  name: String!\n", "  name: String!\n  born: Int!\n", 1)
		}, sdlBindings{}},
		{"resolver_not_in_sdl", nil, sdlBindings{extra: func(b *schema.Builder) {
			schema.QueryNoArgs(b, "bestseller", func(context.Context) (*sdlBook, error) { return nil, nil })
		}}},
		{"argument_name", func(s string) string {
			return strings.Replace(s, "books(first: Int = 10)", "books(limit: Int = 10)", 1)
		}, sdlBindings{}},
		{"argument_type", func(s string) string {
			return strings.Replace(s, "books(first: Int = 10)", "books(first: String = \"10\")", 1)
		}, sdlBindings{}},
		{"nullable_argument", func(s string) string {
			return strings.Replace(s, "book(id: ID!)", "book(id: ID)", 1)
		}, sdlBindings{}},
		{"field_type", func(s string) string {
			return strings.Replace(s, "  title: String!\n", "  title: Int!\n", 1)
		}, sdlBindings{}},
		{"list_shape", func(s string) string {
			return strings.Replace(strings.Replace(s, "tags: [String!]!", "tags: [[String!]!]!", 1), "  title: String!\n", "  title: [String!]!\n", 1)
		}, sdlBindings{}},
		{"enum_values", nil, sdlBindings{statusValues: []schema.EnumValueDef[sdlStatus]{
			{Name: "IN", Value: "IN"}, {Name: "LOST", Value: "LOST"}}}},
		{"interface_membership", nil, sdlBindings{implements: []string{"Node", "Media"}}},
		{"union_membership", nil, sdlBindings{members: []string{"Book"}}},
		{"scalar_without_go_type", func(s string) string {
			return s + "scalar Money\n\ntype Price {\n  amount: Money!\n}\n"
		}, sdlBindings{}},
		{"enum_without_go_type", func(s string) string {
			return s + "enum Color {\n  RED\n}\n"
		}, sdlBindings{}},
		{"object_without_go_type", func(s string) string {
			return s + "type Shelf {\n  books: [Book!]!\n}\n\nunion Thing = Shelf | Author\n"
		}, sdlBindings{}},
		{"mutation_not_in_sdl", nil, sdlBindings{extra: func(b *schema.Builder) {
			schema.Mutation(b, "borrow", func(context.Context, sdlBookArg) (bool, error) { return true, nil })
		}}},
		{"go_type_not_in_sdl", nil, sdlBindings{extra: func(b *schema.Builder) {
			schema.Scalar[sdlMoney](b, "Money")
			schema.Enum(b, "Color", []schema.EnumValueDef[int]{{Name: "RED", Value: 1}})
		}}},
		{"bad_document", func(s string) string {
			return strings.Replace(s, "union Media = Book | Author", "union Media = Book | Missing", 1)
		}, sdlBindings{}},
		{"every_mismatch_at_once", func(s string) string {
			s = strings.Replace(s, "  name: String!\n", "  name: String!\n  born: Int!\n", 1)
			s = strings.Replace(s, "books(first: Int = 10)", "books(limit: Int = 10)", 1)
			s = strings.Replace(s, "  title: String!\n", "  title: Int!\n", 1)
			return s + "scalar Money\n"
		}, sdlBindings{members: []string{"Book"}, statusValues: []schema.EnumValueDef[sdlStatus]{{Name: "IN", Value: "IN"}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := sdlBase
			if tc.sdl != nil {
				doc = tc.sdl(doc)
			}
			b := schema.New().SDL("books.graphql", doc)
			tc.bind.apply(b)
			_, err := b.Build()
			if err == nil {
				t.Fatal("Build succeeded")
			}
			var be *schema.BuildError
			// Go declarations the document has no place for have no
			// position.
			goOnly := tc.name == "mutation_not_in_sdl" || tc.name == "go_type_not_in_sdl"
			if !errors.As(err, &be) || be.Line == 0 && !goOnly {
				t.Errorf("no *BuildError with a position in %v", err)
			}
			got := err.Error() + "\n"
			golden := filepath.Join("testdata", "sdl", tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func serveSDL(t *testing.T, b *schema.Builder) *grafttest.Client {
	t.Helper()
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

type (
	plainShelf struct {
		Name   string
		Books  []plainBook
		secret int
	}
	plainBook struct {
		Title    string
		PageCnt  int `graphql:"pages"`
		Internal string
		Genre    plainGenre
	}
	plainGenre  string
	plainFilter struct {
		Prefix *string
		Genre  *plainGenre
	}
	plainArgs struct {
		Filter *plainFilter
	}
)

// TestSDLPlainModels binds object and input types of the document to Go
// structs met at their places, with no declaration: fields by their
// GraphQL name or graphql tag, extra struct fields left out.
func TestSDLPlainModels(t *testing.T) {
	b := schema.New().SDL("shelf.graphql", `type Query {
  shelf(filter: Filter): Shelf!
}

type Shelf {
  name: String!
  books: [Book!]!
}

type Book {
  title: String
  pages: Int!
  genre: Genre!
}

enum Genre {
  SF
  FANTASY
}

input Filter {
  prefix: String
  genre: Genre
}
`)
	schema.Query(b, "shelf", func(_ context.Context, a plainArgs) (plainShelf, error) {
		s := plainShelf{Name: "sf", Books: []plainBook{{Title: "Dune", PageCnt: 412, Genre: "SF"}, {Title: "Solaris", PageCnt: 204, Genre: "SF"}, {Title: "Earthsea", Genre: "FANTASY"}, {Title: "Bad", Genre: "POEM"}}}
		if f := a.Filter; f != nil {
			var kept []plainBook
			for _, bk := range s.Books {
				if (f.Prefix == nil || strings.HasPrefix(bk.Title, *f.Prefix)) && (f.Genre == nil || bk.Genre == *f.Genre) {
					kept = append(kept, bk)
				}
			}
			s.Books = kept
		}
		return s, nil
	})
	c := serveSDL(t, b)
	resp := c.Do(t, `{ shelf(filter: {prefix: "S"}) { name books { title pages genre } } }`, nil)
	if want := `{"data":{"shelf":{"name":"sf","books":[{"title":"Solaris","pages":204,"genre":"SF"}]}}}`; string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
	resp = c.Do(t, `{ shelf(filter: {genre: FANTASY}) { books { title genre } } }`, nil)
	if want := `{"data":{"shelf":{"books":[{"title":"Earthsea","genre":"FANTASY"}]}}}`; string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
	// A Go value that is not one of the enum's names is a field error.
	resp = c.Do(t, `{ shelf(filter: {prefix: "B"}) { books { genre } } }`, nil)
	if want := `{"errors":[{"message":"enum Genre cannot represent value \"POEM\"","locations":[{"line":1,"column":42}],"path":["shelf","books",0,"genre"]}],"data":null}`; string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
	resp = c.Do(t, `{ shelf { books { internal } } }`, nil)
	resp.WantError(t, 400, "GRAPHQL_VALIDATION_FAILED")
}

// TestSDLNonNullBoundToPointer shows the documented rule: a non-null
// field may be bound to a Go pointer, and a nil there is a field error
// that nulls the parent, as for any non-null field.
func TestSDLNonNullBoundToPointer(t *testing.T) {
	b := schema.New().SDL("q.graphql", "type Query {\n  book: Book!\n  ok: Boolean!\n}\n\ntype Book {\n  title: String!\n}\n")
	schema.QueryNoArgs(b, "book", func(context.Context) (*plainBook, error) { return nil, nil })
	schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
	resp := serveSDL(t, b).Do(t, `{ ok book { title } }`, nil)
	want := `{"errors":[{"message":"Cannot return null for non-nullable field Query.book.","locations":[{"line":1,"column":6}],"path":["book"]}],"data":null}`
	if string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
}

// TestSDLRootNames serves a document whose root types have their own
// names.
func TestSDLRootNames(t *testing.T) {
	doc := "schema {\n  query: Q\n  mutation: M\n}\n\ntype Q {\n  n: Int!\n}\n\ntype M {\n  inc(by: Int! = 1): Int!\n}\n"
	b := schema.New().SDL("roots.graphql", doc)
	n := 0
	schema.QueryNoArgs(b, "n", func(context.Context) (int, error) { return n, nil })
	schema.Mutation(b, "inc", func(_ context.Context, a struct{ By int }) (int, error) { n += a.By; return n, nil })
	c := serveSDL(t, b)
	resp := c.Do(t, `mutation { a: inc b: inc(by: 2) }`, nil)
	if want := `{"data":{"a":1,"b":3}}`; string(resp.Body) != want {
		t.Errorf("got %s, want %s", resp.Body, want)
	}
	resp = c.Do(t, `{ n __schema { queryType { name } mutationType { name } } }`, nil)
	if want := `{"data":{"n":3,"__schema":{"queryType":{"name":"Q"},"mutationType":{"name":"M"}}}}`; string(resp.Body) != want {
		t.Errorf("got %s, want %s", resp.Body, want)
	}
}

// TestSDLDirectives runs the Go function of a directive the document
// applies, and reports @deprecated from the document.
func TestSDLDirectives(t *testing.T) {
	doc := `directive @upper on FIELD_DEFINITION

type Query {
  name: String! @upper
  old: String @deprecated(reason: "use name")
}
`
	b := schema.New().SDL("d.graphql", doc)
	b.DeclareDirective(schema.DirectiveDef{Name: "upper", Locations: []schema.DirectiveLocation{schema.LocationFieldDefinition},
		Func: func(ctx context.Context, _ map[string]any, next func(context.Context) (any, error)) (any, error) {
			v, err := next(ctx)
			if s, ok := v.(string); ok {
				return strings.ToUpper(s), err
			}
			return v, err
		}})
	schema.QueryNoArgs(b, "name", func(context.Context) (string, error) { return "luke", nil })
	schema.QueryNoArgs(b, "old", func(context.Context) (*string, error) { return nil, nil })
	resp := serveSDL(t, b).Do(t, `{ name __type(name: "Query") { fields(includeDeprecated: true) { name deprecationReason } } }`, nil)
	want := `{"data":{"name":"LUKE","__type":{"fields":[{"name":"name","deprecationReason":null},{"name":"old","deprecationReason":"use name"}]}}}`
	if string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}

	// A declared directive whose definition differs from the document's.
	b = schema.New().SDL("d.graphql", doc)
	b.DeclareDirective(schema.DirectiveDef{Name: "upper", Args: "strict: Boolean", Locations: []schema.DirectiveLocation{schema.LocationFieldDefinition, schema.LocationObject}})
	schema.QueryNoArgs(b, "name", func(context.Context) (string, error) { return "luke", nil })
	schema.QueryNoArgs(b, "old", func(context.Context) (*string, error) { return nil, nil })
	_, err := b.Build()
	wantErr := "schema: d.graphql:1:12: directive @upper: Go declares locations FIELD_DEFINITION | OBJECT, the SDL FIELD_DEFINITION\n" +
		"schema: d.graphql:1:12: directive @upper: Go declares arguments (strict: Boolean), the SDL ()"
	if err == nil || err.Error() != wantErr {
		t.Errorf("err = %v\nwant %s", err, wantErr)
	}
}

// TestSDLFiles reads documents by glob pattern, in name order, and
// reports a pattern that matches nothing.
func TestSDLFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.graphqls"), []byte("type Query {\n  book: Book\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.graphqls"), []byte("type Book {\n  title: String!\n  isbn: String\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := schema.New().SDLFiles(filepath.Join(dir, "*.graphqls"))
	schema.QueryNoArgs(b, "book", func(context.Context) (*plainBook, error) { return &plainBook{Title: "Dune"}, nil })
	_, err := b.Build()
	var be *schema.BuildError
	if !errors.As(err, &be) || be.File != filepath.Join(dir, "b.graphqls") || be.Line != 3 || be.Column != 3 {
		t.Fatalf("err = %v, want Book.isbn at b.graphqls:3:3", err)
	}
	b = schema.New().SDLFiles(filepath.Join(dir, "*.graphqls"), filepath.Join(dir, "none-*.graphql"))
	_, err = b.Build()
	if err == nil || !strings.Contains(err.Error(), "none-*.graphql\": matches no file") {
		t.Fatalf("err = %v", err)
	}
}

// TestSDLBuildTwice builds one schema-first builder twice: the bindings
// made by the first Build check equal the second time.
func TestSDLBuildTwice(t *testing.T) {
	b := schema.New().SDL("books.graphql", sdlBase+"\ndirective @tag(name: String!) on FIELD_DEFINITION\n")
	sdlBindings{}.apply(b)
	for i := 0; i < 2; i++ {
		s, err := b.Build()
		if err != nil {
			t.Fatalf("build %d: %v", i, err)
		}
		if !strings.HasSuffix(s.SDL(), "directive @tag(name: String!) on FIELD_DEFINITION\n") {
			t.Fatalf("build %d: SDL %s", i, s.SDL())
		}
	}
}

// TestSDLIncrementalDelivery enables @defer and @stream on a schema-first
// builder whose document does not define them: they are supplied, and
// printed after the document.
func TestSDLIncrementalDelivery(t *testing.T) {
	b := schema.New().SDL("q.graphql", "type Query {\n  ok: Boolean!\n}\n")
	b.EnableIncrementalDelivery()
	schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.SDL(), "type Query {\n  ok: Boolean!\n}\n\n") || !strings.Contains(s.SDL(), "directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT") {
		t.Errorf("SDL:\n%s", s.SDL())
	}
	resp := serveSDL(t, b).Do(t, `{ ok ... @defer(label: "x") { ok } }`, nil)
	if resp.Status != 200 {
		t.Errorf("status %d: %s", resp.Status, resp.Body)
	}
}

// TestSDLSubscription serves a subscription field of the document on
// both streaming transports.
func TestSDLSubscription(t *testing.T) {
	doc := "type Query {\n  ok: Boolean!\n}\n\ntype Subscription {\n  ticks(n: Int!): Tick!\n}\n\ntype Tick {\n  i: Int!\n}\n"
	type tick struct{ I int }
	b := schema.New().SDL("s.graphql", doc)
	schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
	schema.Subscription(b, "ticks", func(_ context.Context, a struct{ N int }) (<-chan tick, error) {
		ch := make(chan tick, a.N)
		for i := range a.N {
			ch <- tick{I: i}
		}
		close(ch)
		return ch, nil
	})
	c := serveSDL(t, b)
	for _, tr := range []grafttest.Transport{grafttest.SSE, grafttest.WebSocket} {
		t.Run(tr.String(), func(t *testing.T) {
			sub := c.Subscribe(t, tr, `subscription { ticks(n: 2) { i } }`, nil)
			var got []string
			for {
				resp, ok := sub.Next(t)
				if !ok {
					break
				}
				got = append(got, string(resp.Body))
			}
			if want := `{"data":{"ticks":{"i":0}}} {"data":{"ticks":{"i":1}}}`; strings.Join(got, " ") != want {
				t.Errorf("got %q, want %s", got, want)
			}
		})
	}
}

// TestSDLUpload binds the document's Upload scalar to schema.Upload.
func TestSDLUpload(t *testing.T) {
	b := schema.New().SDL("u.graphql", "scalar Upload\n\ntype Query {\n  ok: Boolean!\n}\n\ntype Mutation {\n  size(file: Upload!): Int!\n}\n")
	schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
	schema.Mutation(b, "size", func(_ context.Context, a struct{ File schema.Upload }) (int, error) { return int(a.File.Size), nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if s.AST().Types["Upload"] == nil {
		t.Fatal("no Upload type")
	}
}
