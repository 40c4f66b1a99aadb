// Package tensor is Tensorscope's shared tensor and view core: element types,
// read-only storage (often a memory-mapped file region), strided views over it,
// and the computations every view reads through — statistics, histograms and
// heatmap planes with downsampling.
//
// Every format decodes into this core and every pane reads through it.
//
//   - Element types: DType (NumPy names), exact float16/bfloat16 conversions
//     (Float16ToFloat32, Float32ToFloat16, BFloat16ToFloat32,
//     Float32ToBFloat16; round to nearest even, NaN payloads kept).
//   - Storage and tensors: MapFile, NewStorage, New, NewStrided, FromBytes.
//   - Views, sharing storage and failing with ErrView instead of panicking:
//     Slice, Select, Permute, DimMerge, DimSplit, View, Plane; IsContiguous;
//     copies with Contiguous and ContiguousBytes.
//   - Elements: Float64At, ElementString, ElementBytes, ReadFloat64s.
//   - Over all the data, in parallel, cancellable through a context and
//     reporting progress: ComputeStats, ChannelStats, ComputeHistogram,
//     Percentiles, Downsample, Dequantize.
//
// Storage is little-endian whatever the host. Strides are in elements and
// never negative; views are immutable and safe to share between goroutines.
//
// Imports: the standard library and github.com/x448/float16 only; nothing of
// Tensorscope's own. Everything above (formats, graphview, viewmodel, ui)
// may import tensor.
package tensor
