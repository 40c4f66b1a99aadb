package tensor

// The loop of the higher moments for float32 blocks: the sums of d, d², d³
// and d⁴ for d = x − c, in float64, on 4 lanes with 2 accumulators each
// (powersums_amd64.s), or in Go lane for lane the same way, so that the
// result does not depend on the CPU.

// powerBlock is how many values the lane loop takes per step.
const powerBlock = 8

// powerSums32 returns Σd … Σd⁴ of d = x − c.
func powerSums32(x []float32, c float64) (s1, s2, s3, s4 float64) {
	body := len(x) / powerBlock * powerBlock
	var l [4][4]float64
	if body > 0 {
		if simdStats {
			powerSumsAVX(&x[0], body, c, &l)
		} else {
			powerLanesPortable(x[:body], c, &l)
		}
	}
	s1 = (l[0][0] + l[0][1]) + (l[0][2] + l[0][3])
	s2 = (l[1][0] + l[1][1]) + (l[1][2] + l[1][3])
	s3 = (l[2][0] + l[2][1]) + (l[2][2] + l[2][3])
	s4 = (l[3][0] + l[3][1]) + (l[3][2] + l[3][3])
	for _, f := range x[body:] {
		d := float64(f) - c
		q := d * d
		s1 += d
		s2 += q
		s3 += q * d
		s4 += q * q
	}
	return s1, s2, s3, s4
}

// powerLanesPortable is the SIMD loop written in Go: s[k−1][lane] is the
// lane's sum of the k-th powers; len(x) is a multiple of powerBlock.
func powerLanesPortable(x []float32, c float64, s *[4][4]float64) {
	var acc [2][4][4]float64 // accumulator (four values apart), power, lane
	for ; len(x) >= powerBlock; x = x[powerBlock:] {
		for i, f := range x[:powerBlock] {
			a, lane := &acc[i/4], i%4
			d := float64(f) - c
			q := d * d
			a[0][lane] += d
			a[1][lane] += q
			a[2][lane] += q * d
			a[3][lane] += q * q
		}
	}
	for k := range 4 {
		for lane := range 4 {
			s[k][lane] = acc[0][k][lane] + acc[1][k][lane]
		}
	}
}
