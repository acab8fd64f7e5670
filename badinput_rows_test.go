package graft_test

import (
	"fmt"
	"strings"

	"github.com/graftgql/graft/persisted"
)

// repeatf returns n copies of format, each formatted with its index and
// the next one (a format may use %[1]d and %[2]d), joined by spaces.
func repeatf(n int, format string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, format+" ", i, i+1)
	}
	return b.String()
}

// The hostile rows below are the inputs only a generator can write
// (megabytes, deep nesting, raw bytes) or that need a router other than
// the wire contract's. Bad input that fits in a line of JSON is part of the
// wire contract, internal/wiretest/wire.json, which every transport runs
// and which holds the same invariants (checkGraphQLBody).

func hostileBodyRows() []hostileRow {
	big := `{"query":"{ hello }","variables":{"pad":"` + strings.Repeat("x", 2<<20) + `"}}`
	return []hostileRow{
		{name: "variables nested 100,000 deep", body: `{"query":"{ hello }","variables":{"v":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`, status: 400, code: "BAD_REQUEST"},
		{name: "invalid UTF-8 inside the query", body: "{\"query\":\"{ hello \xff\xfe }\"}", status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "invalid UTF-8 outside strings", body: "{\"query\":\"{ hello }\"\xff}", status: 400, code: "BAD_REQUEST"},
		{name: "body over the limit with Content-Length", body: big, status: 413, code: "PAYLOAD_TOO_LARGE"},
		{name: "body over the limit, chunked", body: big, chunked: true, status: 413, code: "PAYLOAD_TOO_LARGE"},
		{name: "body just under the limit", router: "big", body: big, status: 200},
		{name: "ten thousand unused variables", body: `{"query":"{ hello }","variables":{` + strings.TrimSuffix(repeatf(10000, `"v%[1]d":1,`), ", ") + `}}`, status: 200},
	}
}

