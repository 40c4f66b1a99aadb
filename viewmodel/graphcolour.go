package viewmodel

import (
	"image/color"
	"math"

	"tensorscope/formats"

	"tensorscope/viewmodel/summary"
)

// GraphColourNames are the choices of the graph's "Colour by": the node
// category, as always, or a metric of each node's weights.
var GraphColourNames = append([]string{"category"}, summary.MetricNames...)

// NoWeightColour is the colour of nodes without weights when the graph is
// coloured by a metric.
var NoWeightColour = color.NRGBA{0xa8, 0xa8, 0xa8, 0xff}

// NodeWeight is the name of the main weight of view node v: the largest of
// its inputs that is a tensor with data in the file and a weight (marked
// so by its format, or of a float or block-quantised dtype: a Reshape's
// integer shape is no weight); "" when it has none.
func (m *GraphModel) NodeWeight(v int) string {
	id := m.DocNode(v)
	if id < 0 || id >= len(m.g.Nodes) {
		return ""
	}
	best, size := "", -1
	for _, vi := range m.g.Nodes[id].Inputs {
		if vi < 0 || vi >= len(m.g.Values) {
			continue
		}
		t := m.g.Values[vi].Tensor
		if t < 0 || t >= len(m.doc.Tensors) || !m.doc.Tensors[t].HasData() {
			continue
		}
		if e := m.doc.Tensors[t]; e.Role != formats.RoleWeight && !e.DType.IsFloat() && !e.DType.BlockQuantized() {
			continue
		}
		n := 1
		for _, d := range m.doc.Tensors[t].Shape {
			n *= d
		}
		if n > size {
			best, size = m.doc.Tensors[t].Name, n
		}
	}
	return best
}

// GraphColouring colours the nodes of a graph view by a metric of their
// main weight.
type GraphColouring struct {
	Colours []color.Color // per view node; NoWeightColour without a value
	Lo, Hi  float64       // the range of the values (NaN when none)
	Metric  summary.Metric
	Map     *Colormap
}

// ColourByMetric maps every node of m's view to the colour of its main
// weight's metric in s (viridis over the values' range); nodes without
// weights, or whose weight is not summarised yet, are NoWeightColour.
func ColourByMetric(m *GraphModel, s *summary.Model, metric summary.Metric) GraphColouring {
	byName := map[string]*summary.Tensor{}
	for _, t := range s.Tensors {
		byName[t.Name] = t
	}
	n := len(m.View().Nodes)
	vals := make([]float64, n)
	c := GraphColouring{Colours: make([]color.Color, n), Lo: math.NaN(), Hi: math.NaN(), Metric: metric, Map: ColormapByName("viridis")}
	for v := range n {
		vals[v] = math.NaN()
		if w := m.NodeWeight(v); w != "" {
			vals[v] = byName[w].Value(metric)
		}
		if x := vals[v]; !math.IsNaN(x) && !math.IsInf(x, 0) {
			if math.IsNaN(c.Lo) || x < c.Lo {
				c.Lo = x
			}
			if math.IsNaN(c.Hi) || x > c.Hi {
				c.Hi = x
			}
		}
	}
	for v, x := range vals {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			c.Colours[v] = NoWeightColour
		} else {
			c.Colours[v] = c.Map.At(c.Map.Position(x, c.Lo, c.Hi))
		}
	}
	return c
}
