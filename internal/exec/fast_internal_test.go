package exec

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	graftschema "github.com/graftgql/graft/schema"
)

// Plain data for the fast writer: every field below the root is a struct
// field, so the fast writer writes it unless it has to give up.

type fastColor string

type fastKid struct {
	ID   graftschema.ID
	N    int
	Big  int64
	P    *int
	Must *int `type:"Int!"`
	Tags []string
	All  []string `type:"[String!]!"`
}

type fastTree struct {
	Name  string
	Esc   string
	N     int
	F     float64
	B     bool
	C     fastColor
	P     *string
	Q     *string `type:"String!"`
	Ns    []int
	Kids  []fastKid
	KidPs []*fastKid
	Grid  [][]int
	Pair  [2]string
	Maybe []string `type:"[String!]"`
}

type fastArgs struct{ I int }

func fastTrees() []fastTree {
	s, one := "s", 1
	good := fastTree{
		Name: "good", Esc: "a\"b\\c\nd\te\u2028f\x01g\xffh é", N: 7, F: 1.5, B: true, C: "RED",
		P: &s, Q: &s, Ns: []int{1, 2, 3},
		Kids:  []fastKid{{ID: "k1", N: 1, Big: 5, P: &one, Must: &one, Tags: []string{"x", "y\"z\u2028", ""}, All: []string{"a"}}, {ID: "k2", N: 999, Must: &one}, {ID: "k7", N: 1000, Must: &one}, {ID: "k8", N: -5, Must: &one}},
		KidPs: []*fastKid{{ID: "k3", Must: &one}, nil},
		Grid:  [][]int{{1, 2}, {}, nil},
		Pair:  [2]string{"l", "r"},
	}
	bigN := good
	bigN.N = int(math.MaxInt32 + one64) // past Int's range where int is 64 bits wide
	bigKid := good
	bigKid.Kids = []fastKid{good.Kids[0], {ID: "k9", Big: math.MinInt32 - 1, Must: &one}}
	nullMust := good
	nullMust.KidPs = []*fastKid{{ID: "k4"}, {ID: "k5", Must: &one}}
	nullQ := good
	nullQ.Q = nil
	badEnum := good
	badEnum.C = "PURPLE"
	nan := good
	nan.F = math.NaN()
	nullKidInList := good
	nullKidInList.Kids = []fastKid{{ID: "k6"}}
	return []fastTree{good, bigN, bigKid, nullMust, nullQ, badEnum, nan, nullKidInList}
}

