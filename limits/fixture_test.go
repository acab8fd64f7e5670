package limits

import (
	"testing"

	"github.com/graftgql/graft/schema"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// testSDL is a schema with every kind of selection the analysis walks:
// lists with cost arguments, interfaces, a union, input objects with
// defaults, a mutation and a directive allowed everywhere.
const testSDL = `
directive @log on QUERY | MUTATION | FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT | FRAGMENT_DEFINITION | VARIABLE_DEFINITION

type Query {
  hello: String!
  authors(first: Int = 10): [Author!]!
  author(id: ID!): Author
  search(text: String!, limit: Int = 5): [SearchResult!]!
  node(id: ID!): Node
  characters(filter: Filter): [Character!]!
  boom: Int
  negative: Int
  scale(factor: Float = 2): Int
  viewer: Query!
}

type Mutation {
  addPost(title: String!): Post
}

interface Node { id: ID! }

interface Character {
  id: ID!
  name: String!
  friends(first: Int = 3): [Character!]!
}

type Human implements Node & Character {
  id: ID!
  name: String!
  friends(first: Int = 3): [Character!]!
  homePlanet: String
  starships(first: Int = 2): [Starship!]!
}

type Droid implements Node & Character {
  id: ID!
  name: String!
  friends(first: Int = 3): [Character!]!
  primaryFunction: String
}

type Starship implements Node {
  id: ID!
  name: String!
}

union SearchResult = Human | Droid | Starship

type Author implements Node {
  id: ID!
  name: String!
  email: String!
  posts(first: Int = 10): [Post!]!
}

type Post implements Node {
  id: ID!
  title: String!
  likes: Int!
  tags: [String!]!
}

input Filter {
  minLikes: Int = 0
  first: Int = 7
}
`

// multiply is the usual list cost: 1 plus the count argument times the
// children's cost.
func multiply(arg string) schema.CostFunc {
	return func(args map[string]any, children int) int {
		n, _ := args[arg].(int64)
		return 1 + int(n)*children
	}
}

// testCosts declares costs for testSDL. Human.friends keeps the default,
// so a fragment on Human uses it while a selection on Character does not.
var testCosts = map[string]schema.CostFunc{
	"Query.authors":     multiply("first"),
	"Author.posts":      multiply("first"),
	"Query.search":      multiply("limit"),
	"Character.friends": multiply("first"),
	"Human.starships":   multiply("first"),
	"Query.characters": func(args map[string]any, children int) int {
		n := int64(10)
		if f, ok := args["filter"].(map[string]any); ok {
			n, _ = f["first"].(int64)
		}
		return 1 + int(n)*children
	},
	"Query.boom":     func(map[string]any, int) int { panic("boom") },
	"Query.negative": func(map[string]any, int) int { return -5 },
	"Query.scale": func(args map[string]any, _ int) int {
		f, _ := args["factor"].(float64)
		return int(f * 10)
	},
}

func testCostLookup(typeName, fieldName string) schema.CostFunc {
	return testCosts[typeName+"."+fieldName]
}

func loadSchema(t testing.TB, sdl string) *ast.Schema {
	t.Helper()
	s, err := gqlparser.LoadSchema(&ast.Source{Name: "test.graphql", Input: sdl})
	if err != nil {
		t.Fatalf("load schema: %v", err)
	}
	return s
}

// loadQuery parses and validates a document and returns its only
// operation.
func loadQuery(t testing.TB, s *ast.Schema, query string) (*ast.QueryDocument, *ast.OperationDefinition) {
	t.Helper()
	doc, errs := gqlparser.LoadQueryWithRules(s, query, nil)
	if len(errs) > 0 {
		t.Fatalf("load query %q: %v", query, errs)
	}
	if len(doc.Operations) != 1 {
		t.Fatalf("want one operation, got %d", len(doc.Operations))
	}
	return doc, doc.Operations[0]
}
