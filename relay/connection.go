package relay

import (
	"context"
	"errors"

	"github.com/graftgql/graft/internal/schemadef"
	"github.com/graftgql/graft/schema"
)

// PageArgs are the arguments of a connection field, in the order the
// specification lists them: first and after page forward, last and
// before backward. Embed it in the argument struct of a field that takes
// more arguments.
type PageArgs struct {
	First  *int    `graphql:"first"`
	After  *string `graphql:"after"`
	Last   *int    `graphql:"last"`
	Before *string `graphql:"before"`
}

// PageInfo is the pageInfo of a connection: whether more items follow or
// precede the page, and the cursors of its first and last edges (null
// when the page is empty).
type PageInfo struct {
	HasNextPage     bool    `graphql:"hasNextPage"`
	HasPreviousPage bool    `graphql:"hasPreviousPage"`
	StartCursor     *string `graphql:"startCursor"`
	EndCursor       *string `graphql:"endCursor"`
}

// Edge is one item of a page: its cursor and its node.
type Edge[T any] struct {
	Cursor string `graphql:"cursor"`
	Node   *T     `graphql:"node"`
}

// Connection is one page of a connection of nodes of Go type T, as the
// helpers of ConnectionType build it.
type Connection[T any] struct {
	Edges    []Edge[T] `graphql:"edges"`
	PageInfo PageInfo  `graphql:"pageInfo"`
	// Total returns the number of items of the whole connection, whatever
	// the page; it runs only when totalCount is selected. Nil makes
	// totalCount an error.
	Total func(ctx context.Context) (int, error) `graphql:"-"`
}

// Config configures a connection type; the zero value serves pages of 20
// items and refuses more than 100.
type Config struct {
	// DefaultPageSize is the size of a page when neither first nor last
	// is given (20 when zero).
	DefaultPageSize int
	// MaxPageSize is the largest first or last accepted (100 when zero);
	// a larger one is BAD_USER_INPUT.
	MaxPageSize int
	// RequirePageSize refuses a request without first or last with
	// BAD_USER_INPUT, as GitHub's API does, instead of serving
	// DefaultPageSize items.
	RequirePageSize bool
	// TotalCount declares the totalCount: Int! field.
	TotalCount bool
}

// ConnectionType is the connection type of one node type, declared with
// NewConnection. Its methods build pages; it is safe for concurrent use.
type ConnectionType[T any] struct {
	name string // <Node>Connection
	cfg  Config
}

// NewConnection declares the connection type of the object type named
// nodeType, whose Go type T is declared with schema.Object:
// <nodeType>Connection with edges, pageInfo and (with Config.TotalCount)
// totalCount, <nodeType>Edge with cursor and node, and PageInfo, which
// every connection of the schema shares.
func NewConnection[T any](b *schema.Builder, nodeType string, cfg Config) *ConnectionType[T] {
	if cfg.DefaultPageSize <= 0 {
		cfg.DefaultPageSize = 20
	}
	if cfg.MaxPageSize <= 0 {
		cfg.MaxPageSize = 100
	}
	if schemadef.BuilderOf(b).Once("relay.PageInfo") {
		schema.Object[PageInfo](b, "PageInfo", schema.Description("Information about pagination in a connection."))
	}
	// node is the struct field itself (no resolver call per edge), non-null.
	schema.Object[Edge[T]](b, nodeType+"Edge", schema.OnField("node", schema.OfType(nodeType+"!")))
	c := &ConnectionType[T]{name: nodeType + "Connection", cfg: cfg}
	conn := schema.Object[Connection[T]](b, c.name)
	if cfg.TotalCount {
		schema.FieldFuncNoArgs(conn, "totalCount", func(ctx context.Context, c *Connection[T]) (int, error) {
			if c.Total == nil {
				return 0, errNoTotal
			}
			return c.Total(ctx)
		})
	}
	return c
}

var errNoTotal = errors.New("totalCount is not available for this connection")

// Name returns the name of the connection type, <Node>Connection.
func (c *ConnectionType[T]) Name() string { return c.name }

// Cost is the option of a field returning this connection for the
// complexity analysis: the page size (first or last, else the default
// page size, at most the maximum) times the cost of what is selected
// under edges and nodes, plus pageInfo and totalCount once.
func (c *ConnectionType[T]) Cost() schema.Option {
	return schema.PageCost(schema.Paging{
		SizeArgs:    []string{"first", "last"},
		ItemFields:  []string{"edges", "nodes"},
		DefaultSize: c.cfg.DefaultPageSize,
		MaxSize:     c.cfg.MaxPageSize,
	})
}
