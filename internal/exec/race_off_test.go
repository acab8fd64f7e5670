//go:build !race

package exec_test

// raceEnabled reports a build with the race detector, under which
// allocation counts differ (instrumented appends allocate more).
const raceEnabled = false
