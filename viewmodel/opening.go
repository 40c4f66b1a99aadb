package viewmodel

import "tensorscope/formats"

// OpeningRow is the row a list opens on, so that a file of many tensors
// shows something worth seeing rather than an empty inspector: the largest
// tensor of two or more dimensions whose role is weight (the first of
// equals, in list order), else the first tensor that can be drawn, else the
// first with any data or text. It is -1 when no row shown holds a tensor
// with data. A tensor of a remote file that showing would read at length
// from the server (formats.TensorEntry.RemoteReadNote) is never opened on
// by itself: opening a checkpoint on the Hub reads its header, and a
// tensor's bytes only when the user asks for them.
func (l *TensorList) OpeningRow() int {
	best, bestSize := -1, int64(-1)
	firstDrawn, firstData := -1, -1
	for row := 0; row < l.Len(); row++ {
		i := l.Index(row)
		if i < 0 {
			continue // a group row of the name tree
		}
		e := l.entries[i]
		if !opensByItself(e) {
			continue
		}
		if !e.HasData() {
			if e.HasText() && firstData < 0 {
				firstData = row
			}
			continue
		}
		if firstData < 0 {
			firstData = row
		}
		if !drawable(e) {
			continue
		}
		if firstDrawn < 0 {
			firstDrawn = row
		}
		if e.Role == formats.RoleWeight && len(e.Shape) >= 2 {
			if n := elements(e); n > bestSize {
				best, bestSize = row, n
			}
		}
	}
	switch {
	case best >= 0:
		return best
	case firstDrawn >= 0:
		return firstDrawn
	}
	return firstData
}

// drawable reports whether the inspector can plot e's values.
func drawable(e *formats.TensorEntry) bool {
	return e.DType.Numeric() || e.DType.IsComplex()
}

// opensByItself reports whether e may be shown without the user asking:
// not when showing it reads it at length from a server.
func opensByItself(e *formats.TensorEntry) bool { return e.RemoteReadNote() == "" }
