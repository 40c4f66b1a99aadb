package tensor

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMisalignedRunsGiveTheSameResults: float32 and float64 values that
// start at every byte offset of the storage (an ONNX raw_data payload
// lies wherever its length prefix ends) give the statistics and histogram
// of the aligned copy, bit for bit, and are read in place where the CPU
// loads misaligned words at full speed.
func TestMisalignedRunsGiveTheSameResults(t *testing.T) {
	const n = 3*statsBlock + 123
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = rng.NormFloat64()
	}
	vals[17], vals[statsBlock+5] = math.NaN(), math.Inf(1) // the slow loop too
	for _, dt := range []DType{Float32, Float64} {
		var want Stats
		var wantHist *Histogram
		for shift := 0; shift < 8; shift++ {
			buf := make([]byte, shift+n*dt.Size())
			for i, v := range vals {
				if dt == Float32 {
					putF32(buf[shift+4*i:], float32(v))
				} else {
					putF64(buf[shift+8*i:], v)
				}
			}
			x, err := New(NewStorage(buf), int64(shift), dt, []int{n})
			if err != nil {
				t.Fatal(err)
			}
			st, err := ComputeStats(context.Background(), x, nil)
			if err != nil {
				t.Fatal(err)
			}
			h, err := ComputeHistogram(context.Background(), x, 64, -3, 3, nil)
			if err != nil {
				t.Fatal(err)
			}
			if shift == 0 {
				want, wantHist = st, h
				continue
			}
			if st != want {
				t.Errorf("%s at byte %d: stats %+v, aligned %+v", dt, shift, st, want)
			}
			if !slices.Equal(h.Counts, wantHist.Counts) || h.NaN != wantHist.NaN || h.PosInf != wantHist.PosInf {
				t.Errorf("%s at byte %d: histogram %v, aligned %v", dt, shift, h.Counts, wantHist.Counts)
			}
			inPlace := inPlaceF32(buf, shift, 4) != nil
			if dt == Float64 {
				inPlace = inPlaceF64(buf, shift, 4) != nil
			}
			if inPlace != unalignedLoadsFast && shift%dt.Size() != 0 {
				t.Errorf("%s at byte %d: read in place %v, want %v on this CPU", dt, shift, inPlace, unalignedLoadsFast)
			}
		}
	}
}
