package headless

import (
	"path/filepath"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/viewmodel"
)

// A conv weight from a real PyTorch checkpoint, conv2.weight [16,8,3,3] of
// burn's MNIST example (a zip checkpoint, the storage viewed in place),
// renders as the mosaic of its 128 kernels.
func TestRenderPyTorchConvMosaic(t *testing.T) {
	doc, err := formats.Open(filepath.Join(samples.Dir(t, "pytorch/burn"), "mnist.pt"))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	opt := RenderOptions{View: ViewHeatmap, Width: 420, Height: 640, Tensor: tensorNamed(t, doc, "conv2.weight"),
		Settings: InspectorSettings{Colormap: "coolwarm", Range: viewmodel.RangeSymmetric}}
	assertGolden(t, "heatmap_pytorch_conv_mosaic.png", render(t, doc, opt))
}

// The window over the {model, optimizer, epoch} checkpoint written after
// two Adam steps: the tensor list named by key paths
// (optimizer.state.0.exp_avg) and the inspector on the first Adam moment.
func TestRenderPyTorchCheckpointWindow(t *testing.T) {
	doc, err := formats.Open(filepath.Join(samples.Dir(t, "pytorch/generated-torch-1.13"), "checkpoint_adam.pt"))
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	opt := RenderOptions{View: ViewWindow, Width: 1280, Height: 820, Tensor: tensorNamed(t, doc, "optimizer.state.4.exp_avg")}
	assertGolden(t, "window_pytorch_checkpoint.png", render(t, doc, opt))
}
