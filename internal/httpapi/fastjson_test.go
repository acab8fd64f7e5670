package httpapi

import (
	"reflect"
	"testing"
)

// asGeneral puts a typed persisted-query extension back into the map form
// the general path gives, so the two results compare.
func asGeneral(req Request) Request {
	if !req.HasPersistedQuery {
		return req
	}
	pq := map[string]any{"version": req.PersistedQuery.Version}
	if req.PersistedQuery.SHA256Hash != "" {
		pq["sha256Hash"] = req.PersistedQuery.SHA256Hash
	}
	if req.PersistedQuery.SHA512Hash != "" {
		pq["sha512Hash"] = req.PersistedQuery.SHA512Hash
	}
	req.Extensions = map[string]any{"persistedQuery": pq}
	req.PersistedQuery, req.HasPersistedQuery = PersistedQueryExtension{}, false
	return req
}

var fastSeeds = []string{
	`{"extensions":{"persistedQuery":{"sha512Hash":"ab","version":1,"sha256Hash":"cd"}},"query":"q"}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":""}}}`,
	`{"extensions":{"persistedQuery":{"version":1.5,"sha256Hash":"ab"}}}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"ab","miss":true}}}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"ab"},"other":1}}`,
	`{"extensions":{"persistedQuery":{"version":1,"version":2,"sha256Hash":"ab"}}}`,
	`{"query":"{ hello }"}`,
	`{ "query" : "query A($id: ID!) { author(id: $id) { name } }" , "variables" : {"id":"a1"}, "operationName":"A" }`,
	`{"query":"{ a }\n","extensions":{"persistedQuery":{"version":1,"sha256Hash":"ab"}}}`,
	`{"query":"{ echo(text: \"x\\\\y\\/z\\t\") }"}`,
	`{"query":null,"variables":null,"extensions":null,"operationName":null}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}`,
	`{"variables":{"s":"}{][\"","n":[1,2,{"a":"}"}]}}`,
	`{}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"ab"}}}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}}}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef"}}}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0"}}}`,
	`{"query":"{ a }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}}}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"ab"}},"query":"{ a }"}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"a\\b"}}}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"ab"}}x}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"ab"},"x":1}}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + "\xc3\xa9" + `"}}}`,
	`{"extensions":{"persistedQuery":{"version":01,"sha256Hash":"ab"}}}`,
	`{"extensions":{"persistedQuery":{"version":-0,"sha256Hash":"ab"}}}`,
	`{"extensions":{"persistedQuery":{"version":1e0,"sha256Hash":"ab"}}}`,
	`{"extensions":{"persistedQuery":{"version":1234567890123456789,"sha256Hash":"ab"}}}`,
	`{"extensions":{ "persistedQuery" : { "sha256Hash" : "ab" , "version" : 2 } }}`,
	`{"query":"q","variables":{"i":-0,"f":1.5e3,"big":123456789012345678901,"huge":1e400,"neg":-12,"e":2E-3,"a":[true,false,null,[],{}],"o":{"k":{"k":"v"}}}}`,
	`{"query":"q","variables":{"dup":1,"dup":2}}`,
	`{"query":"q","variables":{"bad":01}}`,
	`{"query":"q","variables":{"bad":1.}}`,
	`{"query":"q","variables":{"bad":-}}`,
	`{"query":"q","variables":{"s":"a\"b"}}`,
	`{"query":"q","variables":{"u":"\u00e9"}}`,
	`{"query":"q","variables":{"t":tru}}`,
	`{"query":"\u00e9"}`,
	`{"query":"x","other":1}`,
	`{"query":"x",}`,
	`{"query":"x"} trailing`,
	`{"query":1}`,
	`{"variables":[1]}`,
	`{"query":"caf` + "\xff" + `"}`,
	`{"query":"{ a(s: \"\\\"\") }\n\t","query":"{ b }\n"}`,
	`{"query":"\\"}`,
	`{"query":"a\\\"b\\","operationName":"x\ny"}`,
	`{"query":"","operationName":""}`,
	`{"query":"ends with an escape\`,
	`{"query":"tab` + "\t" + `inside"}`,
	`{"query":"0123456789abcdef0123456789abcdef0123` + "\x01" + `"}`,
}

// decodeFastEveryWay decodes body with the fast path without scratch
// memory, with too little and with enough, and with a QueryTexts (twice:
// the first keeps the query, the second finds it), and reports a
// difference.
func decodeFastEveryWay(t *testing.T, body []byte) (Request, bool) {
	t.Helper()
	got, ok := decodePostFast(body, nil, nil)
	texts, err := NewQueryTexts(10, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for i, scratch := range [][]byte{make([]byte, 0, 2), make([]byte, 0, len(body)), nil, make([]byte, 0, len(body))} {
		var tx *QueryTexts
		if i >= 2 {
			tx = texts
		}
		again, okAgain := decodePostFast(body, scratch, tx)
		if tx != nil && again.QuerySlot != nil {
			again.QuerySlot = nil // compared in TestQueryTextsGiveTheEntrysSlot
		}
		if okAgain != ok || !reflect.DeepEqual(again, got) {
			t.Fatalf("%q: decoded with scratch memory of %d bytes (query texts %v):\n%#v\nwithout:\n%#v", body, cap(scratch), tx != nil, again, got)
		}
	}
	return got, ok
}

func TestDecodePostFastAgreesWithTheGeneralPath(t *testing.T) {
	fastTaken := 0
	for _, body := range fastSeeds {
		got, ok := decodeFastEveryWay(t, []byte(body))
		if !ok {
			continue
		}
		fastTaken++
		want, err := decodePostGeneral([]byte(body))
		if err != nil {
			t.Errorf("%s: fast path accepted what the general path refuses: %s", body, err.Err.Message)
			continue
		}
		if got := asGeneral(got); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nfast %#v\nslow %#v", body, got, want)
		}
	}
	if fastTaken < 7 {
		t.Fatalf("the fast path took only %d of the common bodies", fastTaken)
	}
}

func FuzzDecodePostFast(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, ok := decodeFastEveryWay(t, body)
		if !ok {
			return
		}
		want, err := decodePostGeneral(body)
		if err != nil {
			t.Fatalf("%q: fast path accepted what the general path refuses: %s", body, err.Err.Message)
		}
		if got := asGeneral(got); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nfast %#v\nslow %#v", body, got, want)
		}
	})
}

func TestDecodePostFastQueryWithoutCopy(t *testing.T) {
	for _, body := range []string{`{"query":"{ hello }"}`, `{"query":"query {\n  hello\n}\n"}`} {
		b := []byte(body)
		scratch := make([]byte, 0, len(b))
		allocs := testing.AllocsPerRun(100, func() {
			if req, ok := decodePostFast(b, scratch, nil); !ok || req.Query == "" {
				t.Fatalf("%s: not decoded", body)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations, want the query read in place", body, allocs)
		}
	}
}

func TestPlainASCIIAgreesWithByteByByte(t *testing.T) {
	naive := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 || c >= 0x80 || c == '\\' {
				return false
			}
		}
		return true
	}
	base := []byte("0123456789abcdef0123456789ABCDEF")
	for n := 0; n <= len(base); n++ {
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				b := append([]byte(nil), base[:n]...)
				b[pos] = byte(c)
				if got, want := plainASCII(b), naive(b); got != want {
					t.Fatalf("plainASCII(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
}

func TestDecodePostFastHashOnlyWithoutCopy(t *testing.T) {
	for _, body := range []string{
		`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"0123456789abcdef"}}}`,
		`{"extensions":{"persistedQuery":{"sha256Hash":"0123456789abcdef","version":1}}}`,
	} {
		b := []byte(body)
		allocs := testing.AllocsPerRun(100, func() {
			req, ok := decodePostFast(b, nil, nil)
			if !ok || !req.HasPersistedQuery || req.PersistedQuery.SHA256Hash != "0123456789abcdef" || req.PersistedQuery.Version != 1 {
				t.Fatalf("%s: decoded as %#v", body, req)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations, want the hash read in place", body, allocs)
		}
	}
}

func TestLowerHexAgreesWithByteByByte(t *testing.T) {
	base := []byte("0123456789abcdef")
	for pos := range base {
		for c := 0; c < 256; c++ {
			b := append([]byte(nil), base...)
			b[pos] = byte(c)
			want := '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
			if got := lowerHex(b); got != want {
				t.Fatalf("lowerHex(%q) = %v, want %v", b, got, want)
			}
		}
	}
	if lowerHex([]byte("0123456")) {
		t.Fatal("lowerHex accepted a length that is not a multiple of 8")
	}
}
