// Package federationproducts is the products subgraph of Apollo's
// federation subgraph compatibility suite, served by
// GRAFT_EXAMPLE=federation-products: the schema and data of
// ../shared/federation/products.graphql, declared with package federation.
package federationproducts

import (
	"context"
	"math"

	"github.com/graftgql/graft/federation"
	"github.com/graftgql/graft/schema"
)

// Product is a product, an entity with three keys.
type Product struct {
	ID         schema.ID         `graphql:"id"`
	SKU        *string           `graphql:"sku"`
	Package    *string           `graphql:"package"`
	Variation  *ProductVariation `graphql:"variation"`
	Dimensions *ProductDimension `graphql:"dimensions"`
	CreatedBy  *User             `graphql:"createdBy"`
	Notes      *string           `graphql:"notes"`
	Research   []ProductResearch `graphql:"research"`
}

// DeprecatedProduct is the product of Federation v1.
type DeprecatedProduct struct {
	SKU       string  `graphql:"sku"`
	Package   string  `graphql:"package"`
	Reason    *string `graphql:"reason"`
	CreatedBy *User   `graphql:"createdBy"`
}

// ProductVariation is a variation of a product, part of a nested key.
type ProductVariation struct {
	ID schema.ID `graphql:"id"`
}

// ProductResearch is a study about a product.
type ProductResearch struct {
	Study   CaseStudy `graphql:"study"`
	Outcome *string   `graphql:"outcome"`
}

// CaseStudy is the study of a ProductResearch.
type CaseStudy struct {
	CaseNumber  schema.ID `graphql:"caseNumber"`
	Description *string   `graphql:"description"`
}

// ProductDimension is the size of a product, shared with other subgraphs.
type ProductDimension struct {
	Size   *string  `graphql:"size"`
	Weight *float64 `graphql:"weight"`
	Unit   *string  `graphql:"unit"`
}

// User is the users subgraph's entity, extended with a field that
// requires two of its external fields.
type User struct {
	AverageProductsCreatedPerYear *int      `graphql:"averageProductsCreatedPerYear"`
	Email                         schema.ID `graphql:"email"`
	Name                          *string   `graphql:"name"`
	TotalProductsCreated          *int      `graphql:"totalProductsCreated"`
	YearsOfEmployment             int       `graphql:"yearsOfEmployment"`
}

// Inventory stands for the Inventory interface of the inventory subgraph.
type Inventory struct {
	ID                 schema.ID           `graphql:"id"`
	DeprecatedProducts []DeprecatedProduct `graphql:"deprecatedProducts"`
}

// Schema builds the products subgraph.
func Schema() (*schema.Schema, error) {
	b := schema.New()
	b.DeclareDirective(schema.DirectiveDef{Name: "custom", Locations: []schema.DirectiveLocation{"OBJECT"}, Printing: schema.DirectiveSubgraphOnly})
	product := schema.Object[Product](b, "Product",
		schema.Directive("custom", ""),
		federation.Key("id"), federation.Key("sku package"), federation.Key("sku variation { id }"),
		schema.OnField("createdBy", federation.Provides("totalProductsCreated")),
		schema.OnField("notes", federation.Tag("internal")))
	deprecated := schema.Object[DeprecatedProduct](b, "DeprecatedProduct", federation.Key("sku package"))
	schema.Object[ProductVariation](b, "ProductVariation")
	research := schema.Object[ProductResearch](b, "ProductResearch", federation.Key("study { caseNumber }"))
	schema.Object[CaseStudy](b, "CaseStudy")
	schema.Object[ProductDimension](b, "ProductDimension", federation.Shareable(),
		schema.OnField("unit", federation.Inaccessible()))
	user := schema.Object[User](b, "User", schema.Extension(), federation.Key("email"),
		schema.OnField("email", federation.External()),
		schema.OnField("name", federation.Override("users")),
		schema.OnField("totalProductsCreated", federation.External()),
		schema.OnField("yearsOfEmployment", federation.External()))
	schema.FieldFuncNoArgs(user, "averageProductsCreatedPerYear", averagePerYear,
		federation.Requires("totalProductsCreated yearsOfEmployment"))
	inventory := schema.Object[Inventory](b, "Inventory", federation.InterfaceObject(), federation.Key("id"))

	schema.Query(b, "product", func(_ context.Context, args struct {
		ID schema.ID `graphql:"id"`
	}) (*Product, error) {
		return productByID(string(args.ID)), nil
	})
	schema.Query(b, "deprecatedProduct", func(_ context.Context, args struct {
		SKU     string `graphql:"sku"`
		Package string `graphql:"package"`
	}) (*DeprecatedProduct, error) {
		return deprecatedProductBy(args.SKU, args.Package), nil
	}, schema.Deprecated("Use product query instead"))

	return federation.Build(b, federation.Options{
		Links:             []federation.Link{{URL: "https://myspecs.dev/myCustomDirective/v1.0", Import: []string{"@custom"}}},
		ComposeDirectives: []string{"@custom"},
		Entities: []federation.EntityResolver{
			federation.Entity(product, each(productByRepresentation)),
			federation.Entity(deprecated, each(func(r federation.Representation) *DeprecatedProduct {
				sku, _ := r.String("sku")
				pkg, _ := r.String("package")
				return deprecatedProductBy(sku, pkg)
			})),
			federation.Entity(research, each(func(r federation.Representation) *ProductResearch {
				n, _ := r.Object("study").String("caseNumber")
				return researchByCase(n)
			})),
			federation.Entity(user, each(userByRepresentation)),
			federation.Entity(inventory, each(func(r federation.Representation) *Inventory {
				if id, _ := r.String("id"); id == string(inventoryData.ID) {
					return &inventoryData
				}
				return nil
			})),
		},
	})
}

// each turns a function of one representation into a batched entity
// resolver; the data here is in memory, so a batch is a loop.
func each[T any](fn func(federation.Representation) *T) func(context.Context, []federation.Representation) ([]*T, []error) {
	return func(_ context.Context, reps []federation.Representation) ([]*T, []error) {
		out := make([]*T, len(reps))
		for i, r := range reps {
			out[i] = fn(r)
		}
		return out, nil
	}
}

// averagePerYear computes averageProductsCreatedPerYear from the fields the
// gateway passes in the representation (@requires).
func averagePerYear(_ context.Context, u *User) (*int, error) {
	if u.TotalProductsCreated == nil || u.YearsOfEmployment == 0 {
		return nil, nil
	}
	n := int(math.Round(float64(*u.TotalProductsCreated) / float64(u.YearsOfEmployment)))
	return &n, nil
}

func userByRepresentation(r federation.Representation) *User {
	email, _ := r.String("email")
	if email != userEmail {
		return nil
	}
	u := newUser()
	if n, ok := r.Int("totalProductsCreated"); ok {
		v := int(n)
		u.TotalProductsCreated = &v
	}
	if n, ok := r.Int("yearsOfEmployment"); ok {
		u.YearsOfEmployment = int(n)
	}
	return u
}

func productByRepresentation(r federation.Representation) *Product {
	if id, ok := r.String("id"); ok {
		return productByID(id)
	}
	sku, _ := r.String("sku")
	if pkg, ok := r.String("package"); ok {
		for i := range productsData {
			if p := &productsData[i]; *p.SKU == sku && *p.Package == pkg {
				return p
			}
		}
		return nil
	}
	if v := r.Object("variation"); v != nil {
		id, _ := v.String("id")
		for i := range productsData {
			if p := &productsData[i]; *p.SKU == sku && string(p.Variation.ID) == id {
				return p
			}
		}
	}
	return nil
}
