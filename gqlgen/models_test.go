package gqlgen

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// gqlgen's directives, declared as gqlgen projects declare them.
const goDirectives = `directive @goModel(model: String, models: [String!]) on OBJECT | INPUT_OBJECT | SCALAR | ENUM | INTERFACE | UNION
directive @goField(forceResolver: Boolean, name: String, omittable: Boolean) on INPUT_FIELD_DEFINITION | FIELD_DEFINITION
`

type (
	Member struct {
		First, Last string
		Nick        string
		Karma       int
	}
	memberResolver struct{}
	memberQuery    struct{}
)

// FullName is a model method bound as the field fullName.
func (m *Member) FullName() string { return m.First + " " + m.Last }

// Greeting is a model method with a context, an argument and an error.
func (m Member) Greeting(ctx context.Context, lang string) (string, error) {
	switch lang {
	case "en":
		return "Hello, " + m.First, nil
	case "fr":
		return "Bonjour, " + m.First, nil
	}
	return "", errors.New("no greeting in " + lang)
}

// Score is bound through gqlgen.yml's fieldName to the field rank.
func (m *Member) Score() (int, error) { return m.Karma * 10, nil }

func (memberResolver) Query() memberQuery { return memberQuery{} }
func (memberQuery) Members(ctx context.Context) ([]*Member, error) {
	return []*Member{{First: "Ada", Last: "Lovelace", Nick: "countess", Karma: 4}}, nil
}

const memberSchema = goDirectives + `
type Query {
  members: [Member!]!
}

type Member @goModel(model: "github.com/graftgql/graft/gqlgen.Member") {
  first: String!
  fullName: String!
  greeting(lang: String!): String
  handle: String! @goField(name: "Nick")
  rank: Int!
}
`

// TestModelMethodsAndGoField binds model methods as fields (with and
// without context, arguments and error), a field renamed by @goField, one
// renamed by gqlgen.yml's fieldName, and checks @goModel.
func TestModelMethodsAndGoField(t *testing.T) {
	cfg := project(t, "schema: graph/*.graphqls\nmodels:\n  Member:\n    fields:\n      rank:\n        fieldName: Score\n", memberSchema)
	c := serveProject(t, cfg, memberResolver{})
	resp := c.Do(t, `{ members { first fullName en: greeting(lang: "en") fr: greeting(lang: "fr") handle rank } }`, nil)
	if want := `{"data":{"members":[{"first":"Ada","fullName":"Ada Lovelace","en":"Hello, Ada","fr":"Bonjour, Ada","handle":"countess","rank":40}]}}`; string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
	resp = c.Do(t, `{ members { greeting(lang: "de") } }`, nil)
	if want := `{"errors":[{"message":"no greeting in de","locations":[{"line":1,"column":13}],"path":["members",0,"greeting"]}],"data":{"members":[{"greeting":null}]}}`; string(resp.Body) != want {
		t.Errorf("got  %s\nwant %s", resp.Body, want)
	}
	p, err := Load(cfg, memberResolver{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Build(NoReflection()); err == nil {
		t.Error("NoReflection: want the model methods named")
	}
}

// TestModelChecks reports every mismatch of @goModel, @goField and
// gqlgen.yml's fields: entries at once.
func TestModelChecks(t *testing.T) {
	sdl := strings.Replace(memberSchema, "gqlgen.Member", "gqlgen.Person", 1)
	sdl = strings.Replace(sdl, `@goField(name: "Nick")`, `@goField(name: "Alias")`, 1)
	sdl = strings.Replace(sdl, "  first: String!", "  first: String! @goField(forceResolver: true)", 1)
	cfg := project(t, "schema: graph/*.graphqls\nmodels:\n  Member:\n    fields:\n      rank:\n        fieldName: Score\n      age:\n        resolver: true\n", sdl)
	p, err := Load(cfg, memberResolver{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Build()
	if err == nil {
		t.Fatal("Build: no error")
	}
	for _, want := range []string{
		"Member.age: gqlgen.yml or @goField names field Member.age, which the schema lacks",
		"Member.first must have a resolver (resolver: true or @goField(forceResolver: true)), but the Member resolver has no method First",
		"binds Member.handle to Alias, which model gqlgen.Member has neither as field nor as method",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Build error lacks %q:\n%v", want, err)
		}
	}
}

// TestGoModelCheck reports a @goModel naming another Go type than the
// resolvers use.
func TestGoModelCheck(t *testing.T) {
	sdl := strings.Replace(memberSchema, "gqlgen.Member", "gqlgen.Person", 1)
	p, err := Load(project(t, "schema: graph/*.graphqls\nmodels:\n  Member:\n    fields:\n      rank:\n        fieldName: Score\n", sdl), memberResolver{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Build()
	if want := "gqlgen: models: Member is github.com/graftgql/graft/gqlgen.Person in gqlgen.yml, but its resolvers use github.com/graftgql/graft/gqlgen.Member"; err == nil || err.Error() != want {
		t.Errorf("Build: %v\nwant %s", err, want)
	}
}
