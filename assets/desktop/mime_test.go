package desktop

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tensorscope/formats/tsr"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

const appID = "io.github.tensorscope"

// mimeInfo is the part of a shared-mime-info package these files use.
type mimeInfo struct {
	Types []struct {
		Type    string `xml:"type,attr"`
		Comment string `xml:"comment"`
		Globs   []struct {
			Pattern string `xml:"pattern,attr"`
		} `xml:"glob"`
		Magic []struct {
			Priority int `xml:"priority,attr"`
			Matches  []struct {
				Type   string `xml:"type,attr"`
				Offset string `xml:"offset,attr"`
				Value  string `xml:"value,attr"`
			} `xml:"match"`
		} `xml:"magic"`
	} `xml:"mime-type"`
}

func readMimeInfo(t *testing.T) mimeInfo {
	t.Helper()
	b, err := os.ReadFile(appID + ".xml")
	if err != nil {
		t.Fatal(err)
	}
	var mi mimeInfo
	if err := xml.Unmarshal(b, &mi); err != nil {
		t.Fatal(err)
	}
	return mi
}

// unescape decodes a match value as update-mime-database does for
// type="string": backslash escapes, \xNN among them.
func unescape(t *testing.T, s string) []byte {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			out = append(out, s[i])
			continue
		}
		if i+3 < len(s) && s[i+1] == 'x' {
			v, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
			if err != nil {
				t.Fatalf("bad escape in %q", s)
			}
			out = append(out, byte(v))
			i += 3
			continue
		}
		t.Fatalf("escape in %q is not \\xNN", s)
	}
	return out
}

// magicTypes lists the types whose magic matches the start of a file.
func magicTypes(t *testing.T, mi mimeInfo, head []byte) []string {
	var out []string
	for _, mt := range mi.Types {
		for _, m := range mt.Magic {
			for _, r := range m.Matches {
				if r.Type != "string" {
					t.Fatalf("%s: match type %q is not checked by this test", mt.Type, r.Type)
				}
				off, err := strconv.Atoi(r.Offset)
				if err != nil {
					t.Fatalf("%s: offset %q is not a single number", mt.Type, r.Offset)
				}
				v := unescape(t, r.Value)
				if off+len(v) <= len(head) && bytes.Equal(head[off:off+len(v)], v) {
					out = append(out, mt.Type)
				}
			}
		}
	}
	return out
}

// sampleCase is a file and the type the MIME database must give it.
type sampleCase struct{ path, want string }

// realSamples lists every sample of a supported format with its type,
// known from its folder, extension and (for TSR) the generation its name
// records in SOURCES.md.
func realSamples(t *testing.T) []sampleCase {
	t.Helper()
	var out []sampleCase
	for _, p := range samples.Files(t, "tsr", ".tsr") {
		switch name := filepath.Base(p); {
		case strings.HasPrefix(name, "tsr1_"):
			out = append(out, sampleCase{p, "application/x-tsr-tensor"})
		case strings.HasPrefix(name, "tsr4_"):
			out = append(out, sampleCase{p, "application/x-tsr4-tensor"})
		default:
			t.Fatalf("sample %s: unknown TSR generation", p)
		}
	}
	for _, p := range samples.Files(t, "tmfile", ".tmfile") {
		out = append(out, sampleCase{p, "application/x-tengine-tmfile"})
	}
	for _, p := range samples.Files(t, "tsm", ".tsm") {
		out = append(out, sampleCase{p, "application/x-tennis-tsm"})
	}
	for _, p := range samples.Files(t, "tsm", ".csta") {
		out = append(out, sampleCase{p, "application/x-seetaface-csta"})
	}
	for _, p := range samples.Files(t, "nn", ".nn") {
		out = append(out, sampleCase{p, "application/x-datacode-nn"})
	}
	for _, sub := range []string{"gguf/models", "gguf/vocab-only", "gguf/quantized-llama.cpp", "gguf/quantized-llama.cpp/split", "gguf/edge-cases"} {
		for _, p := range samples.Files(t, sub, ".gguf") {
			if strings.Contains(p, "FUGG") {
				// The pre-release draft (magic "FUGG") is no GGUF file,
				// though its name says so: it has no type to check.
				continue
			}
			out = append(out, sampleCase{p, "application/x-gguf"})
		}
	}
	for _, sub := range []string{"onnx/torchvision-export", "onnx/onnx-github/light"} {
		for _, p := range samples.Files(t, sub, ".onnx") {
			out = append(out, sampleCase{p, "application/x-onnx"})
		}
	}
	out = append(out, numpyAndSafetensorsSamples(t)...)
	out = append(out, tfliteSamples(t)...)
	out = append(out, pytorchSamples(t)...)
	return out
}

