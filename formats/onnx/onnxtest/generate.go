package onnxtest

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"

	"google.golang.org/protobuf/encoding/protowire"
)

// CNN returns a model of about n nodes shaped like the convolutional
// networks exporters write: blocks of Conv (weight and bias initializers)
// → Relu → Conv → Add with the block's input, every fourth block a
// MaxPool, symbolic batch on the input.
func CNN(n int) *Model {
	m := &Model{IRVersion: 8, Opsets: map[string]int64{"": 17}, Producer: "tensorscope onnxtest"}
	g := &m.Graph
	g.Name = fmt.Sprintf("cnn%d", n)
	g.Inputs = []ValueInfo{{Name: "input", ElemType: 1, Dims: []any{"batch", int64(8), int64(32), int64(32)}}}
	x := "input"
	weight := Float32s(make([]float32, 8*8)...) // 8×8×1×1, shared bytes
	bias := Float32s(make([]float32, 8)...)
	conv := func(in, name string) string {
		w, b := name+".weight", name+".bias"
		g.Initializers = append(g.Initializers,
			Tensor{Name: w, DataType: 1, Dims: []int64{8, 8, 1, 1}, Raw: weight},
			Tensor{Name: b, DataType: 1, Dims: []int64{8}, Raw: bias})
		g.Nodes = append(g.Nodes, Node{Op: "Conv", Name: name, Inputs: []string{in, w, b}, Outputs: []string{name + ".out"},
			Attrs: []Attr{{Name: "kernel_shape", Type: 7, Ints: []int64{1, 1}}, {Name: "strides", Type: 7, Ints: []int64{1, 1}}}})
		return name + ".out"
	}
	for block := 0; len(g.Nodes) < n; block++ {
		p := fmt.Sprintf("block%d", block)
		y := conv(x, p+".conv1")
		g.Nodes = append(g.Nodes, Node{Op: "Relu", Name: p + ".relu", Inputs: []string{y}, Outputs: []string{p + ".relu.out"}})
		y = conv(p+".relu.out", p+".conv2")
		g.Nodes = append(g.Nodes, Node{Op: "Add", Name: p + ".add", Inputs: []string{y, x}, Outputs: []string{p + ".add.out"}})
		x = p + ".add.out"
		if block%4 == 3 {
			g.Nodes = append(g.Nodes, Node{Op: "MaxPool", Name: p + ".pool", Inputs: []string{x}, Outputs: []string{p + ".pool.out"},
				Attrs: []Attr{{Name: "kernel_shape", Type: 7, Ints: []int64{3, 3}}, {Name: "pads", Type: 7, Ints: []int64{1, 1, 1, 1}}}})
			x = p + ".pool.out"
		}
	}
	g.Outputs = []ValueInfo{{Name: x, ElemType: 1, Dims: []any{"batch", int64(8), int64(32), int64(32)}}}
	return m
}

// WriteLargeFile writes WriteLarge's model to a new file at path.
func WriteLargeFile(path string, count, rows, cols int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteLarge(f, count, rows, cols); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteLarge writes a model whose weights are count float32 initializers
// of rows×cols values each, inline as raw_data, used by a chain of MatMul
// nodes: with count 8 and 8192×8192 it is a 2 GiB file. Values come from a
// fixed pseudo-random sequence in [-1, 1). The payload streams to w; only
// the headers are built in memory.
func WriteLarge(w io.Writer, count, rows, cols int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	m := &Model{IRVersion: 8, Opsets: map[string]int64{"": 17}, Producer: "tensorscope onnxtest"}
	g := &m.Graph
	g.Name = "large"
	g.Inputs = []ValueInfo{{Name: "x0", ElemType: 1, Dims: []any{"batch", int64(rows)}}}
	for i := 0; i < count; i++ {
		g.Nodes = append(g.Nodes, Node{Op: "MatMul", Name: fmt.Sprintf("matmul%d", i),
			Inputs: []string{fmt.Sprintf("x%d", i), fmt.Sprintf("w%d", i)}, Outputs: []string{fmt.Sprintf("x%d", i+1)}})
	}
	g.Outputs = []ValueInfo{{Name: fmt.Sprintf("x%d", count), ElemType: 1, Dims: []any{"batch", int64(cols)}}}
	graphHead := g.Marshal() // nodes, name, inputs, outputs: everything but the initializers
	raw := int64(rows) * int64(cols) * 4
	heads := make([][]byte, count)
	graphLen := int64(len(graphHead))
	for i := range heads {
		t := Tensor{Name: fmt.Sprintf("w%d", i), DataType: 1, Dims: []int64{int64(rows), int64(cols)}}
		h := t.AppendHeader(nil)
		h = protowire.AppendVarint(protowire.AppendTag(h, 9, protowire.BytesType), uint64(raw))
		heads[i] = h
		body := int64(len(h)) + raw
		graphLen += int64(protowire.SizeTag(5)+protowire.SizeVarint(uint64(body))) + body
	}
	out := m.AppendHeader(nil)
	out = protowire.AppendVarint(protowire.AppendTag(out, 7, protowire.BytesType), uint64(graphLen))
	out = append(out, graphHead...)
	if _, err := bw.Write(out); err != nil {
		return err
	}
	state := uint64(0x9E3779B97F4A7C15)
	buf := make([]byte, 1<<16)
	for i := range heads {
		body := int64(len(heads[i])) + raw
		head := protowire.AppendVarint(protowire.AppendTag(nil, 5, protowire.BytesType), uint64(body))
		if _, err := bw.Write(append(head, heads[i]...)); err != nil {
			return err
		}
		for left := raw; left > 0; left -= int64(len(buf)) {
			chunk := buf[:min(int64(len(buf)), left)]
			for j := 0; j < len(chunk); j += 4 {
				state ^= state << 13
				state ^= state >> 7
				state ^= state << 17
				v := float32(int32(state>>32)) / float32(math.MaxInt32+1)
				binary.LittleEndian.PutUint32(chunk[j:], math.Float32bits(v))
			}
			if _, err := bw.Write(chunk); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}
