package httpapi

import (
	"reflect"
	"testing"
)

var fastSeeds = []string{
	`{"query":"{ hello }"}`,
	`{ "query" : "query A($id: ID!) { author(id: $id) { name } }" , "variables" : {"id":"a1"}, "operationName":"A" }`,
	`{"query":"{ a }\n","extensions":{"persistedQuery":{"version":1,"sha256Hash":"ab"}}}`,
	`{"query":"{ echo(text: \"x\\\\y\\/z\\t\") }"}`,
	`{"query":null,"variables":null,"extensions":null,"operationName":null}`,
	`{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}`,
	`{"variables":{"s":"}{][\"","n":[1,2,{"a":"}"}]}}`,
	`{}`,
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
}

func TestDecodePostFastAgreesWithTheGeneralPath(t *testing.T) {
	fastTaken := 0
	for _, body := range fastSeeds {
		got, ok := decodePostFast([]byte(body))
		if !ok {
			continue
		}
		fastTaken++
		want, err := decodePostGeneral([]byte(body))
		if err != nil {
			t.Errorf("%s: fast path accepted what the general path refuses: %s", body, err.Err.Message)
			continue
		}
		if !reflect.DeepEqual(got, want) {
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
		got, ok := decodePostFast(body)
		if !ok {
			return
		}
		want, err := decodePostGeneral(body)
		if err != nil {
			t.Fatalf("%q: fast path accepted what the general path refuses: %s", body, err.Err.Message)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nfast %#v\nslow %#v", body, got, want)
		}
	})
}
