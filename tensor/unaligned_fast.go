//go:build amd64 || arm64

package tensor

// unalignedLoadsFast: these CPUs load a float32 or float64 from any
// address at full speed (a load that crosses a cache line costs a cycle
// more), so the kernels read misaligned runs of the storage in place, such
// as an ONNX raw_data payload after its protobuf length prefix.
const unalignedLoadsFast = true
