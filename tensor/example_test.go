package tensor_test

import (
	"context"
	"fmt"

	"tensorscope/tensor"
)

// A plane is a 2-D view: here the rows and columns of a [2,3,4] tensor with
// axis 0 held at 1. Nothing is copied.
func ExamplePlane() {
	values := make([]float32, 2*3*4)
	for i := range values {
		values[i] = float32(i)
	}
	t, err := tensor.FromFloat32s(values, []int{2, 3, 4})
	if err != nil {
		panic(err)
	}
	p, err := tensor.Plane(t, 1, 2, []int{1, 0, 0})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Shape())
	row := make([]float64, 4)
	for r := 0; r < 3; r++ {
		if err := p.ReadFloat64s(int64(4*r), row); err != nil {
			panic(err)
		}
		fmt.Println(row)
	}
	// Output:
	// [3 4]
	// [12 13 14 15]
	// [16 17 18 19]
	// [20 21 22 23]
}

// Statistics are over the finite values, in one pass; the standard
// deviation is the population one, as NumPy's std.
func ExampleComputeStats() {
	t, err := tensor.FromFloat32s([]float32{1, 2, 3, 4, 0}, []int{5})
	if err != nil {
		panic(err)
	}
	st, err := tensor.ComputeStats(context.Background(), t, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("count %d, zeros %d, min %g, max %g, mean %g, std %.4f\n", st.Count, st.Zeros, st.Min, st.Max, st.Mean, st.Std)
	// Output: count 5, zeros 1, min 0, max 4, mean 2, std 1.4142
}
