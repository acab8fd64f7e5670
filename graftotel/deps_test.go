package graftotel_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/graftgql/graft/internal/testenv"
)

// TestSDKStaysInOtel checks that the OpenTelemetry SDK and the
// Prometheus client reach only graftotel, graftserver (and the packages
// internal to it) and cmd/graft: every
// other package of the module (the library a user imports) builds
// without them.
func TestSDKStaysInOtel(t *testing.T) {
	goBin := testenv.LookPath(t, "go")
	// One line per package: its path, its name, then every package it
	// depends on (what go list -deps prints for it).
	out, err := exec.Command(goBin, "list", "-f", `{{.ImportPath}} {{.Name}} {{join .Deps " "}}`, "github.com/graftgql/graft/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		switch p := fields[0]; {
		case p == "github.com/graftgql/graft/graftotel", p == "github.com/graftgql/graft/graftserver",
			strings.HasPrefix(p, "github.com/graftgql/graft/graftserver/internal/"), // graftserver's own pieces
			fields[1] == "main": // programs, such as cmd/graft and services built on graftserver
			continue
		default:
			checked++
			for _, d := range fields[2:] {
				if strings.HasPrefix(d, "go.opentelemetry.io/") || strings.Contains(d, "prometheus") {
					t.Errorf("%s depends on %s: only graftotel, graftserver and programs may use the OpenTelemetry SDK or Prometheus", p, d)
					break
				}
			}
		}
	}
	if checked < 10 {
		t.Fatalf("go list listed only %d packages:\n%s", checked, out)
	}
}
