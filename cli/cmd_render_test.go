package cli

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image/png"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tensorscope/formats/tmfile"
	"tensorscope/formats/tmfile/synth"
	"tensorscope/formats/tsr"
	"tensorscope/tensor"
)

// writeFixture writes data to name in a new temporary directory.
func writeFixture(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// waveFile is a TSR v1 float32[2,30,40] of signed waves.
func waveFile(t testing.TB) string {
	t.Helper()
	const n = 2 * 30 * 40
	b := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		k, r, c := i/1200, (i/40)%30, i%40
		v := math.Sin(float64(r)/5+float64(k)) * math.Cos(float64(c)/7)
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(v)))
	}
	x, err := tensor.FromBytes(b, tensor.Float32, []int{2, 30, 40})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tsr.EncodeV1(&buf, x); err != nil {
		t.Fatal(err)
	}
	return writeFixture(t, "wave.tsr", buf.Bytes())
}

// cnnFile is the synthetic tmfile CNN of the given size.
func cnnFile(t testing.TB, nodes int, weights bool) string {
	t.Helper()
	var buf bytes.Buffer
	if err := tmfile.Encode(&buf, synth.CNN(nodes, weights)); err != nil {
		t.Fatal(err)
	}
	return writeFixture(t, fmt.Sprintf("cnn%d.tmfile", nodes), buf.Bytes())
}

func pngSize(t *testing.T, path string) (int, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img.Bounds().Dx(), img.Bounds().Dy()
}

func TestRenderViews(t *testing.T) {
	wave := waveFile(t)
	cnn := cnnFile(t, 60, true)
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		w, h int
	}{
		{[]string{"render", wave, "--view", "heatmap"}, 1024, 768},
		{[]string{"render", wave, "--view", "heatmap", "--tensor", "#0", "--axes", "2,1", "--index", "0=1",
			"--colormap", "CoolWarm", "--range", "sym", "--reduce", "max", "--size", "360x240"}, 360, 240},
		{[]string{"render", wave, "--view", "histogram", "--bins", "40", "--log", "--plane", "--range", "-0.5,0.5", "--size", "320X240"}, 320, 240},
		{[]string{"render", wave, "--view", "heatmap", "--index", "0=1", "--range", "slice", "--size", "360x240"}, 360, 240},
		{[]string{"render", cnn, "--view", "plot", "--tensor", "stem_conv.bias", "--size", "400x300"}, 400, 300},
		{[]string{"render", cnn, "--view", "graph", "--dark", "--size", "200x600"}, 200, 600},
		{[]string{"render", cnn, "--view", "graph", "--direction", "lr", "--constants", "--select", "stem_conv", "--size", "600x200"}, 600, 200},
		{[]string{"render", cnn, "--view", "window", "--direction", "lr", "--select", "stem_conv"}, 1280, 820},
		{[]string{"render", cnn, "--view", "window"}, 1280, 820},
		{[]string{"render", cnn, "--view", "window", "--tensor", "stem_conv.weight", "--colormap", "gray", "--size", "1000x900"}, 1000, 900},
		{[]string{"render", cnn, "--view", "heatmap", "--tensor", "stem_conv.weight", "--expr", "w[..., 1, ::2]", "--size", "400x300"}, 400, 300},
		{[]string{"render", "--size", "900x830", "--view", "window", wave}, 900, 830},
	} {
		png := filepath.Join(out, "out.png")
		os.Remove(png)
		_, errOut, code := runCmd(append(c.args, "--out", png)...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", c.args, code, errOut)
			continue
		}
		if errOut != "" {
			t.Errorf("%v: stderr %q", c.args, errOut)
		}
		if w, h := pngSize(t, png); w != c.w || h != c.h {
			t.Errorf("%v: %d×%d, want %d×%d", c.args, w, h, c.w, c.h)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 1 {
		t.Errorf("output directory holds %d files (temporary files left?)", len(entries))
	}
}

// Two processes given the same input write the same bytes.
func TestRenderSameBytesTwice(t *testing.T) {
	wave := waveFile(t)
	cnn := cnnFile(t, 60, true)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"render", wave, "--view", "heatmap", "--size", "400x300"},
		{"render", wave, "--view", "histogram", "--size", "400x300"},
		{"render", cnn, "--view", "graph", "--size", "300x500"},
		{"render", cnn, "--view", "window", "--size", "900x600"}, // the Graph pane needs less room
	} {
		var outs [2][]byte
		for i := range outs {
			path := filepath.Join(dir, fmt.Sprintf("%d.png", i))
			if _, errOut, code := runChild(t, nil, append(args, "--out", path)...); code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			var err error
			if outs[i], err = os.ReadFile(path); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(outs[0], outs[1]) {
			t.Errorf("%v: two runs wrote different PNGs (%d and %d bytes)", args, len(outs[0]), len(outs[1]))
		}
	}
}

