package tmfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
	"tensorscope/internal/samples"
)

func sampleFiles(t testing.TB) []string {
	return samples.Files(t, "tmfile", ".tmfile")
}

func counter[K comparable](keys []K) map[string]int64 {
	m := map[string]int64{}
	for _, k := range keys {
		m[fmt.Sprint(k)]++
	}
	return m
}

// TestSamplesMatchSummary checks every sample against the structure an
// independent reader recorded in samples-summary.txt.
func TestSamplesMatchSummary(t *testing.T) {
	files := sampleFiles(t)
	summary := parseSummary(t)
	if len(files) != 26 || len(summary) != 26 {
		t.Fatalf("%d sample files and %d summaries, want 26 of each", len(files), len(summary))
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			want := summary[name]
			if want == nil {
				t.Fatalf("no summary for %s", name)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, _, err := tmfile.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := formats.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			if doc.Format != "tmfile" || doc.Size != want.size {
				t.Errorf("format %q size %d, want tmfile %d", doc.Format, doc.Size, want.size)
			}
			if got := doc.Header[3].Value; doc.Header[3].Name != "padding" || got != want.pad {
				t.Errorf("header padding %v, want %d", got, want.pad)
			}
			if int64(m.OrigFormat) != want.origFormat {
				t.Errorf("orig_format %d, want %d", m.OrigFormat, want.origFormat)
			}
			if want.mname == nil && m.Name != "" || want.mname != nil && *want.mname != m.Name {
				t.Errorf("model name %q, want %v", m.Name, want.mname)
			}
			if got := doc.Metadata.Child("model").Child("subgraphs_listed").Value; got != want.nsub {
				t.Errorf("subgraphs listed %v, want %d", got, want.nsub)
			}
			ints := func(l []uint32) []int64 {
				out := make([]int64, len(l))
				for i, v := range l {
					out[i] = int64(v)
				}
				return out
			}
			if !reflect.DeepEqual(ints(m.Inputs), want.inputs) || !reflect.DeepEqual(ints(m.Outputs), want.outputs) {
				t.Errorf("inputs %v outputs %v, want %v %v", m.Inputs, m.Outputs, want.inputs, want.outputs)
			}
			g := doc.Graph
			if int64(len(g.Nodes)) != want.nodes || int64(len(doc.Tensors)) != want.tensors ||
				int64(len(g.Values)) != want.tensors || int64(len(m.Buffers)) != want.buffers {
				t.Errorf("nodes %d tensors %d values %d buffers %d, want %d %d %d %d", len(g.Nodes), len(doc.Tensors),
					len(g.Values), len(m.Buffers), want.nodes, want.tensors, want.tensors, want.buffers)
			}
			var ops, opVer, dyn []string
			for i, n := range g.Nodes {
				ops = append(ops, n.Op)
				opVer = append(opVer, strconv.Itoa(int(m.Nodes[i].Op.Version)))
				if m.Nodes[i].DynamicShape {
					dyn = append(dyn, "1")
				} else {
					dyn = append(dyn, "0")
				}
			}
			check := func(what string, got, want map[string]int64) {
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s %v, want %v", what, got, want)
				}
			}
			check("ops", counter(ops), want.ops)
			check("op_ver", counter(opVer), want.opVer)
			check("dynamic_shape", counter(dyn), want.dynamicShape)
			// The per-operator table must say the same.
			table := map[string]int64{}
			for _, row := range doc.Tables[0].Rows {
				n, _ := strconv.ParseInt(row[2], 10, 64)
				table[row[0]] = n
			}
			check("operator table", table, want.ops)

			var types, dtypes, layouts []int32
			quant, noData := int64(0), int64(0)
			for i, tt := range m.Tensors {
				types = append(types, tt.Type)
				dtypes = append(dtypes, tt.DataType)
				layouts = append(layouts, tt.Layout)
				if len(tt.Quant) > 0 {
					quant++
					if doc.Tensors[i].Quant == nil {
						t.Errorf("tensor %d has quant params but its entry no Quant", i)
					}
				}
				if tt.Type == tmfile.TypeConst {
					if m.Buffers[tt.BufferID].Data == nil {
						noData++
						if doc.Tensors[i].HasData() || doc.Tensors[i].Note == "" {
							t.Errorf("tensor %d has no data but HasData %v note %q", i, doc.Tensors[i].HasData(), doc.Tensors[i].Note)
						}
					} else if !doc.Tensors[i].HasData() {
						t.Errorf("tensor %d (%s) has data but no loader: %s", i, doc.Tensors[i].Name, doc.Tensors[i].Note)
					}
				}
			}
			check("tensor types", counter(types), want.tensorTypes)
			check("dtypes", counter(dtypes), want.dtypes)
			check("layouts", counter(layouts), want.layouts)
			if quant != want.quant || noData != want.constWithoutData {
				t.Errorf("quantised %d const-without-data %d, want %d %d", quant, noData, want.quant, want.constWithoutData)
			}
			status := doc.Metadata.Child("weights").Child("status").Value.(string)
			if benchmark := strings.Contains(status, "benchmark"); benchmark != (noData > 0 && noData == int64(len(m.Buffers))) {
				t.Errorf("weights status %q with %d of %d buffers without data", status, noData, len(m.Buffers))
			}
			// Graph inputs and outputs are node indices; the input nodes are InputOps.
			for _, in := range g.Inputs {
				if g.Nodes[in].Kind != formats.KindInput {
					t.Errorf("graph input node %d is %s", in, g.Nodes[in].Op)
				}
			}
			// Every value but those of graph inputs with no producer is
			// produced by exactly the node that lists it.
			for i, v := range g.Values {
				if v.Producer < 0 {
					t.Errorf("value %d (%s) has no producer", i, v.Name)
					continue
				}
				found := false
				for _, o := range g.Nodes[v.Producer].Outputs {
					found = found || o == i
				}
				if !found || v.Tensor != i {
					t.Errorf("value %d: producer %d does not list it, or tensor %d", i, v.Producer, v.Tensor)
				}
			}
		})
	}
}
