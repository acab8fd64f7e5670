package limits

import (
	"os"
	"testing"

	"github.com/graftgql/graft/internal/workload"
)

func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStandardIntrospectionQueries holds the counts the introspection
// budget is chosen from: the queries GraphiQL and Apollo's tools send use
// no alias and fit DefaultMaxIntrospectionFields with room to spare, even
// under the strictest limits for ordinary fields.
func TestStandardIntrospectionQueries(t *testing.T) {
	strict := Config{MaxDepth: 1, MaxComplexity: 1, MaxFields: 1, MaxAliases: 1, MaxDirectives: 1}
	// getIntrospectionQuery with its defaults (what Apollo's tools send) is
	// the workload's q4.
	q4, err := workload.ReadFile("q4.graphql")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, query string
		fields      int
	}{
		{name: "every option (GraphiQL)", query: readFile(t, "testdata/introspection_full.graphql"), fields: 230},
		{name: "defaults (Apollo, workload q4)", query: string(q4), fields: 220},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _, _ := loadWorkload(t, "q2.graphql")
			doc, op := loadQuery(t, s, tt.query)
			got := analyze(s, nil, doc, op, nil)
			if got.Aliases != 0 || got.Fields != 0 || got.IntrospectionFields != tt.fields {
				t.Fatalf("got %+v, want no alias, no ordinary field and %d introspection fields", got, tt.fields)
			}
			if 4*got.IntrospectionFields > DefaultMaxIntrospectionFields {
				t.Errorf("%d introspection fields leave less than 4x room under the default budget %d", got.IntrospectionFields, DefaultMaxIntrospectionFields)
			}
			if err := strict.Check(got); err != nil {
				t.Errorf("refused under strict limits: %v", err)
			}
		})
	}
}

// TestIntrospectionFanOut: aliases inside __schema count toward
// MaxAliases (each expansion of a fragment counted), and the fan-out
// family exceeds the introspection field budget whatever the alias limit.
func TestIntrospectionFanOut(t *testing.T) {
	for _, tt := range []struct {
		file            string
		aliases, fields int
	}{
		{file: "testdata/introspection_fanout2.graphql", aliases: 30 + 30*30, fields: 1 + 30 + 30*30 + 30*30},
		{file: "testdata/introspection_fanout3.graphql", aliases: 30 + 30*30 + 30*30*30, fields: 1 + 30 + 30*30 + 30*30*30},
	} {
		t.Run(tt.file, func(t *testing.T) {
			s, _, _ := loadWorkload(t, "q2.graphql")
			doc, op := loadQuery(t, s, readFile(t, tt.file))
			got := analyze(s, nil, doc, op, nil)
			if got.Aliases != tt.aliases || got.IntrospectionFields != tt.fields {
				t.Fatalf("got %+v, want %d aliases and %d introspection fields", got, tt.aliases, tt.fields)
			}
			err := Config{MaxAliases: 10}.Check(got)
			if err == nil || err.Extensions["limitType"] != LimitAliases || err.Extensions["actual"] != tt.aliases {
				t.Fatalf("MaxAliases 10: got %v, want an aliases error with actual %d", err, tt.aliases)
			}
			err = Config{}.Check(got)
			if err == nil || err.Extensions["limitType"] != LimitIntrospectionFields || err.Extensions["limit"] != DefaultMaxIntrospectionFields {
				t.Fatalf("zero Config: got %v, want an introspectionFields error", err)
			}
			if err := (Config{MaxIntrospectionFields: -1}).Check(got); err != nil {
				t.Fatalf("unlimited introspection fields: got %v", err)
			}
		})
	}
}

// TestAliasedTypename: an aliased __typename adds a response key, so it
// counts as an alias and a field; a plain one stays free.
func TestAliasedTypename(t *testing.T) {
	s, _, _ := loadWorkload(t, "q2.graphql")
	for _, tt := range []struct {
		query           string
		aliases, fields int
	}{
		{query: `{ __typename a: __typename b: __typename }`, aliases: 2, fields: 2},
		{query: `{ __typename __typename: __typename }`, aliases: 0, fields: 0},
		{query: `{ authors(first: 1) { __typename x: __typename } }`, aliases: 1, fields: 2},
		{query: `{ s: __schema { t: __typename } }`, aliases: 2},
	} {
		doc, op := loadQuery(t, s, tt.query)
		got := analyze(s, nil, doc, op, nil)
		if got.Aliases != tt.aliases || got.Fields != tt.fields {
			t.Errorf("%s: got %+v, want %d aliases and %d fields", tt.query, got, tt.aliases, tt.fields)
		}
	}
	var q []byte
	q = append(q, "{ authors(first: 1) { "...)
	for i := range 400 {
		q = append(q, " t"...)
		q = append(q, byte('0'+i/100), byte('0'+i/10%10), byte('0'+i%10))
		q = append(q, ": __typename"...)
	}
	q = append(q, " } }"...)
	doc, op := loadQuery(t, s, string(q))
	err := Config{MaxAliases: 10}.Check(analyze(s, nil, doc, op, nil))
	if err == nil || err.Extensions["limitType"] != LimitAliases || err.Extensions["actual"] != 400 {
		t.Fatalf("400 aliased __typename under MaxAliases 10: got %v", err)
	}
}
