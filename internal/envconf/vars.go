package envconf

// This file is the one declaration of every environment variable graft
// reads. Each field's tags say everything about its variable:
//
//	env     the variable's name
//	field   the Go field it sets (Config, ServeOptions or persisted.Options)
//	default the library's default, as documentation
//	graft   the default of the production server (graftserver, which
//	        cmd/graft runs), where it differs from the library's;
//	        graftserver uses it when the variable is unset
//	help    what the variable does
//
// The structs drive parsing (Parse), the --help text of graftserver (and so
// of cmd/graft and of every service built on it) and the
// README's configuration table (Describe, Markdown); a test keeps the
// README in step.

// Router holds the variables graft.ConfigFromEnv reads.
type Router struct {
	Path                 string    `env:"GRAPHQL_PATH" field:"Path" default:"/graphql" help:"path of the GraphQL endpoint"`
	GraphiQLEnabled      *Bool     `env:"GRAPHIQL_ENABLED" field:"GraphiQL" default:"false" graft:"true" help:"serve the GraphiQL IDE"`
	GraphiQLPath         string    `env:"GRAPHIQL_PATH" field:"GraphiQL.Path" default:"/graphiql" help:"path of the GraphiQL page"`
	GraphiQLEndpoint     string    `env:"GRAPHIQL_ENDPOINT" field:"GraphiQL.Endpoint" default:"GRAPHQL_PATH" help:"endpoint the GraphiQL page queries"`
	GraphiQLAssetBaseURL string    `env:"GRAPHIQL_ASSET_BASE_URL" field:"GraphiQL.AssetBaseURL" default:"unset" help:"base URL of self-hosted GraphiQL assets (implies GRAPHIQL_ASSETS=cdn)"`
	GraphiQLAssets       string    `env:"GRAPHIQL_ASSETS" field:"GraphiQL.Assets" default:"embedded" help:"where GraphiQL's scripts and styles come from: embedded (served from the binary; works offline under a 'self' Content-Security-Policy), or cdn (the public CDN, or GRAPHIQL_ASSET_BASE_URL)"`
	GraphiQLFrameAnc     string    `env:"GRAPHIQL_FRAME_ANCESTORS" field:"GraphiQL.FrameAncestors" default:"'none'" help:"frame-ancestors of the GraphiQL page's Content-Security-Policy"`
	MaxDepth             *Limit    `env:"GRAPHQL_MAX_DEPTH" field:"Complexity.MaxDepth" default:"0 (unlimited)" graft:"10" help:"maximum query depth; 0 switches the limit off"`
	MaxComplexity        *Limit    `env:"GRAPHQL_MAX_COMPLEXITY" field:"Complexity.MaxComplexity" default:"0 (unlimited)" graft:"5000" help:"maximum query complexity; 0 switches the limit off"`
	MaxFields            *Limit    `env:"GRAPHQL_MAX_FIELDS" field:"Complexity.MaxFields" default:"0 (unlimited)" graft:"500" help:"maximum field selections; 0 switches the limit off"`
	MaxAliases           *Limit    `env:"GRAPHQL_MAX_ALIASES" field:"Complexity.MaxAliases" default:"0 (unlimited)" graft:"30" help:"maximum aliases; 0 switches the limit off"`
	MaxDirectives        *Limit    `env:"GRAPHQL_MAX_DIRECTIVES" field:"Complexity.MaxDirectives" default:"0 (unlimited)" help:"maximum directives; 0 switches the limit off"`
	ReportComplexity     *Bool     `env:"GRAPHQL_REPORT_COMPLEXITY" field:"ReportComplexity" default:"false" help:"report the limits analysis in extensions.complexity"`
	MaxBodyBytes         *Limit    `env:"GRAPHQL_MAX_BODY_BYTES" field:"MaxBodyBytes" default:"1048576" help:"maximum request body in bytes (413 past it)"`
	MaxTokens            *Limit    `env:"GRAPHQL_MAX_TOKENS" field:"MaxTokens" default:"15000" help:"maximum lexical tokens in a query"`
	MaxResponseBytes     *Limit    `env:"GRAPHQL_MAX_RESPONSE_BYTES" field:"MaxResponseBytes" default:"16777216" help:"maximum response in bytes"`
	Introspection        *Bool     `env:"GRAPHQL_INTROSPECTION" field:"DisableIntrospection" default:"true" help:"allow introspection queries"`
	DocumentCacheSize    *Limit    `env:"GRAPHQL_DOCUMENT_CACHE_SIZE" field:"DocumentCacheSize" default:"1000" help:"parsed documents kept in the LRU cache"`
	DocumentCacheBytes   *Limit    `env:"GRAPHQL_DOCUMENT_CACHE_BYTES" field:"DocumentCacheBytes" default:"33554432" help:"bytes of parsed documents kept in the LRU cache; a document over 1/64 of it is not cached"`
	MaxBatch             *Limit    `env:"GRAPHQL_BATCH_MAX" field:"MaxBatch" default:"0 (off)" help:"largest HTTP batch (a JSON array of requests); 0 turns batching off"`
	MaxInFlight          *Limit    `env:"GRAPHQL_MAX_IN_FLIGHT" field:"MaxInFlight" default:"512" help:"requests served at once; past it 503 SERVER_BUSY with Retry-After"`
	MaxBufferedBytes     *Limit    `env:"GRAPHQL_MAX_BUFFERED_BYTES" field:"MaxBufferedBytes" default:"33554432" help:"bytes of large answers (64 KiB or more) waiting to be written; past it 503 SERVER_BUSY"`
	Timeout              *Duration `env:"GRAPHQL_TIMEOUT" field:"Timeout" default:"30s" help:"execution timeout per request (Go duration)"`
	MaskErrors           *Bool     `env:"GRAPHQL_MASK_ERRORS" field:"MaskErrors" default:"false" graft:"true" help:"hide the messages of unexpected resolver errors (logged instead)"`
	StatusCodes          string    `env:"GRAPHQL_STATUS_CODES" field:"StatusCodes" default:"apollo" help:"status-code policy: apollo (400 for every request error, as Apollo Server), spec (GraphQL-over-HTTP draft of 2026: 400, 422, 294) or legacy (200 for request errors to application/json-only clients)"`
	SpecStatusCodes      *Bool     `env:"GRAPHQL_SPEC_STATUS_CODES" field:"StatusCodes" default:"false" help:"deprecated: true is GRAPHQL_STATUS_CODES=legacy (which wins when both are set)"`
	UploadMaxFileBytes   *Limit    `env:"GRAPHQL_UPLOAD_MAX_FILE_BYTES" field:"Uploads.MaxFileBytes" default:"16777216" help:"largest uploaded file in bytes (413 UPLOAD_FILE_TOO_LARGE past it); uploads are accepted when the schema uses schema.Upload"`
	UploadMaxFiles       *Limit    `env:"GRAPHQL_UPLOAD_MAX_FILES" field:"Uploads.MaxFiles" default:"10" help:"files in one multipart request (413 UPLOAD_TOO_MANY_FILES past it)"`
	UploadMaxBytes       *Limit    `env:"GRAPHQL_UPLOAD_MAX_BYTES" field:"Uploads.MaxBytes" default:"files × file bytes + body bytes" help:"whole multipart request body in bytes, files included (413 PAYLOAD_TOO_LARGE past it)"`
	UploadMaxParts       *Limit    `env:"GRAPHQL_UPLOAD_MAX_PARTS" field:"Uploads.MaxParts" default:"files + 2" help:"parts of one multipart request (413 UPLOAD_TOO_MANY_PARTS past it)"`
	UploadMaxMapPaths    *Limit    `env:"GRAPHQL_UPLOAD_MAX_MAP_PATHS" field:"Uploads.MaxMapPaths" default:"100" help:"paths in the map of one multipart request (413 UPLOAD_TOO_MANY_MAP_PATHS past it)"`
	UploadMaxOpsBytes    *Limit    `env:"GRAPHQL_UPLOAD_MAX_OPERATIONS_BYTES" field:"Uploads.MaxOperationsBytes" default:"GRAPHQL_MAX_BODY_BYTES" help:"operations part, and map part, of a multipart request in bytes (413 UPLOAD_OPERATIONS_TOO_LARGE past it)"`
	UploadMaxOpsDepth    *Limit    `env:"GRAPHQL_UPLOAD_MAX_OPERATIONS_DEPTH" field:"Uploads.MaxOperationsDepth" default:"32" help:"nesting of the operations part of a multipart request (400 UPLOAD_OPERATIONS_TOO_DEEP past it)"`
	UploadMemoryFile     *Limit    `env:"GRAPHQL_UPLOAD_MEMORY_FILE_BYTES" field:"Uploads.MemoryFileBytes" default:"65536" help:"an uploaded file up to this size stays in memory; a larger one goes to a temporary file"`
	UploadMaxMemory      *Limit    `env:"GRAPHQL_UPLOAD_MAX_MEMORY_BYTES" field:"Uploads.MaxMemoryBytes" default:"16777216" help:"memory all uploaded files held at once may take; past it files go to temporary files"`
	UploadMaxDisk        *Limit    `env:"GRAPHQL_UPLOAD_MAX_DISK_BYTES" field:"Uploads.MaxDiskBytes" default:"4294967296" help:"bytes the temporary files of all uploads in progress may hold; past it 503 SERVER_BUSY"`
	UploadTempDir        string    `env:"GRAPHQL_UPLOAD_TEMP_DIR" field:"Uploads.TempDir" default:"the system's temporary directory" help:"directory of uploads' temporary files"`
	CSRF                 *Bool     `env:"GRAPHQL_CSRF_PREVENTION" field:"CSRF" default:"false" graft:"true" help:"refuse requests a browser could send cross-site without a preflight header (graftserver: see CSRF_PROTECTION)"`
}

