// Package archtest holds the test that keeps docs/ARCHITECTURE.md's
// import graph true: it reads every package's imports and fails on an
// arrow against the design. It has no code of its own.
package archtest
