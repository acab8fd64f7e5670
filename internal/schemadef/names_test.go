package schemadef

import "testing"

func TestLowerCamel(t *testing.T) {
	tests := map[string]string{
		"ID": "id", "IDs": "ids", "URLPath": "urlPath", "HTTPServer": "httpServer", "A": "a",
		"AppearsIn": "appearsIn", "Name": "name", "X1": "x1", "already": "already", "ÉtéFort": "étéFort",
		// As GraphQL APIs spell them and gqlgen maps them.
		"UserID": "userId", "BookID": "bookId", "HTMLURL": "htmlUrl", "UserIDs": "userIds", "APIKey": "apiKey",
		"MyHTTPServer": "myHttpServer", "ProductSKU": "productSku", "UTF8String": "utf8String", "Base64Data": "base64Data",
		"OAuth2Token": "oAuth2Token", "CreatedAt": "createdAt", "HTMLURLs": "htmlUrls", "IsHTTPS": "isHttps",
		"JSONData": "jsonData", "A1b": "a1b", "SecretBackstory": "secretBackstory", "ByID": "byId",
	}
	for in, want := range tests {
		if got := lowerCamel(in); got != want {
			t.Errorf("lowerCamel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseTypeString(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when invalid
	}{
		{"String", "String"},
		{"String!", "String!"},
		{"[Character]", "[Character]"},
		{" [ Episode ! ] ! ", "[Episode!]!"},
		{"[[Int!]]", "[[Int!]]"},
		{"[String", ""},
		{"String]", ""},
		{"", ""},
		{"1abc", ""},
		{"String!!", ""},
		{"Str ing", ""},
	}
	for _, tt := range tests {
		p, ok := parseTypeString(tt.in)
		got := ""
		if ok {
			got = printParsed(p)
		}
		if got != tt.want {
			t.Errorf("parseTypeString(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func printParsed(p *parsedRef) string {
	s := p.name
	if p.list != nil {
		s = "[" + printParsed(p.list) + "]"
	}
	if p.nonNull {
		s += "!"
	}
	return s
}