func TestRenderUsageAndErrors(t *testing.T) {
	wave := waveFile(t)
	cnn := cnnFile(t, 60, false)
	out := filepath.Join(t.TempDir(), "x.png")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"render"}, 2, "expected one FILE"},
		{[]string{"render", wave, "--out", out}, 2, "--view must be one of"},
		{[]string{"render", wave, "--view", "pie", "--out", out}, 2, "--view must be one of"},
		{[]string{"render", wave, "--view", "heatmap"}, 2, "--out must name a .png"},
		{[]string{"render", wave, "--view", "heatmap", "--out", "x.jpg"}, 2, "--out must name a .png"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--size", "10x10"}, 2, "each side must be"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--size", "wide"}, 2, "WIDTHxHEIGHT"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--size", "9000x100"}, 2, "each side must be"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--axes", "1"}, 2, "two axes"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--axes", "1,1"}, 2, "different axes"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--index", "0:1"}, 2, "AXIS=INDEX"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--index", "0=1", "--index", "0=0"}, 2, "given twice"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--colormap", "jet"}, 2, "unknown colour map"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--range", "1,0"}, 2, "below"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--range", "wide"}, 2, "LO,HI"},
		{[]string{"render", wave, "--view", "histogram", "--out", out, "--range", "sym"}, 2, "auto or LO,HI"},
		{[]string{"render", wave, "--view", "plot", "--out", out, "--colormap", "gray"}, 2, "does not apply to --view plot"},
		{[]string{"render", wave, "--view", "plot", "--out", out}, 1, "one axis longer than 1"},
		{[]string{"render", wave, "--view", "histogram", "--out", out, "--bins", "0"}, 2, "1–4096"},
		{[]string{"render", wave, "--view", "histogram", "--out", out, "--bins", "5000"}, 2, "1–4096"},
		{[]string{"render", wave, "--view", "window", "--out", out, "--size", "300x200"}, 1, "needs at least"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--size", "100x100"}, 1, "needs at least"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--reduce", "median"}, 2, "--reduce"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--expr", "w[0"}, 2, "col 4: expected ',' or ']'"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--expr", "w[5]"}, 1, "col 3: index 5 is out of range for axis 0 of size 2"},
		{[]string{"render", cnn, "--view", "graph", "--out", out, "--expr", "w"}, 2, "--expr does not apply"},
		{[]string{"render", cnn, "--view", "graph", "--out", out, "--direction", "up"}, 2, "unknown direction"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--direction", "lr"}, 2, "--direction applies to --view graph"},
		{[]string{"render", cnn, "--view", "graph", "--out", out, "--select", "nope"}, 1, `no node named "nope"`},
		{[]string{"render", cnn, "--view", "graph", "--out", out, "--tensor", "x"}, 2, "does not apply"},
		{[]string{"render", cnn, "--view", "graph", "--out", out, "--colormap", "gray"}, 2, "--colormap does not apply"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--bins", "16"}, 2, "--bins applies to --view histogram"},
		{[]string{"render", wave, "--view", "histogram", "--out", out, "--reduce", "max"}, 2, "--reduce applies to --view heatmap"},
		{[]string{"render", cnn, "--view", "window", "--out", out, "--index", "0=1"}, 2, "--index sets the inspector"},
		{[]string{"render", wave, "--view", "heatmap", "--out", wave + ".png", "--nope"}, 2, "flag provided but not defined"},
		{[]string{"render", wave + ".missing", "--view", "heatmap", "--out", out}, 1, "tensorscope: " + wave + ".missing"},
		{[]string{"render", wave, "--view", "graph", "--out", out}, 1, "no graph"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--tensor", "w"}, 1, `no tensor named "w"`},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--axes", "0,3"}, 1, "axes"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--axes", "1,2", "--index", "2=0"}, 1, "axis 2 is plotted"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--index", "0=2"}, 1, "outside axis 0"},
		{[]string{"render", wave, "--view", "heatmap", "--out", out, "--tensor", "#0", "--dequant"}, 1, "not quantised"},
		{[]string{"render", cnn, "--view", "heatmap", "--out", out, "--tensor", "data"}, 1, "no data"},
		{[]string{"render", wave, "--view", "heatmap", "--out", filepath.Join(wave, "x.png")}, 1, "cannot write"},
	} {
		_, errOut, code := runCmd(c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errOut, c.code, c.want)
		}
		if code == 1 && strings.Count(strings.TrimSuffix(errOut, "\n"), "\n") > 0 {
			t.Errorf("%v: the error takes more than one line:\n%s", c.args, errOut)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed render wrote its output")
	}
	outHelp, _, code := runCmd("render", "--help")
	if code != 0 || !strings.Contains(outHelp, "--view heatmap|plot|histogram|graph|window") {
		t.Errorf("render --help: exit %d\n%s", code, outHelp)
	}
}

