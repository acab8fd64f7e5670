package gqlgen

import (
	"context"
	"errors"
	"strings"
	"testing"

	gqlgraphql "github.com/99designs/gqlgen/graphql"

	"github.com/graftgql/graft/grafttest"
)

type (
	Role          string
	secretRes     struct{}
	secretQuery   struct{}
	roleKey       struct{}
	secretPayload struct {
		Name      string
		Code      string
		Clearance Role
	}
)

func (secretRes) Query() secretQuery { return secretQuery{} }
func (secretQuery) Agent(ctx context.Context) (*secretPayload, error) {
	return &secretPayload{Name: "bond", Code: "007", Clearance: "ADMIN"}, nil
}

// hasRole and upper are directive functions of gqlgen's DirectiveRoot
// shape.
func hasRole(ctx context.Context, obj any, next gqlgraphql.Resolver, role Role) (any, error) {
	if ctx.Value(roleKey{}) != role {
		return nil, errors.New("needs role " + string(role))
	}
	return next(ctx)
}

func upper(ctx context.Context, obj any, next gqlgraphql.Resolver) (any, error) {
	v, err := next(ctx)
	if s, ok := v.(string); ok {
		return strings.ToUpper(s), err
	}
	return v, err
}

const secretSchema = `directive @hasRole(role: Role!) on FIELD_DEFINITION
directive @upper on FIELD_DEFINITION

enum Role {
  ADMIN
  USER
}

type Query {
  agent: Agent!
}

type Agent {
  name: String! @upper
  code: String @hasRole(role: ADMIN)
  clearance: Role!
}
`

// TestDirectives runs gqlgen-shaped directive functions given to Load
// with Directive, with their typed arguments.
func TestDirectives(t *testing.T) {
	c := serveProject(t, project(t, "schema: graph/*.graphqls\n", secretSchema), secretRes{}, Directive("hasRole", hasRole), Directive("upper", upper))
	resp := c.Do(t, `{ agent { name code } }`, nil)
	if want := `{"errors":[{"message":"needs role ADMIN","locations":[{"line":1,"column":16}],"path":["agent","code"]}],"data":{"agent":{"name":"BOND","code":null}}}`; string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
	resp = c.Do(t, `{ agent { code } }`, nil, grafttest.Context(context.WithValue(context.Background(), roleKey{}, Role("ADMIN"))))
	if want := `{"data":{"agent":{"code":"007"}}}`; string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
}

// TestDirectiveMismatch refuses a directive function of the wrong shape,
// an undefined directive and a directive at a location graft does not
// run.
func TestDirectiveMismatch(t *testing.T) {
	cfg := project(t, "schema: graph/*.graphqls\n", secretSchema+"directive @trace on ARGUMENT_DEFINITION\n")
	for _, tc := range []struct {
		opt  LoadOption
		want string
	}{
		{Directive("hasRole", upper), `gqlgen: Directive "hasRole" has type func(context.Context, interface {}, graphql.Resolver) (interface {}, error); gqlgen's shape is func(ctx context.Context, obj any, next graphql.Resolver, role T) (any, error)`},
		{Directive("cached", upper), `gqlgen: Directive "cached": the schema defines no directive @cached`},
		{Directive("trace", upper), `gqlgen: Directive "trace": location ARGUMENT_DEFINITION is not supported (graft runs directive functions on FIELD_DEFINITION, OBJECT, QUERY, MUTATION, SUBSCRIPTION and FIELD)`},
	} {
		if _, err := Load(cfg, secretRes{}, tc.opt); err == nil || err.Error() != tc.want {
			t.Errorf("Load: %v\nwant %s", err, tc.want)
		}
	}
}
