package lambdaadapter_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	awslambda "github.com/aws/aws-lambda-go/lambda"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/adapter/lambdaadapter"
	"github.com/graftgql/graft/internal/wiretest"
)

// result is the part of every Lambda HTTP response type the tests read.
type result struct {
	kind    string
	status  int
	headers map[string]string
	body    string
	b64     bool
}

func toResult(t *testing.T, out any) result {
	t.Helper()
	switch r := out.(type) {
	case events.APIGatewayProxyResponse:
		h := r.Headers
		if h == nil {
			h = map[string]string{}
			for k, v := range r.MultiValueHeaders {
				h[k] = strings.Join(v, ", ")
			}
		}
		return result{"rest", r.StatusCode, h, r.Body, r.IsBase64Encoded}
	case events.APIGatewayV2HTTPResponse:
		return result{"httpapi", r.StatusCode, r.Headers, r.Body, r.IsBase64Encoded}
	case events.LambdaFunctionURLResponse:
		return result{"url", r.StatusCode, r.Headers, r.Body, r.IsBase64Encoded}
	}
	t.Fatalf("unexpected response type %T", out)
	return result{}
}

// invoke marshals the handler's answer to JSON and back, as the Lambda
// runtime does, so that what API Gateway would read is what is checked.
// newHandler is the one place the tests build the adapter over a router.
func newHandler(r *graft.Router) lambdaadapter.HandlerFunc { return lambdaadapter.Handler(r) }

func invoke(t *testing.T, h lambdaadapter.HandlerFunc, event []byte) result {
	t.Helper()
	out, err := h(context.Background(), event)
	if err != nil {
		t.Fatalf("handler: %v", err)
	}
	wire, err := json.Marshal(out)
	if err != nil {
		t.Fatalf("marshal response: %v", err)
	}
	r := toResult(t, out)
	var back map[string]any
	if err := json.Unmarshal(wire, &back); err != nil || back["statusCode"] == nil {
		t.Fatalf("response %s does not carry a statusCode", wire)
	}
	return r
}

func TestRealEventPayloads(t *testing.T) {
	tests := []struct {
		file        string
		wantKind    string
		wantStatus  int
		wantBody    string
		wantContent string
	}{
		{"rest-post.json", "rest", 200, `{"data":{"hello":"world","whoami":"ada"}}`, "application/json"},
		{"rest-get-multivalue.json", "rest", 200, `{"data":{"hello":"world"}}`, "application/graphql-response+json"},
		{"httpapi-post-base64.json", "httpapi", 200, `{"data":{"ping":"pong"}}`, "application/json"},
		{"function-url-get.json", "url", 200, `{"data":{"whoami":"linus"}}`, "application/json"},
	}
	h := newHandler(wiretest.Router(t))
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			event, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			r := invoke(t, h, event)
			if r.kind != tt.wantKind {
				t.Errorf("response kind = %s, want %s", r.kind, tt.wantKind)
			}
			if r.status != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %s)", r.status, tt.wantStatus, r.body)
			}
			if r.b64 {
				t.Errorf("JSON body sent base64-encoded")
			}
			if strings.TrimSpace(r.body) != tt.wantBody {
				t.Errorf("body = %s, want %s", r.body, tt.wantBody)
			}
			if !strings.HasPrefix(r.headers["Content-Type"], tt.wantContent) {
				t.Errorf("Content-Type = %q, want %s", r.headers["Content-Type"], tt.wantContent)
			}
		})
	}
}

