package gqlgen

import (
	"context"
	"strings"
	"testing"
	"time"

	gqlgraphql "github.com/99designs/gqlgen/graphql"
)

type (
	eventResolver struct{}
	eventQuery    struct{}
	Event         struct {
		Name string
		At   time.Time
	}
)

func (eventResolver) Query() eventQuery { return eventQuery{} }
func (eventQuery) After(ctx context.Context, t time.Time) ([]*Event, error) {
	var out []*Event
	for _, e := range []*Event{
		{"launch", time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)},
		{"review", time.Date(2025, 6, 30, 8, 30, 0, 0, time.UTC)},
	} {
		if e.At.After(t) {
			out = append(out, e)
		}
	}
	return out, nil
}

// TestFunctionScalar binds a custom scalar through gqlgen's function-style
// marshalling, MarshalTime and UnmarshalTime, given to Load with Scalar:
// time.Time is not named as the scalar and has no gqlgen methods.
func TestFunctionScalar(t *testing.T) {
	cfg := project(t, "schema: graph/*.graphqls\nmodels:\n  Time:\n    model: github.com/99designs/gqlgen/graphql.Time\n",
		"scalar Time\n\ntype Query {\n  after(t: Time!): [Event!]!\n}\n\ntype Event {\n  name: String!\n  at: Time!\n}\n")
	c := serveProject(t, cfg, eventResolver{}, Scalar("Time", gqlgraphql.MarshalTime, gqlgraphql.UnmarshalTime))
	resp := c.Do(t, `{ after(t: "2025-01-01T00:00:00Z") { name at } }`, nil)
	if want := `{"data":{"after":[{"name":"review","at":"2025-06-30T08:30:00Z"}]}}`; string(resp.Body) != want {
		t.Errorf("got %s, want %s", resp.Body, want)
	}
	resp = c.Do(t, `query($t: Time!) { after(t: $t) { name } }`, map[string]any{"t": "2023-12-31T23:00:00+01:00"})
	if want := `{"data":{"after":[{"name":"launch"},{"name":"review"}]}}`; string(resp.Body) != want {
		t.Errorf("got %s, want %s", resp.Body, want)
	}
	resp = c.Do(t, `query($t: Time!) { after(t: $t) { name } }`, map[string]any{"t": "yesterday"})
	if resp.Status != 400 || !strings.Contains(string(resp.Body), `yesterday`) {
		t.Errorf("got %d %s", resp.Status, resp.Body)
	}
}

// TestFunctionScalarMissing shows the mismatch Build reports when the
// scalar's functions are not given.
func TestFunctionScalarMissing(t *testing.T) {
	cfg := project(t, "schema: graph/*.graphqls\n",
		"scalar Time\n\ntype Query {\n  after(t: Time!): [Event!]!\n}\n\ntype Event {\n  name: String!\n  at: Time!\n}\n")
	p, err := Load(cfg, eventResolver{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Build(); err == nil || !strings.Contains(err.Error(), "custom scalar Time has no Go type") {
		t.Errorf("Build: %v, want an error naming the scalar Time", err)
	}
}
