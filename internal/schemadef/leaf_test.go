package schemadef_test

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	schema "github.com/graftgql/graft/internal/schemadef"
)

type Money struct{ Cents int64 }

func (m Money) MarshalGraphQL() (any, error) {
	if m.Cents < 0 {
		return nil, errNegative
	}
	return float64(m.Cents) / 100, nil
}

func (m *Money) UnmarshalGraphQL(v any) error {
	f, ok := v.(float64)
	if !ok {
		return errNegative
	}
	m.Cents = int64(math.Round(f * 100))
	return nil
}

var errNegative = &negativeError{}

type negativeError struct{}

func (*negativeError) Error() string { return "money cannot be negative" }

type Leaves struct {
	S     string
	I     int
	I64   int64
	U64   uint64
	I8    int8
	F     float64
	F32   float32
	B     bool
	ID    schema.ID
	IntID int `type:"ID!"`
	T     time.Time
	C     Color
	M     Money
	Blob  string `type:"String"`
}

func leavesSchema(t *testing.T) *schema.Schema {
	t.Helper()
	b := schema.New()
	schema.Enum(b, "Color", []schema.EnumValueDef[Color]{{Name: "RED", Value: Red}, {Name: "GREEN", Value: Green}})
	schema.Scalar[Money](b, "Money", schema.Description("An amount."), schema.SpecifiedBy("https://example.com/money"))
	schema.QueryNoArgs(b, "leaves", func(context.Context) (Leaves, error) { return Leaves{}, nil })
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLeafWriters(t *testing.T) {
	s := leavesSchema(t)
	lt := s.Type("Leaves")
	v := Leaves{
		S: "a\"b", I: 42, I64: -7, U64: 9, I8: -8, F: 2.5, F32: 0.25, B: true, ID: "x1", IntID: 17,
		T: time.Date(2024, 1, 2, 3, 4, 5, 600, time.FixedZone("", 3600)), C: Green, M: Money{Cents: 1999},
	}
	tests := []struct {
		field  string
		mutate func(*Leaves)
		want   string
		errSub string
		wide   bool // needs an int wider than 32 bits
	}{
		{field: "s", want: `"a\"b"`},
		{field: "i", want: `42`},
		{field: "i", mutate: func(l *Leaves) { l.I = math.MaxInt32 }, want: `2147483647`},
		{field: "i", mutate: func(l *Leaves) { l.I = math.MinInt32 }, want: `-2147483648`},
		{field: "i", mutate: func(l *Leaves) { l.I = int(math.MaxInt32 + one64) }, errSub: "non 32-bit", wide: true},
		{field: "i64", mutate: func(l *Leaves) { l.I64 = math.MinInt32 - 1 }, errSub: "non 32-bit"},
		{field: "u64", mutate: func(l *Leaves) { l.U64 = math.MaxUint32 }, errSub: "non 32-bit"},
		{field: "u64", want: `9`},
		{field: "i8", want: `-8`},
		{field: "f", want: `2.5`},
		{field: "f", mutate: func(l *Leaves) { l.F = 1e21 }, want: `1e+21`},
		{field: "f", mutate: func(l *Leaves) { l.F = 1e-7 }, want: `1e-7`},
		{field: "f", mutate: func(l *Leaves) { l.F = math.NaN() }, errSub: "non-numeric"},
		{field: "f32", want: `0.25`},
		{field: "b", want: `true`},
		{field: "id", want: `"x1"`},
		{field: "intId", want: `"17"`},
		{field: "t", want: `"2024-01-02T03:04:05.0000006+01:00"`},
		{field: "c", want: `"GREEN"`},
		{field: "c", mutate: func(l *Leaves) { l.C = "blue" }, errSub: "enum Color cannot represent value blue"},
		{field: "m", want: `19.99`},
		{field: "m", mutate: func(l *Leaves) { l.M.Cents = -1 }, errSub: "negative"},
	}
	for _, tt := range tests {
		t.Run(tt.field+" "+tt.want+tt.errSub, func(t *testing.T) {
			if tt.wide && strconv.IntSize < 64 {
				t.Skip("an int is 32 bits wide here")
			}
			l := v
			if tt.mutate != nil {
				tt.mutate(&l)
			}
			f := lt.Field(tt.field)
			if f == nil {
				t.Fatalf("no field %s", tt.field)
			}
			out := f.Out
			got, err := out.WriteLeaf(nil, unsafe.Add(unsafe.Pointer(&l), f.Offset))
			if tt.errSub != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errSub) {
					t.Fatalf("error = %v, want one containing %q", err, tt.errSub)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("wrote %s, want %s", got, tt.want)
			}
		})
	}
}

func TestLeafWritersDoNotAllocate(t *testing.T) {
	s := leavesSchema(t)
	lt := s.Type("Leaves")
	l := Leaves{S: "plain text", I: 5, F: 1.5, B: true, ID: "id", C: Red}
	buf := make([]byte, 0, 1024)
	for _, name := range []string{"s", "i", "f", "b", "id", "c"} {
		f := lt.Field(name)
		p := unsafe.Add(unsafe.Pointer(&l), f.Offset)
		allocs := testing.AllocsPerRun(100, func() {
			buf, _ = f.Out.WriteLeaf(buf[:0], p)
		})
		if allocs != 0 {
			t.Errorf("writing %s allocates %.1f times", name, allocs)
		}
	}
}

func TestCustomScalar(t *testing.T) {
	s := leavesSchema(t)
	m := s.Type("Money")
	if m.Kind != schema.ScalarKind || m.Description != "An amount." || m.SpecifiedByURL != "https://example.com/money" {
		t.Errorf("Money = %+v", m)
	}
	if !strings.Contains(s.SDL(), `scalar Money @specifiedBy(url: "https://example.com/money")`) {
		t.Errorf("SDL:\n%s", s.SDL())
	}
	b := schema.New()
	schema.Scalar[Money](b, "Money")
	schema.Query(b, "double", func(_ context.Context, a struct{ Amount Money }) (Money, error) {
		return Money{Cents: 2 * a.Amount.Cents}, nil
	})
	s2, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	f := s2.Query.Field("double")
	p, err := f.NewArgs(map[string]any{"amount": 1.25})
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.Resolve(context.Background(), nil, p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Out.WriteLeaf(nil, out)
	if err != nil || string(got) != "2.5" {
		t.Errorf("double(1.25) = %s, %v", got, err)
	}
	if _, err := f.NewArgs(map[string]any{"amount": "lots"}); err == nil {
		t.Errorf("an unmarshal failure should be an error")
	}
}

// one64 is 1, as a variable: an int past Int's range is then no
// constant, which would not compile where int is 32 bits wide.
var one64 int64 = 1
