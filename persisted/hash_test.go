package persisted

import "testing"

func TestHash(t *testing.T) {
	tests := []struct {
		alg, query, want string
	}{
		{"sha256", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"sha256", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"sha512", "abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
		{"sha512", "", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"},
		{"md5", "x", ""},
	}
	for _, tt := range tests {
		got := Hash(tt.alg, tt.query)
		if got != tt.want {
			t.Errorf("Hash(%q, %q) = %q, want %q", tt.alg, tt.query, got, tt.want)
		}
	}
}
