package starwars

// Human is a humanoid character.
type Human struct {
	ID         string    `description:"The id of the human."`
	Name       string    `type:"String" description:"The name of the human."`
	Friends    []string  `description:"The friends of the human, or an empty list if they have none."`
	AppearsIn  []Episode `type:"[Episode]" description:"Which movies they appear in."`
	HomePlanet *string   `description:"The home planet of the human, or null if unknown."`
}

// Droid is a mechanical character.
type Droid struct {
	ID        string    `description:"The id of the droid."`
	Name      string    `type:"String" description:"The name of the droid."`
	Friends   []string  `description:"The friends of the droid, or an empty list if they have none."`
	AppearsIn []Episode `type:"[Episode]" description:"Which movies they appear in."`
	// SecretBackstory holds nothing: the field's resolver (NewBuilder)
	// always fails. It is declared here for its place in the schema.
	SecretBackstory *string `type:"String"`
	PrimaryFunction string  `type:"String" description:"The primary function of the droid."`
}

// Character is a Human or a Droid.
type Character interface {
	friendIDs() []string
}

func (h *Human) friendIDs() []string { return h.Friends }
func (d *Droid) friendIDs() []string { return d.Friends }

var allEpisodes = []Episode{NewHope, Empire, Jedi}

func planet(s string) *string { return &s }

var (
	luke   = &Human{ID: "1000", Name: "Luke Skywalker", Friends: []string{"1002", "1003", "2000", "2001"}, AppearsIn: allEpisodes, HomePlanet: planet("Tatooine")}
	vader  = &Human{ID: "1001", Name: "Darth Vader", Friends: []string{"1004"}, AppearsIn: allEpisodes, HomePlanet: planet("Tatooine")}
	han    = &Human{ID: "1002", Name: "Han Solo", Friends: []string{"1000", "1003", "2001"}, AppearsIn: allEpisodes}
	leia   = &Human{ID: "1003", Name: "Leia Organa", Friends: []string{"1000", "1002", "2000", "2001"}, AppearsIn: allEpisodes, HomePlanet: planet("Alderaan")}
	tarkin = &Human{ID: "1004", Name: "Wilhuff Tarkin", Friends: []string{"1001"}, AppearsIn: []Episode{NewHope}}

	threepio = &Droid{ID: "2000", Name: "C-3PO", Friends: []string{"1000", "1002", "1003", "2001"}, AppearsIn: allEpisodes, PrimaryFunction: "Protocol"}
	artoo    = &Droid{ID: "2001", Name: "R2-D2", Friends: []string{"1000", "1002", "1003"}, AppearsIn: allEpisodes, PrimaryFunction: "Astromech"}
)

var (
	humans = map[string]*Human{"1000": luke, "1001": vader, "1002": han, "1003": leia, "1004": tarkin}
	droids = map[string]*Droid{"2000": threepio, "2001": artoo}
)

// character returns the character with the given id, or nil.
func character(id string) Character {
	if h, ok := humans[id]; ok {
		return h
	}
	if d, ok := droids[id]; ok {
		return d
	}
	return nil
}

// hero returns Luke for The Empire Strikes Back and R2-D2 otherwise.
func hero(episode *Episode) Character {
	if episode != nil && *episode == Empire {
		return luke
	}
	return artoo
}
