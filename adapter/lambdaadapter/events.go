package lambdaadapter

import (
	"context"
	"net/http"
	"strings"

	"github.com/aws/aws-lambda-go/events"

	"github.com/graftgql/graft"
	"github.com/graftgql/graft/internal/httpapi"
)

// serveREST serves an API Gateway REST API (payload 1.0) event.
func serveREST(ctx context.Context, router *graft.Router, limit int64, e *events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error) {
	h := make(http.Header, len(e.Headers))
	for k, v := range e.Headers {
		h.Set(k, v)
	}
	for k, vs := range e.MultiValueHeaders {
		h[http.CanonicalHeaderKey(k)] = vs
	}
	raw := &httpapi.RawRequest{
		Method:   e.HTTPMethod,
		Path:     e.Path,
		RawQuery: queryString(e.MultiValueQueryStringParameters, e.QueryStringParameters),
		Header:   h.Get,
		Remote:   e.RequestContext.Identity.SourceIP,
	}
	resp, err := run(ctx, router, limit, raw, e.Body, e.IsBase64Encoded)
	if err != nil {
		return events.APIGatewayProxyResponse{}, err
	}
	header, cookies := responseHeader(resp)
	for _, c := range cookies {
		header.Add("Set-Cookie", c)
	}
	out := events.APIGatewayProxyResponse{StatusCode: resp.Status}
	out.Body, out.IsBase64Encoded = encodeBody(resp.Body)
	// API Gateway merges headers and multiValueHeaders; send one of them.
	multi := false
	for _, v := range header {
		multi = multi || len(v) > 1
	}
	if multi {
		out.MultiValueHeaders = header
	} else {
		out.Headers = joined(header)
	}
	return out, nil
}

// v2Request fills a RawRequest from the fields payload 2.0 events share.
func v2Request(method, path, rawQuery, sourceIP string, headers map[string]string, cookies []string) *httpapi.RawRequest {
	h := make(http.Header, len(headers)+1)
	for k, v := range headers {
		h.Set(k, v)
	}
	if len(cookies) > 0 {
		h.Set("Cookie", strings.Join(cookies, "; "))
	}
	return &httpapi.RawRequest{Method: method, Path: path, RawQuery: rawQuery, Header: h.Get, Remote: sourceIP}
}

// serveHTTPAPI serves an API Gateway HTTP API (payload 2.0) event. A
// named stage's prefix is removed from the path, so the router sees the
// same path on every stage.
func serveHTTPAPI(ctx context.Context, router *graft.Router, limit int64, e *events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	path := e.RawPath
	if st := e.RequestContext.Stage; st != "" && st != "$default" {
		if rest, ok := strings.CutPrefix(path, "/"+st); ok && (rest == "" || rest[0] == '/') {
			path = rest
		}
	}
	raw := v2Request(e.RequestContext.HTTP.Method, path, e.RawQueryString, e.RequestContext.HTTP.SourceIP, e.Headers, e.Cookies)
	resp, err := run(ctx, router, limit, raw, e.Body, e.IsBase64Encoded)
	if err != nil {
		return events.APIGatewayV2HTTPResponse{}, err
	}
	header, cookies := responseHeader(resp)
	out := events.APIGatewayV2HTTPResponse{StatusCode: resp.Status, Headers: joined(header), Cookies: cookies}
	out.Body, out.IsBase64Encoded = encodeBody(resp.Body)
	return out, nil
}

// serveFunctionURL serves a Lambda function URL event.
func serveFunctionURL(ctx context.Context, router *graft.Router, limit int64, e *events.LambdaFunctionURLRequest) (events.LambdaFunctionURLResponse, error) {
	raw := v2Request(e.RequestContext.HTTP.Method, e.RawPath, e.RawQueryString, e.RequestContext.HTTP.SourceIP, e.Headers, e.Cookies)
	resp, err := run(ctx, router, limit, raw, e.Body, e.IsBase64Encoded)
	if err != nil {
		return events.LambdaFunctionURLResponse{}, err
	}
	header, cookies := responseHeader(resp)
	out := events.LambdaFunctionURLResponse{StatusCode: resp.Status, Headers: joined(header), Cookies: cookies}
	out.Body, out.IsBase64Encoded = encodeBody(resp.Body)
	return out, nil
}