func fastEngine(t *testing.T, opts Options) *Engine {
	t.Helper()
	b := graftschema.New()
	graftschema.Enum(b, "Color", []graftschema.EnumValueDef[fastColor]{{Name: "RED", Value: "RED"}, {Name: "BLUE", Value: "BLUE"}})
	graftschema.Object[fastKid](b, "Kid")
	graftschema.Object[fastTree](b, "Tree")
	trees := fastTrees()
	graftschema.Query(b, "tree", func(_ context.Context, a fastArgs) (*fastTree, error) {
		return &trees[a.I], nil
	})
	graftschema.QueryNoArgs(b, "trees", func(context.Context) ([]fastTree, error) { return trees, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return New(s, opts)
}

// clearFast turns the fast writer off for the plans below op.
func clearFast(op *objectPlan, seen map[*objectPlan]bool) {
	if seen[op] {
		return
	}
	seen[op] = true
	op.fast, op.table = false, nil
	for _, f := range op.fields {
		f.fast = false
		if f.sub == nil {
			continue
		}
		if f.sub.object != nil {
			clearFast(f.sub.object, seen)
		}
		for _, o := range f.sub.byType {
			clearFast(o, seen)
		}
	}
}

// TestFastWriterMatchesGeneralWriter runs queries over plain data, whose
// values cover each case the fast writer gives up on (an Int outside 32
// bits, a null at a non-null position, an undeclared enum value, NaN), with
// the fast writer and with it turned off: the answers must be the same,
// byte for byte.
func TestFastWriterMatchesGeneralWriter(t *testing.T) {
	const all = `name esc n f b c p q ns kids { id n big p must tags } kidPs { id must __typename } grid pair maybe`
	queries := []string{
		`{ trees { ` + all + ` } }`,
		`query($i: Int!) { tree(i: $i) { ` + all + ` } }`,
		`query($i: Int!, $y: Boolean!) { tree(i: $i) { a: name b: name @include(if: $y) kids { id @skip(if: $y) big must } ...F } }
		 fragment F on Tree { kidPs { ... on Kid { must p } } n }`,
		`{ trees { kids { big } } t: trees { q } }`,
		`{ trees { __typename aliasLongerThanTheKey: name kids { __typename tags all id } pair c maybe } }`,
	}
	for _, max := range []int{0, 300, 2000} {
		fast, slow := fastEngine(t, Options{MaxResponseBytes: max}), fastEngine(t, Options{MaxResponseBytes: max})
		for _, q := range queries {
			for i := range fastTrees() {
				for _, y := range []bool{true, false} {
					vars := map[string]any{"i": i, "y": y}
					got := fastRun(t, fast, q, vars, false)
					want := fastRun(t, slow, q, vars, true)
					if got != want {
						t.Errorf("max %d, %s with %v:\nfast    %s\ngeneral %s", max, q, vars, got, want)
					}
				}
			}
		}
	}
}

// fastOperation prepares query and returns its one operation.
func fastOperation(t *testing.T, e *Engine, query string) *Operation {
	t.Helper()
	doc, errs := e.Prepare(query)
	if errs != nil {
		t.Fatal(errs)
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		t.Fatal(gerr)
	}
	return op
}

func fastRun(t *testing.T, e *Engine, query string, vars map[string]any, general bool) string {
	t.Helper()
	op := fastOperation(t, e, query)
	if general {
		clearFast(op.root.object, map[*objectPlan]bool{})
	}
	coerced, verrs := e.CoerceVariables(op, vars)
	if verrs != nil {
		t.Fatal(verrs)
	}
	return string(e.Execute(context.Background(), op, coerced, nil, nil))
}

// TestFastWriterAnswers checks answers of the fast writer and of the
// general writer after the fast one gave up.
func TestFastWriterAnswers(t *testing.T) {
	e := fastEngine(t, Options{})
	for _, tc := range []struct {
		i    int
		q    string
		want string
	}{
		{0, `{ name esc ns grid pair maybe p kidPs { id __typename } }`,
			`{"data":{"tree":{"name":"good","esc":"a\"b\\c\nd\te\u2028f\u0001g\ufffdh é","ns":[1,2,3],"grid":[[1,2],[],[]],` +
				`"pair":["l","r"],"maybe":null,"p":"s","kidPs":[{"id":"k3","__typename":"Kid"},null]}}}`},
		{1, `{ name n }`,
			`{"errors":[{"message":"Int cannot represent non 32-bit signed integer value: 2147483648","locations":[{"line":1,"column":38}],"path":["tree","n"]}],"data":{"tree":null}}`},
		{2, `{ kids { id big } }`,
			`{"errors":[{"message":"Int cannot represent non 32-bit signed integer value: -2147483649","locations":[{"line":1,"column":43}],"path":["tree","kids",1,"big"]}],"data":{"tree":null}}`},
		{3, `{ kidPs { id must } }`,
			`{"errors":[{"message":"Cannot return null for non-nullable field Kid.must.","locations":[{"line":1,"column":44}],"path":["tree","kidPs",0,"must"]}],` +
				`"data":{"tree":{"kidPs":[null,{"id":"k5","must":1}]}}}`},
	} {
		q := `query($i: Int!) { tree(i: $i) ` + tc.q + ` }`
		if got := fastRun(t, e, q, map[string]any{"i": tc.i}, false); got != tc.want {
			t.Errorf("tree %d %s:\n got %s\nwant %s", tc.i, tc.q, got, tc.want)
		}
	}
	if got := fastRun(t, fastEngine(t, Options{MaxResponseBytes: 100}), `{ trees { name esc } }`, nil, false); !strings.Contains(got, `"code":"RESPONSE_TOO_LARGE"`) {
		t.Errorf("budget: got %s", got)
	}
}

// TestFastTable: an object plan gets a table of its fields for the fast
// writer's tight loop unless a field has conditions or a key of more than
// 16 bytes.
func TestFastTable(t *testing.T) {
	e := fastEngine(t, Options{})
	for _, tc := range []struct {
		q     string
		table bool
	}{
		{`{ trees { __typename name kids { id } } }`, true},
		{`{ trees { n name @include(if: $y) } }`, false},
		{`{ trees { n aliasLongerThanTheKey: name } }`, false},
	} {
		q := tc.q
		if strings.Contains(q, "$y") {
			q = `query($y: Boolean = true) ` + q
		}
		tree := fastOperation(t, e, q).root.object.fields[0].sub.object
		if got := tree.table != nil; got != tc.table {
			t.Errorf("%s: table %v, want %v", tc.q, got, tc.table)
		}
		if tc.table && string(tree.table[0].key[:tree.table[0].keyLen]) != `{"__typename":` {
			t.Errorf("%s: first key %q", tc.q, tree.table[0].key[:tree.table[0].keyLen])
		}
	}
}

func TestSmallInts(t *testing.T) {
	for v, d := range smallInts {
		if got, want := string(d[:d[3]]), strconv.Itoa(v); got != want {
			t.Errorf("smallInts[%d] = %q, want %q", v, got, want)
		}
	}
}

func TestAppendInt(t *testing.T) {
	for _, v := range []int{0, 1, 9, 10, 42, 99, 100, 101, 999, 1000, 12345, -1, -999, math.MaxInt32, math.MinInt32, math.MaxInt, math.MinInt} {
		if got, want := string(appendInt([]byte("x"), v)), "x"+strconv.Itoa(v); got != want {
			t.Errorf("appendInt(%d) = %s, want %s", v, got, want)
		}
	}
}

// TestFastWriterKeepsMiddleware: a middleware on a plain field deep in
// plain data still wraps every occurrence of it.
func TestFastWriterKeepsMiddleware(t *testing.T) {
	calls := 0
	e := fastEngine(t, Options{Middleware: func(typeName, fieldName string) Middleware {
		if typeName != "Kid" || fieldName != "n" {
			return nil
		}
		return func(ctx context.Context, call *FieldCall, next Next) (any, error) {
			calls++
			return next(ctx)
		}
	}})
	got := fastRun(t, e, `{ trees { kids { id n } } }`, nil, false)
	want := fastRun(t, fastEngine(t, Options{}), `{ trees { kids { id n } } }`, nil, false)
	kids := 0
	for _, tr := range fastTrees() {
		kids += len(tr.Kids)
	}
	if got != want || calls != kids {
		t.Errorf("got %s with %d middleware calls\nwant %s with %d", got, calls, want, kids)
	}
}

// one64 is 1, as a variable: an int past Int's range is then no
// constant, which would not compile where int is 32 bits wide.
var one64 int64 = 1