// generatedFiles writes, into dir, a TSR3 file (no sample exists) made by
// the project's writer, and files that resemble the formats but are none
// of them; want is "" for those.
func generatedFiles(t *testing.T, dir string) []sampleCase {
	t.Helper()
	x, err := tensor.FromBytes(make([]byte, 4*6), tensor.Float32, []int{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	var v3 bytes.Buffer
	if err := tsr.EncodeV3(&v3, x, tsr.RAW); err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, 4096)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	files := []struct {
		name, want string
		data       []byte
	}{
		{"generated.tsr", "application/x-tsr3-tensor", v3.Bytes()},
		{"tsr3-without-extension", "application/x-tsr3-tensor", v3.Bytes()},
		{"notes", "", []byte("fast food, slow code\n")},
		{"fast-then-noise", "", append([]byte("fast"), noise...)},
		{"future-tsr", "", append([]byte("TSR5"), noise...)},
		{"datacod", "", append([]byte("DATACOD\x00"), noise...)},
		{"tsm-mark-at-0", "", append([]byte{0x29, 0x09, 0x91, 0x19}, noise...)},
		{"noise", "", noise},
		{"tflite-without-extension", "application/x-tflite", append([]byte{16, 0, 0, 0, 'T', 'F', 'L', '3'}, noise...)},
		{"tfl3-at-0", "", append([]byte("TFL3"), noise...)},
	}
	var out []sampleCase
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, sampleCase{p, f.want})
	}
	return out
}

func head(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 64)
	n, _ := f.Read(b)
	return b[:n]
}

// TestMagicRulesMatchTheFormats applies the XML's own rules, without the
// MIME tools: every sample's content matches its type's magic and no other
// (tmfiles, which have none, match nothing), and look-alikes match nothing.
func TestMagicRulesMatchTheFormats(t *testing.T) {
	mi := readMimeInfo(t)
	cases := append(realSamples(t), generatedFiles(t, t.TempDir())...)
	for _, c := range cases {
		got := magicTypes(t, mi, head(t, c.path))
		want := []string{c.want}
		if c.want == "" || globOnly[c.want] {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: magic matches %q; want %q", filepath.Base(c.path), got, want)
		}
	}
}

// TestGlobsNameEveryFormat checks that each type claims its extension,
// including those known by magic, so files are typed without reading them.
func TestGlobsNameEveryFormat(t *testing.T) {
	want := map[string]string{
		"application/x-tsr-tensor":        "*.tsr",
		"application/x-tsr3-tensor":       "*.tsr",
		"application/x-tsr4-tensor":       "*.tsr",
		"application/x-tengine-tmfile":    "*.tmfile",
		"application/x-tennis-tsm":        "*.tsm",
		"application/x-seetaface-csta":    "*.csta",
		"application/x-datacode-nn":       "*.nn",
		"application/x-gguf":              "*.gguf",
		"application/x-onnx":              "*.onnx",
		"application/x-npy":               "*.npy",
		"application/x-npz":               "*.npz",
		"application/x-safetensors":       "*.safetensors",
		"application/x-safetensors-index": "*.safetensors.index.json",
		"application/x-tflite":            "*.tflite",
		"application/x-pytorch":           "*.pt *.pth *.ckpt",
	}
	mi := readMimeInfo(t)
	if len(mi.Types) != len(want) {
		t.Errorf("%d types; want %d", len(mi.Types), len(want))
	}
	for _, mt := range mi.Types {
		var globs []string
		for _, g := range mt.Globs {
			globs = append(globs, g.Pattern)
		}
		if strings.Join(globs, " ") != want[mt.Type] {
			t.Errorf("%s: globs %v; want %s", mt.Type, mt.Globs, want[mt.Type])
		}
		if mt.Comment == "" {
			t.Errorf("%s has no comment for file managers to show", mt.Type)
		}
		for _, m := range mt.Magic {
			// Priority 80 puts magic before globs in File::MimeInfo, which
			// otherwise types every *.tsr as the first TSR type.
			if m.Priority < 80 {
				t.Errorf("%s: magic priority %d; want at least 80", mt.Type, m.Priority)
			}
		}
	}
}

func desktopEntry(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys := map[string]string{}
	sc := bufio.NewScanner(f)
	group := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "["):
			group = line
		case group == "[Desktop Entry]" && strings.Contains(line, "="):
			k, v, _ := strings.Cut(line, "=")
			if _, dup := keys[k]; dup {
				t.Errorf("%s: key %s repeated", path, k)
			}
			keys[k] = v
		}
	}
	return keys
}

func TestDesktopEntry(t *testing.T) {
	e := desktopEntry(t, appID+".desktop")
	for k, want := range map[string]string{
		"Type":           "Application",
		"Name":           "Tensorscope",
		"Exec":           "tensorscope %F",
		"Icon":           appID,
		"Terminal":       "false",
		"Categories":     "Development;Science;",
		"StartupWMClass": "Tensorscope", // GLFW names the X11 class after the first window's title
	} {
		if e[k] != want {
			t.Errorf("%s=%q; want %q", k, e[k], want)
		}
	}
	var types []string
	for _, mt := range readMimeInfo(t).Types {
		types = append(types, mt.Type)
	}
	if got := strings.Split(strings.TrimSuffix(e["MimeType"], ";"), ";"); !slices.Equal(got, types) {
		t.Errorf("MimeType=%q; want the XML's types %q", e["MimeType"], types)
	}
}
