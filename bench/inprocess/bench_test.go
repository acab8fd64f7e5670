package inprocess

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/graftgql/graft/bench/check"
	"github.com/graftgql/graft/bench/data"
	"github.com/graftgql/graft/bench/peers/ceiling"
)

// coldText makes the document text distinct on every iteration (a trailing
// comment), so an engine's document cache can never answer.
func coldText(text string, i int) string {
	return text + "\n#" + strconv.Itoa(i)
}

func TestRunnersAnswerCorrectly(t *testing.T) {
	d := data.Shared()
	want, err := ceiling.Expected(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range engines() {
		for _, mode := range []string{"cold", "warm"} {
			build := e.cold
			if mode == "warm" {
				build = e.warm
			}
			if build == nil {
				continue
			}
			t.Run(e.name+"-"+mode, func(t *testing.T) {
				run, err := build(d)
				if err != nil {
					t.Fatal(err)
				}
				cm := check.Normalised
				if e.exact {
					cm = check.Exact
				}
				for _, q := range queries() {
					for i := range 2 {
						text := q.Text
						if mode == "cold" {
							text = coldText(text, i)
						}
						got, err := run(context.Background(), text, q.OperationName, q.Variables)
						if err != nil {
							t.Fatalf("%s: %v", q.Name, err)
						}
						if err := check.Answer(q, got, want[q.Name], cm); err != nil {
							t.Error(err)
						}
					}
				}
			})
		}
	}
}

func benchmarkQuery(b *testing.B, name string) {
	d := data.Shared()
	var q = queries()[0]
	for _, qq := range queries() {
		if qq.Name == name {
			q = qq
		}
	}
	ctx := context.Background()
	for _, e := range engines() {
		for _, mode := range []string{"cold", "warm"} {
			build := e.cold
			if mode == "warm" {
				build = e.warm
			}
			if build == nil {
				continue
			}
			b.Run(e.name+"-"+mode, func(b *testing.B) {
				run, err := build(d)
				if err != nil {
					b.Fatal(err)
				}
				texts := []string{q.Text}
				if mode == "cold" {
					texts = make([]string, 4096)
					for i := range texts {
						texts[i] = coldText(q.Text, i)
					}
				}
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					body, err := run(ctx, texts[i%len(texts)], q.OperationName, q.Variables)
					if err != nil || strings.Contains(string(body[:min(len(body), 12)]), `"errors"`) {
						b.Fatalf("%s: %v %.200s", q.Name, err, body)
					}
					i++
				}
			})
		}
	}
}

func BenchmarkQ1(b *testing.B) { benchmarkQuery(b, "q1") }
func BenchmarkQ2(b *testing.B) { benchmarkQuery(b, "q2") }
func BenchmarkQ3(b *testing.B) { benchmarkQuery(b, "q3") }
