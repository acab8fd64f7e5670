//go:build !race

package graft_test

// raceEnabled reports a build with the race detector, under which tests
// that push megabytes through the parser scale their volume down.
const raceEnabled = false
