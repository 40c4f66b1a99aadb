package graphview

// Box and text metrics at zoom 1, in Fyne units. The widget scales them with
// the zoom; exports with their scale factor.
const (
	titleSize    = 12 // op type, bold, in the header
	subtitleSize = 11 // node name
	detailSize   = 10 // attributes, weights
	labelSize    = 9  // edge labels

	lineHeight = 1.35 // line advance as a multiple of the text size

	padX          = 8
	padY          = 4
	minNodeWidth  = 72
	maxNodeWidth  = 280
	cornerRadius  = 5
	maxDetailRows = 8 // further detail lines collapse into "+N more"

	edgeWidth  = 1.3
	arrowSize  = 7 // arrowhead length
	labelPadX  = 3
	labelPadY  = 1
	selectGrow = 3 // selection halo beyond the box
)

func headerHeight() float32 { return titleSize*lineHeight + 2*padY }
