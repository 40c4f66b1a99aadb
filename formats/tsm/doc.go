// Package tsm reads and writes TenniS modules (.tsm) and reads the SeetaFace6
// .csta files that wrap them: graphs whose nodes carry typed, packed
// parameters, with forward references between nodes.
//
// Imports: formats and tensor.
package tsm

//go:generate go test . -run ^TestFixtures$ -args -update
