// Command opgen turns op-params.tsv (every Tengine tmfile operator id, name
// and param struct layout) and op-meaning.tsv (what each operator means:
// its category and which param fields hold its kernel, stride, channels…)
// into optable_gen.go, the one table the tmfile codec decodes, encodes and
// describes operators with. Run it through `go generate ./formats/tmfile`;
// the output is committed, so building the codec never needs the spec
// folder.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

func main() {
	tsv := flag.String("tsv", "../../../shared/specs/tmfile/op-params.tsv", "the op-params.tsv spec")
	meaningTSV := flag.String("meaning", "op-meaning.tsv", "the table of operator meanings")
	out := flag.String("o", "optable_gen.go", "output Go file")
	flag.Parse()
	ops, err := readTables(*tsv, *meaningTSV)
	if err != nil {
		fail(err)
	}
	src, err := generate(ops)
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fail(err)
	}
}

// readTables reads both tables and joins the meanings onto the operators.
func readTables(paramsPath, meaningPath string) ([]op, error) {
	params, err := os.Open(paramsPath)
	if err != nil {
		return nil, err
	}
	defer params.Close()
	ops, err := parseTSV(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", paramsPath, err)
	}
	meanings, err := os.Open(meaningPath)
	if err != nil {
		return nil, err
	}
	defer meanings.Close()
	if err := joinMeanings(ops, meanings); err != nil {
		return nil, fmt.Errorf("%s: %w", meaningPath, err)
	}
	return ops, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "opgen:", err)
	os.Exit(1)
}

// op is one row of the TSV.
type op struct {
	id     int
	cname  string // TM2_OPTYPE suffix, e.g. CONVOLUTION
	name   string // opstr, the name the viewer shows
	strct  string // param struct name, "" when the op has none
	size   int
	fields []field
	notes  string
	means  meaning
}

type field struct {
	cname string // name in the C struct, e.g. offset_vf_min_size
	name  string // attribute name, e.g. min_size
	typ   string // i32 u32 f32 u8 off
	at    int
	ref   string // for off fields: dims floats anchors string
}

var typeSize = map[string]int{"i32": 4, "u32": 4, "f32": 4, "u8": 1, "off": 4}

func parseTSV(r io.Reader) ([]op, error) {
	var ops []op
	seenID := map[int]bool{}
	seenName := map[string]bool{}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "op_id\t") {
			continue
		}
		cols := strings.Split(text, "\t")
		for len(cols) < 7 {
			cols = append(cols, "")
		}
		id, err := strconv.Atoi(cols[0])
		if err != nil || id < 0 || id > 1000 {
			return nil, fmt.Errorf("line %d: bad op id %q", line, cols[0])
		}
		size, err := strconv.Atoi(cols[4])
		if err != nil || size < 0 {
			return nil, fmt.Errorf("line %d: bad size %q", line, cols[4])
		}
		o := op{id: id, cname: cols[1], name: cols[2], strct: cols[3], size: size, notes: cols[6]}
		if o.strct == "-" {
			o.strct = ""
		}
		if seenID[id] || seenName[o.name] || o.name == "" {
			return nil, fmt.Errorf("line %d: op id %d or name %q repeats or is empty", line, id, o.name)
		}
		seenID[id], seenName[o.name] = true, true
		if cols[5] != "" {
			for _, spec := range strings.Split(cols[5], ";") {
				f, err := parseField(spec)
				if err != nil {
					return nil, fmt.Errorf("line %d (%s): %w", line, o.name, err)
				}
				o.fields = append(o.fields, f)
			}
		}
		if err := o.check(); err != nil {
			return nil, fmt.Errorf("line %d (%s): %w", line, o.name, err)
		}
		o.resolveRefs()
		ops = append(ops, o)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].id < ops[j].id })
	return ops, nil
}

var fieldRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*):(i32|u32|f32|u8|off)@([0-9]+)$`)

func parseField(spec string) (field, error) {
	m := fieldRE.FindStringSubmatch(strings.TrimSpace(spec))
	if m == nil {
		return field{}, fmt.Errorf("bad field %q (want name:type@offset)", spec)
	}
	at, _ := strconv.Atoi(m[3])
	f := field{cname: m[1], name: m[1], typ: m[2], at: at}
	if f.typ == "off" {
		f.name = attrName(f.cname)
	}
	return f, nil
}

// attrName drops the "offset_" prefix and the Tengine type tag (vf_, vi_,
// va_, s_) so that offset_vf_min_size shows as min_size, while names such
// as re_shape that Tengine's own params use are kept.
func attrName(c string) string {
	n := strings.TrimPrefix(c, "offset_")
	for _, tag := range []string{"vf_", "vi_", "va_", "s_"} {
		if strings.HasPrefix(n, tag) {
			return n[len(tag):]
		}
	}
	return n
}

func (o *op) check() error {
	if o.strct == "" && (o.size != 0 || len(o.fields) != 0) {
		return fmt.Errorf("no struct but size %d and %d fields", o.size, len(o.fields))
	}
	end := 0
	names := map[string]bool{}
	for _, f := range o.fields {
		sz := typeSize[f.typ]
		if f.at%sz != 0 {
			return fmt.Errorf("field %s at %d is not aligned to %d", f.cname, f.at, sz)
		}
		if f.at < end {
			return fmt.Errorf("field %s at %d overlaps the field before", f.cname, f.at)
		}
		end = f.at + sz
		if names[f.name] {
			return fmt.Errorf("field name %s repeats", f.name)
		}
		names[f.name] = true
	}
	if end > o.size {
		return fmt.Errorf("fields end at %d beyond the struct size %d", end, o.size)
	}
	if o.size%4 != 0 {
		return fmt.Errorf("struct size %d is not a multiple of 4", o.size)
	}
	return nil
}

var (
	namedRefRE = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*->\s*TM2_(Vector_dims|Vector_floats|Vector_anchors|String)`)
	bareRefRE  = regexp.MustCompile(`(?:^|[^A-Za-z_])->\s*TM2_(Vector_dims|Vector_floats|Vector_anchors|String)`)
	countRefRE = regexp.MustCompile(`[0-9]+ offsets\s*->\s*TM2_(Vector_dims|Vector_floats|Vector_anchors|String)`)
)

var refKinds = map[string]string{"Vector_dims": "dims", "Vector_floats": "floats", "Vector_anchors": "anchors", "String": "string"}

// resolveRefs says what each offset field points to: the notes name it
// ("offset_re_shape -> TM2_Vector_dims", "4 offsets -> TM2_Vector_floats",
// "-> TM2_Vector_dims (perm)"); otherwise the name's tag does (vf_ floats,
// va_ anchors, s_ string, anything else int32 dims).
func (o *op) resolveRefs() {
	named := map[string]string{}
	for _, m := range namedRefRE.FindAllStringSubmatch(o.notes, -1) {
		named[m[1]] = refKinds[m[2]]
	}
	all := ""
	if m := countRefRE.FindStringSubmatch(o.notes); m != nil {
		all = refKinds[m[1]]
	} else if m := bareRefRE.FindStringSubmatch(o.notes); m != nil && len(named) == 0 {
		all = refKinds[m[1]]
	}
	for i := range o.fields {
		f := &o.fields[i]
		if f.typ != "off" {
			continue
		}
		switch {
		case named[f.cname] != "":
			f.ref = named[f.cname]
		case all != "":
			f.ref = all
		case strings.HasPrefix(f.cname, "offset_vf_"):
			f.ref = "floats"
		case strings.HasPrefix(f.cname, "offset_va_"):
			f.ref = "anchors"
		case strings.HasPrefix(f.cname, "offset_s_"):
			f.ref = "string"
		default:
			f.ref = "dims"
		}
	}
	// "ratios/anchor_scales -> TM2_Vector_floats" names two fields by
	// their short names; the tag rule above already gives them floats.
}

var typeConst = map[string]string{"i32": "fieldI32", "u32": "fieldU32", "f32": "fieldF32", "u8": "fieldU8", "off": "fieldOffset"}
var refConst = map[string]string{"dims": "RefDims", "floats": "RefFloats", "anchors": "RefAnchors", "string": "RefString"}

func generate(ops []op) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by internal/opgen from op-params.tsv and op-meaning.tsv; DO NOT EDIT.\n\n")
	b.WriteString("package tmfile\n\n")
	b.WriteString("import \"tensorscope/formats\"\n\n")
	maxID := 0
	for _, o := range ops {
		maxID = max(maxID, o.id)
	}
	fmt.Fprintf(&b, "// opTable is indexed by operator id; ids the spec leaves unused have an empty Name.\n")
	fmt.Fprintf(&b, "var opTable = [%d]opInfo{\n", maxID+1)
	for _, o := range ops {
		fmt.Fprintf(&b, "\t%d: {Name: %q, CName: %q,\n\t\tMeaning: %s", o.id, o.name, o.cname, o.means.goSource())
		if o.strct != "" {
			fmt.Fprintf(&b, ", Struct: %q, Size: %d, Fields: []paramField{\n", o.strct, o.size)
			for _, f := range o.fields {
				fmt.Fprintf(&b, "\t\t{Name: %q, Type: %s, At: %d", f.name, typeConst[f.typ], f.at)
				if f.cname != f.name {
					fmt.Fprintf(&b, ", CName: %q", f.cname)
				}
				if f.ref != "" {
					fmt.Fprintf(&b, ", Ref: %s", refConst[f.ref])
				}
				b.WriteString("},\n")
			}
			b.WriteString("\t}")
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
