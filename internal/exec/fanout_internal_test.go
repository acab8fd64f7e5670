package exec

import (
	"context"
	"strings"
	"sync"
	"testing"
	"unsafe"

	graftschema "github.com/graftgql/graft/schema"
)

type foMsg struct {
	ID   graftschema.ID
	Text string
	Room string
}

type foArgs struct{ Room string }

// foEngine is a chat-like schema: messageAdded pushes each message to
// every subscriber's sink, as a pubsub fan-out does; Message.shout has a
// resolver.
func foEngine(t *testing.T) (*Engine, *[]graftschema.Sink[foMsg]) {
	t.Helper()
	var sinks []graftschema.Sink[foMsg]
	b := graftschema.New()
	msg := graftschema.Object[foMsg](b, "Message")
	graftschema.FieldFuncNoArgs(msg, "shout", func(_ context.Context, m *foMsg) (string, error) {
		return strings.ToUpper(m.Text), nil
	})
	graftschema.QueryNoArgs(b, "x", func(context.Context) (int, error) { return 1, nil })
	graftschema.SubscriptionSink(b, "messageAdded", func(_ context.Context, _ foArgs, s graftschema.Sink[foMsg]) error {
		sinks = append(sinks, s)
		return nil
	})
	s, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return New(s, Options{}), &sinks
}

// subscribe starts n subscribers of query, each with its variables.
func subscribe(t *testing.T, e *Engine, query string, vars []map[string]any) []*Stream {
	t.Helper()
	doc, errs := e.Prepare(query)
	if errs != nil {
		t.Fatal(errs)
	}
	op, gerr := doc.Operation("")
	if gerr != nil {
		t.Fatal(gerr)
	}
	var out []*Stream
	for _, v := range vars {
		coerced, verrs := e.CoerceVariables(op, v)
		if verrs != nil {
			t.Fatal(verrs)
		}
		s, body := e.Subscribe(context.Background(), op, coerced, nil)
		if s == nil {
			t.Fatalf("subscribe: %s", body)
		}
		out = append(out, s)
	}
	return out
}

// send sends m to every sink and returns the event each subscriber
// takes, unexecuted.
func send(t *testing.T, sinks []graftschema.Sink[foMsg], streams []*Stream, m foMsg) []unsafe.Pointer {
	t.Helper()
	for _, s := range sinks {
		s.Send(m)
	}
	events := make([]unsafe.Pointer, len(streams))
	for i, s := range streams {
		ev, ok := s.Next(context.Background())
		if !ok {
			t.Fatal("no event")
		}
		events[i] = ev
	}
	return events
}

// deliver sends m to every sink and returns each subscriber's answer.
func deliver(t *testing.T, sinks []graftschema.Sink[foMsg], streams []*Stream, m foMsg) []string {
	t.Helper()
	var answers []string
	for i, ev := range send(t, sinks, streams, m) {
		answers = append(answers, string(streams[i].Execute(context.Background(), ev, nil)))
	}
	return answers
}

// TestFanOutEncodesOnce: an event sent to many subscribers of the same
// selection is encoded once; every subscriber gets the same answer.
func TestFanOutEncodesOnce(t *testing.T) {
	e, sinks := foEngine(t)
	vars := make([]map[string]any, 50)
	streams := subscribe(t, e, `subscription { messageAdded(room: "a") { __typename id text } }`, vars)
	for i, m := range []foMsg{{ID: "1", Text: "hi"}, {ID: "2", Text: "there"}} {
		answers := deliver(t, *sinks, streams, m)
		want := `{"data":{"messageAdded":{"__typename":"Message","id":"` + string(m.ID) + `","text":"` + m.Text + `"}}}`
		for _, a := range answers {
			if a != want {
				t.Fatalf("answer %s, want %s", a, want)
			}
		}
		if n := streams[0].share.encoded.Load(); n != int64(i+1) {
			t.Fatalf("after %d events to %d subscribers: %d encodings, want %d", i+1, len(streams), n, i+1)
		}
	}
}

// TestFanOutConcurrentSubscribersEncodeOnce: subscribers of the same
// selection executing the same event at once (delivery workers, one
// goroutine per subscriber) wait for the one execution rather than each
// executing it; every one gets the answer.
func TestFanOutConcurrentSubscribersEncodeOnce(t *testing.T) {
	e, sinks := foEngine(t)
	streams := subscribe(t, e, `subscription { messageAdded(room: "a") { id text } }`, make([]map[string]any, 64))
	events := send(t, *sinks, streams, foMsg{ID: "9", Text: "together"})
	answers := make([]string, len(streams))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, s := range streams {
		wg.Go(func() {
			<-start
			answers[i] = string(s.Execute(context.Background(), events[i], nil))
		})
	}
	close(start)
	wg.Wait()
	for _, a := range answers {
		if a != `{"data":{"messageAdded":{"id":"9","text":"together"}}}` {
			t.Fatalf("answer %s", a)
		}
	}
	if n := e.EventsEncoded(); n != 1 {
		t.Fatalf("%d executions of one event for %d concurrent subscribers, want 1", n, len(streams))
	}
}

