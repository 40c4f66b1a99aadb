// Package pytorch reads PyTorch checkpoints (format id "pytorch") and
// TorchScript archives ("torchscript") without ever running pickle.
//
// A checkpoint is a Python pickle. It is read by an unpickler of our own
// (pickle.go) that builds Go values and calls nothing: the globals torch's
// weights-only unpickler accepts (tensor rebuild functions, storage
// classes, dtypes, OrderedDict, torch.Size, NumPy scalars and arrays...)
// build data, and any other class becomes an inert object whose arguments
// and state are shown as data. Nothing the pickle names is imported or
// opened. The memo, the stack, nesting and every declared length are
// bounded by the file.
//
// The containers: torch's zip format (any archive folder name), read in
// place by formats/internal/zipfile, whose stored data/<key> members are
// viewed in place over the mapped file and deflated ones inflated on first
// use; the legacy stream of
// _use_new_zipfile_serialization=False (magic number, protocol, sys_info,
// the object, the storage keys, then the raw storages, also viewed in
// place); TorchScript archives, whose tensors get the names
// torch.jit.load(f).state_dict() gives them; and Hugging Face's
// pytorch_model.bin.index.json, one document over its shards.
//
// Tensors are views: storage, storage offset, size and stride become a
// tensor.Tensor over the storage's bytes, never a copy. Names are key
// paths from the top object joined with "."; a bare tensor is "#0".
package pytorch
