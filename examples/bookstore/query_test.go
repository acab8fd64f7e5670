package bookstore

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/relay"
)

func newClient(t *testing.T) *grafttest.Client {
	t.Helper()
	s, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return grafttest.New(r)
}

type page struct {
	Edges []struct {
		Cursor string
		Node   struct{ ID, Title string }
	}
	PageInfo struct {
		HasNextPage, HasPreviousPage bool
		StartCursor, EndCursor       *string
	}
	TotalCount int
}

const pageFields = `edges { cursor node { id title } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount`

func getPage(t *testing.T, c *grafttest.Client, args string) page {
	t.Helper()
	resp := c.Do(t, `{ books`+args+` { `+pageFields+` } }`, nil)
	resp.NoErrors(t)
	var data struct{ Books page }
	resp.Decode(t, &data)
	return data.Books
}

func titles(p page) string {
	var out []string
	for _, e := range p.Edges {
		out = append(out, strings.TrimPrefix(e.Node.Title, "Book "))
	}
	return strings.Join(out, ",")
}

func TestBooksPageForwardToTheEnd(t *testing.T) {
	c := newClient(t)
	p := getPage(t, c, "")
	if len(p.Edges) != 20 || titles(p)[:8] != "1,2,3,4," || p.TotalCount != 50 || !p.PageInfo.HasNextPage || p.PageInfo.HasPreviousPage {
		t.Fatalf("default page: %d edges %s total %d %+v", len(p.Edges), titles(p), p.TotalCount, p.PageInfo)
	}
	var seen []string
	after := ""
	for i := 0; ; i++ {
		args := "(first: 15)"
		if after != "" {
			args = fmt.Sprintf("(first: 15, after: %q)", after)
		}
		p := getPage(t, c, args)
		seen = append(seen, titles(p))
		if p.TotalCount != 50 || *p.PageInfo.StartCursor != p.Edges[0].Cursor || *p.PageInfo.EndCursor != p.Edges[len(p.Edges)-1].Cursor {
			t.Fatalf("page %d: %+v", i, p)
		}
		if p.PageInfo.HasPreviousPage != (i > 0) {
			t.Errorf("page %d: hasPreviousPage %v", i, p.PageInfo.HasPreviousPage)
		}
		if !p.PageInfo.HasNextPage {
			break
		}
		after = *p.PageInfo.EndCursor
	}
	if got := strings.Join(seen, "|"); got != "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15|16,17,18,19,20,21,22,23,24,25,26,27,28,29,30|"+
		"31,32,33,34,35,36,37,38,39,40,41,42,43,44,45|46,47,48,49,50" {
		t.Errorf("pages = %s", got)
	}
}

func TestBooksPageBackwardToTheStart(t *testing.T) {
	c := newClient(t)
	var seen []string
	before := ""
	for i := 0; ; i++ {
		args := "(last: 20)"
		if before != "" {
			args = fmt.Sprintf("(last: 20, before: %q)", before)
		}
		p := getPage(t, c, args)
		seen = append(seen, titles(p))
		if p.PageInfo.HasNextPage != (i > 0) {
			t.Errorf("page %d: hasNextPage %v", i, p.PageInfo.HasNextPage)
		}
		if !p.PageInfo.HasPreviousPage {
			break
		}
		before = *p.PageInfo.StartCursor
	}
	want := "31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50|11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30|1,2,3,4,5,6,7,8,9,10"
	if got := strings.Join(seen, "|"); got != want {
		t.Errorf("pages = %s", got)
	}
	// Between two cursors, and an empty page.
	first := getPage(t, c, "(first: 10)")
	mid := getPage(t, c, fmt.Sprintf("(first: 5, after: %q, before: %q)", first.Edges[1].Cursor, first.Edges[5].Cursor))
	if titles(mid) != "3,4,5" || !mid.PageInfo.HasNextPage || !mid.PageInfo.HasPreviousPage {
		t.Errorf("between cursors: %s %+v", titles(mid), mid.PageInfo)
	}
	empty := getPage(t, c, "(first: 0)")
	if len(empty.Edges) != 0 || empty.PageInfo.StartCursor != nil || empty.PageInfo.EndCursor != nil || !empty.PageInfo.HasNextPage {
		t.Errorf("first: 0: %+v", empty)
	}
}

