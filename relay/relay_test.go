package relay_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/grafttest"
	"github.com/graftgql/graft/relay"
	"github.com/graftgql/graft/schema"
)

type item struct {
	Key  int64  `graphql:"key"`
	Name string `graphql:"name"`
}

type other struct {
	Code string `graphql:"code"`
}

// db is a table of items ordered by key, recording the queries it runs.
type db struct {
	mu      sync.Mutex
	rows    []item
	queries []string
	fetches map[string][][]string // per type, the keys of each fetch call
}

func newDB(n int) *db {
	d := &db{fetches: map[string][][]string{}}
	for i := 1; i <= n; i++ {
		d.rows = append(d.rows, item{Key: int64(i * 10), Name: "item" + strconv.Itoa(i)})
	}
	return d
}

func (d *db) query(q relay.KeysetQuery[int64]) ([]item, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	desc := fmt.Sprintf("after=%v before=%v limit=%d desc=%v", deref(q.After), deref(q.Before), q.Limit, q.Descending)
	d.queries = append(d.queries, desc)
	var out []item
	rows := slices.Clone(d.rows)
	if q.Descending {
		slices.Reverse(rows)
	}
	for _, r := range rows {
		if q.After != nil && r.Key <= *q.After || q.Before != nil && r.Key >= *q.Before {
			continue
		}
		if len(out) == q.Limit {
			break
		}
		out = append(out, r)
	}
	return out, nil
}

func deref(p *int64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatInt(*p, 10)
}

func (d *db) recordFetch(typ string, keys []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.fetches[typ] = append(d.fetches[typ], slices.Clone(keys))
}

func newClient(t *testing.T, d *db, cfg relay.Config) *grafttest.Client {
	t.Helper()
	b := schema.New()
	nodes := relay.NewNodes(b)
	obj := schema.Object[item](b, "Item", schema.Implements("Node"))
	oth := schema.Object[other](b, "Other", schema.Implements("Node"))
	items := relay.NewConnection[item](b, "Item", cfg)
	relay.Register(nodes, obj, func(i *item) string { return strconv.FormatInt(i.Key, 10) },
		func(_ context.Context, keys []string) ([]*item, []error) {
			d.recordFetch("Item", keys)
			out := make([]*item, len(keys))
			for i, k := range keys {
				for j := range d.rows {
					if strconv.FormatInt(d.rows[j].Key, 10) == k {
						out[i] = &d.rows[j]
					}
				}
			}
			return out, nil
		})
	relay.Register(nodes, oth, func(o *other) string { return o.Code },
		func(_ context.Context, keys []string) ([]*other, []error) {
			d.recordFetch("Other", keys)
			out := make([]*other, len(keys))
			for i, k := range keys {
				out[i] = &other{Code: k}
			}
			return out, nil
		})
	schema.Query(b, "items", func(_ context.Context, a relay.PageArgs) (relay.Connection[item], error) {
		return relay.Keyset(items, a, "", func(i *item) int64 { return i.Key }, d.query)
	}, items.Cost())
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return grafttest.New(r)
}

type keysetPage struct {
	Items struct {
		Edges []struct {
			Cursor string
			Node   struct{ Name string }
		}
		PageInfo struct {
			HasNextPage, HasPreviousPage bool
			StartCursor, EndCursor       *string
		}
	}
}

func (p keysetPage) names() string {
	var out []string
	for _, e := range p.Items.Edges {
		out = append(out, strings.TrimPrefix(e.Node.Name, "item"))
	}
	return strings.Join(out, ",")
}

func fetchPage(t *testing.T, c *grafttest.Client, args string) keysetPage {
	t.Helper()
	resp := c.Do(t, `{ items`+args+` { edges { cursor node { name } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`, nil)
	resp.NoErrors(t)
	var p keysetPage
	resp.Decode(t, &p)
	return p
}

