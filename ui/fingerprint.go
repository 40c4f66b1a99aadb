package ui

import (
	"image"
	"image/color"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
	"tensorscope/viewmodel/summary"
	"tensorscope/viewmodel/textfmt"
)

// Fingerprint draws a block's metric as a heatmap: one row per layer
// index, one column per role, a colour bar beside it. Cells of flagged
// tensors carry a red corner; missing or undefined cells are grey.
// Hovering a cell reports its tensor and value; tapping it picks the
// tensor.
type Fingerprint struct {
	widget.BaseWidget
	fp       *summary.Fingerprint
	distinct []string // fp's roles without what they all share, for narrow columns
	cmap     *viewmodel.Colormap
	OnHover  func(text string)       // "" when the pointer leaves the cells
	OnTapped func(t *summary.Tensor) // a cell with a tensor was tapped

	cells fyne.Position // top left of the cells, set by Layout
	cell  fyne.Size     // one cell
}

const (
	fpBarWidth  = 14
	fpBarLabels = 70
	fpMinCell   = 6
	// fpMinColumnLabel is the least room a column label gets: narrower
	// columns (a model of 300 roles, or of 256 experts) are labelled every
	// few columns, as rows are, rather than each with an ellipsis.
	fpMinColumnLabel = 48
)

// NewFingerprint returns an empty fingerprint; SetData fills it.
func NewFingerprint() *Fingerprint {
	f := &Fingerprint{cmap: viewmodel.ColormapByName("viridis")}
	f.ExtendBaseWidget(f)
	return f
}

// SetData shows fp (nil for nothing).
func (f *Fingerprint) SetData(fp *summary.Fingerprint) {
	f.fp, f.distinct = fp, nil
	if fp != nil {
		f.distinct = distinctParts(fp.Roles)
	}
	f.Refresh()
}

// Data is what the widget shows.
func (f *Fingerprint) Data() *summary.Fingerprint { return f.fp }

// MinSize keeps a row of fpMinCell for every layer and a column for every
// role: a model of many layers scrolls (the Overview holds the fingerprint
// in a scroll container) instead of drawing over the plot below it.
func (f *Fingerprint) MinSize() fyne.Size {
	size := fyne.NewSize(240, 160)
	if f.fp == nil || len(f.fp.Indices) == 0 || len(f.fp.Roles) == 0 {
		return size
	}
	left, top, right, bottom, _ := f.margins()
	size.Width = max(size.Width, left+fpMinCell*float32(len(f.fp.Roles))+right)
	size.Height = max(size.Height, top+fpMinCell*float32(len(f.fp.Indices))+bottom)
	return size
}

// margins are the room around the cells: row labels at the left, role
// names above, the colour bar and its labels at the right, half a label
// below (the colour bar's lowest tick label is centred on its end); and
// the labels' text size.
func (f *Fingerprint) margins() (left, top, right, bottom, textSize float32) {
	textSize = theme.TextSize() * 0.8
	lineH := fyne.MeasureText("0", textSize, fyne.TextStyle{}).Height
	labelW := fyne.MeasureText(textfmt.Count(int64(f.fp.Indices[len(f.fp.Indices)-1]))+"0", textSize, fyne.TextStyle{}).Width
	return labelW + 6, 2*lineH + 6, float32(fpBarWidth + fpBarLabels + 12), lineH/2 + 2, textSize
}

func (f *Fingerprint) CreateRenderer() fyne.WidgetRenderer {
	return &fingerprintRenderer{f: f}
}

// at returns the row and column under p, ok false outside the cells.
func (f *Fingerprint) at(p fyne.Position) (row, col int, ok bool) {
	if f.fp == nil || f.cell.Width <= 0 || f.cell.Height <= 0 {
		return 0, 0, false
	}
	x, y := p.X-f.cells.X, p.Y-f.cells.Y
	if x < 0 || y < 0 {
		return 0, 0, false
	}
	row, col = int(y/f.cell.Height), int(x/f.cell.Width)
	if row >= len(f.fp.Indices) || col >= len(f.fp.Roles) {
		return 0, 0, false
	}
	return row, col, true
}

