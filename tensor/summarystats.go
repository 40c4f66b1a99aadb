package tensor

import (
	"context"
	"math"
	"sync/atomic"
)

// Summary is what a model overview needs of one tensor, computed in the
// same single pass as its Stats: the Stats themselves (bit-identical to
// ComputeStats for the same view), the L2 norm, the excess kurtosis and
// the number of dead rows. Like Stats, the moments are over the finite
// values.
type Summary struct {
	Stats
	// L2 is sqrt(Σx²); 0 when there are no finite values.
	L2 float64
	// Kurtosis is the excess kurtosis with population moments,
	// m4/m2² − 3; NaN when there are no finite values or they are all
	// equal (m2 = 0).
	Kurtosis float64
	// DeadRows counts, for rank ≥ 2, the indices i on axis 0 for which
	// every element of x[i] is zero (a NaN is not zero); 0 for rank < 2.
	DeadRows int64
}

// OutlierRatio is max|x − mean| / std over the finite values, NaN when
// std = 0 (all finite values equal) or there are none. The farthest value
// from the mean is one of the extremes.
func (s Summary) OutlierRatio() float64 {
	if s.Finite == 0 || s.Min == s.Max || s.Std == 0 {
		return math.NaN()
	}
	return max(s.Max-s.Mean, s.Mean-s.Min) / s.Std
}

// summaryAcc is one chunk's accumulator: the statistics, unchanged, beside
// the higher moments.
type summaryAcc struct {
	st statsAcc
	mo momentAcc
}

// momentAcc holds count, mean and the central sums M2, M3 and M4 of the
// finite values times 2^exp, merged with Pébay's pairwise formulas. It is
// kept apart from statsAcc (whose own M2 gives the std) so that the
// statistics stay exactly what ComputeStats gives. float32 values never
// need scaling (their fourth powers stay within float64); float64 blocks
// with magnitudes beyond 2^±240 are scaled to below 1.
type momentAcc struct {
	n          float64
	mean       float64
	m2, m3, m4 float64
	exp        int
	used       bool
}

const (
	momentHuge = 0x1p240
	momentTiny = 0x1p-240
	// momentRedo bounds (block mean − centre)² / variance, past which the
	// shifted power sums have lost too many bits of M4 and the block is
	// recomputed about its own mean.
	momentRedo = 16
)

// merge folds in nb values with mean mb and central sums m2b, m3b, m4b, all
// times 2^exp.
func (a *momentAcc) merge(nb, mb, m2b, m3b, m4b float64, exp int) {
	if nb == 0 {
		return
	}
	if !a.used {
		*a = momentAcc{n: nb, mean: mb, m2: m2b, m3: m3b, m4: m4b, exp: exp, used: true}
		return
	}
	switch {
	case exp < a.exp:
		k := exp - a.exp
		a.mean, a.m2, a.m3, a.m4 = math.Ldexp(a.mean, k), math.Ldexp(a.m2, 2*k), math.Ldexp(a.m3, 3*k), math.Ldexp(a.m4, 4*k)
		a.exp = exp
	case exp > a.exp:
		k := a.exp - exp
		mb, m2b, m3b, m4b = math.Ldexp(mb, k), math.Ldexp(m2b, 2*k), math.Ldexp(m3b, 3*k), math.Ldexp(m4b, 4*k)
	}
	na := a.n
	n := na + nb
	d := mb - a.mean
	dn := d / n
	dn2 := dn * dn
	t := d * dn * na * nb // δ² na nb / n
	m4 := a.m4 + m4b + t*dn2*(na*na-na*nb+nb*nb) + 6*dn2*(na*na*m2b+nb*nb*a.m2) + 4*dn*(na*m3b-nb*a.m3)
	m3 := a.m3 + m3b + t*dn*(na-nb) + 3*dn*(na*m2b-nb*a.m2)
	a.m2 += m2b + t
	a.m3, a.m4 = m3, m4
	a.mean += dn * nb
	a.n = n
}

func (a *momentAcc) mergeAcc(b *momentAcc) {
	if b.used {
		a.merge(b.n, b.mean, b.m2, b.m3, b.m4, b.exp)
	}
}

