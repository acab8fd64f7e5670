package graft_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/graftgql/graft"
)

// echo is a request for the echo field of the test schema.
func echo(text string) graft.Request {
	return graft.Request{Query: `query($t: String!) { echo(text: $t) }`, Variables: map[string]any{"t": text}}
}

func echoBody(text string) string {
	b, _ := json.Marshal(text)
	return `{"data":{"echo":` + string(b) + `}}`
}

func TestExecuteReturnsABodyTheCallerOwns(t *testing.T) {
	r := newTestRouter(t, graft.Config{})
	ctx := context.Background()
	for _, req := range []graft.Request{
		echo("one"),
		// An answer the engine keeps and copies out on later runs.
		{Query: "{ __schema { queryType { name } } }"},
	} {
		_, first := r.Execute(ctx, req)
		_, second := r.Execute(ctx, req)
		want := string(first)
		if !strings.HasPrefix(want, `{"data":`) || string(second) != want {
			t.Fatalf("got %s and %s", first, second)
		}
		// Writing over the first body, within its capacity, leaves the
		// second and later answers alone.
		first = append(first[:0], strings.Repeat("x", cap(first))...)
		_, third := r.Execute(ctx, req)
		if string(second) != want || string(third) != want {
			t.Fatalf("second %s, third %s after the first was overwritten; want %s", second, third, want)
		}
		if &first[0] == &second[0] || &second[0] == &third[0] {
			t.Fatal("two answers share memory")
		}
	}
}

func TestAppendExecuteAppendsAfterTheBytesOfDst(t *testing.T) {
	r := newTestRouter(t, graft.Config{})
	ctx := context.Background()
	long := strings.Repeat(`é"`, 40000)
	for _, tc := range []struct {
		name string
		dst  []byte
		text string
	}{
		{"nil", nil, "hi"},
		{"empty with room", make([]byte, 0, 1024), "hi"},
		{"prefix with room", append(make([]byte, 0, 1024), "prefix:"...), "hi"},
		{"prefix, answer outgrows dst", append(make([]byte, 0, 16), "prefix:"...), long},
		{"prefix without room", []byte("prefix:"), long},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := string(tc.dst)
			status, body := r.AppendExecute(ctx, tc.dst, echo(tc.text))
			if status != 200 || string(body) != prefix+echoBody(tc.text) {
				t.Fatalf("got %d %.200s", status, body)
			}
		})
	}
}

func TestAppendExecuteReusesTheCallersBuffer(t *testing.T) {
	r := newTestRouter(t, graft.Config{})
	ctx := context.Background()
	long := strings.Repeat("a", 64<<10)
	_, buf := r.AppendExecute(ctx, nil, echo(long))
	for _, text := range []string{long, "short", long} {
		status, body := r.AppendExecute(ctx, buf[:0], echo(text))
		if status != 200 || string(body) != echoBody(text) {
			t.Fatalf("got %d %.200s", status, body)
		}
		if &body[0] != &buf[0] {
			t.Fatal("the answer was not written into the buffer passed in")
		}
		buf = body
	}
}

func TestAppendExecuteKeepsThePrefixOnEveryFailure(t *testing.T) {
	auth := func(ctx context.Context, req *graft.AuthRequest) (context.Context, error) {
		switch req.Header("X-Case") {
		case "deny":
			return nil, errors.New("no token")
		case "panic":
			panic("auth exploded")
		}
		return ctx, nil
	}
	r := newTestRouter(t, graft.Config{Auth: auth})
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		req    graft.Request
		status int
		code   string
	}{
		{"invalid document", graft.Request{Query: "{ nope }"}, 400, "GRAPHQL_VALIDATION_FAILED"},
		{"missing variable", graft.Request{Query: `query($t: String!) { echo(text: $t) }`}, 400, "BAD_USER_INPUT"},
		{"resolver panic", graft.Request{Query: "{ boom }"}, 200, "INTERNAL_SERVER_ERROR"},
		{"auth refusal", graft.Request{Query: "{ hello }", Header: caseHeader("deny")}, 401, "UNAUTHENTICATED"},
		{"auth panic", graft.Request{Query: "{ hello }", Header: caseHeader("panic")}, 400, "INTERNAL_SERVER_ERROR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := append(make([]byte, 0, 4096), "prefix:"...)
			status, body := r.AppendExecute(ctx, dst, tc.req)
			rest, ok := strings.CutPrefix(string(body), "prefix:")
			if !ok {
				t.Fatalf("prefix lost: %.200s", body)
			}
			if status != tc.status || firstCode(t, rest) != tc.code {
				t.Fatalf("got %d %s, want %d and %s", status, rest, tc.status, tc.code)
			}
			// Execute answers the same.
			status2, body2 := r.Execute(ctx, tc.req)
			if status2 != status || string(body2) != rest {
				t.Fatalf("Execute answered %d %s, AppendExecute %d %s", status2, body2, status, rest)
			}
		})
	}
}

// caseHeader returns a Request.Header carrying X-Case: value.
func caseHeader(value string) func(string) string {
	return func(name string) string {
		if strings.EqualFold(name, "X-Case") {
			return value
		}
		return ""
	}
}

func TestAppendExecuteEndsAtTheTimeoutAndWithTheCaller(t *testing.T) {
	r := newTestRouter(t, graft.Config{Timeout: 20 * time.Millisecond})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		code string
	}{
		{"timeout", context.Background(), "REQUEST_TIMEOUT"},
		{"caller gone", cancelled, "REQUEST_CANCELLED"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := append(make([]byte, 0, 256), "prefix:"...)
			status, body := r.AppendExecute(tc.ctx, dst, graft.Request{Query: "{ slow }"})
			rest, ok := strings.CutPrefix(string(body), "prefix:")
			if !ok || status != 200 || firstCode(t, rest) != tc.code || !strings.Contains(rest, `"data":{"slow":null}`) {
				t.Fatalf("got %d %s, want 200 and %s", status, body, tc.code)
			}
		})
	}
}

// firstCode returns extensions.code of the first error of a response body.
func firstCode(t *testing.T, body string) string {
	t.Helper()
	var got struct {
		Errors []struct {
			Extensions struct{ Code string } `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if len(got.Errors) == 0 {
		return ""
	}
	return got.Errors[0].Extensions.Code
}

func TestAppendExecuteRunsTheHooks(t *testing.T) {
	var phases []graft.Phase
	h := graft.HookFuncs{AfterFunc: func(ctx context.Context, ev *graft.HookEvent) {
		phases = append(phases, ev.Phase)
		if ev.Phase == graft.PhaseExecuted {
			graft.SetExtension(ctx, "phase", ev.Phase.String())
		}
	}}
	r := newTestRouter(t, graft.Config{Hooks: []graft.Hook{h}})
	dst := append(make([]byte, 0, 4096), "prefix:"...)
	status, body := r.AppendExecute(context.Background(), dst, graft.Request{Query: "{ hello }"})
	if want := `prefix:{"data":{"hello":"world"},"extensions":{"phase":"executed"}}`; status != 200 || string(body) != want {
		t.Fatalf("got %d %s, want %s", status, body, want)
	}
	if len(phases) == 0 || phases[len(phases)-1] != graft.PhaseAnswered {
		t.Fatalf("phases %v, want them to end with %v", phases, graft.PhaseAnswered)
	}
}
