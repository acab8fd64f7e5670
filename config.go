package graft

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/graftgql/graft/limits"
	"github.com/graftgql/graft/persisted"
)

// Defaults for Config fields left at their zero value.
const (
	DefaultPath              = "/graphql"
	DefaultGraphiQLPath      = "/graphiql"
	DefaultMaxBodyBytes      = 1 << 20
	DefaultMaxTokens         = 15000
	DefaultDocumentCacheSize = 1000
	// DefaultDocumentCacheBytes is the default byte budget of the
	// document cache: 32 MiB.
	DefaultDocumentCacheBytes = 32 << 20
	DefaultTimeout            = 30 * time.Second
	DefaultMaxErrors          = 100
	DefaultMaxResponseBytes   = 16 << 20
)

// Config configures a Router. The zero value is a working configuration:
// GraphQL at /graphql, GraphiQL off, no depth or complexity limits, and
// safe bounds on everything that could take the server down (body size,
// query tokens, execution time, errors per response).
type Config struct {
	// Path is where the GraphQL endpoint is served. Default "/graphql".
	Path string

	// GraphiQL serves the GraphiQL IDE when non-nil.
	GraphiQL *GraphiQLConfig

	// Complexity limits depth, complexity, fields, aliases and directives
	// of each operation. Zero fields are unlimited.
	Complexity limits.Config

	// ReportComplexity adds the limits analysis of each operation to the
	// response under extensions.complexity. The analysis is always
	// available to resolvers through RequestInfoFrom.
	ReportComplexity bool

	// MaxBodyBytes bounds a POST body. Default 1 MiB; a larger body is
	// refused with 413 as soon as the limit is crossed.
	MaxBodyBytes int64

	// MaxTokens bounds the lexical tokens of a query, checked while
	// parsing, before any other work. Default 15,000.
	MaxTokens int

	// DisableIntrospection refuses __schema and __type queries.
	DisableIntrospection bool

	// DocumentCacheSize is the number of parsed, validated and planned
	// documents kept in the LRU cache. Default 1000.
	DocumentCacheSize int

	// DocumentCacheBytes bounds the estimated memory of the document
	// cache: the query texts plus about 512 bytes per selection. Default
	// DefaultDocumentCacheBytes (32 MiB). A document estimated at more
	// than a 64th of it is not cached: it is prepared again for each
	// request. Beside the documents, the texts of queries that arrive
	// with JSON escapes (one \n per line of a multi-line query) are kept
	// by their escaped form, within DocumentCacheSize entries and an
	// eighth of this budget, so a repeated one is not unescaped again.
	DocumentCacheBytes int64

	// Timeout bounds the execution of one request. Default 30s; resolvers
	// still running see their context cancelled. A timeout of 1s or more
	// is kept to within 10ms, and a request whose client goes away sees
	// its context cancelled within 10ms too (one watchdog per router
	// rather than a timer per request); a shorter one is exact.
	Timeout time.Duration

	// MaxErrors bounds the errors in one response. Default 100.
	MaxErrors int

	// MaxResponseBytes bounds the response to one request. Default 16 MiB;
	// past it the fields not yet written become null and the response
	// carries one RESPONSE_TOO_LARGE error. Nested lists multiply, so a
	// short query can otherwise ask for gigabytes.
	MaxResponseBytes int

	// MaxInFlight bounds the requests the router serves at once over
	// net/http (ServeHTTP), from reading the body to writing the last byte
	// of the answer, queries and mutations over WebSocket included. One
	// more is answered 503 with Retry-After and a SERVER_BUSY error (over
	// WebSocket, an error message). Default DefaultMaxInFlight (512).
	MaxInFlight int

	// MaxBufferedBytes bounds the bytes built and waiting for clients to
	// read them: the large answers (64 KiB or more) of plain HTTP, and
	// every answer and event the streaming transports (WebSocket, SSE,
	// multipart) hold for their clients. An answer is held whole until
	// written, so clients that ask for large answers and never read them
	// would otherwise pin up to MaxResponseBytes each; an answer that
	// would cross the budget is dropped and answered 503 with Retry-After
	// and a SERVER_BUSY error (over a stream, a SERVER_BUSY error in its
	// place). Small answers of plain HTTP always pass. Default
	// DefaultMaxBufferedBytes (32 MiB).
	MaxBufferedBytes int64

	// MaxConcurrency bounds the resolvers one request runs at once: the
	// group resolvers (schema.GroupFieldFunc), loader fetches and
	// concurrent resolvers of one level of the response run beside each
	// other up to this many.
	// Default 64.
	MaxConcurrency int

	// MaskErrors replaces the message of resolver errors that are not
	// meant for the client (any error that is not, and does not wrap, a
	// *graft.Error, a *gqlerror.Error or an error with an Extensions
	// method, nor a cancellation or timeout) with "Internal server
	// error"; the original is logged.
	// A zero Config leaves it off (errors reach clients as they are, which
	// suits development and tests); cmd/graft turns it on unless
	// GRAPHQL_MASK_ERRORS=false, and a production server should too, so
	// that a plain error naming a host or a table never reaches clients.
	MaskErrors bool

	// StatusCodes chooses the status-code table (README, "On the
	// wire"): StatusCodesApollo (the default, also for ""),
	// StatusCodesSpec or StatusCodesLegacy.
	StatusCodes StatusCodes

	// MaxBatch turns on HTTP batching: a POST body may be a JSON array of
	// at most MaxBatch operations (a batch; graft calls a resolver of many
	// parents a group resolver and a loader's call a fetch), answered with
	// a JSON array of their responses. Each operation has its own timeout
	// and errors, is one answer for hooks, the access log and metrics, and
	// is held to Complexity on its own; the batch as a whole is one request
	// for MaxBodyBytes, MaxInFlight, MaxResponseBytes (its operations'
	// responses share the budget; once it is spent the rest do not run)
	// and Complexity (the sum of its operations' measures: an operation
	// that would take the sum past a limit is refused). Default 0:
	// batching is off and an array answers 400.
	MaxBatch int

	// PersistedQueries turns on automatic persisted queries or a safelist.
	PersistedQueries *persisted.Options

	// CSRF refuses requests a browser could send cross-site without a
	// preflight when non-nil. See CSRFConfig.
	CSRF *CSRFConfig

	// Uploads bounds file uploads (multipart requests), accepted when the
	// schema uses schema.Upload. See UploadConfig.
	Uploads UploadConfig

	// Auth runs before each GraphQL request. It may return a context
	// carrying the user; an error answers 401 with its message. Returning
	// a context other than the one it was given marks the request as a
	// user's: a persisted GET answer to it is then never publicly
	// cacheable (return the given context for anonymous requests).
	Auth func(ctx context.Context, r *AuthRequest) (context.Context, error)

	// Subscriptions configures the WebSocket, SSE and multipart transports
	// served on Path, for subscriptions and for queries and mutations.
	Subscriptions SubscriptionConfig

	// Logger receives internal errors and panics. Default slog.Default().
	// Records logged with a request's context carry its request_id and
	// operation.
	Logger *slog.Logger

	// Hooks observe the phases of every request, on every transport; see
	// Hook. They run in order.
	Hooks []Hook
	// CacheHints sets the Cache-Control of GET query answers. Nil installs
	// CacheHintsHook(schema) when the schema declares @cacheControl hints,
	// and nothing otherwise; any other hook replaces it (HookFuncs{} turns
	// the hints off). It runs before Hooks, so theirs see and may change
	// what it set. With a CacheHints hook, set or installed, it decides the
	// header of persisted hits too: PersistedQueries' CacheControl applies
	// only without one.
	CacheHints Hook
	// FieldMiddleware wraps the resolution of fields; see FieldMiddleware.
	// None installed costs nothing.
	FieldMiddleware []FieldMiddleware
	// AccessLog, when set, receives one line per request: method, status,
	// operation name and type, duration_ms, error count, request ID and
	// client address. A logger over an accesslog.Handler takes its fast
	// path (no allocation, buffered writes); any other logger gets a
	// record with the same attributes. Off (nil) by default; cmd/graft
	// sets it.
	AccessLog *slog.Logger
	// RequestID takes each request's ID from X-Request-ID, or generates
	// one, and echoes it in the answer and in log lines. AccessLog turns
	// it on.
	RequestID bool
	// ErrorPresenter, when set, presents each resolver error: err is what
	// the resolver returned (or reported with AddError), ge the GraphQL
	// error it became (path, locations, extensions; masked when
	// MaskErrors applies). Return ge changed, or a new error, to mask,
	// translate or add codes; nil keeps ge.
	ErrorPresenter func(ctx context.Context, err error, ge *gqlerror.Error) *gqlerror.Error
	// OnPanic, when set, receives every recovered panic (resolvers, batch
	// resolvers, the pipeline) with the request's context and the stack,
	// for an error tracker. The panic is still logged and answered as an
	// internal error.
	OnPanic func(ctx context.Context, v any, stack []byte)
}

