package schemadef_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	schema "github.com/graftgql/graft/internal/schemadef"
)

type Color string

const (
	Red   Color = "red"
	Green Color = "green"
)

type Filter struct {
	Colors  []Color
	MinSize *int     `default:"1" description:"Smallest size."`
	Range   *Range   `graphql:"between"`
	Labels  []string `default:"[\"a\"]"`
}

type Range struct {
	From int
	To   int `default:"10"`
}

type SearchArgs struct {
	Query   string `description:"Text to find."`
	First   *int   `default:"10"`
	Color   *Color `default:"RED"`
	Filter  *Filter
	Strict  bool    `default:"false"`
	Weight  float64 `default:"1.5"`
	After   *time.Time
	ByID    *schema.ID `graphql:"id"`
	Small   *int8
	Legacy  *string `deprecated:"use query"`
	Numbers []int
}

type Result struct {
	Args SearchArgs `graphql:"-"`
	Hits int
}

func colorBuilder() *schema.Builder {
	b := schema.New()
	schema.Enum(b, "Color", []schema.EnumValueDef[Color]{
		{Name: "RED", Value: Red, Description: "Warm."},
		{Name: "GREEN", Value: Green, Deprecated: "not any more"},
	}, schema.Description("A color."))
	schema.Query(b, "search", func(_ context.Context, a SearchArgs) (Result, error) {
		return Result{Args: a}, nil
	})
	return b
}

func TestArgumentsFromStruct(t *testing.T) {
	s, err := colorBuilder().Build()
	if err != nil {
		t.Fatal(err)
	}
	f := s.Query.Field("search")
	var got []string
	for _, a := range f.Args {
		d := ""
		if a.DefaultValue != nil {
			d = " = " + a.DefaultValue.String()
		}
		got = append(got, a.Name+": "+a.Type.String()+d)
	}
	want := []string{
		"query: String!", "first: Int = 10", "color: Color = RED", "filter: Filter", "strict: Boolean! = false",
		"weight: Float! = 1.5", "after: DateTime", "id: ID", "small: Int", "legacy: String", "numbers: [Int!]!",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("arguments\n got %q\nwant %q", got, want)
	}
	if f.Args[0].Description != "Text to find." {
		t.Errorf("query description = %q", f.Args[0].Description)
	}
	if legacy := f.Args[9]; !legacy.Deprecated || legacy.DeprecationReason != "use query" {
		t.Errorf("legacy deprecation = %+v", legacy)
	}
	filter := s.Type("Filter")
	if filter == nil || filter.Kind != schema.InputObjectKind {
		t.Fatalf("Filter = %+v", filter)
	}
	var fields []string
	for _, a := range filter.InputFields {
		fields = append(fields, a.Name+": "+a.Type.String())
	}
	if got, want := strings.Join(fields, ", "), "colors: [Color!]!, minSize: Int, between: Range, labels: [String!]!"; got != want {
		t.Errorf("Filter fields = %s, want %s", got, want)
	}
	if s.Type("Range") == nil || s.Type("Range").Kind != schema.InputObjectKind {
		t.Errorf("nested input Range not registered")
	}
	green := s.Type("Color").EnumValues[1]
	if !green.Deprecated || green.DeprecationReason != "not any more" {
		t.Errorf("GREEN = %+v", green)
	}
	for _, want := range []string{"input Filter {", `"""Smallest size."""`, "minSize: Int = 1", `labels: [String!]! = ["a"]`,
		`GREEN @deprecated(reason: "not any more")`, `"""Warm."""`} {
		if !strings.Contains(s.SDL(), want) {
			t.Errorf("SDL lacks %q:\n%s", want, s.SDL())
		}
	}
}

func TestNewArgs(t *testing.T) {
	s, err := colorBuilder().Build()
	if err != nil {
		t.Fatal(err)
	}
	f := s.Query.Field("search")
	after := time.Date(2024, 5, 1, 12, 30, 0, 0, time.UTC)
	ten, one, zero8 := 10, 1, int8(0)
	green := Green
	var id schema.ID = "42"
	tests := []struct {
		name   string
		values map[string]any
		want   SearchArgs
		errSub string
	}{
		{
			name:   "scalars and defaults as coerced",
			values: map[string]any{"query": "go", "first": int64(10), "color": "RED", "strict": false, "weight": 1.5, "numbers": []any{int64(1), int64(2)}},
			want:   SearchArgs{Query: "go", First: &ten, Color: ptr(Red), Weight: 1.5, Numbers: []int{1, 2}},
		},
		{
			name:   "null leaves pointers nil",
			values: map[string]any{"query": "x", "first": nil, "color": nil, "filter": nil},
			want:   SearchArgs{Query: "x"},
		},
		{
			name: "input objects, enums in lists, DateTime, ID from an integer",
			values: map[string]any{"query": "q", "color": "GREEN", "after": "2024-05-01T12:30:00Z", "id": int64(42), "small": int64(0),
				"filter": map[string]any{"colors": []any{"GREEN", "RED"}, "minSize": int64(1), "between": map[string]any{"from": int64(3), "to": int64(10)}, "labels": []any{"a"}}},
			want: SearchArgs{Query: "q", Color: &green, After: &after, ByID: &id, Small: &zero8,
				Filter: &Filter{Colors: []Color{Green, Red}, MinSize: &one, Range: &Range{From: 3, To: 10}, Labels: []string{"a"}}},
		},
		{
			name:   "a single value for a list",
			values: map[string]any{"query": "q", "numbers": int64(7)},
			want:   SearchArgs{Query: "q", Numbers: []int{7}},
		},
		{name: "an undeclared enum value", values: map[string]any{"color": "BLUE"}, errSub: `Value "BLUE" does not exist in "Color" enum.`},
		{name: "an integer too big for int8", values: map[string]any{"small": int64(300)}, errSub: "out of range"},
		{name: "a bad DateTime", values: map[string]any{"after": "yesterday"}, errSub: "RFC 3339"},
		{name: "a wrong kind of value", values: map[string]any{"query": int64(3)}, errSub: "String cannot represent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := f.NewArgs(tt.values)
			if tt.errSub != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errSub) {
					t.Fatalf("error = %v, want one containing %q", err, tt.errSub)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := f.Resolve(context.Background(), nil, p)
			if err != nil {
				t.Fatal(err)
			}
			got := (*Result)(out).Args
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("args\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestFieldWithoutArgumentsHasNoNewArgs(t *testing.T) {
	b := schema.New()
	schema.Query(b, "empty", func(context.Context, struct{}) (int, error) { return 1, nil })
	schema.QueryNoArgs(b, "none", func(context.Context) (int, error) { return 1, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"empty", "none"} {
		f := s.Query.Field(name)
		if len(f.Args) != 0 || f.NewArgs != nil {
			t.Errorf("%s: args %v, NewArgs set %v", name, f.Args, f.NewArgs != nil)
		}
		out, err := f.Resolve(context.Background(), nil, nil)
		if err != nil || *(*int)(out) != 1 {
			t.Errorf("%s: resolve = %v, %v", name, out, err)
		}
	}
}
