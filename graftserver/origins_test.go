package graftserver

import (
	"slices"
	"testing"
)

func TestOriginPatterns(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{nil, []string{"*"}},
		{[]string{"*"}, []string{"*"}},
		{[]string{"https://app.example.com", "http://*.example.org"}, []string{"app.example.com", "*.example.org"}},
	}
	for _, tt := range tests {
		if got := originPatterns(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("originPatterns(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