// StatusCodes names a status-code policy: how the HTTP status of an
// answer is chosen.
type StatusCodes string

// The status-code policies.
const (
	// StatusCodesApollo answers every request error (unparsable or
	// malformed request, syntax, validation, operation, variables,
	// limits) with 400 whatever the client accepts, as Apollo Server
	// does, and every executed operation with 200.
	StatusCodesApollo StatusCodes = "apollo"
	// statusCodesSeed is StatusCodesApollo's former name, still accepted.
	statusCodesSeed StatusCodes = "seed"
	// StatusCodesSpec follows the GraphQL-over-HTTP working draft of
	// August 2026. To clients that accept
	// application/graphql-response+json: 400 for unparsable JSON or
	// documents; 422 for a request that is not well-formed, a
	// validation failure or exceeded limit, an operation that cannot be
	// determined and variables that do not coerce; 294 (Partial Success)
	// for a response with both data and errors. To clients that accept
	// only application/json: 200 for every well-formed request, 400
	// otherwise.
	StatusCodesSpec StatusCodes = "spec"
	// StatusCodesLegacy is StatusCodesApollo except that syntax,
	// validation, operation and variable errors answer 200 to clients
	// that accept only application/json, as the GraphQL-over-HTTP
	// specification recommends for that media type (the graphql-http
	// audit's SHOULDs).
	StatusCodesLegacy StatusCodes = "legacy"
)

