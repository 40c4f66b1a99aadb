// Package safetensors reads Hugging Face safetensors files and sharded
// checkpoints (format id "safetensors"), and writes them.
//
// A file is an 8-byte little-endian header length, a JSON header naming
// each tensor's dtype, shape and data_offsets (relative to the data buffer
// that follows), and the buffer. The header is checked as strictly as the
// reference implementation checks it; problems that leave the rest of the
// file readable are warnings naming the tensor and the byte offset.
//
// A "*.safetensors.index.json" opens as one document over all its shards:
// names come from its weight_map, each shard's header is read on opening,
// and each shard is mapped only when one of its tensors is first read.
package safetensors
