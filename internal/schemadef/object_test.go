package schemadef_test

import (
	"context"
	"strings"
	"testing"
	"time"

	schema "github.com/graftgql/graft/internal/schemadef"
)

type Address struct {
	City string
}

type Base struct {
	CreatedAt time.Time
}

type User struct {
	Base
	ID         schema.ID
	UserID     int64
	URLPath    string
	Name       string  `description:"The user's name."`
	Nick       *string `graphql:"nickname"`
	Secret     string  `graphql:"-"`
	Age        int32
	Score      float64
	Ratio      float32
	Active     bool
	Tags       []string
	MaybeTags  *[]*string
	Matrix     [][]int
	Home       Address
	Work       *Address
	Old        string `deprecated:"use name"`
	Loose      string `type:"String"`
	LooseList  []int  `type:"[Int]"`
	Small      uint8
	unexported int //lint:ignore U1000 present to show unexported fields are skipped
}

func typeStrings(t *schema.Type) map[string]string {
	m := map[string]string{}
	for _, f := range t.Fields {
		m[f.Name] = f.Type.String()
	}
	return m
}

func TestObjectFieldsFromStruct(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "me", func(context.Context) (*User, error) { return &User{}, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	user := s.Type("User")
	if user == nil || user.Kind != schema.ObjectKind {
		t.Fatalf("User type = %+v", user)
	}
	got := typeStrings(user)
	want := map[string]string{
		"createdAt": "DateTime!",
		"id":        "ID!",
		"userId":    "Int!", // UserID, as gqlgen maps it
		"urlPath":   "String!",
		"name":      "String!",
		"nickname":  "String",
		"age":       "Int!",
		"score":     "Float!",
		"ratio":     "Float!",
		"active":    "Boolean!",
		"tags":      "[String!]!",
		"maybeTags": "[String]",
		"matrix":    "[[Int!]!]!",
		"home":      "Address!",
		"work":      "Address",
		"old":       "String!",
		"loose":     "String",
		"looseList": "[Int]",
		"small":     "Int!",
	}
	for name, typ := range want {
		if got[name] != typ {
			t.Errorf("field %s: type %q, want %q", name, got[name], typ)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected field %s", name)
		}
	}
	if f := user.Field("name"); f.Description != "The user's name." {
		t.Errorf("name description = %q", f.Description)
	}
	if f := user.Field("old"); !f.Deprecated || f.DeprecationReason != "use name" {
		t.Errorf("old deprecation = %v %q", f.Deprecated, f.DeprecationReason)
	}
	if f := user.Field("name"); f.Resolve != nil || f.Out == nil || f.Out.Kind != schema.OutLeaf {
		t.Errorf("a plain struct field has Resolve nil and a leaf Out, got %+v", f)
	}
	if addr := s.Type("Address"); addr == nil || addr.Kind != schema.ObjectKind {
		t.Errorf("nested struct Address not registered as an object: %+v", addr)
	}
	if dt := s.Type("DateTime"); dt == nil || dt.Kind != schema.ScalarKind || dt.SpecifiedByURL == "" {
		t.Errorf("DateTime scalar = %+v", dt)
	}
	if !strings.Contains(s.SDL(), "scalar DateTime") {
		t.Errorf("SDL lacks the DateTime scalar:\n%s", s.SDL())
	}
}

func TestObjectOptions(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "home", func(context.Context) (Address, error) { return Address{}, nil },
		schema.Description("Where."), schema.Deprecated("gone"), schema.Cost(5), schema.Concurrent())
	cost := func(args map[string]any, child int) int { return 2 * child }
	schema.QueryNoArgs(b, "costly", func(context.Context) (int, error) { return 1, nil }, schema.CostFn(cost))
	schema.Object[Address](b, "Address", schema.Description("A place."))
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	f := s.Query.Field("home")
	if f.Description != "Where." || !f.Deprecated || f.DeprecationReason != "gone" || !f.Concurrent {
		t.Errorf("home = %+v", f)
	}
	if f.Cost == nil || f.Cost(nil, 3) != 8 {
		t.Errorf("Cost(5) with children 3 should cost 8")
	}
	if c := s.Query.Field("costly").Cost; c == nil || c(nil, 4) != 8 {
		t.Errorf("CostFn not kept")
	}
	if s.Query.Field("costly").Cost == nil || s.Type("Address").Field("city").Cost != nil {
		t.Errorf("fields without a cost option have a nil Cost")
	}
	if d := s.Type("Address").Description; d != "A place." {
		t.Errorf("Address description = %q", d)
	}
	for _, want := range []string{`"""A place."""`, `home: Address! @deprecated(reason: "gone")`} {
		if !strings.Contains(s.SDL(), want) {
			t.Errorf("SDL lacks %q:\n%s", want, s.SDL())
		}
	}
}

type Book struct {
	Title  string
	Author string
}

func TestResolverFieldReplacesStructField(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "book", func(context.Context) (*Book, error) { return &Book{}, nil })
	book := schema.Object[Book](b, "Book")
	schema.FieldFuncNoArgs(book, "author", func(context.Context, *Book) (*string, error) { return nil, nil })
	schema.FieldFuncNoArgs(book, "pages", func(context.Context, *Book) (int, error) { return 1, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Type("Book").Fields {
		names = append(names, f.Name+":"+f.Type.String())
	}
	if got, want := strings.Join(names, " "), "title:String! author:String pages:Int!"; got != want {
		t.Errorf("fields = %s, want %s", got, want)
	}
	if s.Type("Book").Field("author").Resolve == nil {
		t.Errorf("author should be resolved by its resolver")
	}
}

func TestMutation(t *testing.T) {
	b := withQuery(schema.New())
	schema.MutationNoArgs(b, "reset", func(context.Context) (bool, error) { return true, nil })
	schema.Mutation(b, "rename", func(_ context.Context, a struct{ Name string }) (string, error) { return a.Name, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if s.Mutation == nil || s.Mutation.Field("reset") == nil || s.Mutation.Field("rename") == nil {
		t.Fatalf("mutation type = %+v", s.Mutation)
	}
	if got := s.Mutation.Field("rename").Args[0].Type.String(); got != "String!" {
		t.Errorf("rename(name) type = %s", got)
	}
	if !strings.Contains(s.SDL(), "type Mutation {") {
		t.Errorf("SDL lacks the Mutation type")
	}
	noMutation, err := withQuery(schema.New()).Build()
	if err != nil {
		t.Fatal(err)
	}
	if noMutation.Mutation != nil || noMutation.Type("Mutation") != nil {
		t.Errorf("a schema without mutations has no Mutation type")
	}
}

func TestBuiltinScalarsListed(t *testing.T) {
	s, err := withQuery(schema.New()).Build()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ty := range s.Types {
		names = append(names, ty.Name)
	}
	if got, want := strings.Join(names, ","), "Boolean,Float,ID,Int,Query,String"; got != want {
		t.Errorf("types = %s, want %s", got, want)
	}
	if s.AST() == nil || s.AST().Query == nil || s.AST().Query.Name != "Query" {
		t.Errorf("AST has no Query type")
	}
}