// TestWireCases runs the shared black-box cases as REST API events and as
// HTTP API events with base64 bodies.
func TestWireCases(t *testing.T) {
	plain := newHandler(wiretest.Router(t))
	protected := newHandler(wiretest.ProtectedRouter(t))
	for _, c := range wiretest.Cases() {
		h := plain
		if c.Protected {
			h = protected
		}
		path, rawQuery, _ := strings.Cut(c.Path, "?")
		t.Run("rest/"+c.Name, func(t *testing.T) {
			q, _ := url.ParseQuery(rawQuery)
			event, _ := json.Marshal(events.APIGatewayProxyRequest{
				HTTPMethod: c.Method, Path: path, Headers: c.Header,
				MultiValueQueryStringParameters: q, Body: c.Body,
			})
			checkWire(t, c, invoke(t, h, event))
		})
		t.Run("httpapi/"+c.Name, func(t *testing.T) {
			headers := map[string]string{}
			for k, v := range c.Header {
				headers[strings.ToLower(k)] = v
			}
			e := events.APIGatewayV2HTTPRequest{
				Version: "2.0", RawPath: "/v1" + path, RawQueryString: rawQuery, Headers: headers,
				Body: base64.StdEncoding.EncodeToString([]byte(c.Body)), IsBase64Encoded: true,
			}
			e.RequestContext.Stage = "v1"
			e.RequestContext.HTTP.Method = c.Method
			event, _ := json.Marshal(e)
			checkWire(t, c, invoke(t, h, event))
		})
	}
}

func checkWire(t *testing.T, c wiretest.Case, r result) {
	t.Helper()
	header := http.Header{}
	for k, v := range r.headers {
		header.Set(k, v)
	}
	wiretest.Check(t, c, wiretest.Result{Status: r.status, Header: header, Body: []byte(r.body)})
}

func TestBadEvents(t *testing.T) {
	tests := []struct {
		name    string
		event   string
		wantErr error
	}{
		{"not JSON", `{`, nil},
		{"not an HTTP event", `{"Records":[{"eventSource":"aws:sqs"}]}`, lambdaadapter.ErrUnknownEvent},
		{"invalid base64 body", `{"httpMethod":"POST","path":"/graphql","body":"%%%","isBase64Encoded":true}`, nil},
	}
	h := newHandler(wiretest.Router(t))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := h(context.Background(), json.RawMessage(tt.event))
			if err == nil {
				t.Fatal("handler accepted a bad event")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestLayerStartsOnFirstInvocation(t *testing.T) {
	layer := graft.NewLayer()
	builds := 0
	graft.Provide(layer, func(context.Context) (int, func(context.Context) error, error) {
		builds++
		return builds, nil, nil
	})
	router, err := graft.NewRouter(wiretest.Schema(t), layer, graft.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h := lambdaadapter.Handler(router)
	if builds != 0 {
		t.Fatalf("layer built before the first invocation")
	}
	event, _ := os.ReadFile(filepath.Join("testdata", "rest-post.json"))
	for range 3 {
		if r := invoke(t, h, event); r.status != 200 {
			t.Fatalf("status = %d (body %s)", r.status, r.body)
		}
	}
	if builds != 1 {
		t.Errorf("layer built %d times over three invocations, want 1", builds)
	}
}

// TestThroughLambdaRuntime passes each event through aws-lambda-go's own
// handler wrapper, which decodes the payload and encodes the answer as the
// Lambda runtime does.
func TestThroughLambdaRuntime(t *testing.T) {
	tests := []struct {
		file     string
		wantBody string
	}{
		{"rest-post.json", `"whoami":"ada"`},
		{"rest-get-multivalue.json", `"hello":"world"`},
		{"httpapi-post-base64.json", `"ping":"pong"`},
		{"function-url-get.json", `"whoami":"linus"`},
	}
	h := awslambda.NewHandler(newHandler(wiretest.Router(t)))
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			event, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			out, err := h.Invoke(context.Background(), event)
			if err != nil {
				t.Fatalf("Invoke: %v", err)
			}
			var resp struct {
				StatusCode int               `json:"statusCode"`
				Headers    map[string]string `json:"headers"`
				Body       string            `json:"body"`
			}
			if err := json.Unmarshal(out, &resp); err != nil {
				t.Fatalf("response %s: %v", out, err)
			}
			if resp.StatusCode != 200 || !strings.Contains(resp.Body, tt.wantBody) {
				t.Errorf("response = %s, want 200 with %s", out, tt.wantBody)
			}
		})
	}
}
