package graft_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/coder/websocket"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/adapter/fasthttpadapter"
	"github.com/graftgql/graft/adapter/lambdaadapter"
	graftotel "github.com/graftgql/graft/graftotel"
	"github.com/graftgql/graft/schema"
)

// The transport contract: one table of cases run over every entry of the
// pipeline, with a hook, the access log and the metrics installed. Every
// answer, refusals included, produces one access-log line, one
// PhaseAnswered per hook, one measured request and an X-Request-ID (where
// the transport has headers); resolvers reach the layer's services and
// the request's information on every transport.

type contractTick struct {
	N int `json:"n"`
}

type contractTicksArgs struct {
	N int
}

// contractProbe is what the probe field answers: what a resolver sees of
// its request, or the error that kept it from seeing it.
func contractProbe(ctx context.Context) (string, error) {
	g, err := graft.Service[*greeter](ctx)
	if err != nil {
		return "", fmt.Errorf("service: %w", err)
	}
	info := graft.RequestInfoFrom(ctx)
	if info == nil {
		return "", errors.New("no request info")
	}
	return fmt.Sprintf("%s id=%t method=%s remote=%t", g.greeting, info.RequestID != "", info.Method, info.RemoteAddr != ""), nil
}

func contractSchema(t testing.TB) *schema.Schema {
	t.Helper()
	b := schema.New()
	tick := schema.Object[contractTick](b, "Tick")
	schema.FieldFuncNoArgs(tick, "probe", func(ctx context.Context, _ *contractTick) (string, error) { return contractProbe(ctx) })
	schema.QueryNoArgs(b, "probe", contractProbe)
	schema.QueryNoArgs(b, "cachedProbe", contractProbe, schema.CacheControl(60, ""))
	schema.Mutation(b, "upload", func(ctx context.Context, a struct{ File schema.Upload }) (string, error) {
		return contractProbe(ctx)
	})
	schema.QueryNoArgs(b, "fail", func(ctx context.Context) (*string, error) {
		return nil, &graft.Error{Message: "no", Code: "FAILED_ON_PURPOSE", Details: map[string]any{"limit": 5}}
	})
	schema.Subscription(b, "ticks", func(ctx context.Context, a contractTicksArgs) (<-chan contractTick, error) {
		ch := make(chan contractTick)
		go func() {
			defer close(ch)
			for i := 1; i <= a.N; i++ {
				select {
				case ch <- contractTick{N: i}:
				case <-ctx.Done():
					return
				}
			}
		}()
		return ch, nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// answered is one PhaseAnswered a hook saw.
type answered struct {
	status    int
	requestID string
	codes     []string
	item      int
}

// contractLimiter refuses with 429 and Retry-After a request carrying
// X-Test-Limit, as a rate limiter would, or X-Test-Limit-Any, which it
// asks for in lower case: RequestInfo.Header answers a name in any case.
// For a request carrying X-Test-Done it calls SkipRequest at
// PhaseReceived, and refuses with 500 should it be called again.
var contractLimiter = graft.HookFuncs{BeforeFunc: func(ctx context.Context, ev *graft.HookEvent) error {
	if ev.Request.Header("X-Test-Done") != "" {
		if ev.Phase == graft.PhaseReceived {
			ev.SkipRequest()
			return nil
		}
		return &graft.Refusal{Status: http.StatusInternalServerError, Err: graft.NewError("CALLED_AFTER_SKIP_REQUEST", ev.Phase.String())}
	}
	if ev.Phase == graft.PhaseReceived && (ev.Request.Header("X-Test-Limit") != "" || ev.Request.Header("x-test-limit-any") != "") {
		return &graft.Refusal{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"7"}},
			Err: graft.NewError("RATE_LIMITED", "Slow down")}
	}
	return nil
}}

// contractHook records the answers and payloads it sees.
type contractHook struct {
	mu       sync.Mutex
	answers  []answered
	payloads int
}

func (h *contractHook) Before(ctx context.Context, ev *graft.HookEvent) (context.Context, error) {
	return nil, nil
}

func (h *contractHook) After(ctx context.Context, ev *graft.HookEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch ev.Phase {
	case graft.PhasePayload:
		h.payloads++
	case graft.PhaseAnswered:
		h.answers = append(h.answers, answered{status: ev.Status, requestID: ev.Request.RequestID,
			codes: append([]string(nil), ev.ErrorCodes...), item: ev.Request.BatchItem})
	}
}

// phasedContractHook is a contractHook that names the phases it
// observes (graft.HookPhases): it must see the same answers and payloads.
type phasedContractHook struct{ contractHook }

func (*phasedContractHook) Phases() []graft.Phase {
	return []graft.Phase{graft.PhasePayload, graft.PhaseAnswered}
}

// logLines collects access-log records.
type logLines struct {
	mu    sync.Mutex
	lines []map[string]any
}

func (l *logLines) Enabled(context.Context, slog.Level) bool { return true }
func (l *logLines) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logLines) WithGroup(string) slog.Handler            { return l }
func (l *logLines) Handle(_ context.Context, rec slog.Record) error {
	m := map[string]any{}
	rec.Attrs(func(a slog.Attr) bool { m[a.Key] = a.Value.Any(); return true })
	l.mu.Lock()
	l.lines = append(l.lines, m)
	l.mu.Unlock()
	return nil
}