// Serve holds the variables graft.ServeOptionsFromEnv reads.
type Serve struct {
	Port          *Port     `env:"PORT" field:"Port" default:"4000" help:"TCP port to listen on"`
	Host          string    `env:"HOST" field:"Host" default:"0.0.0.0" help:"address to bind (0.0.0.0: every IPv4 interface)"`
	ShutdownGrace *Duration `env:"SHUTDOWN_GRACE" field:"ShutdownGrace" default:"10s" help:"time in-flight requests get to finish on shutdown (Go duration)"`
	ShutdownDelay *Duration `env:"SHUTDOWN_DELAY" field:"ShutdownDelay" default:"0s" help:"drain delay: time between the shutdown signal and closing the listener, during which requests are still served and /ready answers 503 so load balancers (Kubernetes endpoints) stop sending traffic; a second signal ends it early"`
}

// Persisted holds the variables persisted.ConfigFromEnv reads.
type Persisted struct {
	Mode          string `env:"PERSISTED_QUERIES_MODE" field:"Mode" default:"off" graft:"apq" help:"apq or safelist (graftserver: also off)"`
	Manifest      string `env:"PERSISTED_QUERIES_MANIFEST" field:"Store" default:"unset" help:"Apollo manifest or flat {id: document} map (Relay, GraphQL Code Generator's persisted-documents.json), loaded into a safelist serving hashes and documentIds; implies safelist"`
	EnableGet     *Bool  `env:"PERSISTED_QUERIES_ENABLE_GET" field:"EnableGet" default:"true" help:"allow persisted queries over GET"`
	ValidateHash  *Bool  `env:"PERSISTED_QUERIES_VALIDATE_HASH" field:"ValidateHash" default:"true" help:"check that a registered query matches its hash; off lets any client store any query under any hash (APQ poisoning: later requests for that hash run it), so answers are then never publicly cacheable"`
	HashAlgorithm string `env:"PERSISTED_QUERIES_HASH_ALGORITHM" field:"HashAlgorithm" default:"sha256" help:"sha256 or sha512"`
	CacheControl  string `env:"PERSISTED_QUERIES_CACHE_CONTROL" field:"CacheControl" default:"public, max-age=60" help:"Cache-Control of successful GET hits"`
	StoreSize     string `env:"PERSISTED_QUERIES_STORE_SIZE" field:"Store" default:"1000" help:"entries of the in-memory APQ store (> 0)"`
	StoreBytes    string `env:"PERSISTED_QUERIES_STORE_BYTES" field:"Store" default:"16777216" help:"bytes of the in-memory APQ store (> 0); least recently used queries are evicted"`
	MaxQueryBytes string `env:"PERSISTED_QUERIES_MAX_QUERY_BYTES" field:"MaxQueryBytes" default:"131072" help:"largest query registered in the APQ store (> 0); a longer one runs but is never stored"`
	Registrations string `env:"PERSISTED_QUERIES_REGISTRATIONS_PER_MINUTE" field:"RegistrationsPerMinute" default:"60" help:"queries one client address may register in the APQ store per minute; past it they run but are not stored (negative: unlimited)"`
}

