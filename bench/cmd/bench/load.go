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
						w.err = err
						return
					}
					br = bufio.NewReaderSize(c, 64<<10)
				}
				// Slow servers at 256 connections queue requests for seconds.
				_ = c.SetDeadline(time.Now().Add(requestTimeout))
				t0 := time.Now()
				ok, reuse, timedOut := roundTrip(c, br, req)
				switch {
				case ok:
					w.lat = append(w.lat, time.Since(t0))
				case timedOut:
					w.timeouts++
				default:
					w.errors++
				}
				if !reuse {
					c.Close()
					c = nil
				}
			}
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
