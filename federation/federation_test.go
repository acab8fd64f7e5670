package federation_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/federation"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/schema"
)

type account struct {
	ID    schema.ID `graphql:"id"`
	Org   string    `graphql:"org"`
	Login string    `graphql:"login"`
}

type sku struct {
	Code      string  `graphql:"code"`
	Variation variant `graphql:"variation"`
	Price     *int    `graphql:"price"`
}

type variant struct {
	ID schema.ID `graphql:"id"`
}

type shipping struct {
	Weight *float64 `graphql:"weight"`
	Cost   *float64 `graphql:"cost"`
}

type ref struct {
	ID schema.ID `graphql:"id"`
}

// calls records the entity resolver calls: the type and the
// representations of each call.
type calls struct {
	mu   sync.Mutex
	list []string
	reps [][]federation.Representation
}

func (c *calls) add(name string, reps []federation.Representation) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.list = append(c.list, name)
	c.reps = append(c.reps, reps)
}

// testSchema declares one entity per key shape: a single key and a
// compound key (account), a nested key (sku), a @requires field
// (shipping), a non-resolvable key (ref) and an interface object.
func testSchema(t *testing.T, c *calls) *schema.Schema {
	t.Helper()
	b := schema.New()
	b.DeclareDirective(schema.DirectiveDef{Name: "audit", Args: "level: Int", Locations: []schema.DirectiveLocation{"OBJECT", "FIELD_DEFINITION"},
		Printing: schema.DirectiveSubgraphOnly})
	acct := schema.Object[account](b, "Account", federation.Key("id"), federation.Key("org login"),
		schema.Directive("audit", "level: 2"), schema.OnField("login", federation.Shareable(), federation.Tag("public")))
	skuObj := schema.Object[sku](b, "Sku", federation.Key("code variation { id }"),
		schema.OnField("price", federation.Inaccessible()))
	schema.Object[variant](b, "Variant", federation.Shareable())
	ship := schema.Object[shipping](b, "Shipping", schema.Extension(), federation.Extends(), federation.Key("weight"),
		schema.OnField("weight", federation.External()))
	schema.FieldFuncNoArgs(ship, "cost", func(_ context.Context, s *shipping) (*float64, error) {
		if s.Weight == nil {
			return nil, nil
		}
		v := *s.Weight * 2
		return &v, nil
	}, federation.Requires("weight"), federation.Override("legacy"))
	schema.Object[ref](b, "Ref", federation.NonResolvableKey("id"))
	schema.QueryNoArgs(b, "me", func(context.Context) (*account, error) {
		return &account{ID: "1", Org: "acme", Login: "ann"}, nil
	}, federation.Provides("login"))
	schema.QueryNoArgs(b, "ref", func(context.Context) (ref, error) { return ref{ID: "r"}, nil })
	s, err := federation.Build(b, federation.Options{
		Links:             []federation.Link{{URL: "https://example.com/audit/v1.0", Import: []string{"@audit"}}},
		ComposeDirectives: []string{"@audit"},
		Entities: []federation.EntityResolver{
			federation.Entity(acct, func(_ context.Context, reps []federation.Representation) ([]*account, []error) {
				c.add("Account", reps)
				out, errs := make([]*account, len(reps)), make([]error, len(reps))
				for i, r := range reps {
					id, _ := r.String("id")
					org, _ := r.String("org")
					login, _ := r.String("login")
					switch {
					case id == "fail":
						errs[i] = graft.NewError("ACCOUNT_LOCKED", "account fail is locked")
					case id == "missing":
					case id != "":
						out[i] = &account{ID: schema.ID(id), Org: "acme", Login: "u" + id}
					default:
						out[i] = &account{ID: schema.ID(org + "/" + login), Org: org, Login: login}
					}
				}
				return out, errs
			}),
			federation.Entity(skuObj, func(_ context.Context, reps []federation.Representation) ([]*sku, []error) {
				c.add("Sku", reps)
				out := make([]*sku, len(reps))
				for i, r := range reps {
					code, _ := r.String("code")
					vid, _ := r.Object("variation").String("id")
					out[i] = &sku{Code: code, Variation: variant{ID: schema.ID(vid)}}
				}
				return out, nil
			}),
			federation.Entity(ship, func(_ context.Context, reps []federation.Representation) ([]*shipping, []error) {
				c.add("Shipping", reps)
				if len(reps) == 3 {
					return nil, nil // wrong length: every Shipping item fails
				}
				out := make([]*shipping, len(reps))
				for i, r := range reps {
					w, ok := r["weight"].(float64)
					if n, isInt := r.Int("weight"); isInt {
						w, ok = float64(n), true
					}
					if ok {
						out[i] = &shipping{Weight: &w}
					}
				}
				return out, nil
			}),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newClient(t *testing.T, s *schema.Schema) *grafttest.Client {
	t.Helper()
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return grafttest.New(r)
}

const wantSDL = `extend schema
  @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@composeDirective", "@extends", "@external", "@key", "@inaccessible", "@interfaceObject", "@override", "@provides", "@requires", "@shareable", "@tag"])
  @link(url: "https://example.com/audit/v1.0", import: ["@audit"])
  @composeDirective(name: "@audit")

directive @audit(level: Int) on OBJECT | FIELD_DEFINITION

type Account @key(fields: "id") @key(fields: "org login") @audit(level: 2) {
  id: ID!
  org: String!
  login: String! @shareable @tag(name: "public")
}

type Query {
  me: Account @provides(fields: "login")
  ref: Ref!
}

type Ref @key(fields: "id", resolvable: false) {
  id: ID!
}

extend type Shipping @extends @key(fields: "weight") {
  weight: Float @external
  cost: Float @requires(fields: "weight") @override(from: "legacy")
}

type Sku @key(fields: "code variation { id }") {
  code: String!
  variation: Variant!
  price: Int @inaccessible
}

type Variant @shareable {
  id: ID!
}
`

func TestServiceSDL(t *testing.T) {
	res := newClient(t, testSchema(t, &calls{})).Do(t, `{ _service { sdl } }`, nil)
	res.NoErrors(t)
	var v struct {
		Service struct{ SDL string } `json:"_service"`
	}
	res.Decode(t, &v)
	if v.Service.SDL != wantSDL {
		t.Errorf("_service.sdl =\n%s\nwant\n%s", v.Service.SDL, wantSDL)
	}
}

func TestSchemaHasFederationTypes(t *testing.T) {
	sdl := testSchema(t, &calls{}).SDL()
	for _, want := range []string{
		"scalar _Any", "scalar FieldSet", "type _Service {\n  sdl: String\n}",
		"union _Entity = Account | Shipping | Sku", "_entities(representations: [_Any!]!): [_Entity]!", "_service: _Service!",
	} {
		if !strings.Contains(sdl, want) {
			t.Errorf("SDL lacks %q:\n%s", want, sdl)
		}
	}
	if strings.Contains(sdl, "@key") {
		t.Error("the schema's own SDL carries applied directives; only _service.sdl should")
	}
}

const entitiesQuery = `query($r: [_Any!]!) { _entities(representations: $r) { __typename
	... on Account { id org login }
	... on Sku { code variation { id } }
	... on Shipping { cost } } }`

func rep(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func TestEntitiesEveryKeyShapeOneCallPerType(t *testing.T) {
	c := &calls{}
	res := newClient(t, testSchema(t, c)).Do(t, entitiesQuery, map[string]any{"r": []any{
		rep("__typename", "Account", "id", "7"),
		rep("__typename", "Sku", "code", "tee", "variation", rep("id", "red")),
		rep("__typename", "Account", "org", "acme", "login", "bob"),
		rep("__typename", "Shipping", "weight", 1.5),
		rep("__typename", "Sku", "code", "cap", "variation", rep("id", "blue")),
	}})
	res.NoErrors(t)
	const want = `{"_entities":[` +
		`{"__typename":"Account","id":"7","org":"acme","login":"u7"},` +
		`{"__typename":"Sku","code":"tee","variation":{"id":"red"}},` +
		`{"__typename":"Account","id":"acme/bob","org":"acme","login":"bob"},` +
		`{"__typename":"Shipping","cost":3},` +
		`{"__typename":"Sku","code":"cap","variation":{"id":"blue"}}]}`
	if string(res.Data) != want {
		t.Errorf("data = %s\nwant %s", res.Data, want)
	}
	if got := strings.Join(c.list, ","); got != "Account,Sku,Shipping" {
		t.Fatalf("resolver calls = %s, want one per type in first-seen order: Account,Sku,Shipping", got)
	}
	if n := len(c.reps[0]); n != 2 || c.reps[0][0]["id"] != "7" || c.reps[0][1]["login"] != "bob" {
		t.Errorf("Account batch = %v, want the two Account representations in request order", c.reps[0])
	}
	if n := len(c.reps[1]); n != 2 || c.reps[1][1]["code"] != "cap" {
		t.Errorf("Sku batch = %v", c.reps[1])
	}
	if w := c.reps[2][0]["weight"]; w != 1.5 {
		t.Errorf("the @requires field weight reached the resolver as %v (%T), want 1.5", w, w)
	}
}

func TestEntitiesErrorsAndNullsPerRepresentation(t *testing.T) {
	c := &calls{}
	res := newClient(t, testSchema(t, c)).Do(t, entitiesQuery, map[string]any{"r": []any{
		rep("__typename", "Account", "id", "1"),
		rep("__typename", "Account", "id", "fail"),
		rep("__typename", "Account", "id", "missing"),
		rep("__typename", "Ref", "id", "r"),
		rep("__typename", "Nope", "id", "x"),
	}})
	if res.Status != 200 {
		t.Fatalf("status %d: %s", res.Status, res.Body)
	}
	const want = `{"_entities":[{"__typename":"Account","id":"1","org":"acme","login":"u1"},null,null,null,null]}`
	if string(res.Data) != want {
		t.Errorf("data = %s\nwant %s", res.Data, want)
	}
	type errAt struct {
		path string
		code string
	}
	var got []errAt
	for _, e := range res.Errors {
		got = append(got, errAt{pathString(e.Path), e.Code()})
	}
	wantErrs := []errAt{{"_entities.1", "ACCOUNT_LOCKED"}, {"_entities.3", graft.CodeBadUserInput}, {"_entities.4", graft.CodeBadUserInput}}
	if len(got) != len(wantErrs) {
		t.Fatalf("errors = %+v, want %+v (%s)", got, wantErrs, res.Body)
	}
	for i := range wantErrs {
		if got[i] != wantErrs[i] {
			t.Errorf("error %d = %+v, want %+v", i, got[i], wantErrs[i])
		}
	}
	if res.Errors[0].Message != "account fail is locked" {
		t.Errorf("message = %q", res.Errors[0].Message)
	}
	if got := strings.Join(c.list, ","); got != "Account" {
		t.Errorf("resolver calls = %s, want Account once", got)
	}
}

func TestEntitiesResolverWrongLengthFailsItsType(t *testing.T) {
	res := newClient(t, testSchema(t, &calls{})).Do(t, entitiesQuery, map[string]any{"r": []any{
		rep("__typename", "Shipping", "weight", 1),
		rep("__typename", "Account", "id", "2"),
		rep("__typename", "Shipping", "weight", 2),
		rep("__typename", "Shipping", "weight", 3),
	}})
	const want = `{"_entities":[null,{"__typename":"Account","id":"2","org":"acme","login":"u2"},null,null]}`
	if string(res.Data) != want {
		t.Errorf("data = %s\nwant %s", res.Data, want)
	}
	if len(res.Errors) != 3 {
		t.Fatalf("errors = %s, want one per Shipping representation", res.Body)
	}
	for i, p := range []string{"_entities.0", "_entities.2", "_entities.3"} {
		if got := pathString(res.Errors[i].Path); got != p || res.Errors[i].Code() != graft.CodeInternalServerError {
			t.Errorf("error %d at %s code %s, want %s %s", i, got, res.Errors[i].Code(), p, graft.CodeInternalServerError)
		}
	}
}

func TestEntitiesBadRepresentation(t *testing.T) {
	cl := newClient(t, testSchema(t, &calls{}))
	for name, r := range map[string]any{
		"no __typename": rep("id", "1"),
		"not an object": "Account:1",
	} {
		t.Run(name, func(t *testing.T) {
			res := cl.Do(t, entitiesQuery, map[string]any{"r": []any{r}})
			if res.Status != 400 || len(res.Errors) != 1 || res.Errors[0].Code() != graft.CodeBadUserInput {
				t.Errorf("got %d %s, want 400 %s", res.Status, res.Body, graft.CodeBadUserInput)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	cases := map[string]struct {
		declare func(b *schema.Builder) federation.Options
		want    string
	}{
		"resolvable key without resolver": {func(b *schema.Builder) federation.Options {
			schema.Object[account](b, "Account", federation.Key("id"))
			return federation.Options{}
		}, "Account has a resolvable @key but no entity resolver"},
		"resolver without key": {func(b *schema.Builder) federation.Options {
			o := schema.Object[account](b, "Account")
			return federation.Options{Entities: []federation.EntityResolver{federation.Entity(o,
				func(context.Context, []federation.Representation) ([]*account, []error) { return nil, nil })}}
		}, "Account has an entity resolver but no @key"},
		"bad directive": {func(b *schema.Builder) federation.Options {
			schema.Object[ref](b, "Ref", schema.Directive("key", "fields: "))
			return federation.Options{}
		}, "bad directive"},
		"OnField of no field": {func(b *schema.Builder) federation.Options {
			schema.Object[ref](b, "Ref", schema.OnField("nope", federation.External()))
			return federation.Options{}
		}, "OnField names no field"},
		"bad directive definition": {func(b *schema.Builder) federation.Options {
			b.DeclareDirective(schema.DirectiveDef{Name: "x", Args: "a: ", Locations: []schema.DirectiveLocation{"OBJECT"}, Printing: schema.DirectiveSubgraphOnly})
			return federation.Options{}
		}, "bad definition of directive @x"},
		"undeclared directive": {func(b *schema.Builder) federation.Options {
			schema.Object[ref](b, "Ref", schema.Directive("custom", ""))
			return federation.Options{}
		}, "directive @custom is applied but not declared"},
		"zero EntityResolver": {func(b *schema.Builder) federation.Options {
			return federation.Options{Entities: []federation.EntityResolver{{}}}
		}, "was not made by Entity"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := schema.New()
			schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
			_, err := federation.Build(b, tc.declare(b))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestNoEntitiesNoEntityUnion(t *testing.T) {
	b := schema.New()
	schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
	s, err := federation.Build(b, federation.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sdl := s.SDL(); strings.Contains(sdl, "_Entity") || strings.Contains(sdl, "_entities") {
		t.Errorf("a subgraph without entities has _Entity or _entities:\n%s", sdl)
	}
	res := newClient(t, s).Do(t, `{ _service { sdl } }`, nil)
	res.NoErrors(t)
	if !strings.Contains(string(res.Data), `type Query {\n  ok: Boolean!\n}`) {
		t.Errorf("sdl = %s", res.Data)
	}
}

func pathString(p []any) string {
	parts := make([]string, len(p))
	for i, x := range p {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ".")
}

func TestEntitiesObeyLimits(t *testing.T) {
	c := &calls{}
	r, err := graft.NewRouter(testSchema(t, c), graft.NewLayer(), graft.Config{Complexity: limits.Config{MaxDepth: 2}})
	if err != nil {
		t.Fatal(err)
	}
	res := grafttest.New(r).Do(t, entitiesQuery, map[string]any{"r": []any{
		rep("__typename", "Sku", "code", "tee", "variation", rep("id", "red")),
	}})
	if res.Status != 400 || len(res.Errors) != 1 || res.Errors[0].Code() != graft.CodeComplexityLimit {
		t.Fatalf("got %d %s, want 400 %s", res.Status, res.Body, graft.CodeComplexityLimit)
	}
	if len(c.list) != 0 {
		t.Errorf("an entity resolver ran for a refused request: %v", c.list)
	}
}

// TestEntitiesThroughHooksAndPersistedQueries: an _entities request is an
// ordinary operation: the operation hooks see it, and automatic persisted
// queries register it and then run it by hash alone.
func TestEntitiesThroughHooksAndPersistedQueries(t *testing.T) {
	c := &calls{}
	var mu sync.Mutex
	var seen []string
	hook := graft.HookFuncs{AfterFunc: func(_ context.Context, ev *graft.HookEvent) {
		if ev.Phase == graft.PhaseExecuted {
			mu.Lock()
			seen = append(seen, ev.PersistedQuery)
			mu.Unlock()
		}
	}}
	r, err := graft.NewPersistedQueriesRouter(testSchema(t, c), graft.NewLayer(), graft.Config{Hooks: []graft.Hook{hook}})
	if err != nil {
		t.Fatal(err)
	}
	client := grafttest.New(r)
	vars := map[string]any{"r": []any{rep("__typename", "Sku", "code", "tee", "variation", rep("id", "red"))}}
	if res := client.Do(t, entitiesQuery, vars, grafttest.HashOnly()); !res.HasErrorCode(graft.CodePersistedQueryNotFound) {
		t.Fatalf("unknown hash: %s", res.Body)
	}
	client.Do(t, entitiesQuery, vars, grafttest.Persisted()).NoErrors(t)
	res := client.Do(t, entitiesQuery, vars, grafttest.HashOnly())
	res.NoErrors(t)
	if !strings.Contains(string(res.Body), `"code":"tee"`) {
		t.Fatalf("by hash: %s", res.Body)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 || seen[1] != "hit" {
		t.Errorf("hooks saw the executed _entities operations with persisted %q, want 2 with the second a hit", seen)
	}
	if len(c.list) != 2 {
		t.Errorf("entity resolver calls = %d, want one per executed request", len(c.list))
	}
}

// TestEntitiesKeyShapes: a representation that carries none of its
// type's keys, or a key field of the wrong type, is null with
// BAD_USER_INPUT at its index and never reaches the entity resolver; an
// ID given as a number reaches it as a string.
func TestEntitiesKeyShapes(t *testing.T) {
	c := &calls{}
	res := newClient(t, testSchema(t, c)).Do(t, entitiesQuery, map[string]any{"r": []any{
		rep("__typename", "Account"),
		rep("__typename", "Account", "id", nil),
		rep("__typename", "Account", "org", "acme"),
		rep("__typename", "Account", "id", 5),
		rep("__typename", "Account", "id", map[string]any{"x": 1}, "org", "acme", "login", "bob"),
		rep("__typename", "Sku", "code", "c"),
		rep("__typename", "Sku", "code", "c", "variation", "v"),
		rep("__typename", "Sku", "code", "c", "variation", rep("id", []any{1})),
		rep("__typename", "Shipping", "weight", "1"),
	}})
	const want = `{"_entities":[null,null,null,{"__typename":"Account","id":"5","org":"acme","login":"u5"},` +
		`{"__typename":"Account","id":"acme/bob","org":"acme","login":"bob"},null,null,null,null]}`
	if string(res.Data) != want {
		t.Errorf("data = %s\nwant %s", res.Data, want)
	}
	wantErrs := map[string]string{
		"_entities.0": `the representation of Account carries none of its keys (id | org login)`,
		"_entities.1": `the representation of Account carries none of its keys (id | org login)`,
		"_entities.2": `the representation of Account carries none of its keys (id | org login)`,
		"_entities.5": `the representation of Sku does not carry its key (code variation { id }): no variation`,
		"_entities.6": `the representation of Sku does not carry its key (code variation { id }): variation is not an object`,
		"_entities.7": `the representation of Sku does not carry its key (code variation { id }): variation.id is not an ID`,
		"_entities.8": `the representation of Shipping does not carry its key (weight): weight is not a Float`,
	}
	if len(res.Errors) != len(wantErrs) {
		t.Fatalf("errors: %s", res.Body)
	}
	for _, e := range res.Errors {
		p := pathString(e.Path)
		if e.Message != wantErrs[p] || e.Code() != graft.CodeBadUserInput {
			t.Errorf("error at %s: %q %s, want %q %s", p, e.Message, e.Code(), wantErrs[p], graft.CodeBadUserInput)
		}
	}
	if got := strings.Join(c.list, ","); got != "Account" || len(c.reps[0]) != 2 {
		t.Fatalf("resolver calls %s with %v, want Account with the two representations that carry a key", got, c.reps)
	}
	if id := c.reps[0][0]["id"]; id != "5" {
		t.Errorf("the numeric id reached the resolver as %#v, want \"5\"", id)
	}
}

// TestBuildRefusesBadKeyFields: a resolvable key must name fields of its
// type, with a selection exactly for the object fields.
func TestBuildRefusesBadKeyFields(t *testing.T) {
	for fields, want := range map[string]string{
		"idx":                `Sku @key(fields: "idx") names idx, not a field of Sku`,
		"code variation":     `Sku @key(fields: "code variation") selects no field of variation`,
		"code { x }":         `Sku @key(fields: "code { x }") selects fields of code, a leaf`,
		"variation { nope }": `Sku @key(fields: "variation { nope }") names nope, not a field of Variant`,
		"code(a: 1)":         `Sku @key(fields: "code(a: 1)") is not a field set`,
		"{":                  `Sku @key(fields: "{") is not a field set`,
	} {
		b := schema.New()
		obj := schema.Object[sku](b, "Sku", federation.Key(fields))
		schema.Object[variant](b, "Variant")
		schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
		_, err := federation.Build(b, federation.Options{Entities: []federation.EntityResolver{federation.Entity(obj,
			func(_ context.Context, reps []federation.Representation) ([]*sku, []error) {
				return make([]*sku, len(reps)), nil
			})}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("key %q: err = %v, want one containing %q", fields, err, want)
		}
	}
}
