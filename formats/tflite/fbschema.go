package tflite

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// The vendored schema is read at run time as well as compiled by flatc:
// the verifier walks every table the file holds by the schema's field
// lists, and builtin options are decoded field by field from it, typed as
// the schema types them. The parser understands what schema.fbs uses:
// namespace, file_identifier, file_extension, root_type, enums, unions and
// tables with scalar, string, vector, enum, union and table fields. (No
// structs and no explicit field ids occur in it.)

//go:embed schema/schema.fbs
var schemaText string

type fbKind uint8

const (
	kScalar fbKind = iota
	kString
	kVector
	kTable
	kUnion
)

// fbType is a field's type. For scalars (and enums) size is the width in
// bytes and scalar its base type; enum names the enum when it is one.
type fbType struct {
	kind   fbKind
	size   int
	scalar string
	enum   *fbEnum
	table  *fbTable
	union  *fbUnion
	elem   *fbType // vectors
	name   string  // as written, resolved after parsing
}

type fbField struct {
	name       string
	slot       int // byte offset of the field's entry in the vtable: 4 + 2·id
	typ        *fbType
	deprecated bool
	def        string // default as written, "" when none
}

type fbTable struct {
	name   string
	fields []fbField
}

type fbEnum struct {
	name   string
	scalar string
	size   int
	names  map[int64]string
}

type fbUnion struct {
	name    string
	members []*fbTable // type code i+1
	names   []string
}

type fbSchema struct {
	tables map[string]*fbTable
	enums  map[string]*fbEnum
	unions map[string]*fbUnion
	root   *fbTable
}

var scalarSizes = map[string]int{
	"bool": 1, "byte": 1, "ubyte": 1, "int8": 1, "uint8": 1,
	"short": 2, "ushort": 2, "int16": 2, "uint16": 2,
	"int": 4, "uint": 4, "int32": 4, "uint32": 4, "float": 4, "float32": 4,
	"long": 8, "ulong": 8, "int64": 8, "uint64": 8, "double": 8, "float64": 8,
}

// theSchema is schema.fbs parsed once, on first use.
var theSchema = sync.OnceValues(func() (*fbSchema, error) { return parseSchema(schemaText) })

