package gqlgen

import (
	"context"
	"errors"
	"fmt"
	gqlgraphql "github.com/99designs/gqlgen/graphql"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/schema"
)

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"id": "ID", "name": "Name", "userId": "UserID", "homeUrl": "HomeURL", "appearsIn": "AppearsIn",
		"posts": "Posts", "api_key": "APIKey", "secretBackstory": "SecretBackstory",
	} {
		if got := goName(in); got != want {
			t.Errorf("goName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A gqlgen project in the usual layout, without generated code.
type (
	Todo struct {
		ID     string
		Text   string
		Done   bool
		UserID string
	}
	User struct {
		ID   string
		Name string
	}
	Resolver      struct{ todos []*Todo }
	queryResolver struct{ *Resolver }
	todoResolver  struct{ *Resolver }
	mutResolver   struct{ *Resolver }
	NewTodo       struct {
		Text   string
		UserID string `graphql:"userId"`
	}
)

func (r *Resolver) Query() *queryResolver                           { return &queryResolver{r} }
func (r *Resolver) Todo() *todoResolver                             { return &todoResolver{r} }
func (r *Resolver) Mutation() *mutResolver                          { return &mutResolver{r} }
func (r *queryResolver) Todos(ctx context.Context) ([]*Todo, error) { return r.todos, nil }
func (r *queryResolver) Todo(ctx context.Context, id string) (*Todo, error) {
	for _, t := range r.todos {
		if t.ID == id {
			return t, nil
		}
	}
	return nil, errors.New("no such todo")
}
func (r *todoResolver) User(ctx context.Context, obj *Todo) (*User, error) {
	return &User{ID: obj.UserID, Name: "user " + obj.UserID}, nil
}
func (r *mutResolver) CreateTodo(ctx context.Context, input NewTodo) (*Todo, error) {
	t := &Todo{ID: "T" + string(rune('0'+len(r.todos))), Text: input.Text, UserID: input.UserID}
	r.todos = append(r.todos, t)
	return t, nil
}

const todoSchema = `type Todo {
  id: ID!
  text: String!
  done: Boolean!
  user: User!
}

type User {
  id: ID!
  name: String!
}

type Query {
  todos: [Todo!]!
  todo(id: ID!): Todo
}

input NewTodo {
  text: String!
  userId: String!
}

type Mutation {
  createTodo(input: NewTodo!): Todo!
}
`

func project(t *testing.T, yml, sdl string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gqlgen.yml"), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "graph"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "graph", "schema.graphqls"), []byte(sdl), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "gqlgen.yml")
}

func TestServesAProject(t *testing.T) {
	cfg := project(t, "schema:\n  - graph/*.graphqls\nmodels:\n  Todo:\n    model: github.com/graftgql/graft/gqlgen.Todo\n", todoSchema)
	c := serveProject(t, cfg, &Resolver{})
	resp := c.Do(t, `mutation { a: createTodo(input: {text: "milk", userId: "u1"}) { id } b: createTodo(input: {text: "eggs", userId: "u2"}) { id text } }`, nil)
	if want := `{"data":{"a":{"id":"T0"},"b":{"id":"T1","text":"eggs"}}}`; string(resp.Body) != want {
		t.Errorf("got %s, want %s", resp.Body, want)
	}
	resp = c.Do(t, `{ todos { id text done user { id name } } todo(id: "nope") { id } }`, nil)
	want := `{"errors":[{"message":"no such todo","locations":[{"line":1,"column":43}],"path":["todo"]}],"data":{"todos":[{"id":"T0","text":"milk","done":false,"user":{"id":"u1","name":"user u1"}},{"id":"T1","text":"eggs","done":false,"user":{"id":"u2","name":"user u2"}}],"todo":null}}`
	if string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
}

// badResolver has methods whose shapes are not gqlgen's.
type (
	badResolver      struct{}
	badQueryResolver struct{}
)

func (badResolver) Query() badQueryResolver                                { return badQueryResolver{} }
func (badQueryResolver) Todos(ctx context.Context, n int) ([]*Todo, error) { return nil, nil }
func (badQueryResolver) Todo(id string) (*Todo, error)                     { return nil, nil }

func TestReportsEveryMismatch(t *testing.T) {
	cfg := project(t, "schema: graph/schema.graphqls\nmodels:\n  Todo:\n    model: example.com/other.Todo\n", "type Query {\n  todos: [Todo!]!\n  todo(id: ID!): Todo\n  count: Int!\n}\n\ntype Todo {\n  id: ID!\n}\n")
	p, err := Load(cfg, badResolver{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Build()
	if err == nil {
		t.Fatal("Build succeeded")
	}
	for _, want := range []string{
		"schema.graphqls:2:3: Query.todos: resolver method Todos has type func(context.Context, int) ([]*gqlgen.Todo, error); gqlgen's shape is func(ctx context.Context) (R, error)",
		"schema.graphqls:3:3: Query.todo: resolver method Todo has type func(string) (*gqlgen.Todo, error); gqlgen's shape is func(ctx context.Context, id T) (R, error)",
		"schema.graphqls:4:3: Query.count: no resolver for count: Int!",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}

	cfg = project(t, "schema: graph/*.graphqls\nmodels:\n  Todo:\n    model: example.com/other.Todo\n", todoSchema)
	p, err = Load(cfg, &Resolver{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Build()
	if want := "gqlgen: models: Todo is example.com/other.Todo in gqlgen.yml, but its resolvers use github.com/graftgql/graft/gqlgen.Todo"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// TestTypedBindings replaces reflective bindings with typed ones, and
// NoReflection names the fields still bound by reflection.
func TestTypedBindings(t *testing.T) {
	cfg := project(t, "schema: graph/*.graphqls\n", todoSchema)
	res := &Resolver{todos: []*Todo{{ID: "T0", Text: "milk", UserID: "u1"}}}
	p, err := Load(cfg, res)
	if err != nil {
		t.Fatal(err)
	}
	schema.QueryNoArgs(p.Builder, "todos", func(ctx context.Context) ([]*Todo, error) { return res.Query().Todos(ctx) })
	todo := schema.Object[Todo](p.Builder, "Todo")
	schema.FieldFuncNoArgs(todo, "user", func(ctx context.Context, obj *Todo) (*User, error) {
		u, err := res.Todo().User(ctx, obj)
		if u != nil {
			u.Name = "typed " + u.Name
		}
		return u, err
	})
	_, err = p.Build(NoReflection())
	if want := "gqlgen: fields bound by reflection (NoReflection): "; err == nil || !strings.HasPrefix(err.Error(), want) ||
		!strings.Contains(err.Error(), "Query.todo") || !strings.Contains(err.Error(), "Mutation.createTodo") || strings.Contains(err.Error(), "Query.todos") || strings.Contains(err.Error(), "Todo.user") {
		t.Fatalf("err = %v", err)
	}
	s, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	resp := grafttest.New(r).Do(t, `{ todos { id user { name } } todo(id: "T0") { text } }`, nil)
	if want := `{"data":{"todos":[{"id":"T0","user":{"name":"typed user u1"}}],"todo":{"text":"milk"}}}`; string(resp.Body) != want {
		t.Errorf("got %s, want %s", resp.Body, want)
	}
}

type (
	chatResolver struct{}
	chatQuery    struct{}
	chatSub      struct{}
	Message      struct {
		Room string
		Text string
	}
)

func (chatResolver) Query() chatQuery                     { return chatQuery{} }
func (chatResolver) Subscription() chatSub                { return chatSub{} }
func (chatQuery) Rooms(context.Context) ([]string, error) { return []string{"go"}, nil }
func (chatSub) MessageAdded(ctx context.Context, room string) (<-chan *Message, error) {
	ch := make(chan *Message, 2)
	ch <- &Message{Room: room, Text: "hello"}
	ch <- &Message{Room: room, Text: "bye"}
	close(ch)
	return ch, nil
}

// TestSubscription serves a gqlgen subscription resolver, a method
// returning a receive-only channel, on both streaming transports.
func TestSubscription(t *testing.T) {
	cfg := project(t, "schema: graph/*.graphqls\n", "type Query {\n  rooms: [String!]!\n}\n\ntype Subscription {\n  messageAdded(room: String!): Message!\n}\n\ntype Message {\n  room: String!\n  text: String!\n}\n")
	c := serveProject(t, cfg, chatResolver{})
	for _, tr := range []grafttest.Transport{grafttest.SSE, grafttest.WebSocket} {
		t.Run(tr.String(), func(t *testing.T) {
			sub := c.Subscribe(t, tr, `subscription { messageAdded(room: "go") { room text } }`, nil)
			var got []string
			for {
				resp, ok := sub.Next(t)
				if !ok {
					break
				}
				got = append(got, string(resp.Body))
			}
			want := `{"data":{"messageAdded":{"room":"go","text":"hello"}}} {"data":{"messageAdded":{"room":"go","text":"bye"}}}`
			if strings.Join(got, " ") != want {
				t.Errorf("got %q\nwant %s", got, want)
			}
		})
	}
}

// Cents is a custom scalar as gqlgen models have them: MarshalGQL and
// UnmarshalGQL.
type Cents int

func (c Cents) MarshalGQL(w io.Writer) { fmt.Fprintf(w, `"%d.%02d"`, c/100, c%100) }

func (c *Cents) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("Cents must be a string like \"1.50\"")
	}
	var units, cents int
	if _, err := fmt.Sscanf(s, "%d.%02d", &units, &cents); err != nil {
		return fmt.Errorf("Cents: %v", err)
	}
	*c = Cents(units*100 + cents)
	return nil
}

type (
	priceResolver struct{}
	priceQuery    struct{}
	Item          struct {
		Name  string
		Price Cents
	}
)

func (priceResolver) Query() priceQuery { return priceQuery{} }
func (priceQuery) Cheaper(ctx context.Context, than Cents) ([]*Item, error) {
	var out []*Item
	for _, it := range []*Item{{"tea", 150}, {"cake", 425}} {
		if it.Price < than {
			out = append(out, it)
		}
	}
	return out, nil
}

// TestCustomScalar binds a custom scalar through gqlgen's MarshalGQL and
// UnmarshalGQL methods.
func TestCustomScalar(t *testing.T) {
	cfg := project(t, "schema: graph/*.graphqls\n", "scalar Cents\n\ntype Query {\n  cheaper(than: Cents!): [Item!]!\n}\n\ntype Item {\n  name: String!\n  price: Cents!\n}\n")
	c := serveProject(t, cfg, priceResolver{})
	resp := c.Do(t, `{ cheaper(than: "4.00") { name price } }`, nil)
	if want := `{"data":{"cheaper":[{"name":"tea","price":"1.50"}]}}`; string(resp.Body) != want {
		t.Errorf("got %s, want %s", resp.Body, want)
	}
	resp = c.Do(t, `query($p: Cents!) { cheaper(than: $p) { name } }`, map[string]any{"p": 5})
	if resp.Status != 400 || !strings.Contains(string(resp.Body), `Cents must be a string`) {
		t.Errorf("got %d %s", resp.Status, resp.Body)
	}
}

type (
	warnResolver struct{}
	warnQuery    struct{}
)

func (warnResolver) Query() warnQuery { return warnQuery{} }
func (warnQuery) Stock(ctx context.Context, item string) (int, error) {
	gqlgraphql.AddError(ctx, errors.New("stock is an estimate"))
	gqlgraphql.AddErrorf(ctx, "warehouse %s is offline", "B")
	return 7, nil
}

// TestAddErrorShim lets a resolver call gqlgen's graphql.AddError: the
// errors become errors of the field beside its value.
func TestAddErrorShim(t *testing.T) {
	cfg := project(t, "schema: graph/*.graphqls\n", "type Query {\n  stock(item: String!): Int!\n}\n")
	p, err := Load(cfg, warnResolver{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	resp := grafttest.New(r).Do(t, `{ stock(item: "tea") }`, nil)
	want := `{"errors":[{"message":"stock is an estimate","locations":[{"line":1,"column":3}],"path":["stock"]},{"message":"warehouse B is offline","locations":[{"line":1,"column":3}],"path":["stock"]}],"data":{"stock":7}}`
	if string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
}

// serveProject loads the project of configFile with resolver and opts,
// builds it and returns a client of a router serving it.
func serveProject(t *testing.T, configFile string, resolver any, opts ...LoadOption) *grafttest.Client {
	t.Helper()
	p, err := Load(configFile, resolver, opts...)
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, nil, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return grafttest.New(r)
}