// RateLimit holds the variables ratelimit.OptionsFromEnv reads.
type RateLimit struct {
	Budget         *Limit    `env:"RATE_LIMIT_BUDGET" field:"Budget" default:"0 (off)" help:"cost points each client may spend per window (computed cost of each operation, each batch item and each subscribe); past it 429 RATE_LIMITED with Retry-After; 0 turns rate limiting off"`
	Window         *Duration `env:"RATE_LIMIT_WINDOW" field:"Window" default:"1m" help:"length of a client's window, from its first charge (Go duration)"`
	Key            string    `env:"RATE_LIMIT_KEY" field:"Key" default:"address" help:"whom a request is charged to: address (the client address) or header:<Name> (such as header:X-Api-Key, falling back to the address)"`
	ChargeExecuted *Bool     `env:"RATE_LIMIT_CHARGE_EXECUTED" field:"ChargeExecuted" default:"false" help:"once an operation has run, charge what it executed (one point per field resolved) instead of its computed cost"`
	RedisPrefix    string    `env:"RATE_LIMIT_REDIS_PREFIX" default:"graft:rl:" help:"key prefix of the spending kept in Redis (graftserver keeps it there when REDIS_URL is set, so instances share one budget)"`
}

// Server holds the variables the production server (graftserver, and so
// cmd/graft) reads beyond the library's.
type Server struct {
	RedisURL    string    `env:"REDIS_URL" default:"unset: in-memory store" help:"redis:// URL; keeps APQ queries in Redis (shared by instances), carries subscription events across instances (Redis Pub/Sub, the PubSub a service's schema receives), and adds readiness checks of both"`
	RedisPrefix string    `env:"REDIS_PREFIX" default:"graft:pq:" help:"key prefix of persisted queries in Redis"`
	RedisTTL    *Duration `env:"REDIS_TTL" default:"24h" help:"lifetime of a persisted query in Redis after its last use (Go duration; negative: no expiry); cap Redis itself with maxmemory and an LRU policy"`
	CORSOrigins string    `env:"CORS_ORIGINS" default:"*" help:"comma-separated allowed origins; off disables CORS"`
	CSRF        *Bool     `env:"CSRF_PROTECTION" default:"true" help:"refuse GET and simple POST requests without a preflight header (sets GRAPHQL_CSRF_PREVENTION)"`
	LogLevel    string    `env:"LOG_LEVEL" default:"info" help:"debug, info, warn or error"`
	LogFormat   string    `env:"LOG_FORMAT" default:"text" help:"text or json"`
	AccessLog   *Bool     `env:"ACCESS_LOG" default:"true" help:"log one line per GraphQL request (method, status, operation, duration, errors, request ID) and echo X-Request-ID"`
}

