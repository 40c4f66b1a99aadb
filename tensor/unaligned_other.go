//go:build !amd64 && !arm64

package tensor

// unalignedLoadsFast: elsewhere a misaligned load may trap or be emulated,
// so misaligned runs are copied into aligned scratch memory first.
const unalignedLoadsFast = false
