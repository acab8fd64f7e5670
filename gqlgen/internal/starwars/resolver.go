package starwars

import (
	"context"
	"errors"

	"github.com/99designs/gqlgen/graphql"
)

// Resolver is the root resolver.
type Resolver struct{}

func str(s string) *string { return &s }

var all = []Episode{EpisodeNewhope, EpisodeEmpire, EpisodeJedi}

var (
	humans = map[string]*Human{
		"1000": {ID: "1000", Name: str("Luke Skywalker"), FriendIDs: []string{"1002", "1003", "2000", "2001"}, AppearsIn: all, HomePlanet: str("Tatooine")},
		"1001": {ID: "1001", Name: str("Darth Vader"), FriendIDs: []string{"1004"}, AppearsIn: all, HomePlanet: str("Tatooine")},
		"1002": {ID: "1002", Name: str("Han Solo"), FriendIDs: []string{"1000", "1003", "2001"}, AppearsIn: all},
		"1003": {ID: "1003", Name: str("Leia Organa"), FriendIDs: []string{"1000", "1002", "2000", "2001"}, AppearsIn: all, HomePlanet: str("Alderaan")},
		"1004": {ID: "1004", Name: str("Wilhuff Tarkin"), FriendIDs: []string{"1001"}, AppearsIn: []Episode{EpisodeNewhope}},
	}
	droids = map[string]*Droid{
		"2000": {ID: "2000", Name: str("C-3PO"), FriendIDs: []string{"1000", "1002", "1003", "2001"}, AppearsIn: all, PrimaryFunction: str("Protocol")},
		"2001": {ID: "2001", Name: str("R2-D2"), FriendIDs: []string{"1000", "1002", "1003"}, AppearsIn: all, PrimaryFunction: str("Astromech")},
	}
)

func character(id string) Character {
	if h, ok := humans[id]; ok {
		return h
	}
	if d, ok := droids[id]; ok {
		return d
	}
	return nil
}

func friends(ids []string) []Character {
	out := make([]Character, len(ids))
	for i, id := range ids {
		out[i] = character(id)
	}
	return out
}

var errSecret = errors.New("secretBackstory is secret.")

// Query returns the QueryResolver.
func (r *Resolver) Query() *queryResolver { return &queryResolver{r} }

// Human returns the HumanResolver.
func (r *Resolver) Human() *humanResolver { return &humanResolver{r} }

// Droid returns the DroidResolver.
func (r *Resolver) Droid() *droidResolver { return &droidResolver{r} }

type (
	queryResolver struct{ *Resolver }
	humanResolver struct{ *Resolver }
	droidResolver struct{ *Resolver }
)

// Hero is the resolver for the hero field.
func (r *queryResolver) Hero(ctx context.Context, episode *Episode) (Character, error) {
	if episode != nil && *episode == EpisodeEmpire {
		return humans["1000"], nil
	}
	return droids["2001"], nil
}

// Human is the resolver for the human field.
func (r *queryResolver) Human(ctx context.Context, id string) (*Human, error) {
	return humans[id], nil
}

// Droid is the resolver for the droid field.
func (r *queryResolver) Droid(ctx context.Context, id string) (*Droid, error) {
	return droids[id], nil
}

// Friends is the resolver for the friends field.
func (r *humanResolver) Friends(ctx context.Context, obj *Human) ([]Character, error) {
	return friendsOf(ctx, obj.FriendIDs)
}

// SecretBackstory is the resolver for the secretBackstory field; the
// schema's @secret directive keeps it from being called.
func (r *humanResolver) SecretBackstory(ctx context.Context, obj *Human) (*string, error) {
	return str("born on Tatooine"), nil
}

// Friends is the resolver for the friends field.
func (r *droidResolver) Friends(ctx context.Context, obj *Droid) ([]Character, error) {
	return friendsOf(ctx, obj.FriendIDs)
}

// SecretBackstory is the resolver for the secretBackstory field; the
// schema's @secret directive keeps it from being called.
func (r *droidResolver) SecretBackstory(ctx context.Context, obj *Droid) (*string, error) {
	return str("assembled on Tatooine"), nil
}

// Secret is the function of the @secret directive, of the shape of a
// field of gqlgen's DirectiveRoot: the field's value is never given.
func Secret(ctx context.Context, obj any, next graphql.Resolver) (any, error) {
	return nil, errSecret
}
