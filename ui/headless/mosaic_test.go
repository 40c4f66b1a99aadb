package headless

import (
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/viewmodel"
)

// A real conv weight, conv1.2.weight [16,8,3,3] of Tengine's MNIST model,
// renders as the mosaic of its 128 kernels (48×24 with separators) by
// default, as the same mosaic spelled as an expression, and as one kernel
// element per (o, i) through --expr.
func TestRenderConvMosaic(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "tmfile"), "tengine_mnist.tmfile")
	doc, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	weight := tensorNamed(t, doc, "conv1.2.weight")
	opt := RenderOptions{View: ViewHeatmap, Width: 420, Height: 640, Tensor: weight,
		Settings: InspectorSettings{Colormap: "coolwarm", Range: viewmodel.RangeSymmetric}}
	mosaic := render(t, doc, opt)
	assertGolden(t, "heatmap_conv_mosaic.png", mosaic)

	opt.Settings.Expr = viewmodel.MosaicExpr
	if diff, at := differentPixels(mosaic, render(t, doc, opt)); diff != 0 {
		t.Errorf("the mosaic expression differs from the default view in %d pixels (first at %v)", diff, at)
	}
	opt.Settings.Expr = "w[:, :, 1, 1]"
	if diff, _ := differentPixels(mosaic, render(t, doc, opt)); diff == 0 {
		t.Error("--expr did not change the image")
	}
	opt.Settings.Expr = "w[:, :, 3]"
	if _, err := renderWith(t.Context(), doc, opt); err == nil || !strings.Contains(err.Error(), "col 9: index 3 is out of range for axis 2 of size 3") {
		t.Errorf("an expression that does not fit: %v", err)
	}
}

// The first convolution of torchvision's MobileNetV3-Small, onnx::Conv_421
// [16,3,3,3], is a mosaic six times taller than wide: its 3×3 kernels are
// drawn square (the heatmap stretched them to 95×46 pixels), and its axes
// count output channels down and input channels across.
func TestRenderTallConvMosaicKeepsKernelsSquare(t *testing.T) {
	doc, err := formats.Open(filepath.Join(samples.Dir(t, "onnx/torchvision-export"), "mobilenet_v3_small_opset13.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	opt := RenderOptions{View: ViewHeatmap, Width: 640, Height: 640, Tensor: tensorNamed(t, doc, "onnx::Conv_421")}
	assertGolden(t, "heatmap_conv_mosaic_tall.png", render(t, doc, opt))
}