func hostileDocumentRows() []hostileRow {
	copies := "{" + strings.Repeat("hello ", 10000) + "}"
	aliases := "{" + repeatf(10000, "a%[1]d: hello") + "}"
	chain := func(n int) string {
		return "{ ...F0 } " + repeatf(n, "fragment F%d on Query { hello ...F%d }") + fmt.Sprintf(" fragment F%d on Query { hello }", n)
	}
	nested := "{ hero { " + strings.Repeat("friends { ", 10000) + "name" + strings.Repeat(" }", 10000) + " } }"
	exploding := "{ hero { " + strings.Repeat("friends { ", 12) + "name" + strings.Repeat(" }", 12) + " } }"
	directives := "{ hello " + strings.Repeat("@bad ", 10000) + "}"
	unknown := "{" + repeatf(10000, "f%[1]d") + "}"
	return []hostileRow{
		{name: "empty query", body: gqlBody("", "", ""), status: 400, code: "BAD_REQUEST"},
		{name: "whitespace query", body: gqlBody(" \n\t,,", "", ""), status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "comment-only query", body: gqlBody("# nothing here", "", ""), status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "one million tokens", router: "big", body: gqlBody("{"+strings.Repeat("a ", 1000000)+"}", "", ""), status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "a million open braces", body: gqlBody(strings.Repeat("{", 1000000), "", ""), status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "ten thousand aliases over the token limit", body: gqlBody(aliases, "", ""), status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "ten thousand aliases", router: "lax", body: gqlBody(aliases, "", ""), status: 200},
		{name: "ten thousand nested fields", router: "starwars", body: gqlBody(nested, "", ""), status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "ten thousand nested fields without a token limit", router: "lax", body: gqlBody(nested, "", ""), status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "twelve levels of friends: a response of 95 MB", router: "starwars", body: gqlBody(exploding, "", ""), status: 200, code: "RESPONSE_TOO_LARGE", needsBudget: true},
		{name: "ten thousand copies of one field", body: gqlBody(copies, "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED", needsBudget: true},
		{name: "ten thousand copies of one field without a token limit", router: "lax", body: gqlBody(copies, "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED", needsBudget: true},
		{name: "fragment chain within the token limit", body: gqlBody(chain(1500), "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED", needsBudget: true},
		{name: "ten-thousand-fragment chain", router: "lax", body: gqlBody(chain(10000), "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED", needsBudget: true},
		{name: "deep fragment chain that validates", body: gqlBody(chain(30), "", ""), status: 200},
		{name: "fragment cycle", body: gqlBody("{ ...A } fragment A on Query { hello ...B } fragment B on Query { ...A }", "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "fragment spreading itself", body: gqlBody("{ ...A } fragment A on Query { ...A }", "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "unknown fragment", body: gqlBody("{ ...Nope }", "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "ten thousand bad directives", body: gqlBody(directives, "", ""), status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "ten thousand bad directives without a token limit", router: "lax", body: gqlBody(directives, "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "ten thousand unknown fields without a token limit", router: "lax", body: gqlBody(unknown, "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "a name of 100,000 characters", body: gqlBody("{ "+strings.Repeat("n", 100000)+" }", "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED", needsBoundedMessages: true},
		{name: "a string literal of 500,000 characters", body: gqlBody(`{ author(id: "`+strings.Repeat("s", 500000)+`") { id } }`, "", ""), status: 200},
		{name: "unterminated string", body: gqlBody(`{ author(id: "a1) { id } }`, "", ""), status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "Int literal out of range", body: gqlBody("{ authors(first: 2147483648) { id } }", "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "Int literal at the top of the range", body: gqlBody("{ authors(first: 2147483647) { id } }", "", ""), status: 200},
		{name: "negative Int literal out of range", body: gqlBody("{ authors(first: -2147483649) { id } }", "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "operation name of 100,000 characters", body: `{"query":"query A { hello }","operationName":"` + strings.Repeat("B", 100000) + `"}`, status: 400, code: "OPERATION_RESOLUTION_FAILURE", needsBoundedMessages: true},
		{name: "a thousand anonymous operations", body: gqlBody(strings.Repeat("{ hello } ", 1000), "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
		// An operation type the schema lacks is answered at execution, as
		// graphql-js does: 200, data null.
		{name: "subscription", body: gqlBody("subscription { hello }", "", ""), status: 200, code: "OPERATION_NOT_SUPPORTED"},
		{name: "mutation on a schema without one", body: gqlBody("mutation { hello }", "", ""), status: 200, code: "OPERATION_NOT_SUPPORTED"},
	}
}

func hostileVariableRows() []hostileRow {
	manyDefs := "query(" + repeatf(10000, "$v%[1]d: Int") + ") { hello }"
	human := "query($id: String!) { human(id: $id) { name } }"
	first := "query($n: Int) { authors(first: $n) { id } }"
	hero := "query($e: Episode) { hero(episode: $e) { name } }"
	return []hostileRow{
		{name: "ten thousand variable definitions", body: gqlBody(manyDefs, "", ""), status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "ten thousand unused variable definitions without a token limit", router: "lax", body: gqlBody(manyDefs, "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "String variable given a number", router: "starwars", body: gqlBody(human, `{"id":5}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "String variable given an object", router: "starwars", body: gqlBody(human, `{"id":{"a":[1]}}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "non-null variable given null", router: "starwars", body: gqlBody(human, `{"id":null}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "non-null variable missing", router: "starwars", body: gqlBody(human, `{}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "Int variable of 2^31", body: gqlBody(first, `{"n":2147483648}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "Int variable of -2^31-1", body: gqlBody(first, `{"n":-2147483649}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "Int variable of 2^31-1", body: gqlBody(first, `{"n":2147483647}`, ""), status: 200},
		{name: "Int variable of 1e400", body: gqlBody(first, `{"n":1e400}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "Int variable of 2^64", body: gqlBody(first, `{"n":18446744073709551616}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "Int variable of 1.5", body: gqlBody(first, `{"n":1.5}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "Int variable given a string", body: gqlBody(first, `{"n":"10"}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "Int variable given a list", body: gqlBody(first, `{"n":[1]}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "enum variable of an unknown value", router: "starwars", body: gqlBody(hero, `{"e":"NOPE"}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "enum variable given a number", router: "starwars", body: gqlBody(hero, `{"e":4}`, ""), status: 400, code: "BAD_USER_INPUT"},
		{name: "enum variable of 100,000 characters", router: "starwars", body: gqlBody(hero, `{"e":"`+strings.Repeat("E", 100000)+`"}`, ""), status: 400, code: "BAD_USER_INPUT", needsBoundedMessages: true},
		{name: "variable of an unknown type", body: gqlBody("query($n: Nope) { hello }", "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "variable of an output type", body: gqlBody("query($n: Author) { hello }", "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
	}
}

func hostilePersistedQueryRows() []hostileRow {
	h := persisted.Hash(persisted.SHA256, hostileQ1)
	unknown := strings.Repeat("ab", 32)
	return []hostileRow{
		{name: "APQ: persistedQuery is a string", router: "apq", body: gqlBody("", "", pqExt(`"x"`)), status: 400, code: "BAD_REQUEST"},
		{name: "APQ: persistedQuery is an array", router: "apq", body: gqlBody("", "", pqExt(`[1]`)), status: 400, code: "BAD_REQUEST"},
		{name: "APQ: persistedQuery is null", router: "apq", body: gqlBody(hostileQ1, "", pqExt(`null`)), status: 200},
		{name: "APQ: no version", router: "apq", body: gqlBody("", "", pqExt(`{"sha256Hash":"`+h+`"}`)), status: 400, code: "BAD_REQUEST"},
		{name: "APQ: version is a string", router: "apq", body: gqlBody("", "", pqExt(`{"version":"1","sha256Hash":"`+h+`"}`)), status: 400, code: "BAD_REQUEST"},
		{name: "APQ: version 2", router: "apq", body: gqlBody("", "", pqExt(`{"version":2,"sha256Hash":"`+h+`"}`)), status: 400, code: "PERSISTED_QUERY_VERSION_NOT_SUPPORTED"},
		{name: "APQ: version 1e300", router: "apq", body: gqlBody("", "", pqExt(`{"version":1e300,"sha256Hash":"`+h+`"}`)), status: 400, code: "PERSISTED_QUERY_VERSION_NOT_SUPPORTED"},
		{name: "APQ: no hash", router: "apq", body: gqlBody("", "", pqExt(`{"version":1}`)), status: 400, code: "BAD_REQUEST"},
		{name: "APQ: hash is a number", router: "apq", body: gqlBody("", "", pqExt(`{"version":1,"sha256Hash":7}`)), status: 400, code: "BAD_REQUEST"},
		{name: "APQ: hash is not hex", router: "apq", body: gqlBody("", "", pqExt(`{"version":1,"sha256Hash":"`+strings.Repeat("zz", 32)+`"}`)), status: 400, code: "BAD_REQUEST"},
		{name: "APQ: hash too short", router: "apq", body: gqlBody("", "", pqExt(`{"version":1,"sha256Hash":"abc"}`)), status: 400, code: "BAD_REQUEST"},
		{name: "APQ: hash of 500,000 characters", router: "apq", body: gqlBody("", "", pqExt(`{"version":1,"sha256Hash":"`+strings.Repeat("a", 500000)+`"}`)), status: 400, code: "BAD_REQUEST"},
		{name: "APQ: unknown hash without a query", router: "apq", body: gqlBody("", "", pqExt(`{"version":1,"sha256Hash":"`+unknown+`"}`)), status: 200, code: "PERSISTED_QUERY_NOT_FOUND"},
		{name: "APQ: hash does not match the query", router: "apq", body: gqlBody("{ __typename }", "", pqExt(`{"version":1,"sha256Hash":"`+unknown+`"}`)), status: 400, code: "PERSISTED_QUERY_HASH_MISMATCH"},
		{name: "APQ: extension nested 1,000 deep", router: "apq", body: gqlBody("", "", pqExt(`{"version":1,"x":`+strings.Repeat("[", 1000)+strings.Repeat("]", 1000)+`}`)), status: 400, code: "BAD_REQUEST"},
		{name: "APQ: GET with an unknown hash", router: "apq", method: "GET", target: hostileGet("extensions", pqExt(`{"version":1,"sha256Hash":"`+unknown+`"}`)), status: 200, code: "PERSISTED_QUERY_NOT_FOUND"},
		{name: "APQ: GET with extensions that are not JSON", router: "apq", method: "GET", target: hostileGet("extensions", `{"persistedQuery":`), status: 400, code: "BAD_REQUEST"},
		{name: "safelist: unknown hash", router: "safe", body: gqlBody("", "", pqExt(`{"version":1,"sha256Hash":"`+unknown+`"}`)), status: 403, code: "PERSISTED_QUERY_NOT_ALLOWED"},
		{name: "safelist: unlisted plain query", router: "safe", body: gqlBody("{ __typename }", "", ""), status: 403, code: "PERSISTED_QUERY_NOT_ALLOWED"},
		{name: "safelist: persistedQuery is a number", router: "safe", body: gqlBody("", "", pqExt(`1`)), status: 400, code: "BAD_REQUEST"},
		{name: "safelist: listed hash", router: "safe", body: gqlBody("", "", pqExt(`{"version":1,"sha256Hash":"`+h+`"}`)), status: 200},
	}
}

func hostileHeaderRows() []hostileRow {
	q := gqlBody(hostileQ1, "", "")
	return []hostileRow{
		{name: "Accept of 8 KiB of commas", accept: strings.Repeat(",", 8<<10), body: q, status: 406, code: "NOT_ACCEPTABLE"},
		{name: "Accept of a thousand media ranges", accept: strings.Repeat("text/x-nope;q=0.5, ", 1000) + "application/json", body: q, status: 200},
		{name: "Content-Type of 8 KiB", contentType: "application/" + strings.Repeat("x", 8<<10), body: q, status: 415, code: "BAD_REQUEST"},
	}
}
