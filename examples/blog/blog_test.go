package blog

import (
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/internal/workload"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/graftgql/graft/examples/internal/sdldiff"
)

func TestSchemaMatchesBenchSchema(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	want, err := workload.ReadFile("schema.graphql")
	if err != nil {
		t.Skipf("shared bench schema not found: %v", err)
	}
	wantSchema, gerr := gqlparser.LoadSchema(&ast.Source{Name: "bench.graphql", Input: string(want)})
	if gerr != nil {
		t.Fatal(gerr)
	}
	if diff := sdldiff.Diff(s.AST(), wantSchema); len(diff) > 0 {
		t.Errorf("schema differs from the bench schema:\n%s\nSDL:\n%s", strings.Join(diff, "\n"), s.SDL())
	}
}

func TestDataset(t *testing.T) {
	d := Dataset()
	if len(d.Authors) != NumAuthors {
		t.Fatalf("got %d authors, want %d", len(d.Authors), NumAuthors)
	}
	a := d.Authors[41]
	if a.ID != "a42" || a.Name != "Author 42" || a.Email != "author42@example.com" {
		t.Errorf("author 42 = %+v", a)
	}
	p := a.posts[6]
	if p.ID != "p42-7" || p.Title != "Post 7 by 42" || p.Body != Body || p.Likes != (42*31+7)%1000 {
		t.Errorf("post 7 of author 42 = %+v", p)
	}
	if strings.Join(p.Tags, ",") != "go,graphql,t2" {
		t.Errorf("tags = %v", p.Tags)
	}
	if len(Body) != 200 {
		t.Errorf("body has %d characters, want 200", len(Body))
	}
}

func TestPage(t *testing.T) {
	n := func(v int) *int { return &v }
	tests := []struct {
		name  string
		first *int
		max   int
		want  int
	}{
		{"null takes the default", nil, 100, 10},
		{"in range", n(50), 100, 50},
		{"clamped high", n(500), 20, 20},
		{"clamped low", n(-3), 20, 0},
		{"zero", n(0), 20, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := page(tt.first, tt.max); got != tt.want {
				t.Errorf("page = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestPageCost(t *testing.T) {
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	m := schemadef.Model(s)
	authors := m.Query.Field("authors").Cost
	posts := m.Type("Author").Field("posts").Cost
	if authors == nil || posts == nil {
		t.Fatal("the paginated fields declare no cost")
	}
	tests := []struct {
		name     string
		cost     func(map[string]any, int) int
		args     map[string]any
		children int
		want     int
	}{
		{"50 authors of cost 4", authors, map[string]any{"first": int64(50)}, 4, 201},
		{"null first counts the default", authors, map[string]any{"first": nil}, 2, 21},
		{"missing first counts the default", authors, map[string]any{}, 1, 11},
		{"clamped to 100 authors", authors, map[string]any{"first": int64(1 << 40)}, 1, 101},
		{"negative first counts nothing", authors, map[string]any{"first": int64(-5)}, 3, 1},
		{"posts clamped to 20", posts, map[string]any{"first": int64(50)}, 2, 41},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.cost(tt.args, tt.children); got != tt.want {
				t.Errorf("cost = %d, want %d", got, tt.want)
			}
		})
	}
}
