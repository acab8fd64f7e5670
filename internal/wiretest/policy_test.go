package wiretest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/graftgql/graft"
)

// TestPolicies runs every case of wire.json over net/http under each
// status-code policy, expecting the case's status for that policy
// (statusByPolicy, else its default status): each policy's table as a
// test. The transports' own tests run the default policy.
func TestPolicies(t *testing.T) {
	for _, p := range []graft.StatusCodes{graft.StatusCodesApollo, graft.StatusCodesSpec, graft.StatusCodesLegacy} {
		t.Run(string(p), func(t *testing.T) {
			plain := httptest.NewServer(RouterWith(t, p))
			defer plain.Close()
			protected := httptest.NewServer(ProtectedRouterWith(t, p))
			defer protected.Close()
			for _, c := range Cases() {
				c = c.Under(p)
				t.Run(c.Name, func(t *testing.T) {
					srv := plain
					if c.Protected {
						srv = protected
					}
					req, err := http.NewRequest(c.Method, srv.URL+c.Path, strings.NewReader(c.Body))
					if err != nil {
						t.Fatal(err)
					}
					for k, v := range c.Header {
						req.Header.Set(k, v)
					}
					resp, err := srv.Client().Do(req)
					if err != nil {
						t.Fatal(err)
					}
					body, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if os.Getenv("WIRETEST_DUMP") != "" && resp.StatusCode != c.Want {
						t.Logf("DUMP %s\t%s\t%d", p, c.Name, resp.StatusCode)
					}
					Check(t, c, Result{Status: resp.StatusCode, Header: resp.Header, Body: body})
				})
			}
		})
	}
}
