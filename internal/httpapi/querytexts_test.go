package httpapi

import (
	"encoding/json"
	"strconv"
	"testing"
)

func TestQueryTextsFindAnEscapedQueryWithoutUnescaping(t *testing.T) {
	texts, err := NewQueryTexts(10, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	query := "query A {\n  a\n  b(s: \"x\")\n}\n"
	body, _ := json.Marshal(map[string]string{"query": query})
	first, ok := decodePostFast(body, nil, texts)
	if !ok || first.Query != query || texts.Len() != 1 {
		t.Fatalf("first decode: %q, %v, %d texts kept", first.Query, ok, texts.Len())
	}
	// The same body in another buffer: found, not unescaped again.
	again := append([]byte(nil), body...)
	allocs := testing.AllocsPerRun(100, func() {
		req, ok := decodePostFast(again, nil, texts)
		if !ok || req.Query != query {
			t.Fatalf("again: %q, %v", req.Query, ok)
		}
	})
	if allocs != 0 {
		t.Errorf("a kept query decoded with %v allocations, want 0", allocs)
	}
	// What is returned does not share the body.
	req, _ := decodePostFast(again, nil, texts)
	for i := range again {
		again[i] = ' '
	}
	if req.Query != query {
		t.Errorf("the kept query changed with the body: %q", req.Query)
	}
}

func TestQueryTextsKeepNothingRefused(t *testing.T) {
	texts, err := NewQueryTexts(10, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		`{"query":"a\nb` + "\x01" + `"}`, // a control character
		`{"query":"a\nb\u00e9"}`,         // \u: the general path's
		`{"query":"a\n` + "\xff" + `"}`,  // invalid UTF-8
		`{"query":"a\q"}`,                // an unknown escape
		`{"query":"a b"}`,                // no escape: read in place
	} {
		_, _ = decodePostFast([]byte(body), nil, texts)
		if texts.Len() != 0 {
			t.Fatalf("%s: kept", body)
		}
		want, wantErr := decodePostGeneral([]byte(body))
		got, gotErr := decodePost([]byte(body), nil, texts)
		if (wantErr == nil) != (gotErr == nil) || got.Query != want.Query {
			t.Errorf("%s: decoded %q (%v), want %q (%v)", body, got.Query, gotErr, want.Query, wantErr)
		}
	}
}

func TestQueryTextsAreBounded(t *testing.T) {
	texts, err := NewQueryTexts(4, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		body, _ := json.Marshal(map[string]string{"query": "{\n a" + strconv.Itoa(i) + "\n}"})
		if _, ok := decodePostFast(body, nil, texts); !ok {
			t.Fatalf("%s: not decoded", body)
		}
	}
	if texts.Len() != 4 {
		t.Fatalf("%d texts kept, want the bound of 4", texts.Len())
	}
	small, err := NewQueryTexts(10, 800) // an entry may cost at most 100 bytes
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"query": "{\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n}"})
	if req, ok := decodePostFast(body, nil, small); !ok || req.Query == "" || small.Len() != 0 {
		t.Fatalf("a query over an eighth of the budget: decoded %v, %d kept, want decoded and not kept", ok, small.Len())
	}
}

func TestQueryTextsGiveTheEntrysSlot(t *testing.T) {
	texts, err := NewQueryTexts(10, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"query": "{\n a\n}"})
	first, _ := decodePostFast(body, nil, texts)
	again, _ := decodePostFast(body, nil, texts)
	if first.QuerySlot == nil || again.QuerySlot != first.QuerySlot {
		t.Fatalf("slots %p and %p, want the entry's one slot both times", first.QuerySlot, again.QuerySlot)
	}
	if req, _ := decodePostFast([]byte(`{"query":"{ a }"}`), nil, texts); req.QuerySlot != nil {
		t.Fatalf("a query read in place has slot %p, want none", req.QuerySlot)
	}
	// Two query members: the slot is the last one's.
	if req, _ := decodePostFast([]byte(`{"query":"{\n a\n}","query":"{ b }"}`), nil, texts); req.Query != "{ b }" || req.QuerySlot != nil {
		t.Fatalf("two queries: %q with slot %p, want the last and no slot", req.Query, req.QuerySlot)
	}
}
