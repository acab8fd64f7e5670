package graft_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// fuzzServe sends one POST body to the named hostile router and holds
// the answer to the invariants of checkHostileAnswer.
func fuzzServe(t *testing.T, router, body string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	hostileRouter(t, router).ServeHTTP(rec, req)
	checkHostileAnswer(t, rec.Code, rec.Body.Bytes())
}

// FuzzRouterDocument sends arbitrary documents through parse, validation,
// limits and execution against the blog and Star Wars schemas.
func FuzzRouterDocument(f *testing.F) {
	for _, q := range []string{
		"{ hello }",
		"{ authors(first: 50) { id name email posts(first: 10) { id title likes tags } } }",
		"query A($id: ID!) { author(id: $id) { ...F posts(first: 20) { ...P } } } fragment F on Author { id name } fragment P on Post { id title body likes }",
		"{ hero { name friends { name ... on Human { homePlanet } ... on Droid { primaryFunction } } } }",
		"{ hero(episode: EMPIRE) { __typename appearsIn secretBackstory } }",
		"{ __schema { types { name fields { name } } } }",
		"{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }",
		"{ hello @skip(if: true) a: hello @include(if: false) }",
		"{ authors(first: 2147483648) { id } }",
		"subscription { hello }",
		"mutation { hello }",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, query string) {
		body := gqlBody(query, "", "")
		fuzzServe(t, "blog", body)
		fuzzServe(t, "starwars", body)
	})
}

// FuzzRouterVariables sends arbitrary JSON as the variables of documents
// that use variables of every kind.
func FuzzRouterVariables(f *testing.F) {
	f.Add(`query($n: Int) { authors(first: $n) { id } }`, `{"n":3}`)
	f.Add(`query($n: Int) { authors(first: $n) { id } }`, `{"n":2147483648}`)
	f.Add(`query($id: ID!) { author(id: $id) { name } }`, `{"id":"a1"}`)
	f.Add(`query($e: Episode, $id: String!) { hero(episode: $e) { name } human(id: $id) { name } }`, `{"e":"JEDI","id":"1000"}`)
	f.Add(`query($e: [Episode!]) { hero { name } }`, `{"e":[null]}`)
	f.Add(`query($a: Boolean!) { hello @include(if: $a) }`, `{"a":"yes"}`)
	f.Fuzz(func(t *testing.T, query, variables string) {
		body := gqlBody(query, variables, "")
		fuzzServe(t, "blog", body)
		fuzzServe(t, "starwars", body)
	})
}

// FuzzRouterPersistedQuery sends arbitrary JSON as the persistedQuery
// extension to routers with automatic persisted queries, with a safelist
// and without persisted queries.
func FuzzRouterPersistedQuery(f *testing.F) {
	h := strings.Repeat("ab", 32)
	f.Add(`{"version":1,"sha256Hash":"`+h+`"}`, "")
	f.Add(`{"version":1,"sha256Hash":"`+h+`"}`, "{ hello }")
	f.Add(`{"version":2}`, "")
	f.Add(`{"version":1,"sha256Hash":7,"miss":true}`, "")
	f.Add(`"x"`, "{ hello }")
	f.Add(`null`, "{ hello }")
	f.Fuzz(func(t *testing.T, persistedQuery, query string) {
		body := gqlBody(query, "", pqExt(persistedQuery))
		for _, r := range []string{"apq", "safe", "blog"} {
			fuzzServe(t, r, body)
		}
	})
}
