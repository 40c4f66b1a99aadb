// Package tensor is Tensorscope's shared tensor and view core: element types,
// read-only storage (often a memory-mapped file region), strided views over it,
// and the computations every view reads through — statistics, histograms and
// heatmap planes with downsampling.
//
// Every format decodes into this core and every pane reads through it.
//
//   - Element types: DType (NumPy and ml_dtypes names; ggml's lowercase names
//     for block types). Byte-addressable types have a Size; packed types
//     (int4, uint4, int2, uint2, float4_e2m1fn, float6_e2m3fn, float6_e3m2fn
//     and ggml's block types) store UnitElems elements in UnitBytes bytes,
//     and StorageBytes says how many bytes n elements take. Exact
//     float16/bfloat16 conversions (Float16ToFloat32, Float32ToFloat16,
//     BFloat16ToFloat32, Float32ToBFloat16); narrow floats (float8, float6,
//     float4) by NarrowFloatValue and Float32ToNarrow (round to nearest
//     even, saturating as ONNX or not as ml_dtypes); PackSubByte packs
//     values as a sub-byte type. datetime64/timedelta64 are int64 counts,
//     NaT (the minimum) counted as NaN.
//   - Storage and tensors: MapFile, NewStorage, New, NewStrided, FromBytes.
//   - Views, sharing storage and failing with ErrView instead of panicking:
//     Slice, Select, Permute, DimMerge, DimSplit, View, Plane; IsContiguous;
//     copies with Contiguous, ContiguousBytes and ToFloat32 (any numeric
//     view as float32, what writers use for types a format cannot hold).
//   - Views that change how elements read: BigEndian (multi-byte values
//     stored big-endian, swapped as they are decoded, never copied up
//     front; IsBigEndian) and ComplexPart (RealPart and ImagPart as
//     zero-copy float views, Magnitude computed as it is read).
//   - Elements: Float64At, ElementString, ElementBytes, ReadFloat64s.
//   - Over all the data, in parallel, cancellable through a context and
//     reporting progress: ComputeStats, ComputeHistogram,
//     Percentiles, Downsample, Dequantize. On a mapped file, each worker
//     asks the kernel to map its chunk in one call before reading it.
//
// Storage is little-endian unless a view says otherwise. Strides are in
// elements and never negative; views are immutable and safe to share between
// goroutines.
//
// Packed elements are addressed by element number, counted from the unit at
// Offset plus UnitPhase, so a view may start inside a unit (a slice of a
// q4_k row from column 100) and every view applies. Sub-byte elements are
// one little-endian bit stream (the first int4 in the low nibble; see
// subbyte.go). The kernels decode contiguous runs unit by unit into their
// buffers and strided walks through a small cache of decoded units. Packed
// elements have no bytes of their own: ElementBytes and ContiguousBytes fail
// with ErrNoBytes. A block type becomes numeric when its package registers
// a unit decoder in unitDecoders (and, for big-endian files, a unit swapper
// in unitSwappers) from an init function; without one its tensors are
// listed but ErrNotNumeric.
//
// Imports: the standard library, github.com/x448/float16 (half-precision
// conversion) and golang.org/x/sys/cpu (the AVX check of the statistics
// loop); nothing of Tensorscope's own. formats, viewmodel, ui and cli
// import tensor; graphview does not.
package tensor