// contractFixture is a router with the hook, the access log and the
// metrics installed.
type contractFixture struct {
	router *graft.Router
	hook   *contractHook
	phased *phasedContractHook
	log    *logLines
	reader *sdkmetric.ManualReader
	// uncounted is the answers measured besides the case's own (an event
	// stream's reservation).
	uncounted int64
}

// contractOptions vary the fixture for a case.
type contractOptions struct {
	failingLayer bool // the layer's services cannot start: 503
}

func newContractFixture(t *testing.T, o contractOptions) *contractFixture {
	t.Helper()
	f := &contractFixture{hook: &contractHook{}, phased: &phasedContractHook{}, log: &logLines{}, reader: sdkmetric.NewManualReader()}
	in, err := graftotel.New(graftotel.Options{MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(f.reader)), NoTracing: true})
	if err != nil {
		t.Fatal(err)
	}
	l := graft.NewLayer()
	graft.ProvideValue(l, &greeter{greeting: "hi"})
	if o.failingLayer {
		graft.Provide(l, func(context.Context) (*unprovided, func(context.Context) error, error) {
			return nil, nil, errors.New("database down")
		})
	}
	cfg := graft.Config{
		Logger:       quietLogger,
		AccessLog:    slog.New(f.log),
		Hooks:        []graft.Hook{contractLimiter, f.hook, f.phased},
		CSRF:         &graft.CSRFConfig{},
		MaxBodyBytes: 2048,
		MaxBatch:     4,
		Uploads:      graft.UploadConfig{MaxFileBytes: 1000},
		Auth: func(ctx context.Context, r *graft.AuthRequest) (context.Context, error) {
			if r.Header("Authorization") == "deny" {
				return nil, errors.New("bad token")
			}
			return ctx, nil
		},
	}
	in.Install(&cfg)
	if f.router, err = graft.NewRouter(contractSchema(t), l, cfg); err != nil {
		t.Fatal(err)
	}
	return f
}

// measured returns the requests the metrics counted.
func (f *contractFixture) measured(t *testing.T) int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := f.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if sum, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == "graphql.server.requests" {
				for _, dp := range sum.DataPoints {
					n += dp.Value
				}
			}
		}
	}
	return n - f.uncounted
}

// contractRequest is a case's request as HTTP sends it.
type contractRequest struct {
	method, path string
	header       map[string]string
	body         string
}

// contractResult is what a transport got back: the HTTP status and
// headers (zero for transports without them) and the GraphQL results
// (one per payload).
type contractResult struct {
	status   int
	header   http.Header
	payloads []string
}

type contractCase struct {
	name string
	req  contractRequest
	opts contractOptions
	// status is the answer's status as hooks and the access log see it;
	// code the first error's code ("" for a successful answer).
	status int
	code   string
	// payloads is the number of results a streaming transport sends for
	// a subscription (the probe must succeed in each).
	payloads int
	// http marks a case only HTTP can send (a body over the limit, a bad
	// Accept, a path): Execute and WebSocket skip it; accept marks one
	// that sets Accept itself, which the streaming transports skip.
	http, accept bool
	// subscription marks the case of a subscription.
	subscription bool
	// cache is the Cache-Control a transport with per-request headers
	// answers with ("" for none).
	cache string
}