// CellText describes cell (row, col) as the hover line shows it.
func CellText(fp *summary.Fingerprint, row, col int) string {
	t := fp.Tensors[row][col]
	if t == nil {
		return "no " + fp.Roles[col] + " at index " + itoa(fp.Indices[row])
	}
	s := t.Name + ": " + fp.Metric.Label() + " " + textfmt.Float(fp.Values[row][col], 5)
	if len(t.Flags) > 0 {
		s += " — flagged"
		for _, fl := range t.Flags {
			s += " " + fl
		}
	}
	return s
}

func itoa(n int) string { return textfmt.Count(int64(n)) }

var _ desktop.Hoverable = (*Fingerprint)(nil)
var _ fyne.Tappable = (*Fingerprint)(nil)

func (f *Fingerprint) MouseIn(ev *desktop.MouseEvent) { f.MouseMoved(ev) }

func (f *Fingerprint) MouseMoved(ev *desktop.MouseEvent) {
	if f.OnHover == nil {
		return
	}
	if r, c, ok := f.at(ev.Position); ok {
		f.OnHover(CellText(f.fp, r, c))
	} else {
		f.OnHover("")
	}
}

func (f *Fingerprint) MouseOut() {
	if f.OnHover != nil {
		f.OnHover("")
	}
}

func (f *Fingerprint) Tapped(ev *fyne.PointEvent) {
	if r, c, ok := f.at(ev.Position); ok && f.OnTapped != nil && f.fp.Tensors[r][c] != nil {
		f.OnTapped(f.fp.Tensors[r][c])
	}
}

type fingerprintRenderer struct {
	f       *Fingerprint
	objects []fyne.CanvasObject
}

func (r *fingerprintRenderer) Destroy()                     {}
func (r *fingerprintRenderer) MinSize() fyne.Size           { return r.f.MinSize() }
func (r *fingerprintRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *fingerprintRenderer) Refresh() {
	r.Layout(r.f.Size())
	canvas.Refresh(r.f)
}

// cellImage paints one pixel per cell; the canvas scales it up without
// smoothing.
func cellImage(fp *summary.Fingerprint, cm *viewmodel.Colormap) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, len(fp.Roles), len(fp.Indices)))
	missing := color.NRGBA{0x99, 0x99, 0x99, 0xff}
	for i, row := range fp.Values {
		for j, v := range row {
			c := missing
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				c = cm.At(cm.Position(v, fp.Lo, fp.Hi))
			}
			img.SetNRGBA(j, i, c)
		}
	}
	return img
}

