// Package federationreviews is a small reviews subgraph served by
// GRAFT_EXAMPLE=federation-reviews. Beside the federation-products
// subgraph it makes a two-service graph: it adds Product.reviews to the
// products subgraph's Product entity, keyed by id.
package federationreviews

import (
	"context"

	"github.com/graftgql/graft/federation"
	"github.com/graftgql/graft/schema"
)

// Product is the products subgraph's entity, with the reviews this
// subgraph knows of.
type Product struct {
	ID schema.ID `graphql:"id"`
}

// Review is a review of a product.
type Review struct {
	ID      schema.ID `graphql:"id"`
	Body    string    `graphql:"body"`
	Rating  int       `graphql:"rating"`
	Product Product   `graphql:"product"`
}

var reviews = []Review{
	{ID: "r1", Body: "Composes without a fuss.", Rating: 5, Product: Product{ID: "apollo-federation"}},
	{ID: "r2", Body: "Keys took a while to get right.", Rating: 4, Product: Product{ID: "apollo-federation"}},
	{ID: "r3", Body: "Nice traces.", Rating: 4, Product: Product{ID: "apollo-studio"}},
}

// Schema builds the reviews subgraph.
func Schema() (*schema.Schema, error) {
	b := schema.New()
	product := schema.Object[Product](b, "Product", federation.Key("id"))
	schema.FieldFuncNoArgs(product, "reviews", func(_ context.Context, p *Product) ([]Review, error) {
		var out []Review
		for _, r := range reviews {
			if r.Product.ID == p.ID {
				out = append(out, r)
			}
		}
		return out, nil
	})
	schema.Object[Review](b, "Review")
	schema.QueryNoArgs(b, "latestReviews", func(context.Context) ([]Review, error) { return reviews, nil })
	return federation.Build(b, federation.Options{
		Entities: []federation.EntityResolver{
			federation.Entity(product, func(_ context.Context, reps []federation.Representation) ([]*Product, []error) {
				out := make([]*Product, len(reps))
				for i, r := range reps {
					if id, ok := r.String("id"); ok {
						out[i] = &Product{ID: schema.ID(id)}
					}
				}
				return out, nil
			}),
		},
	})
}
