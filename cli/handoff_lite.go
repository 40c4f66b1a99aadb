//go:build lite

package cli

// The lite build has no render, export or diff: HandOff runs them in the
// viewer program.
func init() { handOff = HandOff }
