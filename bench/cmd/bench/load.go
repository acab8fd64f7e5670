package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// request builds the raw HTTP/1.1 keep-alive POST of body to addr.
func request(addr, path string, body []byte) []byte {
	head := "POST " + path + " HTTP/1.1\r\n" +
		"Host: " + addr + "\r\n" +
		"Content-Type: application/json\r\n" +
		"Accept: application/json\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
	return append([]byte(head), body...)
}

// requestTimeout bounds one request under load (a variable for tests).
var requestTimeout = 60 * time.Second

// loadResult is what one measured load of one server and query gave.
type loadResult struct {
	requests int
	errors   int
	// timeouts counts requests unanswered after requestTimeout: an
	// overloaded server, not a wrong one.
	timeouts  int
	elapsed   time.Duration
	latencies []time.Duration // sorted
}

func (r loadResult) rps() float64 { return float64(r.requests) / r.elapsed.Seconds() }

// percentile returns the p-th percentile (0..100) of the latencies.
func (r loadResult) percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	i := int(float64(len(r.latencies)-1) * p / 100)
	return r.latencies[i]
}

// outcome is how one request under load ended.
type outcome int

const (
	answered outcome = iota // status 200
	failed                  // another status, or a broken connection
	timedOut                // unanswered after requestTimeout
)

// connLoop sends requests on one keep-alive connection to addr until stop
// is set, dialling again when the server closes it: each time the request
// next returns, reading the whole response before the next, and hands each
// outcome and latency to record. It returns the error of a failed dial.
func connLoop(addr string, stop *atomic.Bool, next func() []byte, record func(outcome, time.Duration)) error {
	var c net.Conn
	var br *bufio.Reader
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	for !stop.Load() {
		if c == nil {
			var err error
			c, err = net.DialTimeout("tcp", addr, 5*time.Second)
			if err != nil {
				return err
			}
			br = bufio.NewReaderSize(c, 64<<10)
		}
		// Slow servers at 256 connections queue requests for seconds.
		_ = c.SetDeadline(time.Now().Add(requestTimeout))
		t0 := time.Now()
		ok, reuse, late := roundTrip(c, br, next())
		switch {
		case ok:
			record(answered, time.Since(t0))
		case late:
			record(timedOut, 0)
		default:
			record(failed, 0)
		}
		if !reuse {
			c.Close()
			c = nil
		}
	}
	return nil
}

// load drives addr with conns keep-alive connections, each sending req
// and reading the whole response before the next, for d.
func load(ctx context.Context, addr string, req []byte, conns int, d time.Duration) (loadResult, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var stop atomic.Bool
	go func() { <-ctx.Done(); stop.Store(true) }()
	type worker struct {
		lat      []time.Duration
		errors   int
		timeouts int
		err      error
	}
	ws := make([]worker, conns)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range ws {
		w := &ws[i]
		w.lat = make([]time.Duration, 0, 4096)
		wg.Go(func() {
			w.err = connLoop(addr, &stop, func() []byte { return req }, func(o outcome, lat time.Duration) {
				switch o {
				case answered:
					w.lat = append(w.lat, lat)
				case timedOut:
					w.timeouts++
				default:
					w.errors++
				}
			})
		})
	}
	wg.Wait()
	res := loadResult{elapsed: time.Since(start)}
	for _, w := range ws {
		if w.err != nil {
			return res, fmt.Errorf("connect: %w", w.err)
		}
		res.requests += len(w.lat)
		res.errors += w.errors
		res.timeouts += w.timeouts
		res.latencies = append(res.latencies, w.lat...)
	}
	slices.Sort(res.latencies)
	return res, nil
}

// block is one block of an alternating load: which of the two requests
// every connection sent, how many were answered within it, and the CPU
// time the server used meanwhile.
type block struct {
	kind     int
	requests int64
	cpu      time.Duration
}

// perRequest is the server CPU time per answered request of b.
func (b block) perRequest() float64 { return float64(b.cpu) / float64(b.requests) }

// blockKind is the request of block i in an alternating load: 0 1 1 0 0 1
// 1 0 …, so that each pair of blocks (0 and 1, 2 and 3, …) holds one of
// each, and each request goes first in every other pair.
func blockKind(i int) int { return (i + i/2) % 2 }

