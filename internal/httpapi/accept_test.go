package httpapi

import "testing"

func TestNegotiate(t *testing.T) {
	tests := []struct {
		accept string
		want   string
		ok     bool
	}{
		{"", MediaJSON, true},
		{"*/*", MediaJSON, true},
		{"application/*", MediaJSON, true},
		{"*/*, application/graphql-response+json", MediaGraphQLResponse, true},
		{"application/json", MediaJSON, true},
		{"application/json; charset=utf-8", MediaJSON, true},
		{"application/graphql-response+json", MediaGraphQLResponse, true},
		{"application/graphql-response+json, application/json", MediaGraphQLResponse, true},
		{"application/json;q=0.9, application/graphql-response+json;q=0.8", MediaJSON, true},
		{"application/json, application/graphql-response+json;q=0", MediaJSON, true},
		{"text/html, application/json;q=0.5", MediaJSON, true},
		{"text/html", "", false},
		{"application/json; charset=iso-8859-1", "", false},
		{"application/json;q=0", "", false},
		{"application/json;q=bogus", "", false},
		{"application/xml, image/png", "", false},
		{",,,;;;", "", false},
	}
	for _, tc := range tests {
		got, ok := Negotiate(tc.accept)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Negotiate(%q) = %q, %v; want %q, %v", tc.accept, got, ok, tc.want, tc.ok)
		}
	}
}

func TestContentType(t *testing.T) {
	if ContentType(MediaJSON) != "application/json; charset=utf-8" ||
		ContentType(MediaGraphQLResponse) != "application/graphql-response+json; charset=utf-8" {
		t.Fatal("wrong content types")
	}
}
