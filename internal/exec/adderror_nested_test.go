package exec_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/schema"
)

type addPool struct {
	Size int `json:"size"`
}

type addItem struct {
	Name string `json:"name"`
}

type addCat struct {
	Name string `json:"name"`
}

type addDog struct {
	Bark string `json:"bark"`
}

type addPet interface{ isAddPet() }

func (*addCat) isAddPet() {}
func (*addDog) isAddPet() {}

// TestAddErrorOnFieldsWithSelections: an error a resolver adds reaches the
// response whatever the field's type: object (every mutation payload),
// list of objects, union, and leaf, with and without Concurrent.
func TestAddErrorOnFieldsWithSelections(t *testing.T) {
	add := func(ctx context.Context, field string) {
		if !exec.AddError(ctx, errors.New("partial "+field)) {
			t.Errorf("%s: AddError reported false", field)
		}
	}
	b := schema.New()
	schema.MutationNoArgs(b, "save", func(ctx context.Context) (*addPool, error) {
		add(ctx, "save")
		return &addPool{Size: 1}, nil
	})
	schema.QueryNoArgs(b, "pool", func(ctx context.Context) (*addPool, error) {
		add(ctx, "pool")
		return &addPool{Size: 2}, nil
	})
	schema.FieldFuncNoArgs(schema.Object[addPool](b, "AddPool"), "top", func(ctx context.Context, p *addPool) (*addItem, error) {
		add(ctx, "top")
		return &addItem{Name: "t"}, nil
	})
	schema.QueryNoArgs(b, "items", func(ctx context.Context) ([]addItem, error) {
		add(ctx, "items")
		return []addItem{{Name: "a"}}, nil
	})
	schema.QueryNoArgs(b, "leaf", func(ctx context.Context) (string, error) {
		add(ctx, "leaf")
		return "x", nil
	})
	schema.Object[addCat](b, "AddCat")
	schema.Object[addDog](b, "AddDog")
	schema.Union[addPet](b, "AddPet", []string{"AddCat", "AddDog"})
	schema.QueryNoArgs(b, "pet", func(ctx context.Context) (addPet, error) {
		add(ctx, "pet")
		return &addCat{Name: "tom"}, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	for _, tc := range []struct{ query, want string }{
		{`mutation { save { size } }`, `{"errors":[{"message":"partial save","locations":[{"line":1,"column":12}],"path":["save"]}],"data":{"save":{"size":1}}}`},
		{`{ pool { size } }`, `{"errors":[{"message":"partial pool","locations":[{"line":1,"column":3}],"path":["pool"]}],"data":{"pool":{"size":2}}}`},
		{`{ items { name } }`, `{"errors":[{"message":"partial items","locations":[{"line":1,"column":3}],"path":["items"]}],"data":{"items":[{"name":"a"}]}}`},
		{`{ pet { ... on AddCat { name } } }`, `{"errors":[{"message":"partial pet","locations":[{"line":1,"column":3}],"path":["pet"]}],"data":{"pet":{"name":"tom"}}}`},
		{`{ leaf }`, `{"errors":[{"message":"partial leaf","locations":[{"line":1,"column":3}],"path":["leaf"]}],"data":{"leaf":"x"}}`},
		{`{ pool { top { name } } }`, `{"errors":[{"message":"partial pool","locations":[{"line":1,"column":3}],"path":["pool"]},{"message":"partial top","locations":[{"line":1,"column":10}],"path":["pool","top"]}],"data":{"pool":{"top":{"name":"t"}}}}`},
		{`{ leaf pool { size } items { name } }`, ``},
	} {
		doc, errs := e.Prepare(tc.query)
		if errs != nil {
			t.Fatal(tc.query, errs)
		}
		op, gerr := doc.Operation("")
		if gerr != nil {
			t.Fatal(gerr)
		}
		got := string(e.Execute(context.Background(), op, nil, nil, nil))
		if tc.want == "" {
			for _, f := range []string{"leaf", "pool", "items"} {
				if !strings.Contains(got, `"partial `+f+`"`) {
					t.Errorf("%s: %s lacks the error of %s", tc.query, got, f)
				}
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.query, got, tc.want)
		}
	}
}
