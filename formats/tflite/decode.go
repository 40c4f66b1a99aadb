package tflite

import (
	"fmt"
	"sort"
	"strconv"

	flatbuffers "github.com/google/flatbuffers/go"

	"tensorscope/formats"
	"tensorscope/formats/tflite/internal/tfl"
)

// maxWarnings keeps a hostile file from listing millions of warnings.
const maxWarnings = 200

// opCode is one entry of Model.operator_codes, resolved.
type opCode struct {
	name    string // BuiltinOperator name, or the custom_code for CUSTOM
	builtin tfl.BuiltinOperator
	custom  bool
	version int32
}

type decoder struct {
	src    *formats.Source
	doc    *formats.Document
	buf    []byte
	words  *farWords // reads the file's scattered words while decoding
	schema *fbSchema
	model  *tfl.Model

	nbuffers   int
	codes      []opCode
	nsub       int
	tensorOf   [][]int // per subgraph, per tensor: its document tensor, or -1
	graphs     []*formats.Graph
	state      []uint8 // per subgraph: 0 not built, 1 being built, 2 built
	reached    []bool
	custom     *formats.Meta // custom operators' options, for the metadata pane
	warnings   int
	suppressed int
}

func (d *decoder) warn(offset int64, format string, args ...any) {
	d.warnings++
	if d.warnings > maxWarnings {
		d.suppressed++
		return
	}
	d.doc.Warn(offset, format, args...)
}

func decode(src *formats.Source) (*formats.Document, error) {
	s, err := theSchema()
	if err != nil {
		return nil, err
	}
	d := &decoder{src: src, buf: src.Data, schema: s, doc: src.NewDocument(Format, "")}
	if len(d.buf) < 8 || string(d.buf[4:8]) != "TFL3" {
		return nil, formats.Errorf(4, "expected the file identifier \"TFL3\"")
	}
	defer readSparsely(d.buf)()
	d.words = newFarWords(src)
	defer d.words.close()
	if err := verifyModel(d.buf, d.words, s); err != nil {
		return nil, err
	}
	d.model = tfl.GetRootAsModel(d.buf, 0)
	d.header()
	d.nbuffers = d.model.BuffersLength()
	d.operatorCodes()
	d.nsub = d.model.SubgraphsLength()
	if d.nsub == 0 {
		return d.doc, formats.Errorf(int64(d.fieldAt("subgraphs")), "the model has no subgraphs (the TFLite interpreter refuses such a model)")
	}
	d.doc.Version = "schema " + strconv.FormatUint(uint64(d.model.Version()), 10)
	d.tensors()
	d.graphs = make([]*formats.Graph, d.nsub)
	d.state = make([]uint8, d.nsub)
	d.reached = make([]bool, d.nsub)
	d.custom = formats.NewObject("custom_options")
	d.doc.Graph = d.graph(0, 0)
	d.metadata()
	if d.suppressed > 0 {
		d.doc.Warn(-1, "%d more warnings are not listed", d.suppressed)
	}
	return d.doc, nil
}

// fieldAt is the offset of the root table's field name, or 0.
func (d *decoder) fieldAt(name string) uint64 {
	ta := tableAt(d.buf, uint64(d.model.Table().Pos), d.schema.root)
	if f := d.schema.root.field(name); f != nil {
		return ta.at(f)
	}
	return 0
}

// header lists the file's first words and the root table's fields with
// their offsets.
func (d *decoder) header() {
	root := uint64(d.model.Table().Pos)
	d.doc.Header = append(d.doc.Header,
		formats.HeaderField{Name: "root offset", Offset: 0, Size: 4, Value: int64(root), Meaning: "the Model table"},
		formats.HeaderField{Name: "file identifier", Offset: 4, Size: 4, Value: "TFL3"})
	ta := tableAt(d.buf, root, d.schema.root)
	end := root + 4
	for k := range d.schema.root.fields {
		f := &d.schema.root.fields[k]
		at := ta.at(f)
		if at == 0 || f.deprecated {
			continue
		}
		hf := formats.HeaderField{Name: f.name, Offset: int64(at), Size: 4}
		switch f.typ.kind {
		case kScalar:
			hf.Size = f.typ.size
			hf.Value = scalarAt(d.buf, at, f.typ)
		case kString:
			s := []rune(ta.str(ta.deref(at)))
			if len(s) > 80 {
				s = append(s[:80], '…')
			}
			hf.Value = string(s)
		case kVector:
			vec := ta.deref(at)
			n := int64(d.u32(vec))
			hf.Value = n
			hf.Meaning = fmt.Sprintf("%s vector of %d at byte %d", f.typ.elem.name, n, vec)
		}
		d.doc.Header = append(d.doc.Header, hf)
		end = max(end, at+uint64(hf.Size))
	}
	// File order: a builder writes the fields in whatever order it likes.
	fields := d.doc.Header[2:]
	sort.SliceStable(fields, func(i, j int) bool { return fields[i].Offset < fields[j].Offset })
	end = max(end, ta.vt+ta.vlen)
	d.doc.HeaderSpan = formats.Span{Offset: 0, Len: int64(min(end, 4096, uint64(len(d.buf))))}
}

func (d *decoder) u32(at uint64) uint32 {
	return uint32(d.buf[at]) | uint32(d.buf[at+1])<<8 | uint32(d.buf[at+2])<<16 | uint32(d.buf[at+3])<<24
}

// operatorCodes resolves every operator code: max(builtin_code,
// deprecated_builtin_code), as the schema says, and CUSTOM's custom_code.
func (d *decoder) operatorCodes() {
	n := d.model.OperatorCodesLength()
	d.codes = make([]opCode, n)
	var oc tfl.OperatorCode
	for j := 0; j < n; j++ {
		d.model.OperatorCodes(&oc, j)
		code := max(oc.BuiltinCode(), tfl.BuiltinOperator(oc.DeprecatedBuiltinCode()))
		c := opCode{builtin: code, version: oc.Version()}
		switch {
		case code == tfl.BuiltinOperatorCUSTOM:
			c.custom = true
			c.name = text(oc.CustomCode())
			if c.name == "" {
				c.name = "CUSTOM"
			}
		default:
			c.name = tfl.EnumNamesBuiltinOperator[code]
			if c.name == "" {
				c.name = "BUILTIN_" + strconv.Itoa(int(code))
				d.warn(int64(oc.Table().Pos), "operator code %d: builtin operator %d is not in the schema", j, code)
			}
		}
		d.codes[j] = c
	}
}

// tableOf returns the generated table's position, for warnings.
func tableOf(t flatbuffers.Table) int64 { return int64(t.Pos) }