// Example holds the variables only cmd/graft reads.
type Example struct {
	Example string `env:"GRAFT_EXAMPLE" default:"blog" help:"example schema to serve (see -example)"`
}

// Telemetry holds the OpenTelemetry and metrics variables graftserver
// reads. The OTEL_* variables are the standard ones of the OpenTelemetry
// specification; graftserver checks their values at start-up, decides
// from them whether to trace, and exports OTLP over HTTP in protobuf with
// them. Any other exporter is the SDK's (through contrib's autoexport),
// which reads them from the process environment itself.
type Telemetry struct {
	TracesExporter    string `env:"OTEL_TRACES_EXPORTER" default:"otlp when an endpoint is set, else none" help:"otlp, console (spans as JSON on standard output) or none; tracing is on when this says otlp or console, or when an OTLP endpoint is set"`
	Endpoint          string `env:"OTEL_EXPORTER_OTLP_ENDPOINT" default:"unset: no tracing" help:"base URL of the OTLP receiver (http://collector:4318); traces go to its /v1/traces"`
	TracesEndpoint    string `env:"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" default:"unset" help:"full URL traces are sent to; wins over OTEL_EXPORTER_OTLP_ENDPOINT"`
	Headers           string `env:"OTEL_EXPORTER_OTLP_HEADERS" default:"unset" help:"headers of every OTLP request, key=value pairs separated by commas (URL-encoded values)"`
	TracesHeaders     string `env:"OTEL_EXPORTER_OTLP_TRACES_HEADERS" default:"OTEL_EXPORTER_OTLP_HEADERS" help:"headers of the OTLP requests of traces; replaces OTEL_EXPORTER_OTLP_HEADERS"`
	Compression       string `env:"OTEL_EXPORTER_OTLP_COMPRESSION" default:"none" help:"gzip or none"`
	TracesCompression string `env:"OTEL_EXPORTER_OTLP_TRACES_COMPRESSION" default:"OTEL_EXPORTER_OTLP_COMPRESSION" help:"gzip or none, for traces; wins over OTEL_EXPORTER_OTLP_COMPRESSION"`
	Timeout           *Limit `env:"OTEL_EXPORTER_OTLP_TIMEOUT" default:"10000" help:"longest time in milliseconds one export of spans takes, retries included, 1 to 86400000"`
	TracesTimeout     *Limit `env:"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT" default:"OTEL_EXPORTER_OTLP_TIMEOUT" help:"the same for traces; wins over OTEL_EXPORTER_OTLP_TIMEOUT"`
	Protocol          string `env:"OTEL_EXPORTER_OTLP_PROTOCOL" default:"http/protobuf" help:"OTLP transport: http/protobuf (port 4318) or grpc (port 4317); http/json is refused at start-up"`
	TracesProtocol    string `env:"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" default:"OTEL_EXPORTER_OTLP_PROTOCOL" help:"OTLP transport of traces; wins over OTEL_EXPORTER_OTLP_PROTOCOL"`
	ServiceName       string `env:"OTEL_SERVICE_NAME" default:"graft" help:"service.name of the traces' resource"`
	ResourceAttrs     string `env:"OTEL_RESOURCE_ATTRIBUTES" default:"unset" help:"more resource attributes, key=value pairs separated by commas"`
	Sampler           string `env:"OTEL_TRACES_SAMPLER" default:"parentbased_always_on" help:"always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio"`
	SamplerArg        string `env:"OTEL_TRACES_SAMPLER_ARG" default:"1.0" help:"the ratio of the traceidratio samplers, 0 to 1"`
	ExportDelay       *Limit `env:"OTEL_BSP_SCHEDULE_DELAY" default:"200" help:"longest time in milliseconds a sampled span waits to be exported, 1 to 86400000 (the OpenTelemetry SDK's own default is 5000, the Collector's batch timeout 200); a batch also goes as soon as it holds OTEL_BSP_MAX_EXPORT_BATCH_SIZE spans"`
	MaxBatch          *Limit `env:"OTEL_BSP_MAX_EXPORT_BATCH_SIZE" default:"512" help:"most spans one export carries; a batch that large goes before the delay is up; 1 to OTEL_BSP_MAX_QUEUE_SIZE"`
	MaxQueue          *Limit `env:"OTEL_BSP_MAX_QUEUE_SIZE" default:"2048" help:"most sampled spans held, waiting or being exported, 1 to 1048576; a span ending while this many are held is dropped and counted in the log"`
	MetricsEnabled    *Bool  `env:"METRICS_ENABLED" default:"false" help:"serve Prometheus metrics (requests, duration, errors by code, in-flight requests, persisted-query and document-cache hits, open subscriptions)"`
	MetricsPath       string `env:"METRICS_PATH" default:"/metrics" help:"path of the Prometheus metrics"`
	MetricsAddr       string `env:"METRICS_ADDR" default:"unset: the API's listener" help:"host:port of a listener of its own for the metrics (such as :9464), so they are not public beside the API"`
	MaxOpNames        *Limit `env:"METRICS_MAX_OPERATION_NAMES" default:"100" help:"distinct graphql_operation_name values kept; known operations (the safelist, persisted-query hits) keep their names up to it, every other name is counted as other; names are cut to 64 bytes"`
}
