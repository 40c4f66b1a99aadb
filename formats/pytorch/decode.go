package pytorch

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"tensorscope/formats"
	"tensorscope/formats/internal/zipfile"
	"tensorscope/tensor"
)

var format = &formats.Format{
	ID:         "pytorch",
	Name:       "PyTorch checkpoint",
	Extensions: []string{".pt", ".pth", ".ckpt", ".bin", ".pytorch_model.bin.index.json"},
	Sniff:      sniffCheckpoint,
}

var scriptFormat = &formats.Format{
	ID:         "torchscript",
	Name:       "TorchScript archive",
	Extensions: []string{".pt", ".pth", ".ptl"},
	Sniff:      sniffTorchScript,
}

func init() {
	format.Decode = decode
	scriptFormat.Decode = decode
	formats.Register(format)
	formats.Register(scriptFormat)
}

// sniffCheckpoint recognises torch.save's files: the legacy format, or
// the zip format without TorchScript's constants.
func sniffCheckpoint(b []byte) bool {
	if sniffLegacy(b) {
		return true
	}
	checkpoint, script := zipKind(b)
	return checkpoint && !script
}

// sniffLegacy recognises the legacy format by its first pickle: torch's
// magic number 0x1950a86a20f9469cfc6c, as LONG1 (protocol 2 and later) or
// as the text LONG of protocols 0 and 1.
func sniffLegacy(b []byte) bool {
	if len(b) >= 2 && b[0] == opProto && b[1] <= 5 {
		b = b[2:]
	}
	if len(b) >= 9 && b[0] == opFrame {
		b = b[9:]
	}
	if len(b) >= 12 && b[0] == opLong1 && b[1] == 10 && bytes.Equal(b[2:12], legacyMagic) {
		return true
	}
	return bytes.HasPrefix(b, []byte("L"+legacyMagicDecimal))
}

// zipKind reads what sniffing needs from a zip's central directory:
// whether it holds a <folder>/data.pkl (torch's zip format) and a
// <folder>/constants.pkl beside it (torch.jit.save's archives). The
// records that read well are enough to recognise a checkpoint; decoding
// reports what is wrong with the others.
func zipKind(b []byte) (checkpoint, script bool) {
	if len(b) < 4 || string(b[:4]) != "PK\x03\x04" {
		return false, false
	}
	dir, _ := zipfile.Read(b)
	if dir == nil {
		return false, false
	}
	dir.Find(func(m *zipfile.Member) bool {
		checkpoint = checkpoint || inTopFolder(m.Name, "data.pkl")
		script = script || inTopFolder(m.Name, "constants.pkl")
		return checkpoint && script
	})
	return checkpoint, checkpoint && script
}

// inTopFolder reports whether name is <folder>/base, one level deep as
// torch writes it.
func inTopFolder(name []byte, base string) bool {
	dir, ok := bytes.CutSuffix(name, []byte(base))
	if !ok || len(dir) < 2 || dir[len(dir)-1] != '/' {
		return false
	}
	return bytes.IndexByte(dir[:len(dir)-1], '/') < 0
}

// sniffZip recognises torch's zip format: a member <folder>/data.pkl.
func sniffZip(b []byte) bool {
	checkpoint, _ := zipKind(b)
	return checkpoint
}

// sniffTorchScript recognises torch.jit.save's archives: torch's zip
// format with a constants.pkl beside data.pkl.
func sniffTorchScript(b []byte) bool {
	_, script := zipKind(b)
	return script
}

func decode(src *formats.Source) (*formats.Document, error) {
	if looksLikeIndex(src.Data) {
		return decodeIndex(src)
	}
	isZip, script := zipKind(src.Data)
	f := format
	if script {
		f = scriptFormat
	}
	doc := src.NewDocument(f, "")
	var c *checkpoint
	var err error
	switch {
	case isZip:
		c, err = readZip(src, doc)
	case sniffLegacy(src.Data):
		c, err = readLegacy(src, doc)
	default:
		return nil, formats.Errorf(0, "neither a zip archive with a data.pkl nor a legacy torch.save stream (which starts with the magic number %s)", legacyMagicDecimal)
	}
	if c != nil {
		c.size = int64(len(src.Data))
		doc.Header = c.header
		doc.Version = c.version
		doc.Warnings = append(doc.Warnings, c.warnings...)
		c.warnings = nil
	}
	if err != nil {
		return doc, err
	}
	if err := fill(doc, c); err != nil {
		return doc, err
	}
	return doc, nil
}

// fill lists the checkpoint's tensors and its metadata tree.
func fill(doc *formats.Document, c *checkpoint) error {
	sort.SliceStable(doc.Header, func(i, j int) bool { return doc.Header[i].Offset < doc.Header[j].Offset })
	var end int64
	for _, h := range doc.Header {
		end = max(end, h.Offset+int64(h.Size))
	}
	doc.HeaderSpan = formats.Span{Offset: 0, Len: min(doc.Size, end)}
	b := &builder{doc: doc, c: c}
	var named []namedTensor
	if c.kind == "torchscript" {
		named = scriptTensors(c)
	} else {
		named = nameTensors(c, c.root)
	}
	doc.Warnings = append(doc.Warnings, c.warnings...)
	c.warnings = nil

	// The metadata tree and the tensor list read the unpickled objects
	// and change none of them: the tree is built on another goroutine
	// (under the fault guard: a pickled array's bytes are the file's).
	mb := newMetaBuilder(c.size).link(named)
	var object, consts *formats.Meta
	treeDone := make(chan error, 1)
	go func() {
		treeDone <- tensor.CatchFault(func() error {
			object = metaOf("object", c.root, mb, 0)
			if c.consts != nil {
				consts = metaOf("constants", c.consts, mb, 0)
			}
			return nil
		})
	}()
	b.addTensors(named)
	doc.Warnings = append(doc.Warnings, c.warnings...)
	if err := <-treeDone; err != nil {
		return err
	}
	doc.Metadata = formats.NewObject("")
	doc.Metadata.Add(object)
	if consts != nil {
		doc.Metadata.Add(consts)
	}
	if len(c.code) > 0 {
		code := formats.NewObject("code")
		left := maxCodeLines
		for _, f := range c.code {
			code.Add(formats.Leaf(strings.TrimPrefix(f.name, "code/"), f.text))
			doc.Tables = append(doc.Tables, codeTable(f, &left))
		}
		doc.Metadata.Add(code)
	}
	if u := unknownMeta(c.unknown); u != nil {
		doc.Metadata.Add(u)
	}
	doc.Metadata.Add(formats.NewObject("file", c.facts...))
	if mb.cut {
		doc.Warn(-1, "the object is larger than the metadata pane shows: it is cut at %d nodes", mb.budget)
	}
	return nil
}

// maxCodeLines bounds the source lines shown as tables (the whole text of
// each file is in the metadata tree's code node).
const maxCodeLines = 4000

// codeTable shows a TorchScript source file as text, a row per line.
func codeTable(f codeFile, left *int) formats.Table {
	t := formats.Table{Title: f.name, Columns: []string{"Line", "Source"}}
	lines := strings.Split(strings.TrimRight(f.text, "\n"), "\n")
	for i, line := range lines {
		if *left <= 0 {
			t.Rows = append(t.Rows, []string{"…", fmt.Sprintf("%d more lines: the whole file is in the tree under code", len(lines)-i)})
			break
		}
		*left--
		t.Rows = append(t.Rows, []string{strconv.Itoa(i + 1), strings.ReplaceAll(line, "\t", "    ")})
	}
	return t
}
