package main

import (
	"os"
	"syscall"
	"testing"
	"time"
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
	for _, pid := range []int{-1, 0} {
		if _, err := procCPU(pid); err == nil {
			t.Errorf("no error for process %d", pid)
		}
	}
}

// TestProcessClock: the clock procCPU reads first is this process's CPU
// time to the nanosecond, as getrusage counts it, and finer than the clock
// ticks of /proc stat.
func TestProcessClock(t *testing.T) {
	pid := os.Getpid()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	clock, err := processClock(pid)
	if err != nil {
		t.Fatal(err)
	}
	var after syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &after); err != nil {
		t.Fatal(err)
	}
	lo := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	hi := time.Duration(after.Utime.Nano() + after.Stime.Nano())
	// getrusage rounds to microseconds; allow for that and a little work in between.
	if clock < lo-time.Millisecond || clock > hi+time.Millisecond {
		t.Errorf("process clock %v, getrusage %v..%v", clock, lo, hi)
	}
	if clock%time.Millisecond == 0 {
		t.Errorf("process clock %v looks like clock ticks", clock)
	}
	if d, err := procCPU(pid); err != nil || d < clock {
		t.Errorf("procCPU = %v, %v; want at least %v", d, err, clock)
	}
}
