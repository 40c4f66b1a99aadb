// Package tsr reads and writes the three generations of TSR tensor files —
// v1 ('TSR!', one tensor, 64-byte header), TSR3 (one tensor, RAW or ZLIB,
// CRC-32) and TSR4 (a container of NHWC tensors with a directory) — into the
// formats document model. Each generation numbers its dtypes differently.
//
// Imports: formats and tensor.
package tsr
