package federationproducts_test

import (
	"os"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/federationproducts"
	"github.com/graftgql/graft/grafttest"
)

func client(t *testing.T) *grafttest.Client {
	t.Helper()
	s, err := federationproducts.Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return grafttest.New(r)
}

func TestServiceSDL(t *testing.T) {
	res := client(t).Do(t, `{ _service { sdl } }`, nil)
	res.NoErrors(t)
	var v struct {
		Service struct{ SDL string } `json:"_service"`
	}
	res.Decode(t, &v)
	want, err := os.ReadFile("testdata/subgraph.graphql")
	if err != nil {
		t.Fatal(err)
	}
	if v.Service.SDL != string(want) {
		t.Errorf("_service.sdl differs from testdata/subgraph.graphql:\n%s", v.Service.SDL)
	}
}

func TestEntities(t *testing.T) {
	res := client(t).Do(t, `query($r: [_Any!]!) { _entities(representations: $r) { __typename
		... on Product { id sku createdBy { email totalProductsCreated } }
		... on User { email name averageProductsCreatedPerYear }
		... on DeprecatedProduct { dsku: sku reason }
		... on ProductResearch { study { caseNumber description } }
		... on Inventory { id deprecatedProducts { sku } } } }`, map[string]any{"r": []any{
		map[string]any{"__typename": "Product", "id": "apollo-federation"},
		map[string]any{"__typename": "Product", "sku": "studio", "package": ""},
		map[string]any{"__typename": "Product", "sku": "federation", "variation": map[string]any{"id": "OSS"}},
		map[string]any{"__typename": "User", "email": "support@apollographql.com", "totalProductsCreated": 1337, "yearsOfEmployment": 10},
		map[string]any{"__typename": "DeprecatedProduct", "sku": "apollo-federation-v1", "package": "@apollo/federation-v1"},
		map[string]any{"__typename": "ProductResearch", "study": map[string]any{"caseNumber": "1235"}},
		map[string]any{"__typename": "Inventory", "id": "apollo-oss"},
		map[string]any{"__typename": "Product", "id": "nope"},
	}})
	res.NoErrors(t)
	const want = `{"_entities":[` +
		`{"__typename":"Product","id":"apollo-federation","sku":"federation","createdBy":{"email":"support@apollographql.com","totalProductsCreated":1337}},` +
		`{"__typename":"Product","id":"apollo-studio","sku":"studio","createdBy":{"email":"support@apollographql.com","totalProductsCreated":1337}},` +
		`{"__typename":"Product","id":"apollo-federation","sku":"federation","createdBy":{"email":"support@apollographql.com","totalProductsCreated":1337}},` +
		`{"__typename":"User","email":"support@apollographql.com","name":"Jane Smith","averageProductsCreatedPerYear":134},` +
		`{"__typename":"DeprecatedProduct","dsku":"apollo-federation-v1","reason":"Migrate to Federation V2"},` +
		`{"__typename":"ProductResearch","study":{"caseNumber":"1235","description":"Studio Study"}},` +
		`{"__typename":"Inventory","id":"apollo-oss","deprecatedProducts":[{"sku":"apollo-federation-v1"}]},null]}`
	if string(res.Data) != want {
		t.Errorf("data = %s\nwant %s", res.Data, want)
	}
}