// render must not connect to the X display (internal/earlyenv hides it):
// a listener posing as display 127.0.0.1:N sees no connection, while a
// command that opens the GUI libraries connects to it at once.
func TestRenderDoesNotTouchDisplay(t *testing.T) {
	var l net.Listener
	var display string
	for n := 150; n < 400 && l == nil; n++ {
		if ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", 6000+n)); err == nil {
			l, display = ln, fmt.Sprintf("127.0.0.1:%d", n)
		}
	}
	if l == nil {
		t.Skip("no free port for a fake X display")
	}
	defer l.Close()
	conns := make(chan struct{}, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close() // no X server here: the client gives up
			conns <- struct{}{}
		}
	}()
	env := []string{"DISPLAY=" + display, "WAYLAND_DISPLAY="}
	connected := func() bool {
		select {
		case <-conns:
			return true
		case <-time.After(200 * time.Millisecond):
			return false
		}
	}
	out := filepath.Join(t.TempDir(), "x.png")
	for _, view := range []string{"heatmap", "window"} {
		if _, errOut, code := runChild(t, env, "render", waveFile(t), "--view", view, "--size", "1000x900", "--out", out); code != 0 {
			t.Fatalf("render: exit %d: %s", code, errOut)
		}
		if connected() {
			t.Errorf("render --view %s connected to the display", view)
		}
	}
	// The control: an X client given the same DISPLAY reaches the fake
	// display. (Nothing in tensorscope connects before a window opens: GTK
	// is loaded when a dialog is first shown.)
	xdpyinfo, err := exec.LookPath("xdpyinfo")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("xdpyinfo (x11-utils) is missing: the control cannot run")
		}
		t.Skip("xdpyinfo (x11-utils) is missing: the control cannot run")
	}
	ctl := exec.Command(xdpyinfo)
	ctl.Env = append(os.Environ(), env...)
	ctl.Run() // fails: the fake display closes the connection
	if !connected() {
		t.Error("the fake display saw no connection from an X client either; the test proves nothing")
	}
}

// BenchmarkRenderGraph10k renders the graph of a 10k-node tmfile, in
// process (the command-line cost without process start).
func BenchmarkRenderGraph10k(b *testing.B) {
	path := cnnFile(b, 10_000, false)
	out := filepath.Join(b.TempDir(), "g.png")
	for b.Loop() {
		if _, errOut, code := runCmd("render", path, "--view", "graph", "--out", out); code != 0 {
			b.Fatalf("exit %d: %s", code, errOut)
		}
	}
}
