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

func hostileBodyRows() []hostileRow {
	big := `{"query":"{ hello }","variables":{"pad":"` + strings.Repeat("x", 2<<20) + `"}}`
	return []hostileRow{
		{name: "body is not JSON", body: `hello`, status: 400, code: "BAD_REQUEST"},
		{name: "truncated JSON", body: `{"query":"{ hello }`, status: 400, code: "BAD_REQUEST"},
		{name: "truncated after a key", body: `{"query":`, status: 400, code: "BAD_REQUEST"},
		{name: "a JSON array (batch)", body: `[{"query":"{ hello }"}]`, status: 400, code: "BAD_REQUEST"},
		{name: "a JSON string", body: `"{ hello }"`, status: 400, code: "BAD_REQUEST"},
		{name: "JSON null", body: `null`, status: 400, code: "BAD_REQUEST"},
		{name: "empty body", body: ``, status: 400, code: "BAD_REQUEST"},
		{name: "only whitespace", body: " \n\t ", status: 400, code: "BAD_REQUEST"},
		{name: "trailing garbage", body: `{"query":"{ hello }"} {"query":"{ hello }"}`, status: 400, code: "BAD_REQUEST"},
		{name: "query is a number", body: `{"query":42}`, status: 400, code: "BAD_REQUEST"},
		{name: "query is an object", body: `{"query":{"a":1}}`, status: 400, code: "BAD_REQUEST"},
		{name: "query is an array", body: `{"query":["{ hello }"]}`, status: 400, code: "BAD_REQUEST"},
		{name: "query is a boolean", body: `{"query":true}`, status: 400, code: "BAD_REQUEST"},
		{name: "no query", body: `{}`, status: 400, code: "BAD_REQUEST"},
		{name: "variables is a string", body: `{"query":"{ hello }","variables":"{}"}`, status: 400, code: "BAD_REQUEST"},
		{name: "variables is an array", body: `{"query":"{ hello }","variables":[1,2]}`, status: 400, code: "BAD_REQUEST"},
		{name: "variables is a number", body: `{"query":"{ hello }","variables":7}`, status: 400, code: "BAD_REQUEST"},
		{name: "operationName is a number", body: `{"query":"{ hello }","operationName":1}`, status: 400, code: "BAD_REQUEST"},
		{name: "extensions is an array", body: `{"query":"{ hello }","extensions":[]}`, status: 400, code: "BAD_REQUEST"},
		{name: "variables nested 100,000 deep", body: `{"query":"{ hello }","variables":{"v":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`, status: 400, code: "BAD_REQUEST"},
		{name: "invalid UTF-8 inside the query", body: "{\"query\":\"{ hello \xff\xfe }\"}", status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "invalid UTF-8 outside strings", body: "{\"query\":\"{ hello }\"\xff}", status: 400, code: "BAD_REQUEST"},
		{name: "raw NUL inside a JSON string", body: "{\"query\":\"{ hel\x00lo }\"}", status: 400, code: "BAD_REQUEST"},
		{name: "escaped NUL in the query", body: `{"query":"{ hello \u0000 }"}`, status: 400, code: "GRAPHQL_PARSE_FAILED"},
		{name: "NUL before the body", body: "\x00{\"query\":\"{ hello }\"}", status: 400, code: "BAD_REQUEST"},
		{name: "body over the limit with Content-Length", body: big, status: 413, code: "PAYLOAD_TOO_LARGE"},
		{name: "body over the limit, chunked", body: big, chunked: true, status: 413, code: "PAYLOAD_TOO_LARGE"},
		{name: "body just under the limit", router: "big", body: big, status: 200},
		{name: "ten thousand unused variables", body: `{"query":"{ hello }","variables":{` + strings.TrimSuffix(repeatf(10000, `"v%[1]d":1,`), ", ") + `}}`, status: 200},
		{name: "GET with a malformed query string", method: "GET", target: "/graphql?query=%zz", status: 400, code: "BAD_REQUEST"},
		{name: "GET with variables that are not JSON", method: "GET", target: hostileGet("query", hostileQ1, "variables", "{nope"), status: 400, code: "BAD_REQUEST"},
		{name: "GET with extensions that are an array", method: "GET", target: hostileGet("query", hostileQ1, "extensions", "[]"), status: 400, code: "BAD_REQUEST"},
		{name: "PATCH", method: "PATCH", body: `{"query":"{ hello }"}`, status: 405, code: "BAD_REQUEST"},
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
		{name: "unknown operation name", body: `{"query":"query A { hello }","operationName":"B"}`, status: 400, code: "OPERATION_RESOLUTION_FAILURE"},
		{name: "operation name of 100,000 characters", body: `{"query":"query A { hello }","operationName":"` + strings.Repeat("B", 100000) + `"}`, status: 400, code: "OPERATION_RESOLUTION_FAILURE", needsBoundedMessages: true},
		{name: "several operations without a name", body: gqlBody("query A { hello } query B { hello }", "", ""), status: 400, code: "OPERATION_RESOLUTION_FAILURE"},
		{name: "a thousand anonymous operations", body: gqlBody(strings.Repeat("{ hello } ", 1000), "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
		{name: "subscription", body: gqlBody("subscription { hello }", "", ""), status: 400},
		{name: "mutation on a schema without one", body: gqlBody("mutation { hello }", "", ""), status: 400, code: "GRAPHQL_VALIDATION_FAILED"},
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
		{name: "persisted query sent to a router without them", body: gqlBody(hostileQ1, "", pqExt(`{"version":1,"sha256Hash":"`+h+`"}`)), status: 200, code: "PERSISTED_QUERY_NOT_SUPPORTED"},
		{name: "persisted query of a wrong shape sent to a router without them", body: gqlBody(hostileQ1, "", pqExt(`"yes"`)), status: 200, code: "PERSISTED_QUERY_NOT_SUPPORTED"},
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
		{name: "Accept text/html", accept: "text/html", body: q, status: 406, code: "NOT_ACCEPTABLE"},
		{name: "Accept application/json;q=0", accept: "application/json;q=0", body: q, status: 406, code: "NOT_ACCEPTABLE"},
		{name: "Accept of 8 KiB of commas", accept: strings.Repeat(",", 8<<10), body: q, status: 406, code: "NOT_ACCEPTABLE"},
		{name: "Accept of a thousand media ranges", accept: strings.Repeat("text/x-nope;q=0.5, ", 1000) + "application/json", body: q, status: 200},
		{name: "Accept with a broken parameter", accept: `application/json; q="; charset=`, body: q, status: 406, code: "NOT_ACCEPTABLE"},
		{name: "Accept with a q of 1e400", accept: "application/json;q=1e400", body: q, status: 406, code: "NOT_ACCEPTABLE"},
		{name: "Content-Type missing", contentType: "-", body: q, status: 415, code: "BAD_REQUEST"},
		{name: "Content-Type text/plain", contentType: "text/plain", body: q, status: 415, code: "BAD_REQUEST"},
		{name: "Content-Type application/graphql", contentType: "application/graphql", body: hostileQ1, status: 415, code: "BAD_REQUEST"},
		{name: "Content-Type with charset latin1", contentType: "application/json; charset=latin1", body: q, status: 415, code: "BAD_REQUEST"},
		{name: "Content-Type that does not parse", contentType: ";;;==/", body: q, status: 415, code: "BAD_REQUEST"},
		{name: "Content-Type of 8 KiB", contentType: "application/" + strings.Repeat("x", 8<<10), body: q, status: 415, code: "BAD_REQUEST"},
		{name: "Content-Type in capitals", contentType: "APPLICATION/JSON; CHARSET=UTF-8", body: q, status: 200},
	}
}
