// Package lambdaadapter serves a graft router on AWS Lambda behind API Gateway
// REST APIs (payload 1.0), HTTP APIs (payload 2.0) and Lambda function
// URLs. One handler accepts all three: it tells them apart by the shape of
// the event, runs the router's pipeline, and answers with the matching
// response type from github.com/aws/aws-lambda-go/events.
//
//	lambda.Start(lambdaadapter.Handler(router))
package lambdaadapter

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/dispatch"
	"github.com/graftgql/graft/internal/httpapi"
)

// HandlerFunc is the function Handler returns, in the form lambda.Start
// accepts. Its result is an events.APIGatewayProxyResponse,
// events.APIGatewayV2HTTPResponse or events.LambdaFunctionURLResponse,
// matching the event.
type HandlerFunc func(ctx context.Context, event json.RawMessage) (any, error)

// ErrUnknownEvent is returned for an event that is neither an API Gateway
// nor a function URL HTTP event.
var ErrUnknownEvent = errors.New("graft lambda: event is not an API Gateway or function URL HTTP request")

// Handler returns the Lambda handler for the router. The router's layer is
// started by the first invocation, as Lambda has no start-up hook, and
// lives as long as the execution environment; while it cannot start,
// requests answer 503 SERVICE_UNAVAILABLE and later invocations retry. An
// error is returned to Lambda only for an unknown event shape or a body
// that is not valid base64; everything else is an HTTP response.
//
// File uploads (a router whose schema uses schema.Upload) work within
// Lambda's own bounds: the whole body arrives inside the event, and a
// synchronous invocation's payload is at most 6 MB, so no upload is
// larger than that, whatever the router's Config.Uploads allows; the
// router's limits then apply to it as on any host.
func Handler(router *graft.Router) HandlerFunc {
	starter := graft.NewWebHandler(router)
	limit := router.Config().MaxBodyBytes
	return func(ctx context.Context, event json.RawMessage) (any, error) {
		var shape struct {
			Version        string `json:"version"`
			HTTPMethod     string `json:"httpMethod"`
			RequestContext struct {
				DomainName string `json:"domainName"`
				HTTP       struct {
					Method string `json:"method"`
				} `json:"http"`
			} `json:"requestContext"`
		}
		if err := json.Unmarshal(event, &shape); err != nil {
			return nil, fmt.Errorf("graft lambda: decode event: %w", err)
		}
		// A layer that cannot start is answered 503 SERVICE_UNAVAILABLE
		// by the router, like every transport, and retried by later
		// invocations.
		_ = starter.Start(ctx)
		switch {
		case shape.HTTPMethod != "":
			var e events.APIGatewayProxyRequest
			if err := json.Unmarshal(event, &e); err != nil {
				return nil, fmt.Errorf("graft lambda: decode REST API event: %w", err)
			}
			return serveREST(ctx, router, limit, &e)
		case shape.RequestContext.HTTP.Method != "" && isFunctionURL(shape.RequestContext.DomainName):
			var e events.LambdaFunctionURLRequest
			if err := json.Unmarshal(event, &e); err != nil {
				return nil, fmt.Errorf("graft lambda: decode function URL event: %w", err)
			}
			return serveFunctionURL(ctx, router, limit, &e)
		case shape.RequestContext.HTTP.Method != "":
			var e events.APIGatewayV2HTTPRequest
			if err := json.Unmarshal(event, &e); err != nil {
				return nil, fmt.Errorf("graft lambda: decode HTTP API event: %w", err)
			}
			return serveHTTPAPI(ctx, router, limit, &e)
		}
		return nil, ErrUnknownEvent
	}
}

// isFunctionURL reports whether a request context's domain is a Lambda
// function URL (<url-id>.lambda-url.<region>.on.aws).
func isFunctionURL(domain string) bool {
	return strings.Contains(domain, ".lambda-url.")
}

// run decodes the body, applies the limit and runs the pipeline.
func run(ctx context.Context, router *graft.Router, limit int64, raw *httpapi.RawRequest, body string, b64 bool) (*httpapi.Response, error) {
	if b64 {
		decoded, err := base64.StdEncoding.DecodeString(body)
		if err != nil {
			return nil, fmt.Errorf("graft lambda: body is not valid base64: %w", err)
		}
		raw.Body = decoded
	} else if body != "" {
		raw.Body = []byte(body)
	}
	raw.ContentType = raw.Header("Content-Type")
	raw.Accept = raw.Header("Accept")
	resp := &httpapi.Response{}
	// A multipart upload is read within the router's Config.Uploads, not
	// MaxBodyBytes; Lambda itself delivers the whole body in the event
	// (6 MB for a synchronous invocation), so its files never exceed that.
	if dispatch.Upload(ctx, router, raw, bytes.NewReader(raw.Body), int64(len(raw.Body)), resp) {
		return resp, nil
	}
	if int64(len(raw.Body)) > limit {
		// Refused through the router's door: hooks and the access log
		// see it.
		raw.Body, raw.Refusal = nil, httpapi.BodyTooLarge(limit)
	}
	dispatch.Into(ctx, router, raw, resp)
	return resp, nil
}

// encodeBody returns the response body as Lambda carries it: text as is,
// anything else base64-encoded.
func encodeBody(b []byte) (string, bool) {
	if utf8.Valid(b) {
		return string(b), false
	}
	return base64.StdEncoding.EncodeToString(b), true
}

// responseHeader returns the response headers with Set-Cookie split off.
func responseHeader(resp *httpapi.Response) (h http.Header, cookies []string) {
	h = make(http.Header, len(resp.Header)+3)
	for k, v := range resp.Header {
		h[http.CanonicalHeaderKey(k)] = v
	}
	if resp.ContentType != "" {
		h.Set("Content-Type", resp.ContentType)
	}
	cookies = h.Values("Set-Cookie")
	h.Del("Set-Cookie")
	return h, cookies
}

// joined returns the headers with multiple values joined by ", ", as
// payload 2.0 responses carry them.
func joined(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[k] = strings.Join(v, ", ")
	}
	return out
}

// queryString encodes API Gateway's decoded query parameters, preferring
// the multi-value form.
func queryString(multi map[string][]string, single map[string]string) string {
	if len(multi) > 0 {
		return url.Values(multi).Encode()
	}
	v := make(url.Values, len(single))
	for k, s := range single {
		v.Set(k, s)
	}
	return v.Encode()
}
