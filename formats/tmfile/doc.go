// Package tmfile reads and writes Tengine tmfile (TM2) models: a graph of
// nodes, operators with typed parameter structs, tensors and weight buffers
// addressed by absolute file offsets. It registers the "tmfile" format with
// the formats registry.
//
// Decode reads a file into a Model; Encode and Marshal write a Model the way
// Tengine's own writer lays files out, so that read→write→read preserves
// everything but junk padding. Builder and NewOperator make models in code
// (see the synth sub-package for the demo model and benchmark graphs).
//
// Operator params are decoded and encoded by one table, optable_gen.go,
// generated from op-params.tsv by internal/opgen (go generate). A param is
// decoded only as far as the file's struct reaches: its true size is the
// distance to its TM2_Operator, because writers of different Tengine
// versions store shorter or longer generations of the same struct.
//
// Imports: formats and tensor.
package tmfile