// centralFrom turns power sums of deviations d = x − c (s1 = Σd … s4 =
// Σd⁴ over n values) into the mean offset from c and the central sums.
func centralFrom(n, s1, s2, s3, s4 float64) (off, m2, m3, m4 float64) {
	off = s1 / n
	o2 := off * off
	m2 = max(s2-s1*off, 0)
	m3 = s3 - 3*off*s2 + 2*n*o2*off
	m4 = max(s4-4*off*s3+6*o2*s2-3*n*o2*o2, 0)
	return off, m2, m3, m4
}

// powerSums returns Σd … Σd⁴ of d = x·scale − c.
func powerSums[T float32 | float64](x []T, scale, c float64) (s1, s2, s3, s4 float64) {
	var a1, b1, a2, b2, a3, b3, a4, b4 float64
	i := 0
	if scale == 1 {
		for ; i+2 <= len(x); i += 2 {
			d0, d1 := float64(x[i])-c, float64(x[i+1])-c
			q0, q1 := d0*d0, d1*d1
			a1 += d0
			b1 += d1
			a2 += q0
			b2 += q1
			a3 += q0 * d0
			b3 += q1 * d1
			a4 += q0 * q0
			b4 += q1 * q1
		}
	}
	for ; i < len(x); i++ {
		d := float64(x[i])*scale - c
		q := d * d
		a1 += d
		a2 += q
		a3 += q * d
		a4 += q * q
	}
	return a1 + b1, a2 + b2, a3 + b3, a4 + b4
}

// addMoments accumulates a block whose statistics st has just taken in:
// about the running mean in one loop when every value is finite and of
// moderate size, otherwise over the finite values (collected in tmp)
// about their own mean, scaled when they are huge or tiny.
func addMoments[T float32 | float64](a *momentAcc, st *statsAcc, x, tmp []T, finite bool, wide bool) {
	if len(x) == 0 {
		return
	}
	if finite && (!wide || scaleFor4(max(-st.mn, st.mx)) == 0 && a.exp == 0) {
		c := float64(x[0])
		if a.used {
			c = a.mean
		}
		n := float64(len(x))
		var s1, s2, s3, s4 float64
		if x32, ok := any(x).([]float32); ok {
			s1, s2, s3, s4 = powerSums32(x32, c)
		} else {
			s1, s2, s3, s4 = powerSums(x, 1, c)
		}
		if s4-s4 == 0 {
			off, m2, m3, m4 := centralFrom(n, s1, s2, s3, s4)
			if off*off <= momentRedo*m2/n || off == 0 {
				a.merge(n, c+off, m2, m3, m4, 0)
				return
			}
			exactMoments(a, x, 1, 0)
			return
		}
	}
	k := 0
	absMax := 0.0
	for _, v := range x {
		f := float64(v)
		if f-f == 0 {
			tmp[k] = v
			k++
			absMax = max(absMax, math.Abs(f))
		}
	}
	if k == 0 {
		return
	}
	exp := scaleFor4(absMax)
	exactMoments(a, tmp[:k], math.Ldexp(1, exp), exp)
}

// exactMoments accumulates finite values x·scale (scale = 2^exp) about
// their own mean: the mean first, then the power sums about it.
func exactMoments[T float32 | float64](a *momentAcc, x []T, scale float64, exp int) {
	n := float64(len(x))
	var sum float64
	for _, v := range x {
		sum += float64(v) * scale
	}
	c := sum / n
	s1, s2, s3, s4 := powerSums(x, scale, c)
	off, m2, m3, m4 := centralFrom(n, s1, s2, s3, s4)
	a.merge(n, c+off, m2, m3, m4, exp)
}

// scaleFor4 returns the exponent that brings finite values of largest
// magnitude absMax below 1 when their fourth powers (times 2^40 of them)
// would overflow or underflow, and 0 otherwise.
func scaleFor4(absMax float64) int {
	if absMax >= momentHuge || absMax != 0 && absMax < momentTiny {
		_, e := math.Frexp(absMax)
		return -e
	}
	return 0
}

// finish completes a Summary from the merged accumulators.
func (a *summaryAcc) finish(dead int64) Summary {
	s := Summary{Stats: a.st.stats(), Kurtosis: math.NaN(), DeadRows: dead}
	mo := &a.mo
	if s.Finite == 0 || !mo.used {
		return s
	}
	sumSq := mo.m2 + mo.n*mo.mean*mo.mean
	s.L2 = math.Ldexp(math.Sqrt(max(sumSq, 0)), -mo.exp)
	if s.Min != s.Max && mo.m2 > 0 {
		s.Kurtosis = mo.n*mo.m4/(mo.m2*mo.m2) - 3
	}
	return s
}

