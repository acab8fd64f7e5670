package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/graftgql/graft/bench/servers"
)

// child is one server running as a child process of the load generator.
type child struct {
	name string
	addr string
	cmd  *exec.Cmd
	done chan error
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startChild starts server s as a child process, pinned to cpu when cpu >=
// 0, with GOMAXPROCS=1, and waits until it prints that it is ready: a Go
// server as `BIN -server NAME` when bin is its solo binary (cmd/benchserve
// built for it alone), else as `bench serve -server NAME` from this
// binary; the others with their Command. With profileDir set, a Go child
// writes NAME.cpu.pprof and NAME.allocs.pprof there when it stops.
// upstreamURL is the upstream service's base URL, for upstream servers.
func startChild(s servers.Server, bin string, cpu int, profileDir, upstreamURL string) (*child, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	if s.Command != nil {
		argv, env := s.Command(port, upstreamURL)
		if s.Health != "" {
			return startHealthy(s.Name, argv, env, cpu, port, s.Health)
		}
		return startProcess(s.Name, argv, env, cpu, port)
	}
	args := []string{bin}
	if bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		args = []string{exe, "serve"}
	}
	args = append(args, "-server", s.Name, "-port", strconv.Itoa(port))
	if s.Upstream {
		args = append(args, "-upstream", upstreamURL)
	}
	if profileDir != "" {
		args = append(args, "-cpuprofile", filepath.Join(profileDir, s.Name+".cpu.pprof"),
			"-allocprofile", filepath.Join(profileDir, s.Name+".allocs.pprof"))
	}
	return startProcess(s.Name, args, nil, cpu, port)
}

// startUpstream starts the upstream service, `bench upstream -port N`, as a
// child process pinned to cpu when cpu >= 0.
func startUpstream(cpu int) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	return startProcess("upstream", []string{exe, "upstream", "-port", strconv.Itoa(port)}, nil, cpu, port)
}

// startProcess runs argv with env added to this process's environment and
// GOMAXPROCS=1, pinned to cpu when cpu >= 0, and waits until it prints
// readyLine on stdout.
func startProcess(name string, args, env []string, cpu, port int) (*child, error) {
	if cpu >= 0 {
		args = append([]string{"taskset", "-c", strconv.Itoa(cpu)}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(append(os.Environ(), "GOMAXPROCS=1"), env...)
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	c := &child{name: name, addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), cmd: cmd, done: make(chan error, 1)}
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		signalled := false
		for sc.Scan() {
			if !signalled && strings.TrimSpace(sc.Text()) == readyLine {
				signalled = true
				ready <- true
			}
		}
		if !signalled {
			ready <- false
		}
	}()
	go func() { c.done <- cmd.Wait() }()
	select {
	case ok := <-ready:
		if ok {
			return c, nil
		}
		c.stop()
		return nil, fmt.Errorf("%s exited before it was ready", name)
	case <-time.After(60 * time.Second):
		c.stop()
		return nil, fmt.Errorf("%s not ready after 60s", name)
	}
}

// startHealthy runs argv as startProcess does, but waits until GET path
// answers 200 rather than for the ready line, and reads and discards the
// child's standard error (its logs) as a log collector would.
func startHealthy(name string, args, env []string, cpu, port int, path string) (*child, error) {
	if cpu >= 0 {
		args = append([]string{"taskset", "-c", strconv.Itoa(cpu)}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(append(os.Environ(), "GOMAXPROCS=1"), env...)
	cmd.Stdout = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	logs, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	go func() { _, _ = io.Copy(io.Discard, logs) }()
	c := &child{name: name, addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), cmd: cmd, done: make(chan error, 1)}
	go func() { c.done <- cmd.Wait() }()
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-c.done:
			c.done <- err
			return nil, fmt.Errorf("%s exited before it was ready: %v", name, err)
		default:
		}
		if resp, err := client.Get("http://" + c.addr + path); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return c, nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.stop()
	return nil, fmt.Errorf("%s not ready after 60s", name)
}

// stop ends the child with SIGTERM, then SIGKILL if it lingers.
func (c *child) stop() {
	if c.cmd.Process == nil {
		return
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done
	}
}

// cpuTime is the child's user plus system CPU time so far.
func (c *child) cpuTime() (time.Duration, error) { return procCPU(c.cmd.Process.Pid) }

// memory returns the child's resident set now.
func (c *child) memory() (memReading, error) { return procMemory(c.cmd.Process.Pid) }

// exe is the executable the child runs, after taskset: the path of its
// first argument, or "" when that is not a file (a command found on PATH).
func (c *child) exe() string {
	for i, a := range c.cmd.Args {
		if a == "taskset" && i+3 < len(c.cmd.Args) {
			return c.cmd.Args[i+3]
		}
	}
	if len(c.cmd.Args) > 0 {
		return c.cmd.Args[0]
	}
	return ""
}

// procCPU is the user plus system CPU time of process pid so far: its
// process CPU clock (nanoseconds, every thread, exited ones included), or
// utime and stime from /proc/PID/stat (clock ticks, 10 ms on most systems)
// where that clock cannot be read.
func procCPU(pid int) (time.Duration, error) {
	if d, err := processClock(pid); err == nil {
		return d, nil
	}
	return procStatCPU(pid)
}

// processClock reads the CPU-time clock of process pid (clock_getcpuclockid
// without the libc: the kernel's CPUCLOCK_SCHED clock of the thread group).
func processClock(pid int) (time.Duration, error) {
	if pid <= 0 {
		// ^0 and ^-1 would name this process's own clock.
		return 0, fmt.Errorf("no process %d", pid)
	}
	const cpuclockSched = 2
	id := int(^uint(pid))<<3 | cpuclockSched
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(id), uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, e
	}
	return time.Duration(ts.Nano()), nil
}

// procStatCPU is utime plus stime of process pid from /proc/PID/stat.
func procStatCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces; fields after it follow ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("malformed /proc stat")
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(ut+st) * time.Second / time.Duration(clockTicks), nil
}

// memReading is a process's resident memory in bytes, from /proc/PID/status.
type memReading struct {
	// rss is the resident set (VmRSS), hwm its peak so far (VmHWM).
	rss, hwm int64
	// anon is the anonymous part of rss (RssAnon): heap, stacks and the
	// runtime's own memory, what the server itself holds. The rest is
	// mostly pages of the executable file (RssFile).
	anon int64
}

// procMemory reads the resident memory of process pid.
func procMemory(pid int) (memReading, error) {
	var m memReading
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return m, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		var dst *int64
		switch k {
		case "VmRSS":
			dst = &m.rss
		case "VmHWM":
			dst = &m.hwm
		case "RssAnon":
			dst = &m.anon
		default:
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return memReading{}, err
		}
		*dst = kb << 10
	}
	return m, nil
}

// clockTicks is USER_HZ, the unit of utime and stime in /proc stat.
var clockTicks = func() int64 {
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64); err == nil && n > 0 {
			return n
		}
	}
	return 100
}()

// pinSelf pins every thread of this process to cpu and limits the Go
// scheduler to one thread of execution.
func pinSelf(cpu int) error {
	out, err := exec.Command("taskset", "-a", "-p", "-c", strconv.Itoa(cpu), strconv.Itoa(os.Getpid())).CombinedOutput()
	if err != nil {
		return fmt.Errorf("taskset: %v: %s", err, out)
	}
	return nil
}
