package headless

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/viewmodel/summary"
)

func openSample(t *testing.T, sub, name string) *formats.Document {
	t.Helper()
	doc, err := formats.Open(filepath.Join(samples.Dir(t, sub), name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doc.Close() })
	return doc
}

// The block fingerprints of the GGUF samples: the Q4_K_M one (a single
// layer) by std, stories260K (five layers) by kurtosis.
func TestRenderSummaryGolden(t *testing.T) {
	for _, c := range []struct {
		golden, sub, file string
		metric            summary.Metric
	}{
		{"summary_q4_k_m_std.png", "gguf/quantized-llama.cpp", "synth-llama256-Q4_K_M.gguf", summary.MetricStd},
		{"summary_stories260k_kurtosis.png", "gguf/models", "stories260K.gguf", summary.MetricKurtosis},
	} {
		t.Run(strings.TrimSuffix(c.golden, ".png"), func(t *testing.T) {
			doc := openSample(t, c.sub, c.file)
			img, err := Render(context.Background(), doc, Options{View: ViewSummary, Width: 900, Height: 420, Tensor: -1, Metric: c.metric})
			if err != nil {
				t.Fatal(err)
			}
			assertGolden(t, c.golden, img)
		})
	}
}

// A file whose tensor names have no numbered component has no layers.
func TestRenderSummaryNoBlocks(t *testing.T) {
	doc := openFile(t, "wave.tsr", waveTSR(t))
	_, err := Render(context.Background(), doc, Options{View: ViewSummary, Width: 400, Height: 300, Tensor: -1})
	if err == nil || !strings.Contains(err.Error(), "no layers") {
		t.Errorf("err = %v, want one saying there are no layers", err)
	}
}
