package starwars

import (
	"context"
	"testing"

	"github.com/graftgql/graft/internal/exec"
)

// run executes a query against the Star Wars schema and returns the
// response body.
func run(t *testing.T, query string, vars map[string]any) string {
	t.Helper()
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	e := exec.New(s, exec.Options{})
	doc, errs := e.Prepare(query)
	if errs != nil {
		t.Fatalf("prepare: %v", errs)
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		t.Fatalf("operation: %v", gerr)
	}
	coerced, errs := e.CoerceVariables(op, vars)
	if errs != nil {
		t.Fatalf("variables: %v", errs)
	}
	return string(e.Execute(context.Background(), op, coerced, nil, nil))
}

// The query cases of graphql-js's Star Wars tests (starWarsQuery-test).
func TestStarWarsQueries(t *testing.T) {
	tests := []struct {
		name  string
		query string
		vars  map[string]any
		want  string
	}{
		{
			name:  "hero name",
			query: `query HeroNameQuery { hero { name } }`,
			want:  `{"data":{"hero":{"name":"R2-D2"}}}`,
		},
		{
			name:  "hero id, name and friends",
			query: `query HeroNameAndFriendsQuery { hero { id name friends { name } } }`,
			want:  `{"data":{"hero":{"id":"2001","name":"R2-D2","friends":[{"name":"Luke Skywalker"},{"name":"Han Solo"},{"name":"Leia Organa"}]}}}`,
		},
		{
			name:  "nested friends",
			query: `query NestedQuery { hero { name friends { name appearsIn friends { name } } } }`,
			want: `{"data":{"hero":{"name":"R2-D2","friends":[` +
				`{"name":"Luke Skywalker","appearsIn":["NEWHOPE","EMPIRE","JEDI"],"friends":[{"name":"Han Solo"},{"name":"Leia Organa"},{"name":"C-3PO"},{"name":"R2-D2"}]},` +
				`{"name":"Han Solo","appearsIn":["NEWHOPE","EMPIRE","JEDI"],"friends":[{"name":"Luke Skywalker"},{"name":"Leia Organa"},{"name":"R2-D2"}]},` +
				`{"name":"Leia Organa","appearsIn":["NEWHOPE","EMPIRE","JEDI"],"friends":[{"name":"Luke Skywalker"},{"name":"Han Solo"},{"name":"C-3PO"},{"name":"R2-D2"}]}]}}}`,
		},
		{
			name:  "Luke by id",
			query: `query FetchLukeQuery { human(id: "1000") { name } }`,
			want:  `{"data":{"human":{"name":"Luke Skywalker"}}}`,
		},
		{
			name:  "Luke through a variable",
			query: `query FetchSomeIDQuery($someId: String!) { human(id: $someId) { name } }`,
			vars:  map[string]any{"someId": "1000"},
			want:  `{"data":{"human":{"name":"Luke Skywalker"}}}`,
		},
		{
			name:  "Han through a variable",
			query: `query FetchSomeIDQuery($someId: String!) { human(id: $someId) { name } }`,
			vars:  map[string]any{"someId": "1002"},
			want:  `{"data":{"human":{"name":"Han Solo"}}}`,
		},
		{
			name:  "an invalid id gives null",
			query: `query humanQuery($id: String!) { human(id: $id) { name } }`,
			vars:  map[string]any{"id": "not a valid id"},
			want:  `{"data":{"human":null}}`,
		},
		{
			name:  "a droid id asked as a human gives null",
			query: `{ human(id: "2001") { name } }`,
			want:  `{"data":{"human":null}}`,
		},
		{
			name:  "a human id asked as a droid gives null",
			query: `{ droid(id: "1000") { name } }`,
			want:  `{"data":{"droid":null}}`,
		},
		{
			name:  "droid by id",
			query: `{ droid(id: "2000") { name primaryFunction } }`,
			want:  `{"data":{"droid":{"name":"C-3PO","primaryFunction":"Protocol"}}}`,
		},
		{
			name:  "alias",
			query: `query FetchLukeAliased { luke: human(id: "1000") { name } }`,
			want:  `{"data":{"luke":{"name":"Luke Skywalker"}}}`,
		},
		{
			name:  "two aliases",
			query: `query FetchLukeAndLeiaAliased { luke: human(id: "1000") { name } leia: human(id: "1003") { name } }`,
			want:  `{"data":{"luke":{"name":"Luke Skywalker"},"leia":{"name":"Leia Organa"}}}`,
		},
		{
			name:  "duplicated selections",
			query: `query DuplicateFields { luke: human(id: "1000") { name homePlanet } leia: human(id: "1003") { name homePlanet } }`,
			want:  `{"data":{"luke":{"name":"Luke Skywalker","homePlanet":"Tatooine"},"leia":{"name":"Leia Organa","homePlanet":"Alderaan"}}}`,
		},
		{
			name: "fragment",
			query: `query UseFragment { luke: human(id: "1000") { ...HumanFragment } leia: human(id: "1003") { ...HumanFragment } }
				fragment HumanFragment on Human { name homePlanet }`,
			want: `{"data":{"luke":{"name":"Luke Skywalker","homePlanet":"Tatooine"},"leia":{"name":"Leia Organa","homePlanet":"Alderaan"}}}`,
		},
		{
			name:  "__typename of R2-D2",
			query: `query CheckTypeOfR2 { hero { __typename name } }`,
			want:  `{"data":{"hero":{"__typename":"Droid","name":"R2-D2"}}}`,
		},
		{
			name:  "__typename of Luke",
			query: `query CheckTypeOfLuke { hero(episode: EMPIRE) { __typename name } }`,
			want:  `{"data":{"hero":{"__typename":"Human","name":"Luke Skywalker"}}}`,
		},
		{
			name:  "hero of an episode through a variable",
			query: `query ($ep: Episode) { hero(episode: $ep) { name } }`,
			vars:  map[string]any{"ep": "JEDI"},
			want:  `{"data":{"hero":{"name":"R2-D2"}}}`,
		},
		{
			name:  "inline fragments on Human and Droid",
			query: `{ hero { name ... on Droid { primaryFunction } ... on Human { homePlanet } } luke: hero(episode: EMPIRE) { name ... on Droid { primaryFunction } ... on Human { homePlanet } } }`,
			want:  `{"data":{"hero":{"name":"R2-D2","primaryFunction":"Astromech"},"luke":{"name":"Luke Skywalker","homePlanet":"Tatooine"}}}`,
		},
		{
			name:  "friends of mixed types with __typename",
			query: `{ human(id: "1003") { friends { __typename ... on Human { name } ... on Droid { id } } } }`,
			want:  `{"data":{"human":{"friends":[{"__typename":"Human","name":"Luke Skywalker"},{"__typename":"Human","name":"Han Solo"},{"__typename":"Droid","id":"2000"},{"__typename":"Droid","id":"2001"}]}}}`,
		},
		{
			name:  "Tarkin appears only in A New Hope and has no home planet",
			query: `{ human(id: "1004") { name appearsIn homePlanet friends { name } } }`,
			want:  `{"data":{"human":{"name":"Wilhuff Tarkin","appearsIn":["NEWHOPE"],"homePlanet":null,"friends":[{"name":"Darth Vader"}]}}}`,
		},
		{
			name:  "secretBackstory error",
			query: "query HeroNameQuery {\n  hero {\n    name\n    secretBackstory\n  }\n}",
			want:  `{"errors":[{"message":"secretBackstory is secret.","locations":[{"line":4,"column":5}],"path":["hero","secretBackstory"]}],"data":{"hero":{"name":"R2-D2","secretBackstory":null}}}`,
		},
		{
			name:  "secretBackstory errors inside a list",
			query: "query HeroNameQuery {\n  hero {\n    name\n    friends {\n      name\n      secretBackstory\n    }\n  }\n}",
			want: `{"errors":[` +
				`{"message":"secretBackstory is secret.","locations":[{"line":6,"column":7}],"path":["hero","friends",0,"secretBackstory"]},` +
				`{"message":"secretBackstory is secret.","locations":[{"line":6,"column":7}],"path":["hero","friends",1,"secretBackstory"]},` +
				`{"message":"secretBackstory is secret.","locations":[{"line":6,"column":7}],"path":["hero","friends",2,"secretBackstory"]}],` +
				`"data":{"hero":{"name":"R2-D2","friends":[{"name":"Luke Skywalker","secretBackstory":null},{"name":"Han Solo","secretBackstory":null},{"name":"Leia Organa","secretBackstory":null}]}}}`,
		},
		{
			name:  "secretBackstory error through an alias",
			query: "query HeroNameQuery {\n  mainHero: hero {\n    name\n    story: secretBackstory\n  }\n}",
			want:  `{"errors":[{"message":"secretBackstory is secret.","locations":[{"line":4,"column":5}],"path":["mainHero","story"]}],"data":{"mainHero":{"name":"R2-D2","story":null}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := run(t, tt.query, tt.vars); got != tt.want {
				t.Errorf("response\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}
