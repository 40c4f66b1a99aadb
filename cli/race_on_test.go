//go:build race

package cli

// raceEnabled: the race detector's shadow memory swamps memory measurements.
const raceEnabled = true
