package exec

import (
	"testing"

	"github.com/graftgql/graft/internal/gqlerr"
)

func TestOverResponseBudget(t *testing.T) {
	e := &Engine{maxErrors: defaultMaxErrors, maxResponse: DefaultMaxResponseBytes}
	tests := []struct {
		name     string
		size     int
		want     bool
		wantErrs int
	}{
		{name: "under the bound", size: 1 << 10, want: false, wantErrs: 0},
		{name: "at the bound", size: DefaultMaxResponseBytes, want: false, wantErrs: 0},
		{name: "over the bound", size: DefaultMaxResponseBytes + 1, want: true, wantErrs: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &request{e: e, limit: e.maxResponse, buf: make([]byte, tc.size), path: []pathElem{{key: "hero", index: -1}}}
			for i := 0; i < 3; i++ {
				if got := r.overResponseBudget(nil); got != tc.want {
					t.Fatalf("call %d: over = %v, want %v", i, got, tc.want)
				}
			}
			if len(r.errs) != tc.wantErrs {
				t.Fatalf("%d errors recorded, want %d", len(r.errs), tc.wantErrs)
			}
			if tc.wantErrs > 0 {
				ge := r.errs[0]
				if ge.Extensions["code"] != gqlerr.ResponseTooLarge || len(ge.Path) != 1 {
					t.Fatalf("error = %+v", ge)
				}
			}
		})
	}
}