// TestFanOutPerVariables: subscribers whose variables differ do not
// share answers.
func TestFanOutPerVariables(t *testing.T) {
	e, sinks := foEngine(t)
	vars := []map[string]any{{"r": "a", "withText": true}, {"r": "a", "withText": false}, {"r": "a", "withText": true}}
	streams := subscribe(t, e, `subscription($r: String!, $withText: Boolean!) { messageAdded(room: $r) { id text @include(if: $withText) } }`, vars)
	answers := deliver(t, *sinks, streams, foMsg{ID: "7", Text: "yo"})
	if answers[0] != `{"data":{"messageAdded":{"id":"7","text":"yo"}}}` || answers[1] != `{"data":{"messageAdded":{"id":"7"}}}` || answers[2] != answers[0] {
		t.Fatalf("answers %q", answers)
	}
	if n := streams[0].share.encoded.Load(); n != 2 {
		t.Fatalf("%d encodings, want 2 (one per distinct variables)", n)
	}
}

// TestFanOutResolversRunPerSubscriber: a selection with a resolver is
// executed for each subscriber (the resolver may depend on who asks).
func TestFanOutResolversRunPerSubscriber(t *testing.T) {
	e, sinks := foEngine(t)
	streams := subscribe(t, e, `subscription { messageAdded(room: "a") { id shout } }`, make([]map[string]any, 3))
	if streams[0].share != nil {
		t.Fatal("a selection with a resolver shares its answers")
	}
	for _, a := range deliver(t, *sinks, streams, foMsg{ID: "1", Text: "hi"}) {
		if a != `{"data":{"messageAdded":{"id":"1","shout":"HI"}}}` {
			t.Fatal(a)
		}
	}
}

// BenchmarkFanOut delivers one event to 1,000 subscribers of the same
// selection.
func BenchmarkFanOut(b *testing.B) {
	t := &testing.T{}
	e, sinks := foEngine(t)
	streams := subscribe(t, e, `subscription { messageAdded(room: "a") { __typename id text room } }`, make([]map[string]any, 1000))
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		m := foMsg{ID: graftschema.ID("m"), Text: "hello there", Room: "a"}
		m.ID += graftschema.ID(rune('a' + i%26))
		for _, s := range *sinks {
			s.Send(m)
		}
		for _, s := range streams {
			ev, _ := s.Next(context.Background())
			buf = s.Execute(context.Background(), ev, buf[:0])
		}
	}
}

// TestFanOutFramesOncePerKey: SharedFrame frames an event's shared
// answer once per key, however many subscribers take it, and hands them
// all the same bytes; an event no subscriber executed has no frame, and a
// selection that cannot share has none either. Sending the same value
// to every sink queues one value, not a copy per subscriber.
func TestFanOutFramesOncePerKey(t *testing.T) {
	e, sinks := foEngine(t)
	streams := subscribe(t, e, `subscription { messageAdded(room: "a") { id text } }`, make([]map[string]any, 20))
	events := send(t, *sinks, streams, foMsg{ID: "1", Text: "hi"})
	if events[0] != events[len(events)-1] {
		t.Error("the subscribers were queued copies of one value")
	}
	frames := map[string]int{}
	frame := func(key string) func(dst, answer []byte) []byte {
		return func(dst, answer []byte) []byte {
			frames[key]++
			return append(append(append(dst, key+"<"...), answer...), '>')
		}
	}
	if _, ok := streams[0].SharedFrame(events[0], "sse", frame("sse")); ok {
		t.Fatal("a frame of an answer no subscriber executed")
	}
	_ = streams[0].Execute(context.Background(), events[0], nil)
	var first []byte
	for i, s := range streams {
		for _, key := range []string{"sse", "ws"} {
			b, ok := s.SharedFrame(events[i], key, frame(key))
			want := key + `<{"data":{"messageAdded":{"id":"1","text":"hi"}}}>`
			if !ok || string(b) != want {
				t.Fatalf("subscriber %d, %s: %q %v, want %q", i, key, b, ok, want)
			}
			if key == "sse" {
				if first == nil {
					first = b
				} else if &b[0] != &first[0] {
					t.Fatal("a subscriber got a copy of the frame")
				}
			}
		}
	}
	if frames["sse"] != 1 || frames["ws"] != 1 {
		t.Errorf("framed %v for %d subscribers, want once per key", frames, len(streams))
	}
	if n := streams[0].share.encoded.Load(); n != 1 {
		t.Errorf("%d encodings, want 1", n)
	}
	shouts := subscribe(t, e, `subscription { messageAdded(room: "a") { shout } }`, make([]map[string]any, 1))
	(*sinks)[len(*sinks)-1].Send(foMsg{ID: "2", Text: "yo"})
	ev, _ := shouts[0].Next(context.Background())
	if _, ok := shouts[0].SharedFrame(ev, "sse", frame("sse")); ok {
		t.Error("a selection with a resolver shared a frame")
	}
}