func contractBody(query string) string {
	b, _ := json.Marshal(map[string]any{"query": query})
	return string(b)
}

var jsonPost = map[string]string{"Content-Type": "application/json"}

func withHeader(h map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

var contractCases = []contractCase{
	{name: "query", req: contractRequest{"POST", "/graphql", jsonPost, contractBody(`{ probe }`)}, status: 200},
	{name: "resolver error", req: contractRequest{"POST", "/graphql", jsonPost, contractBody(`{ fail }`)}, status: 200, code: "FAILED_ON_PURPOSE"},
	{name: "subscription", req: contractRequest{"POST", "/graphql", jsonPost, contractBody(`subscription { ticks(n: 2) { probe } }`)},
		status: 200, payloads: 2, subscription: true},
	{name: "parse error", req: contractRequest{"POST", "/graphql", jsonPost, contractBody(`{ probe`)}, status: 400, code: "GRAPHQL_PARSE_FAILED"},
	{name: "bad JSON", req: contractRequest{"POST", "/graphql", jsonPost, `{"query":`}, status: 400, code: "BAD_REQUEST", http: true},
	{name: "CSRF", req: contractRequest{"POST", "/graphql", map[string]string{"Content-Type": "text/plain"}, contractBody(`{ probe }`)},
		status: 400, code: "CSRF_PREVENTION_BLOCKED", http: true},
	{name: "Auth 401", req: contractRequest{"POST", "/graphql", withHeader(jsonPost, "Authorization", "deny"), contractBody(`{ probe }`)},
		status: 401, code: "UNAUTHENTICATED"},
	{name: "404", req: contractRequest{"GET", "/nope", nil, ""}, status: 404, code: "BAD_REQUEST", http: true},
	{name: "406", req: contractRequest{"POST", "/graphql", withHeader(jsonPost, "Accept", "image/png"), contractBody(`{ probe }`)},
		status: 406, code: "NOT_ACCEPTABLE", http: true, accept: true},
	{name: "413", req: contractRequest{"POST", "/graphql", jsonPost, contractBody(`{ probe }` + strings.Repeat(" ", 3000))},
		status: 413, code: "PAYLOAD_TOO_LARGE", http: true},
	{name: "414", req: contractRequest{"GET", "/graphql?query=" + url.QueryEscape(`{ probe }`+strings.Repeat(" ", 3000)), map[string]string{"Apollo-Require-Preflight": "1"}, ""},
		status: 414, code: "BAD_REQUEST", http: true},
	{name: "415", req: contractRequest{"POST", "/graphql", map[string]string{"Content-Type": "application/xml", "Apollo-Require-Preflight": "1"}, "<q/>"},
		status: 415, code: "BAD_REQUEST", http: true},
	{name: "cache hint", req: contractRequest{"GET", "/graphql?query=" + url.QueryEscape(`{ probe: cachedProbe }`), map[string]string{"Apollo-Require-Preflight": "1"}, ""},
		status: 200, http: true, cache: "public, max-age=60"},
	{name: "503 layer", req: contractRequest{"POST", "/graphql", jsonPost, contractBody(`{ probe }`)}, opts: contractOptions{failingLayer: true},
		status: 503, code: "SERVICE_UNAVAILABLE"},
	{name: "hook 429", req: contractRequest{"POST", "/graphql", withHeader(jsonPost, "X-Test-Limit", "1"), contractBody(`{ probe }`)},
		status: 429, code: "RATE_LIMITED"},
	{name: "hook 429, header asked in lower case", req: contractRequest{"POST", "/graphql", withHeader(jsonPost, "X-Test-Limit-Any", "1"), contractBody(`{ probe }`)},
		status: 429, code: "RATE_LIMITED"},
	{name: "hook done with the request at PhaseReceived", req: contractRequest{"POST", "/graphql", withHeader(jsonPost, "X-Test-Done", "1"), contractBody(`{ probe }`)},
		status: 200},
	// File uploads (multipart requests) pass the same door on every HTTP
	// host. Their answer is JSON, so the streaming transports, which ask
	// for a stream alone, skip them (accept).
	{name: "upload", req: uploadRequest(10, "graphql-preflight", "1"), status: 200, http: true, accept: true},
	{name: "upload over the file limit", req: uploadRequest(1001, "graphql-preflight", "1"), status: 413, code: "UPLOAD_FILE_TOO_LARGE", http: true, accept: true},
	{name: "upload without a preflight header", req: uploadRequest(10), status: 400, code: "CSRF_PREVENTION_BLOCKED", http: true, accept: true},
}

// uploadRequest is a multipart request whose one file of size bytes goes
// to the upload mutation (aliased probe), with the given headers.
func uploadRequest(size int, header ...string) contractRequest {
	const boundary = "contract-boundary"
	body := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n" +
		`{"query":"mutation($f: Upload!) { probe: upload(file: $f) }","variables":{"f":null}}` +
		"\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"map\"\r\n\r\n" + `{"0":["variables.f"]}` +
		"\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"0\"; filename=\"f.txt\"\r\nContent-Type: text/plain\r\n\r\n" +
		strings.Repeat("x", size) + "\r\n--" + boundary + "--\r\n"
	return contractRequest{"POST", "/graphql", withHeader(map[string]string{"Content-Type": "multipart/form-data; boundary=" + boundary}, header...), body}
}

// contractTransport sends a case's request over one entry of the
// pipeline. streaming transports serve subscriptions.
type contractTransport struct {
	name      string
	streaming bool
	// headers: the transport answers with HTTP headers (X-Request-ID);
	// remote: resolvers see a client address.
	headers, remote bool
	// skip reports cases the transport cannot express.
	skip func(c contractCase) bool
	send func(t *testing.T, f *contractFixture, c contractCase) contractResult
}

func TestTransportContract(t *testing.T) {
	for _, tr := range contractTransports() {
		t.Run(tr.name, func(t *testing.T) {
			for _, c := range contractCases {
				if tr.skip != nil && tr.skip(c) {
					continue
				}
				t.Run(c.name, func(t *testing.T) { checkContract(t, tr, c) })
			}
		})
	}
}

func checkContract(t *testing.T, tr contractTransport, c contractCase) {
	f := newContractFixture(t, c.opts)
	res := tr.send(t, f, c)
	status, code, payloads := c.status, c.code, c.payloads
	if c.subscription && !tr.streaming {
		status, code, payloads = 400, "BAD_REQUEST", 0
	}
	if c.subscription && tr.streaming {
		// The answer is complete once the stream has ended: wait for it.
		waitFor(t, func() bool { f.hook.mu.Lock(); defer f.hook.mu.Unlock(); return len(f.hook.answers) > 0 })
	}
	f.hook.mu.Lock()
	answers, seenPayloads := f.hook.answers, f.hook.payloads
	f.hook.mu.Unlock()
	if len(answers) != 1 {
		t.Fatalf("hook saw %d answers %+v, want 1 (result %+v)", len(answers), answers, res)
	}
	a := answers[0]
	if a.status != status || (code == "") != (len(a.codes) == 0) || code != "" && a.codes[0] != code {
		t.Errorf("hook saw status %d codes %v, want %d %q (result %+v)", a.status, a.codes, status, code, res)
	}
	if a.requestID == "" {
		t.Errorf("no request ID")
	}
	if seenPayloads != payloads {
		t.Errorf("hook saw %d payloads, want %d", seenPayloads, payloads)
	}
	f.phased.mu.Lock()
	phasedAnswers, phasedPayloads := f.phased.answers, f.phased.payloads
	f.phased.mu.Unlock()
	if len(phasedAnswers) != 1 || phasedAnswers[0].status != a.status || phasedPayloads != payloads {
		t.Errorf("a hook naming its phases saw answers %+v and %d payloads, want one with status %d and %d payloads",
			phasedAnswers, phasedPayloads, a.status, payloads)
	}
	f.log.mu.Lock()
	lines := f.log.lines
	f.log.mu.Unlock()
	if len(lines) != 1 {
		t.Fatalf("%d access-log lines %v, want 1", len(lines), lines)
	}
	if l := lines[0]; l["status"] != int64(status) || l["request_id"] != a.requestID || l["method"] == "" {
		t.Errorf("access-log line %v, want status %d and request ID %s", l, status, a.requestID)
	}
	if n := f.measured(t); n != 1 {
		t.Errorf("metrics counted %d requests, want 1", n)
	}
	if tr.headers {
		if got := res.header.Get(graft.RequestIDHeader); got != a.requestID {
			t.Errorf("X-Request-ID %q, want %q (headers %v)", got, a.requestID, res.header)
		}
		// A stream is never cached; a one-shot answer carries the hint's.
		ct := res.header.Get("Content-Type")
		stream := strings.HasPrefix(ct, "text/event-stream") || strings.HasPrefix(ct, "multipart/mixed")
		if got := res.header.Get("Cache-Control"); !stream && got != c.cache || stream && strings.Contains(got, "max-age") {
			t.Errorf("Cache-Control %q, want %q (headers %v)", got, c.cache, res.header)
		}
		if code == "RATE_LIMITED" && res.header.Get("Retry-After") != "7" {
			t.Errorf("Retry-After %q, want 7 (headers %v)", res.header.Get("Retry-After"), res.header)
		}
	}
	if len(res.payloads) != max(payloads, 1) {
		t.Fatalf("%d payloads %q, want %d", len(res.payloads), res.payloads, max(payloads, 1))
	}
	for _, p := range res.payloads {
		var body struct {
			Data   map[string]any `json:"data"`
			Errors []struct {
				Extensions map[string]any `json:"extensions"`
			} `json:"errors"`
		}
		if err := json.Unmarshal([]byte(p), &body); err != nil {
			t.Fatalf("payload %q: %v", p, err)
		}
		if code != "" {
			if len(body.Errors) == 0 || body.Errors[0].Extensions["code"] != code {
				t.Errorf("payload %s, want code %s", p, code)
			}
			continue
		}
		probe := body.Data["probe"]
		if m, ok := body.Data["ticks"].(map[string]any); ok {
			probe = m["probe"]
		}
		want := fmt.Sprintf("hi id=true method=%s remote=%t", requestMethod(tr, c), tr.remote)
		if probe != want {
			t.Errorf("probe %v, want %q (payload %s)", probe, want, p)
		}
	}
}

// requestMethod is the method resolvers see for c over tr.
func requestMethod(tr contractTransport, c contractCase) string {
	if tr.name == "WebSocket" {
		return "GET" // the upgrade's
	}
	return c.req.method
}

// waitFor waits until cond holds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
}

