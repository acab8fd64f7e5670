package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client calls the upstream service at a base URL over keep-alive
// connections, enough of them for every request a server under load may
// have in flight.
type Client struct {
	base string
	hc   *http.Client
}

// NewClient returns a client of the service at base, e.g.
// "http://127.0.0.1:8081".
func NewClient(base string) *Client {
	t := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:        4096,
		MaxIdleConnsPerHost: 4096,
		IdleConnTimeout:     90 * time.Second,
	}
	return &Client{base: strings.TrimRight(base, "/"), hc: &http.Client{Transport: t, Timeout: 30 * time.Second}}
}

// Base returns the service's base URL.
func (c *Client) Base() string { return c.base }

// maxAnswer bounds the body Get reads.
const maxAnswer = 64 << 20

// Get calls path with the query q and returns the body of a 200 answer.
func (c *Client) Get(ctx context.Context, path string, q url.Values) ([]byte, error) {
	u := c.base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("upstream: %w", err)
	}
	defer res.Body.Close()
	var b []byte
	if n := res.ContentLength; n >= 0 && n <= maxAnswer {
		// The service sends Content-Length: one buffer of that size,
		// rather than io.ReadAll's doubling (twice the bytes allocated,
		// zeroed and copied for a large answer).
		b = make([]byte, n)
		_, err = io.ReadFull(res.Body, b)
	} else {
		b, err = io.ReadAll(io.LimitReader(res.Body, maxAnswer+1))
		if err == nil && len(b) > maxAnswer {
			err = fmt.Errorf("%s: answer over %d bytes", path, maxAnswer)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("upstream: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("upstream: %s: status %d", path, res.StatusCode)
	}
	return b, nil
}

// AuthorsQuery is the query of GET /authors?first=N.
func AuthorsQuery(first int) url.Values { return url.Values{"first": {strconv.Itoa(first)}} }

// AuthorsByIDQuery is the query of GET /authors?id=...
func AuthorsByIDQuery(ids []string) url.Values { return url.Values{"id": ids} }

// PostsQuery is the query of GET /posts?author=...&first=K.
func PostsQuery(authors []string, first int) url.Values {
	return url.Values{"author": authors, "first": {strconv.Itoa(first)}}
}

// UsersQuery is the query of GET /tc/users?id=...
func UsersQuery(ids []int) url.Values {
	v := make([]string, len(ids))
	for i, id := range ids {
		v[i] = strconv.Itoa(id)
	}
	return url.Values{"id": v}
}

// GetJSON calls path with q and decodes the answer into dst with
// encoding/json.
func (c *Client) GetJSON(ctx context.Context, path string, q url.Values, dst any) error {
	b, err := c.Get(ctx, path, q)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return fmt.Errorf("upstream: %s: %w", path, err)
	}
	return nil
}

// Calls returns the service's call counter.
func (c *Client) Calls(ctx context.Context) (int64, error) {
	var s struct {
		Calls int64 `json:"calls"`
	}
	err := c.GetJSON(ctx, "/stats", nil, &s)
	return s.Calls, err
}

// Reset sets the service's call counter to 0.
func (c *Client) Reset(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/stats/reset", nil)
	if err != nil {
		return err
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("upstream: reset: status %d", res.StatusCode)
	}
	return nil
}
