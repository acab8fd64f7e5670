package schemadef_test

import (
	"bytes"
	"encoding/json"
	"testing"

	schema "github.com/graftgql/graft/internal/schemadef"
)

func TestAppendJSONString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "hello", `"hello"`},
		{"empty", "", `""`},
		{"quotes and backslashes", `say "hi" \ bye`, `"say \"hi\" \\ bye"`},
		{"short escapes", "a\nb\rc\td\be\ff", `"a\nb\rc\td\be\ff"`},
		{"other control characters", "\x00\x01\x1f", `"\u0000\u0001\u001f"`},
		{"html left alone", "<a href='x'>&</a>", `"<a href='x'>&</a>"`},
		{"multi-byte UTF-8", "héllo, 世界 🌍", `"héllo, 世界 🌍"`},
		{"invalid UTF-8 replaced", "a\xffb\xc3", `"a\ufffdb\ufffd"`},
		{"line and paragraph separators", "a\u2028b\u2029c", `"a\u2028b\u2029c"`},
		{"DEL is not a control escape", "\x7f", "\"\x7f\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(schema.AppendJSONString([]byte("x"), tt.in))
			if got != "x"+tt.want {
				t.Errorf("AppendJSONString(%q) = %s, want %s", tt.in, got[1:], tt.want)
			}
			var back string
			if err := json.Unmarshal([]byte(tt.want), &back); err != nil {
				t.Errorf("output is not valid JSON: %v", err)
			}
		})
	}
}

// FuzzAppendJSONString checks that every output decodes to the input, with
// invalid UTF-8 replaced as encoding/json replaces it.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\x00\xff", "\u2028<>&", "日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := schema.AppendJSONString(nil, s)
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("invalid JSON %s: %v", out, err)
		}
		want, _ := json.Marshal(s)
		var wantStr string
		_ = json.Unmarshal(want, &wantStr)
		if got != wantStr {
			t.Fatalf("round trip of %q gave %q, want %q", s, got, wantStr)
		}
		if bytes.ContainsAny(out[1:len(out)-1], "\x00\n\r") {
			t.Fatalf("unescaped control character in %q", out)
		}
	})
}

func BenchmarkAppendJSONString(b *testing.B) {
	s := "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore."
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = schema.AppendJSONString(buf[:0], s)
	}
}
