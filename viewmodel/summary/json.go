package summary

import (
	"encoding/json"
	"math"
)

// The JSON of `tensorscope summary --json`.
type jsonModel struct {
	Path    string       `json:"path"`
	Format  string       `json:"format"`
	Totals  jsonTotals   `json:"totals"`
	Tensors []jsonTensor `json:"tensors"`
	Blocks  []jsonBlock  `json:"blocks"`
}

type jsonTotals struct {
	Tensors int                   `json:"tensors"`
	Params  int64                 `json:"params"`
	Bytes   int64                 `json:"bytes"`
	ByDType map[string]DTypeTotal `json:"by_dtype"`
}

type jsonTensor struct {
	Name         string   `json:"name"`
	DType        string   `json:"dtype"`
	Shape        []int    `json:"shape"`
	Params       int64    `json:"params"`
	Bytes        int64    `json:"bytes"`
	Count        int64    `json:"count"`
	Finite       int64    `json:"finite"`
	NaN          int64    `json:"nan"`
	PosInf       int64    `json:"posinf"`
	NegInf       int64    `json:"neginf"`
	Zeros        int64    `json:"zeros"`
	Min          *float64 `json:"min"`
	Max          *float64 `json:"max"`
	Mean         *float64 `json:"mean"`
	Std          *float64 `json:"std"`
	AbsMax       *float64 `json:"absmax"`
	L2           *float64 `json:"l2"`
	Kurtosis     *float64 `json:"kurtosis"`
	OutlierRatio *float64 `json:"outlier_ratio"`
	DeadRows     int64    `json:"dead_rows"`
	Flags        []string `json:"flags"`
}

type jsonBlock struct {
	Prefix  string   `json:"prefix"`
	Indices []int    `json:"indices"`
	Roles   []string `json:"roles"`
}

// number is v, or nil (null) when it is NaN or infinite.
func number(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// MarshalJSON writes the model in the documented shape: undefined figures
// are null, lists are never null.
func (m *Model) MarshalJSON() ([]byte, error) {
	out := jsonModel{Path: m.Path, Format: m.Format,
		Totals:  jsonTotals{Tensors: m.Totals.Tensors, Params: m.Totals.Params, Bytes: m.Totals.Bytes, ByDType: m.Totals.ByDType},
		Tensors: make([]jsonTensor, 0, len(m.Tensors)), Blocks: make([]jsonBlock, 0, len(m.Blocks))}
	if out.Totals.ByDType == nil {
		out.Totals.ByDType = map[string]DTypeTotal{}
	}
	for _, t := range m.Tensors {
		s := t.Summary
		j := jsonTensor{Name: t.Name, DType: t.DType, Shape: t.Shape, Params: t.Params, Bytes: t.Bytes,
			Count: s.Count, Finite: s.Finite, NaN: s.NaN, PosInf: s.PosInf, NegInf: s.NegInf, Zeros: s.Zeros,
			Kurtosis: number(s.Kurtosis), OutlierRatio: number(t.OutlierRatio), DeadRows: s.DeadRows,
			Flags: append([]string{}, t.Flags...)}
		if j.Shape == nil {
			j.Shape = []int{}
		}
		if s.Finite > 0 {
			j.Min, j.Max, j.Mean, j.Std, j.AbsMax = number(s.Min), number(s.Max), number(s.Mean), number(s.Std), number(s.AbsMax)
		}
		j.L2 = number(s.L2)
		out.Tensors = append(out.Tensors, j)
	}
	for _, b := range m.Blocks {
		out.Blocks = append(out.Blocks, jsonBlock{Prefix: b.Prefix, Indices: append([]int{}, b.Indices...), Roles: append([]string{}, b.Roles...)})
	}
	return json.Marshal(out)
}
