package starwars

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
)

func date(s string) *time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return &t
}

var starships = map[string]*Starship{
	"3000": {ID: "3000", Name: "Millennium Falcon", LengthM: 34.37, FirstFlight: date("1960-03-12")},
	"3001": {ID: "3001", Name: "X-Wing", LengthM: 12.5, FirstFlight: date("1977-05-25")},
	"3002": {ID: "3002", Name: "TIE Advanced x1", LengthM: 9.2, FirstFlight: date("1976-11-02")},
	"3003": {ID: "3003", Name: "Imperial shuttle", LengthM: 20},
}

// MarshalDate writes a Date, the custom scalar of time.Time as a
// calendar date: gqlgen.yml maps Date to this package's Date, and gqlgen
// finds MarshalDate and UnmarshalDate by that name.
func MarshalDate(t time.Time) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		io.WriteString(w, strconv.Quote(t.Format(time.DateOnly)))
	})
}

// UnmarshalDate reads a Date: a string YYYY-MM-DD.
func UnmarshalDate(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("a Date is a string YYYY-MM-DD, not %T", v)
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("a Date is a string YYYY-MM-DD: %q", s)
	}
	return t, nil
}

type unitKey struct{}

// Units is the function of the @units directive (QUERY): the lengths of
// the operation are given in unit, unless a field names its own.
func Units(ctx context.Context, obj any, next graphql.Resolver, length LengthUnit) (any, error) {
	return next(context.WithValue(ctx, unitKey{}, length))
}

// Upper is the function of the @upper directive (FIELD): it upper-cases
// a String field's value, and fails on a field of another type.
func Upper(ctx context.Context, obj any, next graphql.Resolver) (any, error) {
	v, err := next(ctx)
	if err != nil {
		return v, err
	}
	switch s := v.(type) {
	case string:
		return strings.ToUpper(s), nil
	case *string:
		if s == nil {
			return s, nil
		}
		return str(strings.ToUpper(*s)), nil
	}
	return nil, fmt.Errorf("@upper applies to String fields, not to %T", v)
}

// Starship returns the StarshipResolver.
func (r *Resolver) Starship() *starshipResolver { return &starshipResolver{r} }

type starshipResolver struct{ *Resolver }

// Length is the resolver for the length field.
func (r *starshipResolver) Length(ctx context.Context, obj *Starship, unit *LengthUnit) (*float64, error) {
	u := LengthUnitMeter
	if unit != nil {
		u = *unit
	} else if v, ok := ctx.Value(unitKey{}).(LengthUnit); ok {
		u = v
	}
	l := obj.LengthM
	if u == LengthUnitFoot {
		l /= 0.3048
	}
	l = math.Round(l*100) / 100
	return &l, nil
}

// Search is the resolver for the search field.
func (r *queryResolver) Search(ctx context.Context, text string) ([]SearchResult, error) {
	text = strings.ToLower(text)
	match := func(name string) bool { return strings.Contains(strings.ToLower(name), text) }
	var out []SearchResult
	for _, id := range slices.Sorted(maps.Keys(humans)) {
		if h := humans[id]; match(*h.Name) {
			out = append(out, h)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(droids)) {
		if d := droids[id]; match(*d.Name) {
			out = append(out, d)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(starships)) {
		if s := starships[id]; match(s.Name) {
			out = append(out, s)
		}
	}
	return out, nil
}

// Starship is the resolver for the starship field.
func (r *queryResolver) Starship(ctx context.Context, id string) (*Starship, error) {
	return starships[id], nil
}

// StarshipsBefore is the resolver for the starshipsBefore field.
func (r *queryResolver) StarshipsBefore(ctx context.Context, date time.Time) ([]*Starship, error) {
	var out []*Starship
	for _, id := range slices.Sorted(maps.Keys(starships)) {
		if s := starships[id]; s.FirstFlight != nil && s.FirstFlight.Before(date) {
			out = append(out, s)
		}
	}
	return out, nil
}
