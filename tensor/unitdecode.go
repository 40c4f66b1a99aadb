package tensor

// unitDecoders holds, for each packed dtype, the function that turns whole
// storage units into float32 values: it decodes len(src)/UnitBytes units
// from src into dst (len(dst) == units·UnitElems), exactly as the format's
// reference dequantiser does. Files that teach the core a packed type set
// their entry in an init function (the sub-byte types beside the kernels,
// ggml's block types in ggml_*.go).
var unitDecoders [numDTypes]func(dst []float32, src []byte)