func TestAuthorBooks(t *testing.T) {
	c := newClient(t)
	resp := c.Do(t, `{ authors { name email books(first: 3) { totalCount edges { node { title author { name } } } } } }`, nil)
	resp.NoErrors(t)
	if !strings.HasPrefix(string(resp.Data), `{"authors":[{"name":"Author 1","email":"author1@example.com","books":{"totalCount":10,"edges":[{"node":{"title":"Book 1","author":{"name":"Author 1"}}},{"node":{"title":"Book 6","author":{"name":"Author 1"}}},{"node":{"title":"Book 11",`) {
		t.Errorf("data = %s", resp.Data)
	}
}

// TestConnectionArgumentErrors checks each refusal of the connection
// arguments: BAD_USER_INPUT at the field, nothing else run.
func TestConnectionArgumentErrors(t *testing.T) {
	c := newClient(t)
	p := getPage(t, c, "(first: 2)")
	var author struct {
		Authors []struct {
			Books struct {
				Edges []struct{ Cursor string }
			}
		}
	}
	resp := c.Do(t, `{ authors { books(first: 1) { edges { cursor } } } }`, nil)
	resp.Decode(t, &author)
	author1, author2 := author.Authors[0].Books.Edges[0].Cursor, author.Authors[1].Books.Edges[0].Cursor
	for _, tc := range []struct {
		name, query, wantMsg string
	}{
		{"first and last", `{ books(first: 1, last: 1) { totalCount } }`, `Passing both "first" and "last"`},
		{"negative first", `{ books(first: -1) { totalCount } }`, `Argument "first" must be a non-negative integer`},
		{"negative last", `{ books(last: -3) { totalCount } }`, `Argument "last" must be a non-negative integer`},
		{"first above 100", `{ books(first: 101) { totalCount } }`, `Argument "first" of 101 exceeds the maximum page size of 100`},
		{"last above 100", `{ books(last: 1000) { totalCount } }`, `Argument "last" of 1000 exceeds the maximum page size of 100`},
		{"a malformed cursor", `{ books(after: "not a cursor!") { totalCount } }`, `Argument "after" is not a cursor of this BookConnection`},
		{"a cursor of another version", fmt.Sprintf(`{ books(after: %q) { totalCount } }`, otherVersion(t, p.Edges[0].Cursor)), `Argument "after" is not a cursor`},
		{"an author's cursor on books", fmt.Sprintf(`{ books(before: %q) { totalCount } }`, author1), `Argument "before" is not a cursor of this BookConnection`},
		{"a cursor of books on an author", fmt.Sprintf(`{ authors { books(after: %q) { totalCount } } }`, p.Edges[0].Cursor), `Argument "after" is not a cursor`},
		{"another author's cursor", fmt.Sprintf(`{ authorByEmail(email: "author1@example.com") { books(after: %q) { totalCount } } }`, author2), `Argument "after" is not a cursor`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := c.Do(t, tc.query, nil)
			e := resp.ErrorWithCode(t, graft.CodeBadUserInput)
			if resp.Status != 200 || e == nil || !strings.HasPrefix(e.Message, tc.wantMsg) || len(resp.Errors) > 5 {
				t.Fatalf("%d %s", resp.Status, resp.Body)
			}
		})
	}
}

// otherVersion returns cursor with its version byte changed.
func otherVersion(t *testing.T, cursor string) string {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		t.Fatal(err)
	}
	raw[0]++
	return base64.RawURLEncoding.EncodeToString(raw)
}

func TestNodeFindsEachTypeByItsID(t *testing.T) {
	c := newClient(t)
	var data struct {
		Books   page
		Authors []struct{ ID string }
	}
	resp := c.Do(t, `{ books(first: 2) { `+pageFields+` } authors { id } }`, nil)
	resp.Decode(t, &data)
	bookID, authorID := data.Books.Edges[1].Node.ID, data.Authors[2].ID
	if bookID != string(relay.ID("Book", "2")) || authorID != string(relay.ID("Author", "3")) {
		t.Fatalf("ids %s %s", bookID, authorID)
	}
	q := `query($b: ID!, $a: ID!) {
		b: node(id: $b) { __typename id ... on Book { title copiesSold published metadata ref author { id } } }
		a: node(id: $a) { __typename id ... on Author { name } }
	}`
	resp = c.Do(t, q, map[string]any{"b": bookID, "a": authorID})
	resp.NoErrors(t)
	want := fmt.Sprintf(`{"b":{"__typename":"Book","id":%q,"title":"Book 2","copiesSold":"9007199254740995","published":"2000-01-03",`+
		`"metadata":{"pages":102,"tags":["t2"]},"ref":"00000000-0000-4000-8000-000000000002","author":{"id":%q}},`+
		`"a":{"__typename":"Author","id":%q,"name":"Author 3"}}`, bookID, relay.ID("Author", "2"), authorID)
	if string(resp.Data) != want {
		t.Errorf("data = %s\nwant   %s", resp.Data, want)
	}
}

