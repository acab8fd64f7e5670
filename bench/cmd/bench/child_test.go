package main

import (
	"os"
	"testing"
)

func TestProcReadings(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system")
	}
	pid := os.Getpid()
	before, err := procCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	// Burn CPU until the reading grows, within a bounded amount of work.
	x, after := 0, before
	for round := 0; round < 1000 && after <= before; round++ {
		for i := 0; i < 1_000_000; i++ {
			x += i ^ (x >> 3)
		}
		if after, err = procCPU(pid); err != nil {
			t.Fatal(err)
		}
	}
	if after <= before {
		t.Errorf("CPU time did not grow: %v then %v (x=%d)", before, after, x)
	}
	mem, err := procMemory(pid)
	if err != nil {
		t.Fatal(err)
	}
	if mem.rss <= 0 || mem.hwm < mem.rss || mem.anon <= 0 || mem.anon > mem.rss {
		t.Errorf("rss %d, hwm %d, anon %d: want 0 < anon <= rss <= hwm", mem.rss, mem.hwm, mem.anon)
	}
	if _, err := procCPU(-1); err == nil {
		t.Error("no error for a missing process")
	}
}
