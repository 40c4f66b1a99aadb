package tensor

import (
	"context"
	"errors"
	"fmt"
)

// Stats summarises the values of a tensor. Count is every element; Finite,
// NaN, PosInf and NegInf partition it. Zeros counts elements equal to zero
// (both signs; false for bool). Min, Max, Mean, Std (population standard
// deviation) and AbsMax are over the finite values and NaN when there are
// none. Integers are taken as float64, exactly up to 2^53 in magnitude;
// bool is 0 or 1.
type Stats struct {
	Count, Finite, NaN, PosInf, NegInf, Zeros int64
	Min, Max, Mean, Std, AbsMax               float64
}

// ErrNotNumeric reports an operation over values on a dtype that has none
// (complex and opaque types, and packed types whose decoder is not
// registered).
var ErrNotNumeric = errors.New("dtype has no real values")

func checkNumeric(t *Tensor, op string) error {
	if !t.dtype.Numeric() {
		return fmt.Errorf("%s of %s: %w", op, t, ErrNotNumeric)
	}
	return nil
}

// statsWorker is one goroutine's scratch state for accumulating blocks.
type statsWorker struct {
	cur    *statsAcc
	tmp32  []float32
	tmp64  []float64
	reader *blockReader
}

func newStatsWorker(l *layout, t *Tensor) *statsWorker {
	w := &statsWorker{}
	dec := newValueDecoder(t)
	// A small tensor needs no full block of scratch: the statistics of an
	// archive of 100,000 small arrays allocated 3 GB of it.
	block := int(min(statsBlock, max(l.n, 1)))
	if dec.kind == kind32 {
		w.tmp32 = make([]float32, block)
	} else {
		w.tmp64 = make([]float64, block)
	}
	w.reader = newBlockReader(l, dec, block,
		func(x []float32) { w.cur.addF32(x, w.tmp32) },
		func(x []float64) { w.cur.addF64(x, w.tmp64) })
	return w
}

// ComputeStats computes Stats in one parallel pass over any view. Results
// do not depend on the number of cores. The mean and variance are exact to
// a few ulps in float64 (blockwise shifted sums certified against
// cancellation, merged pairwise).
func ComputeStats(ctx context.Context, t *Tensor, progress ProgressFunc) (Stats, error) {
	if err := checkNumeric(t, "stats"); err != nil {
		return Stats{}, err
	}
	return computeStats(ctx, t, newProgressMeter(progress, int64(t.Len())))
}

// computeStats is ComputeStats reporting to a meter that may span several
// passes.
func computeStats(ctx context.Context, t *Tensor, meter *progressMeter) (Stats, error) {
	l := newLayout(t, true)
	if width := codeWidth(t); width > 0 && l.n >= codeStatsMin {
		return codeStats(ctx, t, &l, width, meter)
	}
	plan := planChunks(l.n)
	parts := make([]statsAcc, plan.count)
	err := parallel(ctx, plan.count, func() func(int) error {
		w := newStatsWorker(&l, t)
		return func(c int) error {
			w.cur = &parts[c]
			lo, hi := plan.bounds(c)
			release, err := t.page(ctx, &l, lo, hi)
			if err != nil {
				return err
			}
			defer release()
			t.prefault(&l, lo, hi)
			defer t.release(&l, lo, hi)
			return steps(ctx, lo, hi, meter, w.reader.read)
		}
	})
	if err != nil {
		return Stats{}, err
	}
	return mergeParts(parts), nil
}

// mergeParts folds the chunks' accumulators, in chunk order (so results do
// not depend on how many cores ran them), into the statistics.
func mergeParts(parts []statsAcc) Stats {
	var total statsAcc
	for i := range parts {
		total.merge(&parts[i])
	}
	return total.stats()
}