// loadAlternating drives addr with conns keep-alive connections that send
// reqs[0] or reqs[1], switching all together from block to block in the
// order of blockKind: n blocks, each measured for d after settle (the
// requests of the previous block finish), with cpu, the server's CPU time,
// read at both ends. The blocks are a fraction of a second, so a change of
// the machine's speed, which takes seconds, falls on both requests alike.
// Any request not answered with 200 fails the load.
func loadAlternating(ctx context.Context, addr string, reqs [2][]byte, conns, n int, d, settle time.Duration, cpu func() (time.Duration, error)) ([]block, error) {
	var stop atomic.Bool
	var kind atomic.Int32
	var done [2]atomic.Int64
	var bad atomic.Int64
	errs := make([]error, conns)
	var wg sync.WaitGroup
	for i := range conns {
		wg.Go(func() {
			k := 0
			errs[i] = connLoop(addr, &stop, func() []byte {
				k = int(kind.Load())
				return reqs[k]
			}, func(o outcome, _ time.Duration) { tally(o, &done[k], &bad) })
		})
	}
	finish := func() error {
		stop.Store(true)
		wg.Wait()
		return loadEnd(errs, bad.Load())
	}
	pause := func(d time.Duration) error { return sleepCtx(ctx, d) }
	blocks := make([]block, 0, n)
	for i := range n {
		k := blockKind(i)
		kind.Store(int32(k))
		if err := pause(settle); err != nil {
			return nil, errors.Join(err, finish())
		}
		c0, err := cpu()
		r0 := done[k].Load()
		if err == nil {
			err = pause(d)
		}
		c1, err2 := cpu()
		r1 := done[k].Load()
		if err := errors.Join(err, err2); err != nil {
			return nil, errors.Join(err, finish())
		}
		if bad.Load() > 0 {
			break
		}
		blocks = append(blocks, block{kind: k, requests: r1 - r0, cpu: c1 - c0})
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return blocks, nil
}

// pairedBlockRatios returns, for each pair of blocks of an alternating
// load (see blockKind), the server CPU per request of request 1 over that
// of request 0; a pair with a block that answered nothing is left out.
func pairedBlockRatios(blocks []block) []float64 {
	var out []float64
	for i := 0; i+1 < len(blocks); i += 2 {
		a, b := blocks[i], blocks[i+1]
		if a.kind == 1 {
			a, b = b, a
		}
		if a.kind != 0 || b.kind != 1 || a.requests == 0 || b.requests == 0 || a.cpu <= 0 {
			continue
		}
		out = append(out, b.perRequest()/a.perRequest())
	}
	return out
}

// roundTrip sends one request and reads the response: ok when the status is
// 200, reuse when the connection can carry the next request, timedOut when
// the connection's deadline passed first.
func roundTrip(c net.Conn, br *bufio.Reader, req []byte) (ok, reuse, timedOut bool) {
	if _, err := c.Write(req); err != nil {
		return false, false, errors.Is(err, os.ErrDeadlineExceeded)
	}
	status, closing, err := discardResponse(br)
	return err == nil && status == http.StatusOK, err == nil && !closing, errors.Is(err, os.ErrDeadlineExceeded)
}

// fetch sends one request on a fresh connection and returns the status and
// body, for the correctness check.
func fetch(addr string, req []byte) (int, []byte, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return 0, nil, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := c.Write(req); err != nil {
		return 0, nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// serverPair is one pair of blocks of a load alternating between two
// servers (loadAlternatingServers): each server's CPU time and answered
// requests over both blocks, so that what a server does in the other's
// block (a batch exporter's sends, say) is counted as its own.
type serverPair struct {
	cpu      [2]time.Duration
	requests [2]int64
}

// ratio is server 1's CPU per request over server 0's in the pair, 0 when
// one of them answered nothing.
func (p serverPair) ratio() float64 {
	if p.requests[0] == 0 || p.requests[1] == 0 || p.cpu[0] <= 0 {
		return 0
	}
	return (float64(p.cpu[1]) / float64(p.requests[1])) / (float64(p.cpu[0]) / float64(p.requests[0]))
}

// loadAlternatingServers drives addrs[0] and addrs[1] in turn, each with
// conns keep-alive connections of its own sending its request, only one
// server's connections at a time: n blocks of d in the order of blockKind,
// with both servers' CPU time (cpus) read at the start and end of every
// pair of blocks. Two servers pinned to the same CPU then meet the same
// changes of the machine's speed, which take seconds, where measurements
// seconds apart do not. Any request not answered with 200 fails the load.
func loadAlternatingServers(ctx context.Context, addrs [2]string, reqs [2][]byte, conns, n int, d time.Duration, cpus [2]func() (time.Duration, error)) ([]serverPair, error) {
	var stop atomic.Bool
	var mu sync.Mutex
	turn := sync.NewCond(&mu)
	active := 0
	var done [2]atomic.Int64
	var bad atomic.Int64
	errs := make([]error, 2*conns)
	var wg sync.WaitGroup
	for s := range 2 {
		for i := range conns {
			wg.Go(func() {
				errs[s*conns+i] = connLoop(addrs[s], &stop, func() []byte {
					mu.Lock()
					for active != s && !stop.Load() {
						turn.Wait()
					}
					mu.Unlock()
					return reqs[s]
				}, func(o outcome, _ time.Duration) { tally(o, &done[s], &bad) })
			})
		}
	}
	switchTo := func(s int) {
		mu.Lock()
		active = s
		mu.Unlock()
		turn.Broadcast()
	}
	finish := func() error {
		mu.Lock()
		stop.Store(true)
		mu.Unlock()
		turn.Broadcast()
		wg.Wait()
		return loadEnd(errs, bad.Load())
	}
	read := func() (c [2]time.Duration, r [2]int64, err error) {
		for s := range 2 {
			var e error
			c[s], e = cpus[s]()
			err = errors.Join(err, e)
			r[s] = done[s].Load()
		}
		return c, r, err
	}
	var pairs []serverPair
	for i := 0; i+1 < n; i += 2 {
		c0, r0, err := read()
		for b := range 2 {
			if err != nil {
				break
			}
			switchTo(blockKind(i + b))
			err = sleepCtx(ctx, d)
		}
		c1, r1, err2 := read()
		if err := errors.Join(err, err2); err != nil {
			return nil, errors.Join(err, finish())
		}
		if bad.Load() > 0 {
			break
		}
		var p serverPair
		for s := range 2 {
			p.cpu[s], p.requests[s] = c1[s]-c0[s], r1[s]-r0[s]
		}
		pairs = append(pairs, p)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return pairs, nil
}

// tally counts a request of an alternating load: in ok when it was
// answered with 200, else in bad.
func tally(o outcome, ok, bad *atomic.Int64) {
	if o == answered {
		ok.Add(1)
	} else {
		bad.Add(1)
	}
}

// loadEnd is the outcome of an alternating load once its connections
// stopped: their failed dials, else the count of requests not answered
// with 200 (bad), else nil.
func loadEnd(errs []error, bad int64) error {
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if bad > 0 {
		return fmt.Errorf("%d requests not answered with 200", bad)
	}
	return nil
}

// sleepCtx waits for d, or until ctx ends (its error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