// rowTracker finds the dead rows of a tensor walked in logical order: the
// indices on axis 0 whose elements are all zero. Workers mark rows in which
// they saw a nonzero value in a shared bitset.
type rowTracker struct {
	rowLen int64
	rows   int64
	alive  []uint32
}

func newRowTracker(t *Tensor) *rowTracker {
	if t.Rank() < 2 || t.shape[0] == 0 || t.Len() == 0 {
		return nil
	}
	rows := int64(t.shape[0])
	return &rowTracker{rowLen: int64(t.Len()) / rows, rows: rows, alive: make([]uint32, (rows+31)/32)}
}

// mark records rows r0..r1 (inclusive) as alive.
func (r *rowTracker) mark(r0, r1 int64) {
	for r0 <= r1 {
		w := r0 / 32
		hi := min(r1, w*32+31)
		bits := uint32(((uint64(1) << (hi - r0 + 1)) - 1) << (r0 % 32))
		if atomic.LoadUint32(&r.alive[w])&bits != bits {
			atomic.OrUint32(&r.alive[w], bits)
		}
		r0 = hi + 1
	}
}

// see takes in a block of values with iteration indices [pos, pos+len(x))
// of which zeros are zero.
func see[T float32 | float64](r *rowTracker, pos int64, x []T, zeros int64) {
	n := int64(len(x))
	switch {
	case r == nil || n == 0 || zeros == n:
		return
	case zeros == 0:
		r.mark(pos/r.rowLen, (pos+n-1)/r.rowLen)
		return
	}
	for lo := int64(0); lo < n; {
		row := (pos + lo) / r.rowLen
		hi := min(n, (row+1)*r.rowLen-pos)
		for _, v := range x[lo:hi] {
			if v != 0 {
				r.mark(row, row)
				break
			}
		}
		lo = hi
	}
}

func (r *rowTracker) dead() int64 {
	if r == nil {
		return 0
	}
	var alive int64
	for _, w := range r.alive {
		alive += int64(popcount32(w))
	}
	return r.rows - alive
}

func popcount32(w uint32) int {
	n := 0
	for ; w != 0; w &= w - 1 {
		n++
	}
	return n
}

// summaryWorker is one goroutine's scratch state.
type summaryWorker struct {
	cur    *summaryAcc
	pos    int64
	tmp32  []float32
	tmp64  []float64
	reader *blockReader
}

func newSummaryWorker(l *layout, t *Tensor, rows *rowTracker) *summaryWorker {
	w := &summaryWorker{}
	dec := newValueDecoder(t)
	if dec.kind == kind32 {
		w.tmp32 = make([]float32, statsBlock)
	} else {
		w.tmp64 = make([]float64, statsBlock)
	}
	w.reader = newBlockReader(l, dec, statsBlock,
		func(x []float32) {
			a := &w.cur.st
			nonFinite, zeros := a.nan+a.pinf+a.ninf, a.zeros
			a.addF32(x, w.tmp32)
			addMoments(&w.cur.mo, a, x, w.tmp32, a.nan+a.pinf+a.ninf == nonFinite, false)
			see(rows, w.pos, x, a.zeros-zeros)
			w.pos += int64(len(x))
		},
		func(x []float64) {
			a := &w.cur.st
			nonFinite, zeros := a.nan+a.pinf+a.ninf, a.zeros
			a.addF64(x, w.tmp64)
			addMoments(&w.cur.mo, a, x, w.tmp64, a.nan+a.pinf+a.ninf == nonFinite, true)
			see(rows, w.pos, x, a.zeros-zeros)
			w.pos += int64(len(x))
		})
	return w
}