// parseSchema reads the subset of the FlatBuffers schema language above.
func parseSchema(src string) (*fbSchema, error) {
	s := &fbSchema{tables: map[string]*fbTable{}, enums: map[string]*fbEnum{}, unions: map[string]*fbUnion{}}
	toks := tokenize(src)
	var rootName string
	var types []*fbType
	i := 0
	next := func() string {
		if i >= len(toks) {
			return ""
		}
		i++
		return toks[i-1]
	}
	skipTo := func(t string) {
		for i < len(toks) && toks[i] != t {
			i++
		}
		i++
	}
	// skipAttrs skips "( ... )" and reports whether it held "deprecated".
	skipAttrs := func() bool {
		dep := false
		if i < len(toks) && toks[i] == "(" {
			for i < len(toks) && toks[i] != ")" {
				if toks[i] == "deprecated" {
					dep = true
				}
				i++
			}
			i++
		}
		return dep
	}
	for i < len(toks) {
		switch kw := next(); kw {
		case "namespace", "file_identifier", "file_extension", "include", "attribute":
			skipTo(";")
		case "root_type":
			rootName = next()
			skipTo(";")
		case "enum":
			e := &fbEnum{name: next(), names: map[int64]string{}}
			if next() != ":" {
				return nil, fmt.Errorf("schema: enum %s has no base type", e.name)
			}
			e.scalar = next()
			e.size = scalarSizes[e.scalar]
			skipAttrs()
			if next() != "{" {
				return nil, fmt.Errorf("schema: enum %s: expected {", e.name)
			}
			var v int64
			for i < len(toks) && toks[i] != "}" {
				name := next()
				if toks[i] == "=" {
					i++
					n, err := strconv.ParseInt(next(), 0, 64)
					if err != nil {
						return nil, fmt.Errorf("schema: enum %s.%s: %v", e.name, name, err)
					}
					v = n
				}
				skipAttrs()
				e.names[v] = name
				v++
				if toks[i] == "," {
					i++
				}
			}
			i++
			s.enums[e.name] = e
		case "union":
			u := &fbUnion{name: next()}
			skipAttrs()
			if next() != "{" {
				return nil, fmt.Errorf("schema: union %s: expected {", u.name)
			}
			for i < len(toks) && toks[i] != "}" {
				u.names = append(u.names, next())
				skipAttrs()
				if toks[i] == "," {
					i++
				}
			}
			i++
			s.unions[u.name] = u
		case "table":
			t := &fbTable{name: next()}
			skipAttrs()
			if next() != "{" {
				return nil, fmt.Errorf("schema: table %s: expected {", t.name)
			}
			id := 0
			for i < len(toks) && toks[i] != "}" {
				f := fbField{name: next()}
				if next() != ":" {
					return nil, fmt.Errorf("schema: %s.%s: expected :", t.name, f.name)
				}
				ft := &fbType{}
				if toks[i] == "[" {
					i++
					ft.kind = kVector
					ft.elem = &fbType{name: next()}
					types = append(types, ft.elem)
					if next() != "]" {
						return nil, fmt.Errorf("schema: %s.%s: expected ]", t.name, f.name)
					}
				} else {
					ft.name = next()
					types = append(types, ft)
				}
				f.typ = ft
				if toks[i] == "=" {
					i++
					f.def = next()
				}
				f.deprecated = skipAttrs()
				if next() != ";" {
					return nil, fmt.Errorf("schema: %s.%s: expected ;", t.name, f.name)
				}
				f.slot = 4 + 2*id
				id++
				t.fields = append(t.fields, f)
			}
			i++
			s.tables[t.name] = t
		default:
			return nil, fmt.Errorf("schema: unexpected %q", kw)
		}
	}
	for _, t := range types {
		if err := s.resolve(t); err != nil {
			return nil, err
		}
	}
	// A union field takes two ids: its type (ubyte) and its value.
	for _, t := range s.tables {
		for k := range t.fields {
			extra := 0
			for j := 0; j < k; j++ {
				if t.fields[j].typ.kind == kUnion {
					extra++
				}
			}
			t.fields[k].slot += 2 * extra
			if t.fields[k].typ.kind == kUnion {
				t.fields[k].slot += 2 // the value; its type is the slot before
			}
		}
	}
	for _, u := range s.unions {
		for _, n := range u.names {
			t := s.tables[n]
			if t == nil {
				return nil, fmt.Errorf("schema: union %s: no table %s", u.name, n)
			}
			u.members = append(u.members, t)
		}
	}
	s.root = s.tables[rootName]
	if s.root == nil {
		return nil, fmt.Errorf("schema: no root table %q", rootName)
	}
	return s, nil
}

func (s *fbSchema) resolve(t *fbType) error {
	if n, ok := scalarSizes[t.name]; ok {
		t.kind, t.size, t.scalar = kScalar, n, t.name
		return nil
	}
	switch {
	case t.name == "string":
		t.kind = kString
	case s.enums[t.name] != nil:
		e := s.enums[t.name]
		t.kind, t.size, t.scalar, t.enum = kScalar, e.size, e.scalar, e
	case s.tables[t.name] != nil:
		t.kind, t.table = kTable, s.tables[t.name]
	case s.unions[t.name] != nil:
		t.kind, t.union = kUnion, s.unions[t.name]
	default:
		return fmt.Errorf("schema: unknown type %q", t.name)
	}
	return nil
}

// tokenize splits the schema into identifiers, numbers, strings and
// punctuation, dropping comments.
func tokenize(src string) []string {
	var toks []string
	for _, line := range strings.Split(src, "\n") {
		if k := strings.Index(line, "//"); k >= 0 {
			line = line[:k]
		}
		j := 0
		for j < len(line) {
			c := line[j]
			switch {
			case c == ' ' || c == '\t' || c == '\r':
				j++
			case strings.IndexByte("{}[]():;,=", c) >= 0:
				toks = append(toks, line[j:j+1])
				j++
			case c == '"':
				k := strings.IndexByte(line[j+1:], '"')
				if k < 0 {
					k = len(line) - j - 1
				}
				toks = append(toks, line[j:j+k+2])
				j += k + 2
			default:
				k := j
				for k < len(line) && strings.IndexByte(" \t\r{}[]():;,=\"", line[k]) < 0 {
					k++
				}
				toks = append(toks, line[j:k])
				j = k
			}
		}
	}
	return toks
}

// field returns the table's field named name, or nil.
func (t *fbTable) field(name string) *fbField {
	for k := range t.fields {
		if t.fields[k].name == name {
			return &t.fields[k]
		}
	}
	return nil
}
