package federationreviews_test

import (
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/examples/federationreviews"
	"github.com/graftgql/graft/grafttest"
)

func TestReviewsOfProductEntities(t *testing.T) {
	s, err := federationreviews.Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	res := grafttest.New(r).Do(t, `query($r: [_Any!]!) { _entities(representations: $r) { ... on Product { id reviews { rating } } } }`,
		map[string]any{"r": []any{
			map[string]any{"__typename": "Product", "id": "apollo-studio"},
			map[string]any{"__typename": "Product", "id": "unknown"},
		}})
	res.NoErrors(t)
	const want = `{"_entities":[{"id":"apollo-studio","reviews":[{"rating":4}]},{"id":"unknown","reviews":[]}]}`
	if string(res.Data) != want {
		t.Errorf("data = %s\nwant %s", res.Data, want)
	}
}
