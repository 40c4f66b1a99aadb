package tmfile

import (
	"strconv"

	"tensorscope/formats"
)

func (b *docBuilder) metadata() {
	m, idx, g := b.m, b.idx, b.doc.Graph
	model := formats.NewObject("model",
		formats.Leaf("format_version", b.doc.Version),
		formats.Leaf("orig_format", origFormatNames.enum(int64(m.OrigFormat))),
		formats.Leaf("sub_format", int64(m.SubFormat)),
	)
	if m.Name != "" {
		model.Add(formats.Leaf("name", m.Name))
	}
	model.Add(formats.Leaf("subgraphs_listed", int64(idx.nSubgraphs)))

	sub := formats.NewObject("subgraph", formats.Leaf("id", int64(m.SubgraphID)))
	if m.SubgraphName != "" {
		sub.Add(formats.Leaf("name", m.SubgraphName))
	}
	sub.Add(
		formats.Leaf("graph_layout", layoutValue(m.GraphLayout)),
		formats.Leaf("model_layout", layoutValue(m.ModelLayout)),
		formats.Leaf("inputs", b.nodeNames(g.Inputs)),
		formats.Leaf("outputs", b.nodeNames(g.Outputs)),
		formats.Leaf("nodes", int64(len(m.Nodes))),
		formats.Leaf("tensors", int64(len(m.Tensors))),
		formats.Leaf("buffers", int64(len(m.Buffers))),
	)
	root := formats.NewObject("", model, sub, b.weights())
	if q := b.quantSummary(); q != nil {
		root.Add(q)
	}
	root.Add(b.opVersions())
	if len(m.SubInfo) > 0 {
		root.Add(b.subInfo())
	}
	b.doc.Metadata = root
}

func layoutValue(l int32) any {
	if name := layoutNames[int64(l)]; name != "" {
		return formats.Enum{Value: int64(l), Name: name}
	}
	return int64(l)
}

func (b *docBuilder) nodeNames(ids []int) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = b.m.Nodes[id].Name
		if out[i] == "" {
			out[i] = "node" + strconv.Itoa(id)
		}
	}
	return out
}

// weights says whether the file carries its weights: Tengine's benchmark
// files keep the graph and the buffer sizes but no data.
func (b *docBuilder) weights() *formats.Meta {
	consts, withData, bytes := 0, 0, int64(0)
	for i := range b.m.Tensors {
		t := &b.m.Tensors[i]
		if t.Type != TypeConst {
			continue
		}
		consts++
		if int64(t.BufferID) < int64(len(b.m.Buffers)) && b.m.Buffers[t.BufferID].Data != nil {
			withData++
			bytes += int64(b.m.Buffers[t.BufferID].Size)
		}
	}
	status := "all constant tensors have data"
	switch {
	case consts == 0:
		status = "the graph has no constant tensors"
	case withData == 0:
		status = "benchmark file without weights: no constant tensor has data"
	case withData < consts:
		status = strconv.Itoa(consts-withData) + " constant tensors have no data"
	}
	return formats.NewObject("weights",
		formats.Leaf("status", status),
		formats.Leaf("constant_tensors", int64(consts)),
		formats.Leaf("with_data", int64(withData)),
		formats.Leaf("data_bytes", bytes),
	)
}

func (b *docBuilder) quantSummary() *formats.Meta {
	perTensor, perChannel := 0, 0
	for i := range b.m.Tensors {
		switch n := len(b.m.Tensors[i].Quant); {
		case n == 1:
			perTensor++
		case n > 1:
			perChannel++
		}
	}
	if perTensor+perChannel == 0 {
		return nil
	}
	return formats.NewObject("quantization",
		formats.Leaf("per_tensor", int64(perTensor)),
		formats.Leaf("per_channel", int64(perChannel)),
	)
}

// opVersions counts nodes by op_ver; files mix versions 1 and 2.
func (b *docBuilder) opVersions() *formats.Meta {
	type count struct {
		ver uint32
		n   int64
	}
	var counts []count // few distinct versions: a list beats a map
	for i := range b.m.Nodes {
		v := b.m.Nodes[i].Op.Version
		k := 0
		for k < len(counts) && counts[k].ver != v {
			k++
		}
		if k == len(counts) {
			counts = append(counts, count{ver: v})
		}
		counts[k].n++
	}
	out := formats.NewObject("op_versions")
	for _, c := range counts {
		out.Add(formats.Leaf(strconv.FormatUint(uint64(c.ver), 10), c.n))
	}
	return out
}

func (b *docBuilder) subInfo() *formats.Meta {
	list := formats.NewList("sub_info")
	for i, s := range b.m.SubInfo {
		list.Add(formats.NewObject(strconv.Itoa(i),
			formats.Leaf("subgraph_id", int64(s.ID)),
			formats.Leaf("device", s.Device),
			formats.Leaf("data_type", dataTypeNames.enum(int64(s.DataType))),
			formats.Leaf("input_wait_count", int64(s.InputWaitCount)),
			formats.Leaf("nodes", int64(len(s.Nodes))),
			formats.Leaf("input_tensors", b.tensorNames(s.InputTensors)),
			formats.Leaf("output_tensors", b.tensorNames(s.OutputTensors)),
		))
	}
	return list
}

func (b *docBuilder) tensorNames(ids []uint32) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		if int64(id) < int64(len(b.m.Tensors)) {
			out[i] = tensorName(b.m, int(id))
		} else {
			out[i] = "#" + strconv.FormatUint(uint64(id), 10)
		}
	}
	return out
}

// opTable counts nodes per operator, in order of first appearance.
func (b *docBuilder) opTable() {
	var known [NumOps]int
	unknown := map[uint32]int{}
	var order []uint32
	for i := range b.m.Nodes {
		t := b.m.Nodes[i].Op.Type
		if t < NumOps {
			if known[t] == 0 {
				order = append(order, t)
			}
			known[t]++
			continue
		}
		if unknown[t] == 0 {
			order = append(order, t)
		}
		unknown[t]++
	}
	tab := formats.Table{Title: "Operators", Columns: []string{"operator", "id", "nodes"}}
	for _, t := range order {
		n := unknown[t]
		if t < NumOps {
			n = known[t]
		}
		tab.Rows = append(tab.Rows, []string{OpName(t), strconv.FormatUint(uint64(t), 10), strconv.Itoa(n)})
	}
	b.doc.Tables = append(b.doc.Tables, tab)
}
