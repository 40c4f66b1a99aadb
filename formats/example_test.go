package formats_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"tensorscope/formats"
	_ "tensorscope/formats/all" // registers every codec, as image/png registers PNG
	"tensorscope/tensor"
)

// Open chooses the codec by content, reads headers only and lists the
// tensors; a tensor's data is read when it is loaded. Here the file is a
// NumPy array written through the .npy codec's encoder.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "weights.npy")
	w, err := tensor.FromFloat32s([]float32{0.5, -1, 2, 0, 1.5, 3}, []int{2, 3})
	if err != nil {
		panic(err)
	}
	enc, err := formats.EncoderFor(path)
	if err != nil {
		panic(err)
	}
	err = formats.WriteFileAtomic(path, func(f io.Writer) error {
		_, err := enc.Write(context.Background(), f, []formats.Named{{Name: "w", Tensor: w}}, nil)
		return err
	})
	if err != nil {
		panic(err)
	}

	doc, err := formats.Open(path)
	if err != nil {
		panic(err)
	}
	defer doc.Close()
	fmt.Println(doc.Format, doc.FormatName)
	for _, e := range doc.Tensors {
		t, err := e.Load(context.Background())
		if err != nil {
			panic(err)
		}
		v, err := t.Float64At([]int{1, 2})
		if err != nil {
			panic(err)
		}
		fmt.Println(e.Name, t.DType(), t.Shape(), v)
	}
	// Output:
	// npy NumPy array
	// #0 float32 [2 3] 3
}
