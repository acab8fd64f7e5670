package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

var (
	headerContentLength    = []byte("content-length")
	headerTransferEncoding = []byte("transfer-encoding")
	headerConnection       = []byte("connection")
)

// discardResponse reads one HTTP/1.1 response from br and throws the body
// away, with less work than net/http's ReadResponse so the load generator
// is not the bottleneck: it returns the status and whether the server
// will close the connection.
func discardResponse(br *bufio.Reader) (status int, closing bool, err error) {
	line, err := readLine(br)
	if err != nil {
		return 0, false, err
	}
	// "HTTP/1.1 200 OK"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, false, fmt.Errorf("malformed status line %q", line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, false, fmt.Errorf("malformed status line %q", line)
	}
	length, chunked := -1, false
	for {
		line, err = readLine(br)
		if err != nil {
			return 0, false, err
		}
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, false, fmt.Errorf("malformed header %q", line)
		}
		name, value = bytes.ToLower(bytes.TrimSpace(name)), bytes.TrimSpace(value)
		switch {
		case bytes.Equal(name, headerContentLength):
			if length, err = strconv.Atoi(string(value)); err != nil || length < 0 {
				return 0, false, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.Equal(name, headerTransferEncoding):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.Equal(name, headerConnection):
			closing = bytes.EqualFold(value, []byte("close"))
		}
	}
	switch {
	case chunked:
		err = discardChunked(br)
	case length >= 0:
		_, err = br.Discard(length)
	default:
		// No length: the body runs to the end of the connection.
		_, err = io.Copy(io.Discard, br)
		closing = true
	}
	return status, closing, err
}

// discardChunked skips a chunked body and its trailer.
func discardChunked(br *bufio.Reader) error {
	for {
		line, err := readLine(br)
		if err != nil {
			return err
		}
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		size, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 64)
		if err != nil || size < 0 {
			return fmt.Errorf("bad chunk size %q", line)
		}
		if size == 0 {
			for {
				trailer, err := readLine(br)
				if err != nil || len(trailer) == 0 {
					return err
				}
			}
		}
		if _, err := br.Discard(int(size)); err != nil {
			return err
		}
		if crlf, err := readLine(br); err != nil || len(crlf) != 0 {
			return errors.Join(err, errors.New("missing CRLF after chunk"))
		}
	}
}

// readLine returns one line without its CRLF; the slice is valid until the
// next read.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return nil, err
	}
	return bytes.TrimRight(line, "\r\n"), nil
}
