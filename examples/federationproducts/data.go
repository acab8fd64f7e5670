package federationproducts

const userEmail = "support@apollographql.com"

func ptr[T any](v T) *T { return &v }

// newUser returns the one user, with totalProductsCreated as @provides
// promises.
func newUser() *User {
	return &User{Email: userEmail, Name: ptr("Jane Smith"), TotalProductsCreated: ptr(1337)}
}

func dimensions() *ProductDimension {
	return &ProductDimension{Size: ptr("small"), Weight: ptr(1.0), Unit: ptr("kg")}
}

var productsData = []Product{
	{
		ID: "apollo-federation", SKU: ptr("federation"), Package: ptr("@apollo/federation"),
		Variation: &ProductVariation{ID: "OSS"}, Dimensions: dimensions(), CreatedBy: newUser(),
		Research: []ProductResearch{{Study: CaseStudy{CaseNumber: "1234", Description: ptr("Federation Study")}}},
	},
	{
		ID: "apollo-studio", SKU: ptr("studio"), Package: ptr(""),
		Variation: &ProductVariation{ID: "platform"}, Dimensions: dimensions(), CreatedBy: newUser(),
		Research: []ProductResearch{{Study: CaseStudy{CaseNumber: "1235", Description: ptr("Studio Study")}}},
	},
}

var deprecatedProductData = DeprecatedProduct{
	SKU: "apollo-federation-v1", Package: "@apollo/federation-v1",
	Reason: ptr("Migrate to Federation V2"), CreatedBy: newUser(),
}

var inventoryData = Inventory{ID: "apollo-oss", DeprecatedProducts: []DeprecatedProduct{deprecatedProductData}}

func productByID(id string) *Product {
	for i := range productsData {
		if string(productsData[i].ID) == id {
			return &productsData[i]
		}
	}
	return nil
}

func deprecatedProductBy(sku, pkg string) *DeprecatedProduct {
	if sku == deprecatedProductData.SKU && pkg == deprecatedProductData.Package {
		d := deprecatedProductData
		return &d
	}
	return nil
}

func researchByCase(caseNumber string) *ProductResearch {
	for i := range productsData {
		for j := range productsData[i].Research {
			if r := &productsData[i].Research[j]; string(r.Study.CaseNumber) == caseNumber {
				return r
			}
		}
	}
	return nil
}
