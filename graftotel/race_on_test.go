//go:build race

package graftotel_test

// raceEnabled reports a build with the race detector, under which
// sync.Pool drops pooled values at random, so allocation counts are not
// the program's.
const raceEnabled = true