// ComputeSummary computes a Summary in one parallel pass over any view:
// every block of values goes through the statistics loop and, while it is
// still in cache, the loop of the higher moments and the dead-row check.
// Results do not depend on the number of cores, and Summary.Stats equals
// what ComputeStats returns for the same tensor.
func ComputeSummary(ctx context.Context, t *Tensor, progress ProgressFunc) (Summary, error) {
	if err := checkNumeric(t, "summary"); err != nil {
		return Summary{}, err
	}
	meter := newProgressMeter(progress, int64(t.Len()))
	rows := newRowTracker(t)
	// Dead rows need the logical order; statistics any order. The two
	// agree for contiguous tensors, the only ones files hold.
	l := newLayout(t, rows == nil)
	if width := codeWidth(t); width > 0 && l.n >= codeStatsMin {
		return codeSummary(ctx, t, &l, width, rows, meter)
	}
	plan := planChunks(l.n)
	parts := make([]summaryAcc, plan.count)
	err := parallel(ctx, plan.count, func() func(int) error {
		w := newSummaryWorker(&l, t, rows)
		return func(c int) error {
			w.cur = &parts[c]
			lo, hi := plan.bounds(c)
			w.pos = lo
			release, err := t.page(ctx, &l, lo, hi)
			if err != nil {
				return err
			}
			defer release()
			t.prefault(&l, lo, hi)
			return steps(ctx, lo, hi, meter, func(lo, hi int64) {
				w.pos = lo
				w.reader.read(lo, hi)
			})
		}
	})
	if err != nil {
		return Summary{}, err
	}
	return mergeSummaries(parts, rows), nil
}

func mergeSummaries(parts []summaryAcc, rows *rowTracker) Summary {
	var total summaryAcc
	for i := range parts {
		total.st.merge(&parts[i].st)
		total.mo.mergeAcc(&parts[i].mo)
	}
	return total.finish(rows.dead())
}

// codeSummary is ComputeSummary for the dtypes codeWidth accepts: the
// pattern table gives the statistics as in codeStats and the moments
// exactly; dead rows come from the count of zero patterns before and after
// each row's run.
func codeSummary(ctx context.Context, t *Tensor, l *layout, width int, rows *rowTracker, meter *progressMeter) (Summary, error) {
	plan := planChunks(l.n)
	parts := make([]summaryAcc, plan.count)
	vals := codeValues(t.dtype, width)
	var zeroCodes []int
	for code, v := range vals {
		if v == 0 {
			zeroCodes = append(zeroCodes, code)
		}
	}
	err := parallel(ctx, plan.count, func() func(int) error {
		c := &codeCounter{l: l, width: width, swapped: t.bigEndian && width == 2,
			counts: make([]uint32, len(vals)), vals: vals}
		zerosNow := func() int64 {
			var z int64
			for _, code := range zeroCodes {
				z += int64(c.counts[code])
			}
			return z
		}
		fold := func(acc *summaryAcc) {
			if c.pending > 0 {
				foldMoments(&acc.mo, c.counts, vals)
			}
			c.fold(&acc.st)
		}
		return func(ch int) error {
			lo, hi := plan.bounds(ch)
			release, err := t.page(ctx, l, lo, hi)
			if err != nil {
				return err
			}
			defer release()
			t.prefault(l, lo, hi)
			err = steps(ctx, lo, hi, meter, func(lo, hi int64) {
				if rows == nil {
					l.runs(lo, hi, c.count)
				} else {
					for lo < hi {
						row := lo / rows.rowLen
						end := min(hi, (row+1)*rows.rowLen)
						z := zerosNow()
						l.runs(lo, end, c.count)
						if zerosNow()-z < end-lo {
							rows.mark(row, row)
						}
						lo = end
					}
				}
				if c.pending >= countFoldAt {
					fold(&parts[ch])
				}
			})
			fold(&parts[ch])
			return err
		}
	})
	if err != nil {
		return Summary{}, err
	}
	return mergeSummaries(parts, rows), nil
}

// foldMoments adds the moments of a pattern table's finite values to a:
// the mean first, then the central power sums, each pattern's value taken
// once times its count.
func foldMoments(a *momentAcc, counts []uint32, vals []float64) {
	var n, sum float64
	for code, k := range counts {
		if v := vals[code]; k != 0 && v-v == 0 {
			n += float64(k)
			sum += float64(k) * v
		}
	}
	if n == 0 {
		return
	}
	c := sum / n
	var s1, s2, s3, s4 float64
	for code, k := range counts {
		if v := vals[code]; k != 0 && v-v == 0 {
			d := v - c
			q := d * d
			f := float64(k)
			s1 += f * d
			s2 += f * q
			s3 += f * q * d
			s4 += f * q * q
		}
	}
	off, m2, m3, m4 := centralFrom(n, s1, s2, s3, s4)
	a.merge(n, c+off, m2, m3, m4, 0)
}
