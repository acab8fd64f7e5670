package schema_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/graftgql/graft/schema"
)

type facadeEpisode int

type facadeCharacter interface{ isCharacter() }

type facadeResult interface{ isResult() }

type facadeHuman struct {
	Name string
}

func (facadeHuman) isCharacter() {}

func (facadeHuman) isResult() {}

type facadeTime struct{ s string }

func (t facadeTime) MarshalGraphQL() (any, error) { return t.s, nil }

func (t *facadeTime) UnmarshalGraphQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return errors.New("want a string")
	}
	t.s = s
	return nil
}

// TestFacadeDeclaresEveryKind builds a schema with every declaration the
// facade forwards and checks the printed SDL names each one.
func TestFacadeDeclaresEveryKind(t *testing.T) {
	b := schema.New()
	schema.Enum(b, "Episode", []schema.EnumValueDef[facadeEpisode]{
		{Name: "NEWHOPE", Value: 4, Description: "Released in 1977."},
		{Name: "JEDI", Value: 6, Deprecated: "Use NEWHOPE."},
	})
	iface := schema.Interface[facadeCharacter](b, "Character").Field("name", "String!")
	if iface.Name() != "Character" {
		t.Errorf("Interface name = %q", iface.Name())
	}
	human := schema.Object[facadeHuman](b, "Human", schema.Implements("Character"))
	if human.Name() != "Human" {
		t.Errorf("Object name = %q", human.Name())
	}
	schema.FieldFuncNoArgs(human, "shout", func(_ context.Context, h *facadeHuman) (string, error) {
		return strings.ToUpper(h.Name), nil
	}, schema.Cost(2))
	schema.Union[facadeResult](b, "Anyone", []string{"Human"})
	schema.Scalar[facadeTime](b, "Time", schema.SpecifiedBy("https://example.com/time"))
	type filter struct{ Prefix string }
	schema.Input[filter](b, "Filter")
	schema.Query(b, "hero", func(_ context.Context, args struct{ Episode *facadeEpisode }) (facadeCharacter, error) {
		return facadeHuman{Name: "Luke"}, nil
	}, schema.CostFn(func(_ map[string]any, child int) int { return 1 + child }))
	schema.QueryNoArgs(b, "now", func(context.Context) (facadeTime, error) { return facadeTime{"t"}, nil })
	schema.Mutation(b, "find", func(_ context.Context, args struct{ F filter }) ([]facadeCharacter, error) { return nil, nil })
	schema.MutationNoArgs(b, "reset", func(context.Context) (bool, error) { return true, nil },
		schema.Description("Resets."), schema.Deprecated(""))
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	sdl := s.SDL()
	for _, want := range []string{
		"enum Episode", `JEDI @deprecated(reason: "Use NEWHOPE.")`, "interface Character", "type Human implements Character",
		"shout: String!", "union Anyone = Human", `scalar Time @specifiedBy(url: "https://example.com/time")`,
		"input Filter", "hero(episode: Episode): Character", "now: Time!", "find(f: Filter!): [Character]!",
		"reset: Boolean! @deprecated\n",
	} {
		if !strings.Contains(sdl, want) {
			t.Errorf("SDL lacks %q:\n%s", want, sdl)
		}
	}
	if s.AST().Types["Human"] == nil {
		t.Error("AST has no Human type")
	}
}

// TestFacadeBuildErrors checks that Build's mistakes are *BuildError values
// found with errors.As, and that a failed build returns no schema.
func TestFacadeBuildErrors(t *testing.T) {
	b := schema.New()
	schema.Object[int](b, "Bad")
	s, err := b.Build()
	if s != nil {
		t.Error("Build returned a schema with an error")
	}
	var be *schema.BuildError
	if !errors.As(err, &be) || be.Type == "" {
		t.Fatalf("errors.As(%v) found no *BuildError with a type", err)
	}
}

// TestZeroValues checks that a zero Builder is ready to use and that a zero
// Schema prints nothing instead of panicking.
func TestZeroValues(t *testing.T) {
	var b schema.Builder
	schema.QueryNoArgs(&b, "ok", func(context.Context) (bool, error) { return true, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.SDL(), "ok: Boolean!") {
		t.Errorf("SDL = %q", s.SDL())
	}
	var zero schema.Schema
	if zero.SDL() != "" || zero.AST() != nil {
		t.Error("a zero Schema is not empty")
	}
}
