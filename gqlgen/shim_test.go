package gqlgen

import (
	"context"
	"fmt"
	"strings"
	"testing"

	gqlgraphql "github.com/99designs/gqlgen/graphql"

	"github.com/graftgql/graft/grafttest"
)

type (
	probeResolver struct{}
	probeQuery    struct{}
	probeObj      struct{}
	Probe         struct {
		Tag  string
		Seen string
	}
)

func (probeResolver) Query() probeQuery { return probeQuery{} }
func (probeResolver) Probe() probeObj   { return probeObj{} }

// Probe reports what gqlgen's context getters return in a root resolver.
func (probeQuery) Probe(ctx context.Context, tag string, limit *int) (*Probe, error) {
	fc := gqlgraphql.GetFieldContext(ctx)
	oc := gqlgraphql.GetOperationContext(ctx)
	l := "nil"
	if p, ok := fc.Args["limit"].(*int); ok && p != nil {
		l = fmt.Sprint(*p)
	}
	seen := fmt.Sprintf("%s.%s tag=%v limit=%s parent=%v fields=%s op=%s vars=%v",
		fc.Object, fc.Field.Name, fc.Args["tag"], l, fc.Parent != nil,
		strings.Join(gqlgraphql.CollectAllFields(ctx), ","), oc.OperationName, oc.Variables)
	return &Probe{Tag: tag, Seen: seen}, nil
}

// Where reports the parent object a field resolver sees through gqlgen's
// field context.
func (probeObj) Where(ctx context.Context, obj *Probe) (string, error) {
	fc := gqlgraphql.GetFieldContext(ctx)
	parent, _ := fc.Parent.Result.(*Probe)
	if parent != obj {
		return "", fmt.Errorf("parent %p, want %p", parent, obj)
	}
	return fc.Object + "." + fc.Field.Name + " of " + parent.Tag + " at " + fc.Path().String(), nil
}

// TestContextShims calls gqlgen's GetFieldContext, GetOperationContext
// and CollectAllFields from bound resolvers. FieldContext.Path is the
// field's own name only ("where", not "probe.where"): graft does not give
// resolvers their path.
func TestContextShims(t *testing.T) {
	cfg := project(t, "schema: graph/*.graphqls\n", `type Query {
  probe(tag: String!, limit: Int): Probe!
}

type Probe {
  tag: String!
  seen: String!
  where: String!
}
`)
	c := serveProject(t, cfg, probeResolver{})
	resp := c.Do(t, `query Look($t: String!) { probe(tag: $t, limit: 3) { seen ...F } } fragment F on Probe { w: where }`, map[string]any{"t": "x"}, grafttest.OperationName("Look"))
	want := `{"data":{"probe":{"seen":"Query.probe tag=x limit=3 parent=false fields=seen,where op=Look vars=map[t:x]","w":"Probe.where of x at where"}}}`
	if string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
	resp = c.Do(t, `{ probe(tag: "y") { seen } }`, nil)
	want = `{"data":{"probe":{"seen":"Query.probe tag=y limit=nil parent=false fields=seen op= vars=map[]"}}}`
	if string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
}
