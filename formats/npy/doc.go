// Package npy reads NumPy's .npy arrays (header versions 1.0, 2.0 and 3.0)
// and .npz archives of them (format ids "npy" and "npz").
//
// The header is a Python dict literal, parsed strictly as one (never
// evaluated). Data is viewed in place over the mapped file: C order as a
// contiguous tensor, Fortran order as a strided view, each numeric field of
// a structured array as a strided view of its own. Strings and records are
// read as text. Object arrays hold a pickle and are never loaded: loading a
// pickle runs code, and the viewer opens files from strangers.
//
// An .npz is a zip read in place by formats/internal/zipfile: stored members
// are viewed in place over the mapped zip, deflated members are inflated on
// first use, bounded by their declared size.
package npy
