package scalars_test

import (
	"testing"
	"time"

	"github.com/graftgql/graft/scalars"
)

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"PT0S": 0, "PT1H30M": 90 * time.Minute, "P1W": 7 * 24 * time.Hour, "P2DT3H": 51 * time.Hour,
		"PT0.5S": 500 * time.Millisecond, "PT1,5S": 1500 * time.Millisecond, "-PT2H": -2 * time.Hour, "+PT1M": time.Minute,
		"PT1.5H": 90 * time.Minute,
	} {
		got, err := scalars.ParseDuration(in)
		if err != nil || time.Duration(got) != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, time.Duration(got), err, want)
		}
	}
	for _, in := range []string{"", "P", "PT", "1H", "PT1H2", "PT1M1H", "P1DT", "PT1.5H1M", "P1Y", "P1M", "PT-1H", "P200000W", "P1H", "PT1D"} {
		if _, err := scalars.ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) succeeded", in)
		}
	}
}
