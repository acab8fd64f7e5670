package relay_test

import (
	"context"
	"encoding/base64"
	"strconv"
	"testing"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/relay"
	"github.com/graftgql/graft/schema"
)

// A connection written by hand, the way a schema without the helpers
// builds one: an edge struct allocated per item and a cursor string
// encoded per item (graphql-relay-js's "arrayconnection:<offset>").
type handEdge struct {
	Cursor string `graphql:"cursor"`
	Node   *item  `graphql:"node"`
}

type handConnection struct {
	Edges    []*handEdge    `graphql:"edges"`
	PageInfo relay.PageInfo `graphql:"pageInfo"`
}

func handPage(items []item, first int) handConnection {
	var c handConnection
	for i := 0; i < first && i < len(items); i++ {
		c.Edges = append(c.Edges, &handEdge{
			Cursor: base64.StdEncoding.EncodeToString([]byte("arrayconnection:" + strconv.Itoa(i))),
			Node:   &items[i],
		})
	}
	c.PageInfo.HasNextPage = first < len(items)
	if len(c.Edges) > 0 {
		c.PageInfo.StartCursor, c.PageInfo.EndCursor = &c.Edges[0].Cursor, &c.Edges[len(c.Edges)-1].Cursor
	}
	return c
}

func benchItems(n int) []item {
	items := make([]item, n)
	for i := range items {
		items[i] = item{Key: int64(i), Name: "item" + strconv.Itoa(i)}
	}
	return items
}

func benchRouter(b *testing.B) *graft.Router {
	b.Helper()
	items := benchItems(1000)
	sb := schema.New()
	schema.Object[item](sb, "Item")
	conn := relay.NewConnection[item](sb, "Item", relay.Config{TotalCount: true})
	schema.Query(sb, "helper", func(_ context.Context, a relay.PageArgs) (relay.Connection[item], error) {
		return conn.Slice(a, items, "")
	})
	schema.Object[handEdge](sb, "HandEdge")
	schema.Object[handConnection](sb, "HandConnection")
	schema.Query(sb, "byHand", func(_ context.Context, a relay.PageArgs) (handConnection, error) {
		return handPage(items, *a.First), nil
	})
	s, err := sb.Build()
	if err != nil {
		b.Fatal(err)
	}
	r, err := graft.NewRouter(s, graft.NewLayer(), graft.Config{})
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkConnectionPage100 executes a 100-edge page in process: the
// helpers' Slice against the same page built by hand.
func BenchmarkConnectionPage100(b *testing.B) {
	r := benchRouter(b)
	for _, field := range []string{"byHand", "helper"} {
		b.Run(field, func(b *testing.B) {
			req := graft.Request{Query: `{ ` + field + `(first: 100) { edges { cursor node { key name } } pageInfo { hasNextPage endCursor } } }`}
			var buf []byte
			status, buf := r.AppendExecute(context.Background(), buf, req)
			if status != 200 || len(buf) < 100*20 {
				b.Fatalf("%d %s", status, buf)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, buf = r.AppendExecute(context.Background(), buf[:0], req)
			}
		})
	}
}

// BenchmarkSlice100 builds a 100-edge page with Slice alone.
func BenchmarkSlice100(b *testing.B) {
	conn, items := sliceConnection(b), benchItems(1000)
	first := 100
	b.ReportAllocs()
	for b.Loop() {
		if _, err := conn.Slice(relay.PageArgs{First: &first}, items, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func sliceConnection(tb testing.TB) *relay.ConnectionType[item] {
	sb := schema.New()
	schema.Object[item](sb, "Item")
	conn := relay.NewConnection[item](sb, "Item", relay.Config{})
	schema.QueryNoArgs(sb, "x", func(context.Context) (bool, error) { return true, nil })
	if _, err := sb.Build(); err != nil {
		tb.Fatal(err)
	}
	return conn
}

// TestPagesAllocateNothingPerEdge checks that Slice and Keyset allocate
// the same for a page of 100 edges as for a page of 10: the edges slice,
// one buffer for every cursor and the connection's parts, nothing per
// edge (the nodes are the caller's).
func TestPagesAllocateNothingPerEdge(t *testing.T) {
	conn, items := sliceConnection(t), benchItems(1000)
	allocs := func(n int, page func(int)) float64 {
		return testing.AllocsPerRun(50, func() { page(n) })
	}
	slice := func(n int) {
		if _, err := conn.Slice(relay.PageArgs{First: &n}, items, ""); err != nil {
			t.Fatal(err)
		}
	}
	keyset := func(n int) {
		_, err := relay.Keyset(conn, relay.PageArgs{First: &n}, "", func(i *item) int64 { return i.Key },
			func(q relay.KeysetQuery[int64]) ([]item, error) { return items[:q.Limit], nil })
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, page := range map[string]func(int){"Slice": slice, "Keyset": keyset} {
		small, large := allocs(10, page), allocs(100, page)
		if large != small || large > 5 {
			t.Errorf("%s: %v allocations for 10 edges, %v for 100; want the same few", name, small, large)
		}
	}
}