func httpRequest(t *testing.T, base string, c contractRequest, accept string) *http.Request {
	t.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req, err := http.NewRequest(c.method, base+c.path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range c.header {
		req.Header.Set(k, v)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	return req
}

// plainResult reads a one-shot JSON answer.
func plainResult(t *testing.T, resp *http.Response) contractResult {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return contractResult{status: resp.StatusCode, header: resp.Header, payloads: []string{string(b)}}
}

func contractTransports() []contractTransport {
	netHTTP := func(t *testing.T, f *contractFixture, c contractCase) contractResult {
		srv := httptest.NewServer(f.router)
		t.Cleanup(srv.Close)
		resp, err := http.DefaultClient.Do(httpRequest(t, srv.URL, c.req, ""))
		if err != nil {
			t.Fatal(err)
		}
		return plainResult(t, resp)
	}
	notHTTP := func(c contractCase) bool { return c.http }
	return []contractTransport{
		{name: "net/http", headers: true, remote: true, send: netHTTP},
		{name: "fasthttp", headers: true, remote: true, send: func(t *testing.T, f *contractFixture, c contractCase) contractResult {
			ln := fasthttputil.NewInmemoryListener()
			srv := &fasthttp.Server{Handler: fasthttpadapter.Handler(f.router)}
			go func() { _ = srv.Serve(ln) }()
			t.Cleanup(func() { _ = srv.Shutdown() })
			client := &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) { return ln.Dial() }}}
			resp, err := client.Do(httpRequest(t, "http://graft.test", c.req, ""))
			if err != nil {
				t.Fatal(err)
			}
			return plainResult(t, resp)
		}},
		{name: "Lambda", headers: true, remote: true, send: func(t *testing.T, f *contractFixture, c contractCase) contractResult {
			path, query, _ := strings.Cut(c.req.path, "?")
			ev := events.APIGatewayV2HTTPRequest{Version: "2.0", RawPath: path, RawQueryString: query, Headers: c.req.header, Body: c.req.body}
			ev.RequestContext.HTTP.Method, ev.RequestContext.HTTP.Path, ev.RequestContext.HTTP.SourceIP = c.req.method, path, "203.0.113.9"
			event, _ := json.Marshal(ev)
			out, err := lambdaadapter.Handler(f.router)(context.Background(), event)
			if err != nil {
				t.Fatal(err)
			}
			r := out.(events.APIGatewayV2HTTPResponse)
			h := http.Header{}
			for k, v := range r.Headers {
				h.Set(k, v)
			}
			return contractResult{status: r.StatusCode, header: h, payloads: []string{r.Body}}
		}},
		{name: "WebHandler", headers: true, remote: true, send: func(t *testing.T, f *contractFixture, c contractCase) contractResult {
			req := httpRequest(t, "http://graft.test", c.req, "")
			req.RemoteAddr = "203.0.113.9:1234"
			resp, err := graft.NewWebHandler(f.router).Handle(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			return plainResult(t, resp)
		}},
		{name: "Execute", skip: notHTTP, send: func(t *testing.T, f *contractFixture, c contractCase) contractResult {
			var q struct {
				Query string `json:"query"`
			}
			_ = json.Unmarshal([]byte(c.req.body), &q)
			header := http.Header{}
			for k, v := range c.req.header {
				header.Set(k, v)
			}
			status, body := f.router.Execute(context.Background(), graft.Request{Query: q.Query, Header: header.Get})
			return contractResult{status: status, payloads: []string{string(body)}}
		}},
		{name: "SSE", streaming: true, headers: true, remote: true, skip: func(c contractCase) bool { return c.accept },
			send: func(t *testing.T, f *contractFixture, c contractCase) contractResult {
				srv := httptest.NewServer(f.router)
				t.Cleanup(srv.Close)
				resp, err := http.DefaultClient.Do(httpRequest(t, srv.URL, c.req, "text/event-stream"))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
					return plainResult(t, resp)
				}
				defer resp.Body.Close()
				res := contractResult{status: resp.StatusCode, header: resp.Header}
				sc := bufio.NewScanner(resp.Body)
				for sc.Scan() {
					if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && d != "" {
						res.payloads = append(res.payloads, d)
					}
				}
				return res
			}},
		{name: "SSE single connection", streaming: true, headers: true, remote: true, skip: func(c contractCase) bool { return c.http },
			send: sseSingle},
		{name: "multipart", streaming: true, headers: true, remote: true, skip: func(c contractCase) bool { return c.accept },
			send: func(t *testing.T, f *contractFixture, c contractCase) contractResult {
				srv := httptest.NewServer(f.router)
				t.Cleanup(srv.Close)
				resp, err := http.DefaultClient.Do(httpRequest(t, srv.URL, c.req, `multipart/mixed;subscriptionSpec="1.0", application/json`))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(resp.Header.Get("Content-Type"), "multipart/mixed") {
					return plainResult(t, resp)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				res := contractResult{status: resp.StatusCode, header: resp.Header}
				for part := range strings.SplitSeq(string(b), "--graphql") {
					if _, js, ok := strings.Cut(part, "\r\n\r\n"); ok && strings.HasPrefix(js, `{"payload":`) {
						var p struct {
							Payload json.RawMessage `json:"payload"`
						}
						if err := json.Unmarshal([]byte(strings.TrimSpace(js)), &p); err != nil {
							t.Fatalf("part %q: %v", js, err)
						}
						res.payloads = append(res.payloads, string(p.Payload))
					}
				}
				return res
			}},
		{name: "WebSocket", streaming: true, remote: true, skip: notHTTP, send: wsSend},
		{name: "batch item", headers: true, remote: true, skip: func(c contractCase) bool {
			return c.http || c.name == "Auth 401" || c.name == "503 layer" || strings.HasPrefix(c.name, "hook 429")
		},
			send: func(t *testing.T, f *contractFixture, c contractCase) contractResult {
				srv := httptest.NewServer(f.router)
				t.Cleanup(srv.Close)
				req := c.req
				req.body = "[" + req.body + "]"
				res := plainResult(t, must(http.DefaultClient.Do(httpRequest(t, srv.URL, req, ""))))
				var items []json.RawMessage
				if err := json.Unmarshal([]byte(res.payloads[0]), &items); err != nil || len(items) != 1 {
					t.Fatalf("batch answer %s: %v", res.payloads[0], err)
				}
				res.payloads = []string{string(items[0])}
				return res
			}},
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// sseSingle sends a case in graphql-sse's single connection mode: a
// reservation, its stream, and the operation posted on its token. The
// case's answer is the operation's.
func sseSingle(t *testing.T, f *contractFixture, c contractCase) contractResult {
	srv := httptest.NewServer(f.router)
	t.Cleanup(srv.Close)
	// The reservation and the stream are answers of their own, as the
	// operation is: they are taken out of what the hook and the log saw.
	put, _ := http.NewRequest(http.MethodPut, srv.URL+"/graphql", nil)
	res := plainResult(t, must(http.DefaultClient.Do(put)))
	if res.status == http.StatusServiceUnavailable {
		return res // the layer cannot start: the reservation is refused
	}
	if res.status != http.StatusCreated {
		t.Fatalf("reservation %d %s", res.status, res.payloads)
	}
	token := res.payloads[0]
	get, _ := http.NewRequest(http.MethodGet, srv.URL+"/graphql", nil)
	get.Header.Set("X-GraphQL-Event-Stream-Token", token)
	get.Header.Set("Accept", "text/event-stream")
	stream := must(http.DefaultClient.Do(get))
	// The stream is an answer of its own once it ends: it stays open
	// until the case is checked.
	t.Cleanup(func() { stream.Body.Close() })
	br := bufio.NewReader(stream.Body)
	readUntil(t, br, ":\n\n")
	var body map[string]any
	_ = json.Unmarshal([]byte(c.req.body), &body)
	body["extensions"] = map[string]any{"operationId": "op1"}
	b, _ := json.Marshal(body)
	req := c.req
	req.header = withHeader(req.header, "X-GraphQL-Event-Stream-Token", token)
	req.body = string(b)
	resp := must(http.DefaultClient.Do(httpRequest(t, srv.URL, req, "")))
	defer resp.Body.Close()
	out := contractResult{status: resp.StatusCode, header: resp.Header}
	if resp.StatusCode != http.StatusAccepted {
		out = plainResult(t, resp)
	} else {
		for {
			ev := readUntil(t, br, "\n\n")
			if strings.HasPrefix(ev, "event: complete") {
				break
			}
			if d, ok := strings.CutPrefix(ev, "event: next\ndata: "); ok {
				var m struct {
					Payload json.RawMessage `json:"payload"`
				}
				_ = json.Unmarshal([]byte(strings.TrimSpace(d)), &m)
				out.payloads = append(out.payloads, string(m.Payload))
			}
		}
	}
	// Forget the reservation's answer: what remains is the operation's
	// (the stream's answer comes when it ends, after the test).
	for _, h := range []*contractHook{f.hook, &f.phased.contractHook} {
		h.mu.Lock()
		h.answers = dropStatus(h.answers, http.StatusCreated)
		h.mu.Unlock()
	}
	f.log.mu.Lock()
	var kept []map[string]any
	for _, l := range f.log.lines {
		if l["status"] != int64(http.StatusCreated) {
			kept = append(kept, l)
		}
	}
	f.log.lines = kept
	f.log.mu.Unlock()
	// The reservation was measured as well.
	f.uncounted = 1
	return out
}

func dropStatus(as []answered, status int) []answered {
	var out []answered
	for _, a := range as {
		if a.status != status {
			out = append(out, a)
		}
	}
	return out
}

// wsSend sends a case as one operation of a graphql-transport-ws
// connection; Auth's refusal answers the upgrade.
func wsSend(t *testing.T, f *contractFixture, c contractCase) contractResult {
	srv := httptest.NewServer(f.router)
	t.Cleanup(srv.Close)
	header := http.Header{}
	for k, v := range c.req.header {
		if k != "Content-Type" {
			header.Set(k, v)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: header})
	if err != nil {
		if resp == nil {
			t.Fatal(err)
		}
		return plainResult(t, resp)
	}
	defer conn.CloseNow()
	w := &wsClient{t: t, c: conn}
	w.init()
	w.send(`{"id":"1","type":"subscribe","payload":` + c.req.body + `}`)
	var out contractResult
	for {
		var m struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal([]byte(w.read()), &m); err != nil {
			t.Fatal(err)
		}
		switch m.Type {
		case "next":
			out.payloads = append(out.payloads, string(m.Payload))
		case "error":
			out.payloads = append(out.payloads, `{"errors":`+string(m.Payload)+`}`)
			return out
		case "complete":
			return out
		}
	}
}
