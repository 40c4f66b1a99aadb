//go:build race

package npy

// raceEnabled: the race detector's shadow memory swamps memory measurements.
const raceEnabled = true
