package starwars

import (
	"context"
	_ "embed"

	"github.com/graftgql/graft/schema"
)

// SDL is the Star Wars schema document, the contract SDLBuilder binds
// the Go types and resolvers to.
//
//go:embed starwars.graphql
var SDL string

// NewSDLBuilder returns a schema-first builder of the Star Wars schema:
// the document SDL defines the types, fields, arguments and descriptions,
// and the declarations only bind Go types and resolvers to it. It serves
// the same schema, with the same answers, as NewBuilder.
func NewSDLBuilder() *schema.Builder {
	b := schema.New().SDL("starwars.graphql", SDL)
	schema.Enum(b, "Episode", []schema.EnumValueDef[Episode]{
		{Name: "NEWHOPE", Value: NewHope},
		{Name: "EMPIRE", Value: Empire},
		{Name: "JEDI", Value: Jedi},
	})
	schema.Interface[Character](b, "Character")

	human := schema.Object[Human](b, "Human")
	schema.FieldFuncNoArgs(human, "friends", func(_ context.Context, h *Human) ([]Character, error) {
		return friends(h.Friends)
	})
	schema.FieldFuncNoArgs(human, "secretBackstory", func(context.Context, *Human) (*string, error) {
		return nil, ErrSecretBackstory
	})

	droid := schema.Object[Droid](b, "Droid")
	schema.FieldFuncNoArgs(droid, "friends", func(_ context.Context, d *Droid) ([]Character, error) {
		return friends(d.Friends)
	})
	schema.FieldFuncNoArgs(droid, "secretBackstory", func(context.Context, *Droid) (*string, error) {
		return nil, ErrSecretBackstory
	})

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

// SDLSchema builds the schema-first Star Wars schema.
func SDLSchema() (*schema.Schema, error) {
	return NewSDLBuilder().Build()
}
