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

// The Accept headers real clients send, verbatim from their sources.
const (
	acceptApollo3        = "*/*"
	acceptApollo3Sub     = "multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/json"
	acceptApollo3Defer   = "multipart/mixed;deferSpec=20220824,application/json"
	acceptApollo4        = "application/graphql-response+json,application/json;q=0.9"
	acceptApollo4Sub     = "multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/graphql-response+json,application/json;q=0.9"
	acceptURQL           = "application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed"
	acceptURQLSub        = "text/event-stream, multipart/mixed"
	acceptGraphQLRequest = "application/graphql-response+json, application/json"
	acceptRelay          = "application/json"
	acceptGraphQLSSE     = "text/event-stream"
	acceptGraphiQL       = "application/json, multipart/mixed"
)

func TestChooseClients(t *testing.T) {
	tests := []struct {
		name    string
		accept  string
		can     Format
		streams bool
		want    Format
		ok      bool
	}{
		// Queries and mutations: one JSON result whenever accepted.
		{"apollo3 query", acceptApollo3, Single | Streams, false, FormatJSON, true},
		{"apollo3 defer query", acceptApollo3Defer, Single | Streams, false, FormatJSON, true},
		{"apollo4 query", acceptApollo4, Single | Streams, false, FormatGraphQLResponse, true},
		{"urql query", acceptURQL, Single | Streams, false, FormatGraphQLResponse, true},
		{"graphql-request query", acceptGraphQLRequest, Single | Streams, false, FormatGraphQLResponse, true},
		{"relay query", acceptRelay, Single | Streams, false, FormatJSON, true},
		{"fetch default", "", Single | Streams, false, FormatJSON, true},
		{"graphiql query", acceptGraphiQL, Single | Streams, false, FormatJSON, true},
		{"apollo subscription header on a query", acceptApollo4Sub, Single | Streams, false, FormatGraphQLResponse, true},
		// A client that accepts nothing but a stream gets a stream of one result.
		{"graphql-sse query", acceptGraphQLSSE, Single | Streams, false, FormatEventStream, true},
		{"urql subscription header on a query", acceptURQLSub, Single | Streams, false, FormatEventStream, true},
		{"multipart only", "multipart/mixed;subscriptionSpec=1.0", Single | Streams, false, FormatMultipartSubscription, true},
		// Subscriptions: the stream the client prefers.
		{"apollo3 subscription", acceptApollo3Sub, Streams, true, FormatMultipartSubscription, true},
		{"apollo4 subscription", acceptApollo4Sub, Streams, true, FormatMultipartSubscription, true},
		{"urql subscription", acceptURQLSub, Streams, true, FormatEventStream, true},
		{"urql query header on a subscription", acceptURQL, Streams, true, FormatEventStream, true},
		{"graphql-sse subscription", acceptGraphQLSSE, Streams, true, FormatEventStream, true},
		{"order decides", "multipart/mixed;subscriptionSpec=1.0, text/event-stream", Streams, true, FormatMultipartSubscription, true},
		{"q decides", "multipart/mixed;subscriptionSpec=1.0;q=0.5, text/event-stream", Streams, true, FormatEventStream, true},
		{"bare multipart is not a subscription stream", "multipart/mixed", Streams, true, 0, false},
		{"wildcards name no stream", "*/*", Streams, true, 0, false},
		{"json only subscription", acceptRelay, Streams, true, 0, false},
		// Single results among themselves.
		{"client order", "application/json, application/graphql-response+json", Single, false, FormatJSON, true},
		{"specific range refuses", "application/json;q=0, */*", Single, false, 0, false},
		{"specific beats wildcard at equal q", "*/*, application/graphql-response+json", Single, false, FormatGraphQLResponse, true},
		{"refused json falls to stream", "application/json;q=0, text/event-stream", Single | Streams, false, FormatEventStream, true},
		{"event-stream refused", "text/event-stream;q=0", Single | Streams, false, 0, false},
	}
	for _, tc := range tests {
		got, ok := Choose(tc.accept, tc.can, tc.streams)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Choose(%q, %b, %v) = %b, %v; want %b, %v", tc.name, tc.accept, tc.can, tc.streams, got, ok, tc.want, tc.ok)
		}
	}
}
