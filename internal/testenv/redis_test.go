package testenv

import (
	"testing"
)

func TestStartRedis(t *testing.T) {
	addr, srv := StartRedis(t)
	if addr != srv.Addr {
		t.Fatalf("addr %q != srv.Addr %q", addr, srv.Addr)
	}
	steps := []struct {
		name   string
		action func()
		up     bool
	}{
		{"started", func() {}, true},
		{"stopped", srv.Stop, false},
		{"started again on the same address", srv.Start, true},
		{"stopped twice is harmless", func() { srv.Stop(); srv.Stop() }, false},
		{"started after a double stop", srv.Start, true},
	}
	for _, st := range steps {
		st.action()
		err := ping(addr)
		if st.up && err != nil {
			t.Fatalf("%s: PING failed: %v", st.name, err)
		}
		if !st.up && err == nil {
			t.Fatalf("%s: PING answered, want the server gone", st.name)
		}
	}
	srv.Pause()
	if err := ping(addr); err == nil {
		t.Fatal("a paused server answered PING")
	}
	srv.Resume()
	if err := ping(addr); err != nil {
		t.Fatalf("after Resume: %v", err)
	}
	srv.Pause() // Cleanup must stop a paused server too.
}
