package main

import (
	"context"
	"log/slog"
	"os"
	"testing"

	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/ceiling"
	"github.com/graftgql/graft/bench/servers"
	"github.com/graftgql/graft/bench/workload"
)

// TestSoloGraftServes builds graft alone (cmd/benchserve with the tags
// solo and solo_graft), serves it as the load generator does, checks its
// answer to q2 byte for byte and reads its memory. It builds a binary, so
// -short skips it.
func TestSoloGraftServes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a server binary; skipped with -short")
	}
	ctx := context.Background()
	dir, err := benchModuleDir(ctx)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := servers.Lookup("graft")
	if !ok {
		t.Fatal("no graft server")
	}
	bins, err := buildSolo(ctx, slog.New(slog.DiscardHandler), dir, t.TempDir(), goServers([]servers.Server{g}), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	all, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	solo, err1 := os.Stat(bins["graft"])
	big, err2 := os.Stat(all)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	// This test binary links every server, as `bench` does.
	if solo.Size() >= big.Size() {
		t.Errorf("graft's solo binary is %d bytes, not smaller than one with every server (%d)", solo.Size(), big.Size())
	}
	c, err := startChild(g, bins["graft"], -1, "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.stop()
	if c.exe() != bins["graft"] {
		t.Errorf("runs %s, want %s", c.exe(), bins["graft"])
	}
	want, err := ceiling.Expected(data.Shared())
	if err != nil {
		t.Fatal(err)
	}
	q2 := workload.Queries()[1]
	if err := checkedFetch(c.addr, request(c.addr, servers.Path, q2.Body()), q2, want[q2.Base], g.Check); err != nil {
		t.Fatal(err)
	}
	mem, err := c.memory()
	if err != nil {
		t.Fatal(err)
	}
	if mem.anon <= 0 || mem.anon >= mem.rss {
		t.Errorf("anon %d of rss %d: want 0 < anon < rss", mem.anon, mem.rss)
	}
}