// GraphiQLConfig configures the GraphiQL page.
type GraphiQLConfig struct {
	// Path is where the page is served. Default "/graphiql".
	Path string
	// Endpoint is the GraphQL URL the page queries. Default Config.Path.
	Endpoint string
	// AssetBaseURL loads GraphiQL's scripts and styles from this base URL
	// instead of the public CDN, for self-hosting.
	AssetBaseURL string
	// Title is the page title. Default "GraphiQL".
	Title string
	// FrameAncestors is the page's Content-Security-Policy frame-ancestors
	// value. Default 'none': no site may frame the page.
	FrameAncestors string
	// Assets says where the page's scripts and styles come from:
	// GraphiQLAssetsEmbedded (the default, also for "" unless
	// AssetBaseURL is set), the pinned files built into the binary and
	// served under Path + "/assets/", so the IDE works with no network
	// and under a Content-Security-Policy of 'self'; or
	// GraphiQLAssetsCDN, the public CDN or AssetBaseURL (the default
	// when AssetBaseURL is set). Embedded assets exclude AssetBaseURL.
	Assets string
}

// Where GraphiQL's assets come from (GraphiQLConfig.Assets).
const (
	// GraphiQLAssetsCDN loads them from the public CDN, or from
	// GraphiQLConfig.AssetBaseURL.
	GraphiQLAssetsCDN = "cdn"
	// GraphiQLAssetsEmbedded serves them from the binary.
	GraphiQLAssetsEmbedded = "embedded"
)

// CSRFConfig configures CSRF prevention. A browser can send a GET, or a
// POST whose Content-Type is text/plain, multipart/form-data or
// application/x-www-form-urlencoded, to another site without a CORS
// preflight. Such requests are refused with 400 unless they carry one of
// RequiredHeaders with a non-empty value, which a cross-site page cannot
// add without a preflight. A WebSocket upgrade, which a browser also sends
// cross-site with the user's cookies and no preflight, is held to the same
// rule: one from another origin that carries cookies is refused with 403
// unless SubscriptionConfig.OriginPatterns names its origin exactly (a
// wildcard pattern never admits it).
type CSRFConfig struct {
	// RequiredHeaders lists the accepted preflight headers. Default
	// "client-require-preflight", "apollo-require-preflight",
	// "x-apollo-operation-name" and "graphql-preflight".
	RequiredHeaders []string
}

