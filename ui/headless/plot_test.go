package headless

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tsr"
	"tensorscope/tensor"
)

// signalTSR is a float32[6000] signal with fast wiggles on a slow wave and
// one NaN: longer than the plot is wide, so it is drawn as a min–max band
// under its mean line, broken at the NaN's column.
func signalTSR(t *testing.T) []byte {
	x := float32Tensor(t, []int{6000}, func(i int) float32 {
		if i == 4200 {
			return float32(math.NaN())
		}
		f := float64(i)
		return float32(math.Sin(f/700) + 0.25*math.Sin(f*1.7)*math.Cos(f/150))
	})
	return encodeV1(t, x)
}

// biasTSR is a float32[1,12,1,1] scale of both signs: one axis longer
// than 1, drawn as bars.
func biasTSR(t *testing.T) []byte {
	x := float32Tensor(t, []int{1, 12, 1, 1}, func(i int) float32 { return float32(math.Sin(float64(i)*1.3)) * 0.4 })
	return encodeV1(t, x)
}

// labelsTSR is an int32[10000] label vector with ten distinct values,
// unevenly common, as an imbalanced data set's labels are.
func labelsTSR(t *testing.T) []byte {
	b := make([]byte, 4*10000)
	for i := range 10000 {
		u := float64(i*7919%10007) / 10007 // spread over [0, 1) in a scrambled order
		label := int(10 * u * u)           // 0..9, small labels the most common
		binary.LittleEndian.PutUint32(b[4*i:], uint32(label))
	}
	x, err := tensor.FromBytes(b, tensor.Int32, []int{10000})
	if err != nil {
		t.Fatal(err)
	}
	return encodeV1(t, x)
}

func encodeV1(t *testing.T, x *tensor.Tensor) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := tsr.EncodeV1(&b, x); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRenderPlotGolden(t *testing.T) {
	signal := openFile(t, "signal.tsr", signalTSR(t))
	bias := openFile(t, "bias.tsr", biasTSR(t))
	labels := openFile(t, "labels.tsr", labelsTSR(t))
	cases := []struct {
		name string
		doc  *formats.Document
		opt  RenderOptions
	}{
		{"plot_signal_envelope.png", signal, RenderOptions{View: ViewPlot, Width: 560, Height: 320, Tensor: -1}},
		{"plot_bias_bars.png", bias, RenderOptions{View: ViewPlot, Width: 420, Height: 280, Tensor: -1}},
		{"plot_labels_int32.png", labels, RenderOptions{View: ViewPlot, Width: 560, Height: 320, Tensor: -1}},
		{"histogram_labels_int32.png", labels, RenderOptions{View: ViewHistogram, Width: 520, Height: 320, Tensor: -1}},
		{"window_signal_plot.png", signal, RenderOptions{View: ViewWindow, Width: 1100, Height: 700, Tensor: -1}},
	}
	for _, c := range cases {
		t.Run(strings.TrimSuffix(c.name, ".png"), func(t *testing.T) {
			assertGolden(t, c.name, render(t, c.doc, c.opt))
		})
	}
}

func TestRenderPlotRefusesAMatrix(t *testing.T) {
	wave := openFile(t, "wave.tsr", waveTSR(t))
	_, err := renderWith(context.Background(), wave, RenderOptions{View: ViewPlot, Width: 300, Height: 200, Tensor: -1})
	if err == nil || !strings.Contains(err.Error(), "one axis longer than 1") {
		t.Errorf("plot of a [3,40,64] tensor: %v, want an error naming vectors", err)
	}
}
