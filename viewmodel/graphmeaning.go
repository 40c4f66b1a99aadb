package viewmodel

import (
	"fmt"
	"strings"

	"tensorscope/formats"
	"tensorscope/graphview"
)

// graphCategories colours each normalised category.
var graphCategories = [formats.NumCategories]graphview.Category{
	formats.CategoryOther:         graphview.CategoryOther,
	formats.CategoryConvolution:   graphview.CategoryConvolution,
	formats.CategoryActivation:    graphview.CategoryActivation,
	formats.CategoryPooling:       graphview.CategoryPooling,
	formats.CategoryNormalization: graphview.CategoryNormalization,
	formats.CategoryShape:         graphview.CategoryShape,
	formats.CategoryTensor:        graphview.CategoryTensor,
	formats.CategoryInput:         graphview.CategoryInput,
	formats.CategoryOutput:        graphview.CategoryOutput,
	formats.CategoryConstant:      graphview.CategoryConstant,
	formats.CategoryControlFlow:   graphview.CategoryControlFlow,
	formats.CategoryQuantization:  graphview.CategoryQuantization,
}

// nodeCategory is the colour of a node: its codec's category, or what its
// kind says when the codec left the category unknown.
func nodeCategory(n *formats.Node) graphview.Category {
	c := n.Meaning.Category
	if c == formats.CategoryOther {
		switch n.Kind {
		case formats.KindInput:
			c = formats.CategoryInput
		case formats.KindConst:
			c = formats.CategoryConstant
		}
	}
	if c >= formats.NumCategories {
		return graphview.CategoryOther
	}
	return graphCategories[c]
}

// kernelText is the variant, kernel and stride of a node ("MAX 3×3 /2");
// a stride of 1 is left out.
func kernelText(m *formats.Meaning) string {
	parts := make([]string, 0, 3)
	if m.Variant != "" {
		parts = append(parts, m.Variant)
	}
	if k := joinInts(m.Kernel, "×"); k != "" {
		parts = append(parts, k)
	}
	if s := strideText(m.Stride); s != "" {
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// strideText is "/2" for an even stride, "/2,1" for an uneven one, and ""
// when every stride is 1 or unknown.
func strideText(stride []int) string {
	plain := true
	for _, s := range stride {
		if s > 1 {
			plain = false
		}
	}
	if plain || len(stride) == 0 {
		return ""
	}
	for _, s := range stride[1:] {
		if s != stride[0] {
			return "/" + joinInts(stride, ",")
		}
	}
	return fmt.Sprintf("/%d", stride[0])
}

// channelText is "in → out ch" for spatial operators (with ", g groups"
// when grouped) and "in → out" for dense ones; an unknown in is left out.
func channelText(m *formats.Meaning) string {
	if m.OutChannels <= 0 {
		return ""
	}
	s := fmt.Sprintf("→ %d", m.OutChannels)
	if m.InChannels > 0 {
		s = fmt.Sprintf("%d → %d", m.InChannels, m.OutChannels)
	}
	if len(m.Kernel) == 0 {
		return s
	}
	s += " ch"
	if m.Groups > 1 {
		s += fmt.Sprintf(", %d groups", m.Groups)
	}
	return s
}

func joinInts(list []int, sep string) string {
	parts := make([]string, len(list))
	for i, v := range list {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, sep)
}

// meaningSection lists what the codec says the node means, the same for
// every format: its category and the facts it knows.
func meaningSection(m *formats.Meaning) PropSection {
	s := PropSection{Title: "Meaning"}
	add := func(label, value string) {
		if value != "" {
			s.Rows = append(s.Rows, row(label, value))
		}
	}
	if m.Category != formats.CategoryOther {
		add("Category", m.Category.String())
	}
	add("Variant", m.Variant)
	add("Kernel", joinInts(m.Kernel, "×"))
	add("Stride", joinInts(m.Stride, "×"))
	add("Dilation", joinInts(m.Dilation, "×"))
	if m.Groups > 0 {
		add("Groups", fmt.Sprint(m.Groups))
	}
	if m.InChannels > 0 {
		add("In channels", fmt.Sprint(m.InChannels))
	}
	if m.OutChannels > 0 {
		add("Out channels", fmt.Sprint(m.OutChannels))
	}
	add("Fused activation", m.FusedActivation)
	return s
}