// withDefaults returns the configuration with defaults filled in, or an
// error for values that cannot work.
func (c Config) withDefaults() (Config, error) {
	if c.Path == "" {
		c.Path = DefaultPath
	}
	if !strings.HasPrefix(c.Path, "/") {
		return c, fmt.Errorf("graft: Path %q must start with /", c.Path)
	}
	if c.GraphiQL != nil {
		g := *c.GraphiQL
		if g.Path == "" {
			g.Path = DefaultGraphiQLPath
		}
		if !strings.HasPrefix(g.Path, "/") {
			return c, fmt.Errorf("graft: GraphiQL.Path %q must start with /", g.Path)
		}
		if g.Endpoint == "" {
			g.Endpoint = c.Path
		}
		if g.Title == "" {
			g.Title = "GraphiQL"
		}
		switch g.Assets {
		case "":
			g.Assets = GraphiQLAssetsEmbedded
			if g.AssetBaseURL != "" {
				g.Assets = GraphiQLAssetsCDN
			}
		case GraphiQLAssetsCDN:
		case GraphiQLAssetsEmbedded:
			if g.AssetBaseURL != "" {
				return c, fmt.Errorf("graft: GraphiQL.Assets embedded excludes GraphiQL.AssetBaseURL %q", g.AssetBaseURL)
			}
		default:
			return c, fmt.Errorf("graft: GraphiQL.Assets %q: want cdn or embedded", g.Assets)
		}
		c.GraphiQL = &g
	}
	switch c.StatusCodes {
	case "", statusCodesSeed:
		c.StatusCodes = StatusCodesApollo
	case StatusCodesApollo, StatusCodesSpec, StatusCodesLegacy:
	default:
		return c, fmt.Errorf("graft: StatusCodes %q: want apollo, spec or legacy", string(c.StatusCodes))
	}
	if c.MaxBatch < 0 {
		return c, fmt.Errorf("graft: MaxBatch must not be negative")
	}
	if c.MaxInFlight < 0 || c.MaxBufferedBytes < 0 {
		return c, fmt.Errorf("graft: MaxInFlight and MaxBufferedBytes must not be negative")
	}
	if c.MaxInFlight == 0 {
		c.MaxInFlight = DefaultMaxInFlight
	}
	if c.MaxBufferedBytes == 0 {
		c.MaxBufferedBytes = DefaultMaxBufferedBytes
	}
	if c.DocumentCacheBytes < 0 {
		return c, fmt.Errorf("graft: DocumentCacheBytes must not be negative")
	}
	if c.DocumentCacheBytes == 0 {
		c.DocumentCacheBytes = DefaultDocumentCacheBytes
	}
	if c.MaxBodyBytes < 0 || c.MaxTokens < 0 || c.DocumentCacheSize < 0 || c.Timeout < 0 || c.MaxErrors < 0 || c.MaxResponseBytes < 0 {
		return c, fmt.Errorf("graft: MaxBodyBytes, MaxTokens, DocumentCacheSize, Timeout, MaxErrors and MaxResponseBytes must not be negative")
	}
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.MaxTokens == 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	if c.DocumentCacheSize == 0 {
		c.DocumentCacheSize = DefaultDocumentCacheSize
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxErrors == 0 {
		c.MaxErrors = DefaultMaxErrors
	}
	if c.MaxResponseBytes == 0 {
		c.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if c.CSRF != nil && len(c.CSRF.RequiredHeaders) == 0 {
		c.CSRF = &CSRFConfig{RequiredHeaders: []string{"client-require-preflight", "apollo-require-preflight", "x-apollo-operation-name", "graphql-preflight"}}
	}
	uploads, err := c.Uploads.withDefaults(c.MaxBodyBytes)
	if err != nil {
		return c, err
	}
	c.Uploads = uploads
	c.Subscriptions = c.Subscriptions.withDefaults()
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	c.Logger = withRequestAttrs(c.Logger)
	if c.AccessLog != nil {
		c.RequestID = true
	}
	return c, nil
}
