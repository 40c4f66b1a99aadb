package summary

import (
	"slices"
	"sort"
	"strconv"
	"strings"
)

// SplitName splits a tensor name into dot-separated components at its
// first component that is a decimal integer: model.layers.12.mlp.weight
// has prefix "model.layers", index 12 and role "mlp.weight". ok is false
// when no component is one.
func SplitName(name string) (prefix string, index int, role string, ok bool) {
	parts := strings.Split(name, ".")
	for i, p := range parts {
		if !isDecimal(p) {
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			continue // too large for an index
		}
		return strings.Join(parts[:i], "."), n, strings.Join(parts[i+1:], "."), true
	}
	return "", 0, "", false
}

func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// blocks groups the tensors by prefix, in order of first appearance.
func blocks(ts []*Tensor) []Block {
	var out []Block
	at := map[string]int{}
	for _, t := range ts {
		if !t.InBlock {
			continue
		}
		k, seen := at[t.Prefix]
		if !seen {
			k = len(out)
			at[t.Prefix] = k
			out = append(out, Block{Prefix: t.Prefix})
		}
		b := &out[k]
		if !slices.Contains(b.Indices, t.Index) {
			b.Indices = append(b.Indices, t.Index)
		}
		if !slices.Contains(b.Roles, t.Role) {
			b.Roles = append(b.Roles, t.Role)
		}
	}
	for i := range out {
		sort.Ints(out[i].Indices)
	}
	return out
}

// AnomalyFactor: a tensor whose std is more than this many times the
// median std of its role (or less than its reciprocal) is a layer_anomaly.
const AnomalyFactor = 4

// AnomalyMinIndices is how many indices of its prefix a role must appear
// at for its tensors to be compared.
const AnomalyMinIndices = 4

// FlagAnomalies sets the layer_anomaly flag of every computed tensor whose
// role appears at AnomalyMinIndices or more indices of its prefix and
// whose std is more than AnomalyFactor times the median std of that role,
// or less than 1/AnomalyFactor of it, with a median above 0. The median is
// over the role's tensors whose std is defined.
func (m *Model) FlagAnomalies() {
	type key struct{ prefix, role string }
	groups := map[key][]*Tensor{}
	for _, t := range m.Tensors {
		if t.InBlock && t.Done {
			k := key{t.Prefix, t.Role}
			groups[k] = append(groups[k], t)
		}
	}
	for _, t := range m.Tensors {
		t.Flags = slices.DeleteFunc(t.Flags, func(f string) bool { return f == FlagLayerAnomaly })
	}
	for _, g := range groups {
		indices := map[int]bool{}
		var stds []float64
		for _, t := range g {
			indices[t.Index] = true
			if t.Finite > 0 {
				stds = append(stds, t.Std)
			}
		}
		if len(indices) < AnomalyMinIndices || len(stds) == 0 {
			continue
		}
		med := Median(stds)
		if !(med > 0) {
			continue
		}
		for _, t := range g {
			if t.Finite > 0 && (t.Std > AnomalyFactor*med || t.Std < med/AnomalyFactor) {
				t.Flags = append(t.Flags, FlagLayerAnomaly)
			}
		}
	}
}

// Median is NumPy's median: the middle value, or the mean of the two
// middle values of an even count.
func Median(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func sortStable(s []string, less func(a, b string) bool) {
	sort.SliceStable(s, func(i, j int) bool { return less(s[i], s[j]) })
}

// Tensor returns the tensor of block prefix at index with role, or nil.
func (m *Model) Tensor(prefix string, index int, role string) *Tensor {
	for _, t := range m.Tensors {
		if t.InBlock && t.Prefix == prefix && t.Index == index && t.Role == role {
			return t
		}
	}
	return nil
}