// TestKeysetRunsOneQueryPerPage pages forward and backward through a
// keyset connection and checks each page ran exactly one query, with the
// bounds of its cursors and a limit one above the page size.
func TestKeysetRunsOneQueryPerPage(t *testing.T) {
	d := newDB(7)
	c := newClient(t, d, relay.Config{})
	var got []string
	args := "(first: 3)"
	for {
		p := fetchPage(t, c, args)
		got = append(got, fmt.Sprintf("%s next=%v prev=%v", p.names(), p.Items.PageInfo.HasNextPage, p.Items.PageInfo.HasPreviousPage))
		if !p.Items.PageInfo.HasNextPage {
			break
		}
		args = fmt.Sprintf("(first: 3, after: %q)", *p.Items.PageInfo.EndCursor)
	}
	args = "(last: 3)"
	for {
		p := fetchPage(t, c, args)
		got = append(got, fmt.Sprintf("%s next=%v prev=%v", p.names(), p.Items.PageInfo.HasNextPage, p.Items.PageInfo.HasPreviousPage))
		if !p.Items.PageInfo.HasPreviousPage {
			break
		}
		args = fmt.Sprintf("(last: 3, before: %q)", *p.Items.PageInfo.StartCursor)
	}
	want := []string{
		"1,2,3 next=true prev=false", "4,5,6 next=true prev=true", "7 next=false prev=true",
		"5,6,7 next=false prev=true", "2,3,4 next=true prev=true", "1 next=true prev=false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("pages:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantQueries := []string{
		"after=- before=- limit=4 desc=false", "after=30 before=- limit=4 desc=false", "after=60 before=- limit=4 desc=false",
		"after=- before=- limit=4 desc=true", "after=- before=50 limit=4 desc=true", "after=- before=20 limit=4 desc=true",
	}
	if !slices.Equal(d.queries, wantQueries) {
		t.Errorf("queries:\n%s\nwant\n%s", strings.Join(d.queries, "\n"), strings.Join(wantQueries, "\n"))
	}
}

func TestRequirePageSize(t *testing.T) {
	d := newDB(3)
	c := newClient(t, d, relay.Config{RequirePageSize: true, MaxPageSize: 2})
	resp := c.Do(t, `{ items { edges { cursor } } }`, nil)
	if e := resp.ErrorWithCode(t, graft.CodeBadUserInput); e == nil || !strings.Contains(e.Message, `You must provide a "first" or "last" value`) {
		t.Fatalf("%s", resp.Body)
	}
	resp = c.Do(t, `{ items(first: 3) { edges { cursor } } }`, nil)
	if e := resp.ErrorWithCode(t, graft.CodeBadUserInput); e == nil || e.Extensions["argument"] != "first" {
		t.Fatalf("%s", resp.Body)
	}
	if len(d.queries) != 0 {
		t.Errorf("refused pages ran queries: %v", d.queries)
	}
}

// TestNodeLookupsAreBatchedPerType checks that every id of one type in a
// request, from node fields and from nodes, reaches its type's fetch
// function in one call, and each type's once.
func TestNodeLookupsAreBatchedPerType(t *testing.T) {
	d := newDB(5)
	c := newClient(t, d, relay.Config{})
	id := func(typ, key string) string { return string(relay.ID(typ, key)) }
	resp := c.Do(t, `query($a: ID!, $b: ID!, $c: ID!, $ids: [ID!]!) {
		a: node(id: $a) { id } b: node(id: $b) { id } c: node(id: $c) { id }
		nodes(ids: $ids) { id ... on Item { name } ... on Other { code } }
	}`, map[string]any{"a": id("Item", "10"), "b": id("Other", "x"), "c": id("Item", "30"),
		"ids": []string{id("Item", "50"), id("Other", "y"), id("Item", "99"), id("Item", "10")}})
	resp.NoErrors(t)
	if !strings.Contains(string(resp.Data), `"nodes":[{"id":"`+id("Item", "50")+`","name":"item5"},{"id":"`+id("Other", "y")+`","code":"y"},null,{"id":"`+id("Item", "10")+`","name":"item1"}]`) {
		t.Errorf("data = %s", resp.Data)
	}
	for typ, want := range map[string]int{"Item": 4, "Other": 2} {
		calls := d.fetches[typ]
		if len(calls) != 1 || len(calls[0]) != want {
			t.Errorf("%s fetched in %d calls %v, want one call of %d keys", typ, len(calls), calls, want)
		}
	}
}

func TestIDs(t *testing.T) {
	id := relay.ID("Book", "7")
	if id != "Qm9vazo3" {
		t.Errorf("ID = %s", id)
	}
	if typ, key, ok := relay.ParseID(id); !ok || typ != "Book" || key != "7" {
		t.Errorf("ParseID = %s %s %v", typ, key, ok)
	}
	if key, ok := relay.KeyOf(relay.ID("Book", "a:b"), "Book"); !ok || key != "a:b" {
		t.Errorf("KeyOf a key with a colon = %s %v", key, ok)
	}
	for _, bad := range []schema.ID{"", "!!", "Qm9vaw", relay.ID("", "1")} {
		if _, _, ok := relay.ParseID(bad); ok {
			t.Errorf("ParseID(%q) succeeded", bad)
		}
	}
	if _, ok := relay.KeyOf(id, "Author"); ok {
		t.Error("KeyOf accepted an id of another type")
	}
}

func TestNodesBoundsItsIDs(t *testing.T) {
	c := newClient(t, newDB(1), relay.Config{})
	ids := make([]string, 101)
	for i := range ids {
		ids[i] = string(relay.ID("Item", "10"))
	}
	resp := c.Do(t, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": ids})
	if e := resp.ErrorWithCode(t, graft.CodeBadUserInput); e == nil || string(resp.Data) != "null" {
		t.Fatalf("%s", resp.Body)
	}
	resp = c.Do(t, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": ids[:100]})
	resp.NoErrors(t)
}

// searchArgs embeds PageArgs beside an argument of its own.
type searchArgs struct {
	Prefix string `graphql:"prefix"`
	relay.PageArgs
}

// TestEmbeddedPageArgsAndStringKeys pages a connection whose field takes
// PageArgs embedded in a larger argument struct, by a string key.
func TestEmbeddedPageArgsAndStringKeys(t *testing.T) {
	words := []other{{"apple"}, {"apricot"}, {"avocado"}, {"banana"}}
	b := schema.New()
	schema.Object[other](b, "Word")
	conn := relay.NewConnection[other](b, "Word", relay.Config{})
	schema.Query(b, "words", func(_ context.Context, a searchArgs) (relay.Connection[other], error) {
		return relay.Keyset(conn, a.PageArgs, a.Prefix, func(o *other) string { return o.Code },
			func(q relay.KeysetQuery[string]) ([]other, error) {
				var out []other
				for _, w := range words {
					if strings.HasPrefix(w.Code, a.Prefix) && (q.After == nil || w.Code > *q.After) && len(out) < q.Limit {
						out = append(out, w)
					}
				}
				return out, nil
			})
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.SDL(), "words(prefix: String!, first: Int, after: String, last: Int, before: String): WordConnection!") {
		t.Fatalf("SDL:\n%s", s.SDL())
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := grafttest.New(r)
	var data struct {
		Words struct {
			Edges []struct {
				Node struct{ Code string }
			}
			PageInfo struct {
				HasNextPage bool
				EndCursor   string
			}
		}
	}
	resp := c.Do(t, `{ words(prefix: "a", first: 2) { edges { node { code } } pageInfo { hasNextPage endCursor } } }`, nil)
	resp.Decode(t, &data)
	if len(data.Words.Edges) != 2 || data.Words.Edges[1].Node.Code != "apricot" || !data.Words.PageInfo.HasNextPage {
		t.Fatalf("%s", resp.Body)
	}
	resp = c.Do(t, `query($after: String) { words(prefix: "a", first: 2, after: $after) { edges { node { code } } pageInfo { hasNextPage } } }`,
		map[string]any{"after": data.Words.PageInfo.EndCursor})
	if string(resp.Data) != `{"words":{"edges":[{"node":{"code":"avocado"}}],"pageInfo":{"hasNextPage":false}}}` {
		t.Errorf("%s", resp.Body)
	}
	// The prefix is the scope: a cursor of prefix "a" is refused for "ap".
	resp = c.Do(t, `query($after: String) { words(prefix: "ap", first: 2, after: $after) { edges { cursor } } }`,
		map[string]any{"after": data.Words.PageInfo.EndCursor})
	if !resp.HasErrorCode(graft.CodeBadUserInput) {
		t.Errorf("a cursor of another scope was accepted: %s", resp.Body)
	}
}

type fragile struct {
	Name string `graphql:"name"`
}

// TestAPanickingKeyIsAFieldError checks that a key function that panics
// fails the id field alone.
func TestAPanickingKeyIsAFieldError(t *testing.T) {
	b := schema.New()
	nodes := relay.NewNodes(b)
	obj := schema.Object[fragile](b, "Fragile", schema.Implements("Node"))
	relay.Register(nodes, obj, func(*fragile) string { panic("no key") },
		func(context.Context, []string) ([]*fragile, []error) { return nil, nil })
	schema.QueryNoArgs(b, "f", func(context.Context) (*fragile, error) { return &fragile{Name: "x"}, nil })
	schema.QueryNoArgs(b, "ok", func(context.Context) (bool, error) { return true, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	resp := grafttest.New(r).Do(t, `{ f { name id } ok }`, nil)
	if string(resp.Data) != `{"f":null,"ok":true}` || len(resp.Errors) != 1 || !strings.Contains(resp.Errors[0].Message, "the key of a Fragile panicked") {
		t.Errorf("%s", resp.Body)
	}
}