func (r *fingerprintRenderer) Layout(size fyne.Size) {
	f := r.f
	r.objects = r.objects[:0]
	fp := f.fp
	fg := theme.Color(theme.ColorNameForeground)
	textSize := theme.TextSize() * 0.8
	text := func(s string, x, y float32, align fyne.TextAlign, width float32) {
		t := canvas.NewText(s, fg)
		t.TextSize = textSize
		t.Alignment = align
		ts := t.MinSize()
		if width == 0 {
			width = ts.Width
		}
		t.Move(fyne.NewPos(x, y))
		t.Resize(fyne.NewSize(width, ts.Height))
		r.objects = append(r.objects, t)
	}
	if fp == nil || len(fp.Indices) == 0 || len(fp.Roles) == 0 {
		text("no layers: the tensors' names have no numbered component", 4, 4, fyne.TextAlignLeading, 0)
		f.cell = fyne.Size{}
		return
	}
	lineH := fyne.MeasureText("0", textSize, fyne.TextStyle{}).Height
	left, top, right, bottom, _ := f.margins() // role names on two staggered lines above
	labelW := left - 6
	w := max(size.Width-left-right, fpMinCell*float32(len(fp.Roles)))
	h := max(size.Height-top-bottom, fpMinCell*float32(len(fp.Indices)))
	cw, ch := w/float32(len(fp.Roles)), h/float32(len(fp.Indices))
	f.cells, f.cell = fyne.NewPos(left, top), fyne.NewSize(cw, ch)

	img := canvas.NewImageFromImage(cellImage(fp, f.cmap))
	img.ScaleMode = canvas.ImageScalePixels
	img.FillMode = canvas.ImageFillStretch
	img.Move(f.cells)
	img.Resize(fyne.NewSize(cw*float32(len(fp.Roles)), ch*float32(len(fp.Indices))))
	r.objects = append(r.objects, img)

	// Flagged tensors: a red triangle-ish corner mark.
	mark := color.NRGBA{0xe0, 0x20, 0x20, 0xff}
	ms := min(cw, ch) / 3
	for i := range fp.Indices {
		for j := range fp.Roles {
			if t := fp.Tensors[i][j]; t != nil && len(t.Flags) > 0 {
				m := canvas.NewRectangle(mark)
				m.StrokeColor = color.White
				m.StrokeWidth = 1
				m.Move(fyne.NewPos(left+cw*float32(j+1)-ms, top+ch*float32(i)))
				m.Resize(fyne.NewSize(ms, ms))
				r.objects = append(r.objects, m)
			}
		}
	}

	// Column labels, alternating between two lines so that neighbours
	// have twice their spacing; every few columns when columns are narrow;
	// row labels every few rows.
	colStep := max(1, int(math.Ceil(float64(fpMinColumnLabel/(2*cw)))))
	for j := 0; j < len(fp.Roles); j += colStep {
		line := float32(j / colStep % 2)
		avail := 2 * cw * float32(colStep)
		if len(fp.Roles) == 1 {
			avail = cw
		}
		s := fp.Roles[j]
		if !fits(s, avail-4, textSize) {
			s = fitText(f.distinct[j], avail-4, textSize)
		}
		text(s, left+cw*float32(j)+cw/2-avail/2, line*lineH+2, fyne.TextAlignCenter, avail)
	}
	step := max(1, int(math.Ceil(float64(lineH+2)/float64(ch))))
	for i := 0; i < len(fp.Indices); i += step {
		text(textfmt.Count(int64(fp.Indices[i])), 0, top+ch*float32(i)+ch/2-lineH/2, fyne.TextAlignTrailing, labelW)
	}

	// The colour bar.
	barX := left + w + 12
	grad := image.NewNRGBA(image.Rect(0, 0, 1, 256))
	for i := range 256 {
		grad.SetNRGBA(0, 255-i, f.cmap.At(float64(i)/255))
	}
	bar := canvas.NewImageFromImage(grad)
	bar.FillMode = canvas.ImageFillStretch
	bar.Move(fyne.NewPos(barX, top))
	bar.Resize(fyne.NewSize(fpBarWidth, h))
	r.objects = append(r.objects, bar)
	text(fp.Metric.Label(), barX, 2, fyne.TextAlignLeading, 0)
	if !math.IsNaN(fp.Lo) {
		for _, v := range niceTicks(fp.Lo, fp.Hi, 6) {
			y := top + float32(1-f.cmap.Position(v, fp.Lo, fp.Hi))*h
			r.objects = append(r.objects, tickLine(barX+fpBarWidth, y, barX+fpBarWidth+4, y, fg))
			text(textfmt.Float(v, 4), barX+fpBarWidth+6, y-lineH/2, fyne.TextAlignLeading, 0)
		}
	}
}

// fits reports whether s at text size fits width.
func fits(s string, width, size float32) bool {
	return fyne.MeasureText(s, size, fyne.TextStyle{}).Width <= width
}

// fitText shortens s with an ellipsis to fit width: the longest prefix
// that does, found by halving (a label measured once per rune made the
// layout of 300 columns slow).
func fitText(s string, width, size float32) string {
	if fits(s, width, size) {
		return s
	}
	r := []rune(s)
	lo, hi := 0, len(r)-1 // runes kept: lo fits (or is 0), hi+1 does not
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(string(r[:mid])+"…", width, size) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(r[:lo]) + "…"
}

// distinctParts returns each name without the dot-separated components
// that begin or end every one of names: "block.7.weight" of
// block.0.weight … block.299.weight is "7". A name left empty keeps its
// last component.
func distinctParts(names []string) []string {
	if len(names) < 2 {
		return names
	}
	first := strings.Split(names[0], ".")
	head, tail := len(first), len(first)
	for _, n := range names[1:] {
		parts := strings.Split(n, ".")
		head = min(head, len(parts))
		for i := range head {
			if parts[i] != first[i] {
				head = i
				break
			}
		}
		tail = min(tail, len(parts))
		for i := range tail {
			if parts[len(parts)-1-i] != first[len(first)-1-i] {
				tail = i
				break
			}
		}
	}
	out := make([]string, len(names))
	for k, n := range names {
		parts := strings.Split(n, ".")
		from, to := min(head, len(parts)), max(len(parts)-tail, 0)
		if from >= to {
			from, to = len(parts)-1, len(parts)
		}
		out[k] = strings.Join(parts[from:to], ".")
	}
	return out
}
