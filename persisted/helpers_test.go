package persisted

const (
	qHero  = "{ hero { name } }"
	qDroid = "query Droid { droid(id: 1) { name } }"
)

var (
	hHero     = Hash(SHA256, qHero)
	hDroid    = Hash(SHA256, qDroid)
	hHero512  = Hash(SHA512, qHero)
	hDroid512 = Hash(SHA512, qDroid)
)
