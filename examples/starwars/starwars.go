// Package starwars is the classic Star Wars example schema of graphql-js's
// own tests, served by graft: the Character interface implemented by Human
// and Droid, the Episode enum, and the hero, human and droid queries over
// a fixed cast.
package starwars

import (
	"context"
	"errors"

	"github.com/graftgql/graft/schema"
)

// Episode is one of the films of the original trilogy.
type Episode int

// The episodes, numbered as the films are.
const (
	NewHope Episode = 4
	Empire  Episode = 5
	Jedi    Episode = 6
)

// ErrSecretBackstory is the error secretBackstory always fails with.
var ErrSecretBackstory = errors.New("secretBackstory is secret.")

// HeroArgs are the arguments of Query.hero.
type HeroArgs struct {
	Episode *Episode `description:"If omitted, returns the hero of the whole saga. If provided, returns the hero of that particular episode."`
}

// HumanArgs are the arguments of Query.human.
type HumanArgs struct {
	ID string `description:"id of the human"`
}

// DroidArgs are the arguments of Query.droid.
type DroidArgs struct {
	ID string `description:"id of the droid"`
}

func friends(ids []string) ([]Character, error) {
	out := make([]Character, len(ids))
	for i, id := range ids {
		out[i] = character(id)
	}
	return out, nil
}

// NewBuilder returns a builder holding the Star Wars schema.
func NewBuilder() *schema.Builder {
	b := schema.New()
	schema.Enum(b, "Episode", []schema.EnumValueDef[Episode]{
		{Name: "NEWHOPE", Value: NewHope, Description: "Released in 1977."},
		{Name: "EMPIRE", Value: Empire, Description: "Released in 1980."},
		{Name: "JEDI", Value: Jedi, Description: "Released in 1983."},
	}, schema.Description("One of the films in the Star Wars Trilogy"))

	schema.Interface[Character](b, "Character", schema.Description("A character in the Star Wars Trilogy")).
		Field("id", "String!", schema.Description("The id of the character.")).
		Field("name", "String", schema.Description("The name of the character.")).
		Field("friends", "[Character]", schema.Description("The friends of the character, or an empty list if they have none.")).
		Field("appearsIn", "[Episode]", schema.Description("Which movies they appear in.")).
		Field("secretBackstory", "String", schema.Description("All secrets about their past."))

	human := schema.Object[Human](b, "Human", schema.Implements("Character"),
		schema.Description("A humanoid creature in the Star Wars universe."))
	schema.FieldFuncNoArgs(human, "friends", func(_ context.Context, h *Human) ([]Character, error) {
		return friends(h.Friends)
	}, schema.OfType("[Character]"), schema.Description("The friends of the human, or an empty list if they have none."))
	schema.FieldFuncNoArgs(human, "secretBackstory", func(context.Context, *Human) (*string, error) {
		return nil, ErrSecretBackstory
	}, schema.Description("Where are they from and how they came to be who they are."))

	droid := schema.Object[Droid](b, "Droid", schema.Implements("Character"),
		schema.Description("A mechanical creature in the Star Wars universe."))
	schema.FieldFuncNoArgs(droid, "friends", func(_ context.Context, d *Droid) ([]Character, error) {
		return friends(d.Friends)
	}, schema.OfType("[Character]"), schema.Description("The friends of the droid, or an empty list if they have none."))
	schema.FieldFuncNoArgs(droid, "secretBackstory", func(context.Context, *Droid) (*string, error) {
		return nil, ErrSecretBackstory
	}, schema.Description("Construction date and the name of the designer."))

	schema.Query(b, "hero", func(_ context.Context, a HeroArgs) (Character, error) {
		return hero(a.Episode), nil
	})
	schema.Query(b, "human", func(_ context.Context, a HumanArgs) (*Human, error) {
		return humans[a.ID], nil
	})
	schema.Query(b, "droid", func(_ context.Context, a DroidArgs) (*Droid, error) {
		return droids[a.ID], nil
	})
	return b
}

// Schema builds the Star Wars schema.
func Schema() (*schema.Schema, error) {
	return NewBuilder().Build()
}
