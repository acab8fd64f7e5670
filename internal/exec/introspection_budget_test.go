package exec_test

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/graftgql/graft/examples/starwars"
	"github.com/graftgql/graft/internal/exec"
	"github.com/graftgql/graft/internal/gqlerr"
)

// introResponse is the part of a response the introspection bound tests
// read.
type introResponse struct {
	Data   map[string]json.RawMessage
	Errors []struct {
		Path       []any
		Extensions map[string]any
	}
}

func starwarsEngine(t *testing.T, opts exec.Options) *exec.Engine {
	t.Helper()
	s, err := starwars.Schema()
	if err != nil {
		t.Fatal(err)
	}
	return exec.New(s, opts)
}

func readFanOut(t *testing.T, levels string) string {
	t.Helper()
	b, err := os.ReadFile("../../limits/testdata/introspection_fanout" + levels + ".graphql")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func decodeIntro(t *testing.T, body string) introResponse {
	t.Helper()
	var resp introResponse
	if err := json.Unmarshal([]byte(body), &resp); err != nil {
		t.Fatalf("response is not JSON: %v\n%.300s", err, body)
	}
	return resp
}

// TestIntrospectionResponseBudget: the introspection writer stops at
// MaxResponseBytes as ordinary fields do: one RESPONSE_TOO_LARGE error at
// the path where it stopped, and null in the nearest nullable position
// (the root for the non-null __schema, the field for __type).
func TestIntrospectionResponseBudget(t *testing.T) {
	const budget = 64 << 10
	e := starwarsEngine(t, exec.Options{MaxResponseBytes: budget})
	for _, levels := range []string{"2", "3"} {
		t.Run(levels+" levels", func(t *testing.T) {
			body := run(t, context.Background(), e, readFanOut(t, levels), "", nil)
			if len(body) > budget+(4<<10) {
				t.Fatalf("response of %d bytes passed the budget of %d", len(body), budget)
			}
			resp := decodeIntro(t, body)
			if resp.Data != nil || len(resp.Errors) != 1 || resp.Errors[0].Extensions["code"] != gqlerr.ResponseTooLarge {
				t.Fatalf("got data %v errors %+v, want data null and one %s", resp.Data, resp.Errors, gqlerr.ResponseTooLarge)
			}
			if p := resp.Errors[0].Path; len(p) < 3 || p[0] != "__schema" {
				t.Errorf("error path %v, want one inside __schema", p)
			}
		})
	}
	t.Run("nullable introspection fields become null", func(t *testing.T) {
		query := `{ hero { name } __type(name: "Query") {`
		for i := range 30 {
			query += " f" + strconv.Itoa(i) + `: fields { name description args { name type { name } } type { name kind ofType { name } } }`
		}
		query += " } }"
		body := run(t, context.Background(), starwarsEngine(t, exec.Options{MaxResponseBytes: 1 << 10}), query, "", nil)
		resp := decodeIntro(t, body)
		if len(body) > 2<<10 || !strings.Contains(body, `"f29":null`) || string(resp.Data["hero"]) != `{"name":"R2-D2"}` ||
			len(resp.Errors) != 1 || resp.Errors[0].Extensions["code"] != gqlerr.ResponseTooLarge {
			t.Fatalf("got %s", body)
		}
	})
}

// TestIntrospectionCancelled: introspection honours the request's
// context like resolvers do, and an answer cut short is not cached for
// the next request.
func TestIntrospectionCancelled(t *testing.T) {
	e := starwarsEngine(t, exec.Options{})
	doc, errs := e.Prepare(`{ __schema { types { name fields { name } } } }`)
	if errs != nil {
		t.Fatal(errs)
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		t.Fatal(gerr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	resp := decodeIntro(t, string(e.Execute(ctx, op, nil, nil, nil)))
	if resp.Data != nil || len(resp.Errors) != 1 || resp.Errors[0].Extensions["code"] != gqlerr.RequestCancelled {
		t.Fatalf("cancelled: got data %v errors %+v, want data null and one %s", resp.Data, resp.Errors, gqlerr.RequestCancelled)
	}
	for i := range 2 {
		body := string(e.Execute(context.Background(), op, nil, nil, nil))
		if resp := decodeIntro(t, body); resp.Errors != nil || !strings.Contains(body, `"name":"Droid"`) {
			t.Fatalf("run %d after the cancelled one: %.300s", i, body)
		}
	}
}