// TestUnknownIDsAreNull checks that a malformed id, an unknown object and
// an id of a type that is not a node are null without an error, and that
// nodes keeps the order of its ids.
func TestUnknownIDsAreNull(t *testing.T) {
	c := newClient(t)
	for _, id := range []string{"%%%", "", string(relay.ID("Book", "51")), string(relay.ID("Book", "x")), string(relay.ID("Author", "0")),
		string(relay.ID("PageInfo", "1")), string(relay.ID("Query", "")), "Qm9vazox=", strings.Repeat("A", 5000)} {
		resp := c.Do(t, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id})
		resp.NoErrors(t)
		if string(resp.Data) != `{"node":null}` {
			t.Errorf("node(%q) = %s", id, resp.Data)
		}
	}
	resp := c.Do(t, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on Book { title } ... on Author { name } } }`,
		map[string]any{"ids": []string{string(relay.ID("Author", "5")), "bad", string(relay.ID("Book", "50")), string(relay.ID("Book", "99")), string(relay.ID("Book", "1"))}})
	resp.NoErrors(t)
	if want := `{"nodes":[{"__typename":"Author","name":"Author 5"},null,{"__typename":"Book","title":"Book 50"},null,{"__typename":"Book","title":"Book 1"}]}`; string(resp.Data) != want {
		t.Errorf("nodes = %s", resp.Data)
	}
}

func TestScalarsOfTheBookstore(t *testing.T) {
	c := newClient(t)
	resp := c.Do(t, `{ bookByRef(ref: "00000000-0000-4000-8000-000000000007") { title isbn copiesSold }
		authorByEmail(email: "author2@example.com") { name }
		booksPublishedAfter(date: "2000-02-17") { title published } }`, nil)
	resp.NoErrors(t)
	want := `{"bookByRef":{"title":"Book 7","isbn":"9780000000007","copiesSold":"9007199254741000"},"authorByEmail":{"name":"Author 2"},` +
		`"booksPublishedAfter":[{"title":"Book 48","published":"2000-02-18"},{"title":"Book 49","published":"2000-02-19"},{"title":"Book 50","published":"2000-02-20"}]}`
	if string(resp.Data) != want {
		t.Errorf("data = %s\nwant   %s", resp.Data, want)
	}
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
		scalar      string
	}{
		{"a UUID literal", `{ bookByRef(ref: "00000000-0000-4000-8000-00000000000") { title } }`, nil, "UUID"},
		{"a UUID variable", `query($r: UUID!) { bookByRef(ref: $r) { title } }`, map[string]any{"r": "nope"}, "UUID"},
		{"an EmailAddress literal", `{ authorByEmail(email: "author1@") { name } }`, nil, "EmailAddress"},
		{"an EmailAddress variable", `query($e: EmailAddress!) { authorByEmail(email: $e) { name } }`, map[string]any{"e": "author1 example.com"}, "EmailAddress"},
		{"a Date literal", `{ booksPublishedAfter(date: "2000-02-30") { title } }`, nil, "Date"},
		{"a Date variable", `query($d: Date!) { booksPublishedAfter(date: $d) { title } }`, map[string]any{"d": "yesterday"}, "Date"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := c.Do(t, tc.query, tc.vars)
			e := resp.WantError(t, 400, graft.CodeBadUserInput)
			if !strings.Contains(e.Message, tc.scalar+" cannot represent") {
				t.Errorf("message %q does not name %s", e.Message, tc.scalar)
			}
		})
	}
}

const addBook = `mutation($in: AddBookInput!) { addBook(input: $in) { id title isbn published copiesSold metadata ref author { name } } }`

func TestAddBook(t *testing.T) {
	c := newClient(t)
	author := string(relay.ID("Author", "2"))
	resp := c.Do(t, addBook, map[string]any{"in": map[string]any{"title": "New", "isbn": "9791234567890", "authorId": author, "published": "2024-02-29", "tags": []string{"go", "graphql"}}})
	resp.NoErrors(t)
	want := fmt.Sprintf(`{"addBook":{"id":%q,"title":"New","isbn":"9791234567890","published":"2024-02-29","copiesSold":"0","metadata":{"tags":["go","graphql"]},`+
		`"ref":"00000000-0000-4000-8000-000000000051","author":{"name":"Author 2"}}}`, relay.ID("Book", "51"))
	if string(resp.Data) != want {
		t.Errorf("data = %s\nwant   %s", resp.Data, want)
	}
	resp = c.Do(t, addBook, map[string]any{"in": map[string]any{"title": "Untagged", "isbn": "9780000000000", "authorId": author, "published": "2024-03-01"}})
	resp.NoErrors(t)
	if !strings.Contains(string(resp.Data), `"metadata":null,"ref":"00000000-0000-4000-8000-000000000052"`) {
		t.Errorf("data = %s", resp.Data)
	}
	// The new books are in the connections and found by node.
	p := getPage(t, c, "(last: 2)")
	if titles(p) != "New,Untagged" || p.TotalCount != 52 {
		t.Errorf("last page %s, total %d", titles(p), p.TotalCount)
	}
	resp = c.Do(t, `query($id: ID!) { node(id: $id) { ... on Book { title } } }`, map[string]any{"id": string(relay.ID("Book", "52"))})
	if string(resp.Data) != `{"node":{"title":"Untagged"}}` {
		t.Errorf("node = %s", resp.Data)
	}
}

// TestAddBookReportsEveryViolation checks that a bad input fails before
// anything runs, with one BAD_USER_INPUT error listing each violation
// with the path of its input field, and that no book is added.
func TestAddBookReportsEveryViolation(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct {
		name string
		in   map[string]any
		want string
	}{
		{"everything wrong", map[string]any{"title": "", "isbn": "97712345678", "authorId": string(relay.ID("Book", "1")), "published": "2024-01-01",
			"tags": []string{"a", "", "b", "c", "d", strings.Repeat("x", 21)}},
			`input.title min|input.isbn len|input.isbn startswith|input.tags max|input.tags.1 min|input.tags.5 max|input.authorId authorId`},
		{"a title too long", map[string]any{"title": strings.Repeat("é", 201), "isbn": "9780000000001", "authorId": string(relay.ID("Author", "1")), "published": "2024-01-01"},
			`input.title max`},
		{"an isbn with letters", map[string]any{"title": "x", "isbn": "978000000000X", "authorId": string(relay.ID("Author", "1")), "published": "2024-01-01"},
			`input.isbn number`},
		{"an unknown author", map[string]any{"title": "x", "isbn": "9780000000001", "authorId": string(relay.ID("Author", "6")), "published": "2024-01-01"},
			`input.authorId authorId`},
		{"not a global id", map[string]any{"title": "x", "isbn": "9780000000001", "authorId": "1", "published": "2024-01-01"},
			`input.authorId authorId`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := c.Do(t, addBook, map[string]any{"in": tc.in})
			e := resp.ErrorWithCode(t, graft.CodeBadUserInput)
			if e == nil || string(resp.Data) != "null" || len(resp.Errors) != 1 {
				t.Fatalf("%d %s", resp.Status, resp.Body)
			}
			var got []string
			for _, v := range e.Extensions["violations"].([]any) {
				m := v.(map[string]any)
				var path []string
				for _, p := range m["path"].([]any) {
					path = append(path, fmt.Sprint(p))
				}
				got = append(got, strings.Join(path, ".")+" "+m["constraint"].(string))
			}
			if strings.Join(got, "|") != tc.want {
				t.Errorf("violations %s\nwant %s", strings.Join(got, "|"), tc.want)
			}
		})
	}
	p := getPage(t, c, "(last: 1)")
	if p.TotalCount != 50 {
		t.Errorf("a refused addBook added a book: total %d", p.TotalCount)
	}
}
