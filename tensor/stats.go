package tensor

import (
	"context"
	"errors"
	"fmt"
	"runtime"
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

// ChannelStats computes Stats for every index along axis (per output
// channel of a weight, say). Progress counts all elements.
//
// Channels are processed in groups, tile by tile, so that a layout in which
// the channel axis is innermost (NHWC) still reads each cache line about
// once rather than once per channel.
func ChannelStats(ctx context.Context, t *Tensor, axis int, progress ProgressFunc) ([]Stats, error) {
	if err := checkNumeric(t, "channel stats"); err != nil {
		return nil, err
	}
	if axis < 0 || axis >= t.Rank() {
		return nil, fmt.Errorf("channel stats of %s: axis %d out of range [0,%d)", t, axis, t.Rank())
	}
	if t.mergedAxis(axis) != nil {
		return nil, fmt.Errorf("channel stats of %s: axis %d is composite (a merge of dims not adjacent in memory)", t, axis)
	}
	channels := t.shape[axis]
	out := make([]Stats, channels)
	if channels == 0 {
		return out, nil
	}
	rest, err := t.Select(axis, 0)
	if err != nil {
		return nil, err
	}
	base := newLayout(rest, true)
	perChannel := base.n
	chStride := t.strides[axis] * t.addrSize()
	elemBytes := max(1, t.dtype.ElementBits()/8) // for sizing tiles

	group := 1
	if chStride < 64 {
		group = min(channels, 64/max(chStride, 1))
	}
	groups := (channels + group - 1) / group
	workers := runtime.GOMAXPROCS(0)
	parts := 1
	if groups < 4*workers {
		parts = int(min(int64((4*workers+groups-1)/groups), (perChannel+minChunk-1)/minChunk))
		parts = max(parts, 1)
	}
	partLen := (perChannel + int64(parts) - 1) / int64(parts)
	tile := max(int64(256), int64(256<<10/(group*elemBytes)))
	if t.dtype.Packed() && group > 1 {
		// The channels of a group share units: keep the tile within the
		// unit cache, so that each unit is decoded once per group.
		tile = unitCacheSlots / 8
	}

	accs := make([]statsAcc, parts*channels)
	meter := newProgressMeter(progress, perChannel*int64(channels))
	err = parallel(ctx, groups*parts, func() func(int) error {
		l := base
		w := newStatsWorker(&l, rest)
		return func(item int) error {
			g, p := item%groups, item/groups
			c0, c1 := g*group, min(g*group+group, channels)
			lo, hi := int64(p)*partLen, min(int64(p+1)*partLen, perChannel)
			for m := lo; m < hi; m += tile {
				if err := ctx.Err(); err != nil {
					return err
				}
				end := min(m+tile, hi)
				for c := c0; c < c1; c++ {
					l.base = base.base + c*chStride
					w.cur = &accs[p*channels+c]
					w.reader.read(m, end)
				}
				meter.add((end - m) * int64(c1-c0))
			}
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	for c := range out {
		acc := accs[c]
		for p := 1; p < parts; p++ {
			acc.merge(&accs[p*channels+c])
		}
		out[c] = acc.stats()
	}
	return out, nil
}
