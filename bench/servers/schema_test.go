package servers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/ceiling"
	"github.com/graftgql/graft/bench/tailcall"
	"github.com/graftgql/graft/bench/upstream"
	"github.com/graftgql/graft/bench/workload"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

type typeRef struct {
	Kind   string   `json:"kind"`
	Name   *string  `json:"name"`
	OfType *typeRef `json:"ofType"`
}

func (r *typeRef) String() string {
	switch {
	case r == nil:
		return "?"
	case r.Kind == "NON_NULL":
		return r.OfType.String() + "!"
	case r.Kind == "LIST":
		return "[" + r.OfType.String() + "]"
	case r.Name != nil:
		return *r.Name
	}
	return "?"
}

type inputValue struct {
	Name         string   `json:"name"`
	Type         *typeRef `json:"type"`
	DefaultValue *string  `json:"defaultValue"`
}

// workloadFields reduces an introspection answer to one line per field of
// the workload's own types: "Author.posts(first: Int = 10): [Post!]!".
func workloadFields(t *testing.T, body []byte) []string {
	t.Helper()
	var r struct {
		Data struct {
			Schema struct {
				Types []struct {
					Name   string `json:"name"`
					Fields []struct {
						Name string       `json:"name"`
						Args []inputValue `json:"args"`
						Type *typeRef     `json:"type"`
					} `json:"fields"`
				} `json:"types"`
			} `json:"__schema"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("introspection answer: %v", err)
	}
	var out []string
	for _, ty := range r.Data.Schema.Types {
		if ty.Name != "Query" && ty.Name != "Author" && ty.Name != "Post" && ty.Name != "User" {
			continue
		}
		for _, f := range ty.Fields {
			var args []string
			for _, a := range f.Args {
				s := a.Name + ": " + a.Type.String()
				if a.DefaultValue != nil {
					s += " = " + *a.DefaultValue
				}
				args = append(args, s)
			}
			out = append(out, fmt.Sprintf("%s.%s(%s): %s", ty.Name, f.Name, strings.Join(args, ", "), f.Type))
		}
	}
	slices.Sort(out)
	return out
}

// TestSameSchema checks through introspection that every server serves the
// workload's schema: the same fields, arguments, defaults and types.
// tailcallFields lists the fields of tailcall.SDL as workloadFields does
// (the schema has no arguments).
func tailcallFields(t *testing.T) []string {
	t.Helper()
	doc, err := gqlparser.LoadSchema(&ast.Source{Name: "tailcall", Input: tailcall.SDL})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range []string{"Query", "Post", "User"} {
		for _, f := range doc.Types[name].Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			out = append(out, name+"."+f.Name+"(): "+f.Type.String())
		}
	}
	slices.Sort(out)
	return out
}

func TestSameSchema(t *testing.T) {
	d := data.Shared()
	expected, err := ceiling.Expected(d)
	if err != nil {
		t.Fatal(err)
	}
	want := workloadFields(t, expected["q4"])
	if len(want) != 12 {
		t.Fatalf("reference has %d fields, want 12: %v", len(want), want)
	}
	q4 := workload.Queries()[3]
	// The upstream servers' schemas do not call the upstream for
	// introspection; a client of a closed address is enough.
	up := upstream.NewClient("http://127.0.0.1:1")
	wantTailcall := tailcallFields(t)
	for _, s := range All() {
		if s.Handler == nil && s.UpstreamHandler == nil {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			want := want
			if s.Tailcall {
				want = wantTailcall
			}
			var h http.Handler
			var err error
			if s.Handler != nil {
				h, err = s.Handler(d)
			} else {
				h, err = s.UpstreamHandler(up)
			}
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			res, err := http.Post(srv.URL+Path, "application/json", bytes.NewReader(q4.Body()))
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			got := workloadFields(t, body)
			if !slices.Equal(got, want) {
				t.Errorf("schema differs:\n got: %v\nwant: %v", got, want)
			}
		})
	}
}
