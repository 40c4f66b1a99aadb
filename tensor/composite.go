package tensor

// Composite axes let DimMerge join dimensions that do not lie one inside the
// other in memory — the rows of a conv weight's mosaic, [O,kh] after
// Permute(0,2,1,3), step over kh with stride kw and over O with stride
// I·kh·kw, which no single stride can express. Such an axis keeps its
// components, (size, stride) pairs outermost first, and index i of the axis
// is the mixed-radix number whose digits address them: offset = Σ digit·stride.
//
// Iterating a composite tensor in row-major order is iterating its
// components in row-major order (they are adjacent and outermost first), so
// every kernel that walks a layout sees the components as plain dimensions
// (see physical); only code that turns one axis index into an address needs
// axisOffset. No data is ever copied.

// span is one component of an axis: size indices, stride elements apart.
type span struct{ size, stride int }

// spans returns axis k's components: one for a plain axis.
func (t *Tensor) spans(k int) []span {
	if t.merged != nil && t.merged[k] != nil {
		return t.merged[k]
	}
	return []span{{t.shape[k], t.strides[k]}}
}

// IsComposite reports whether some axis of t is a merge of dimensions that
// no single stride can address (see DimMerge); PhysicalLayout then has more
// dimensions than Shape.
func (t *Tensor) IsComposite() bool { return t.merged != nil }

// axisOffset is the element offset of index i along axis k.
func (t *Tensor) axisOffset(k, i int) int {
	if t.merged == nil || t.merged[k] == nil {
		return i * t.strides[k]
	}
	return spansOffset(t.merged[k], i)
}

// spansOffset decomposes i into the digits of sp, innermost last.
func spansOffset(sp []span, i int) int {
	off := 0
	for j := len(sp) - 1; j >= 0; j-- {
		off += i % sp[j].size * sp[j].stride
		i /= sp[j].size
	}
	return off
}

// physical returns the dimensions t's elements are addressed by, in
// row-major order: every component of every axis.
func (t *Tensor) physical() (shape, strides []int) {
	if t.merged == nil {
		return t.shape, t.strides
	}
	for k := range t.shape {
		for _, s := range t.spans(k) {
			shape = append(shape, s.size)
			strides = append(strides, s.stride)
		}
	}
	return shape, strides
}

// PhysicalLayout returns the sizes and strides (in elements) that address
// t's elements in row-major order. It equals Shape and Strides unless t is
// composite, where each composite axis contributes its components.
func (t *Tensor) PhysicalLayout() (shape, strides []int) {
	sh, st := t.physical()
	return append([]int(nil), sh...), append([]int(nil), st...)
}

// joinSpans concatenates the components of several axes, outermost first,
// dropping size-1 components and fusing neighbours that lie one inside the
// other. It returns nil when the result is one plain run.
func joinSpans(axes [][]span) []span {
	var out []span
	for _, sp := range axes {
		for _, s := range sp {
			if s.size == 1 {
				continue
			}
			if k := len(out) - 1; k >= 0 && out[k].stride == s.size*s.stride {
				out[k] = span{out[k].size * s.size, s.stride}
				continue
			}
			out = append(out, s)
		}
	}
	if len(out) <= 1 {
		return nil
	}
	return out
}

// mergedWithout returns t's per-axis components without axis drop
// (−1 for none), nil when no axis stays composite.
func (t *Tensor) mergedWithout(drop int) [][]span {
	if t.merged == nil {
		return nil
	}
	var out [][]span
	any := false
	for k, sp := range t.merged {
		if k == drop {
			continue
		}
		out = append(out, sp)
		any = any || sp != nil
	}
	if !any {
		return nil
	}
	return out
}

// normMerged turns a list with no composite axis into nil.
func normMerged(m [][]span) [][]span {
	for _, sp := range m {
		if sp != nil {
			return m
		}
	}
	return nil
}

// sliceSpans keeps indices [start, start+length) of an axis with components
// sp, if that is again a set of components: a range aligned to whole blocks
// of the outermost component, or one inside a single block of it. It
// returns the components and the element shift of the range's first index.
func sliceSpans(sp []span, start, length int) ([]span, int, bool) {
	if len(sp) == 1 {
		return []span{{length, sp[0].stride}}, start * sp[0].stride, true
	}
	inner := 1
	for _, s := range sp[1:] {
		inner *= s.size
	}
	block := start / inner
	if start%inner == 0 && length%inner == 0 {
		out := append([]span{{length / inner, sp[0].stride}}, sp[1:]...)
		return out, block * sp[0].stride, true
	}
	if block == (start+length-1)/inner {
		rest, shift, ok := sliceSpans(sp[1:], start%inner, length)
		return rest, shift + block*sp[0].stride, ok
	}
	return nil, 0, false
}

// axisFrom returns the size, stride and components (nil when plain) of an
// axis made of sp. The stride of a composite axis is its innermost one.
func axisFrom(sp []span) (size, stride int, comp []span) {
	size = 1
	for _, s := range sp {
		size *= s.size
	}
	stride = sp[len(sp)-1].stride
	if j := joinSpans([][]span{sp}); j != nil {
		return size, j[len(j)-1].stride, j
	}
	for _, s := range sp {
		if s.size != 1 {
			stride = s.stride
		}
	}
	return size, stride, nil
}

// mergedAxis is axis k's components if it is composite, else nil.
func (t *Tensor) mergedAxis(k int) []span {
	if t.merged == nil {
		return nil
	}
	return t.merged[k]
}

// doubledStrides is merged with every stride doubled, for the real and
// imaginary views of complex numbers.
func doubledStrides(merged [][]span) [][]span {
	if merged == nil {
		return nil
	}
	out := make([][]span, len(merged))
	for k, sp := range merged {
		for _, s := range sp {
			out[k] = append(out[k], span{s.size, 2 * s.stride})
		}
	}
	return out
}

// AxisBlock is, for a composite axis k, how many consecutive indices share
// its outermost component's digit — the height of one kernel in a conv
// mosaic's rows — and 0 for a plain axis. Views draw separators there.
func (t *Tensor) AxisBlock(k int) int {
	sp := t.mergedAxis(k)
	if sp == nil || sp[0].size == 0 {
		return 0
	}
	return t.shape[k] / sp[0].size
}
