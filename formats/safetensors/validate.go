package safetensors

import (
	"fmt"
	"sort"

	"tensorscope/tensor"
)

// validate applies the reference's checks on the data buffer of bufLen
// bytes: every tensor's range inside the buffer, of the size its dtype and
// shape need, ranges neither overlapping nor leaving holes, and the buffer
// fully used. A tensor that fails gets a problem (it is listed without
// data); every failure is a warning naming the tensor and the offset.
func (h *header) validate(bufLen int64) {
	bufStart := h.bufferStart()
	for _, e := range h.tensors {
		switch {
		case e.dtype == tensor.Invalid:
			e.problem = fmt.Sprintf("unknown dtype %q (expected one of %s)", e.dtypeName, knownDTypes())
		case e.end < e.start:
			e.problem = fmt.Sprintf("data_offsets [%d, %d] end before they begin", e.start, e.end)
		case e.end > bufLen:
			e.problem = fmt.Sprintf("data_offsets [%d, %d] reach byte %d of the file, past the end of the %d-byte data buffer", e.start, e.end, bufStart+e.end, bufLen)
		default:
			e.problem = sizeProblem(e)
		}
		if e.problem != "" {
			h.warn(e.at, "tensor %q: %s", e.name, e.problem)
		}
	}
	h.checkCoverage(bufLen)
}

func sizeProblem(e *entry) string {
	n, err := tensor.NumElements(e.shape)
	if err != nil {
		return err.Error()
	}
	ue := int64(e.dtype.UnitElems())
	if e.dtype.Packed() && int64(n)%ue != 0 {
		return fmt.Sprintf("shape %v holds %d elements, not a whole number of bytes of %s", e.shape, n, e.dtype)
	}
	want, err := tensor.StorageBytes(e.dtype, int64(n))
	if err != nil {
		return err.Error()
	}
	if want != e.end-e.start {
		return fmt.Sprintf("shape %v of %s needs %d bytes, data_offsets [%d, %d] hold %d", e.shape, e.dtypeName, want, e.start, e.end, e.end-e.start)
	}
	return ""
}

// checkCoverage reports overlapping ranges, holes between ranges and bytes
// after the last one, in buffer order.
func (h *header) checkCoverage(bufLen int64) {
	order := make([]*entry, 0, len(h.tensors))
	for _, e := range h.tensors {
		if e.end >= e.start && e.end <= bufLen {
			order = append(order, e)
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].start != order[j].start {
			return order[i].start < order[j].start
		}
		return order[i].end < order[j].end
	})
	bufStart := h.bufferStart()
	var covered int64
	var last *entry
	for _, e := range order {
		switch {
		case e.start < covered:
			h.warn(bufStart+e.start, "tensor %q: data_offsets [%d, %d] overlap those of %q, which end at %d", e.name, e.start, e.end, last.name, covered)
		case e.start > covered:
			h.warn(bufStart+covered, "%d bytes of the data buffer (at buffer offset %d) belong to no tensor, before %q", e.start-covered, covered, e.name)
		}
		if e.end > covered {
			covered, last = e.end, e
		}
	}
	if covered < bufLen {
		h.warn(bufStart+covered, "%d bytes after the last tensor's data belong to no tensor", bufLen-covered)
	}
}
