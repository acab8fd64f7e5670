// Package starwars is the Star Wars schema as a gqlgen project, in the
// layout gqlgen gives one: models as gqlgen generates them (an interface
// with marker and getter methods, an enum as a string type), a root
// resolver with one resolver struct per type, and no generated executor.
package starwars

import "time"

// Character is a Human or a Droid.
type Character interface {
	IsCharacter()
	GetID() string
}

// SearchResult is a Human, a Droid or a Starship.
type SearchResult interface {
	IsSearchResult()
}

// LengthUnit is a unit of length.
type LengthUnit string

// The units of length.
const (
	LengthUnitMeter LengthUnit = "METER"
	LengthUnitFoot  LengthUnit = "FOOT"
)

// Starship is a ship.
type Starship struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	LengthM     float64    `json:"-"`
	FirstFlight *time.Time `json:"firstFlight,omitempty"`
}

// IsSearchResult marks Starship as a SearchResult.
func (Starship) IsSearchResult() {}

// Episode is one of the films of the trilogy.
type Episode string

// The episodes.
const (
	EpisodeNewhope Episode = "NEWHOPE"
	EpisodeEmpire  Episode = "EMPIRE"
	EpisodeJedi    Episode = "JEDI"
)

// Human is a humanoid character.
type Human struct {
	ID         string    `json:"id"`
	Name       *string   `json:"name,omitempty"`
	FriendIDs  []string  `json:"-"`
	AppearsIn  []Episode `json:"appearsIn,omitempty"`
	HomePlanet *string   `json:"homePlanet,omitempty"`
}

// IsCharacter marks Human as a Character.
func (Human) IsCharacter() {}

// IsSearchResult marks Human as a SearchResult.
func (Human) IsSearchResult() {}

// GetID returns the id.
func (h Human) GetID() string { return h.ID }

// Droid is a mechanical character.
type Droid struct {
	ID              string    `json:"id"`
	Name            *string   `json:"name,omitempty"`
	FriendIDs       []string  `json:"-"`
	AppearsIn       []Episode `json:"appearsIn,omitempty"`
	PrimaryFunction *string   `json:"primaryFunction,omitempty"`
}

// IsCharacter marks Droid as a Character.
func (Droid) IsCharacter() {}

// IsSearchResult marks Droid as a SearchResult.
func (Droid) IsSearchResult() {}

// GetID returns the id.
func (d Droid) GetID() string { return d.ID }
