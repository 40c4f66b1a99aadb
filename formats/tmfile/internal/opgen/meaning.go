package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// meaning is one row of op-meaning.tsv: an operator's category and the
// names of the param fields that hold the facts of formats.Meaning.
type meaning struct {
	category                 string // a formats.Category name
	kernel, stride, dilation []string
	groups, in, out          string
	activation, variant      string
}

// categoryIdents maps the category names op-meaning.tsv uses (those of
// formats.Category.String) to the constants the generated code names.
var categoryIdents = map[string]string{
	"other": "CategoryOther", "convolution": "CategoryConvolution", "activation": "CategoryActivation",
	"pooling": "CategoryPooling", "normalization": "CategoryNormalization", "shape": "CategoryShape",
	"tensor": "CategoryTensor", "input": "CategoryInput", "output": "CategoryOutput",
	"constant": "CategoryConstant", "control flow": "CategoryControlFlow", "quantization": "CategoryQuantization",
}

const meaningColumns = 10

// joinMeanings reads op-meaning.tsv and gives each operator its row. Every
// operator must have exactly one row, and every field a row names must be
// an integer field of that operator (a variant an enum-typed one).
func joinMeanings(ops []op, r io.Reader) error {
	byName := make(map[string]*op, len(ops))
	for i := range ops {
		byName[ops[i].name] = &ops[i]
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "opstr\t") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != meaningColumns {
			return fmt.Errorf("line %d: %d columns, want %d", line, len(cols), meaningColumns)
		}
		o := byName[cols[0]]
		if o == nil {
			return fmt.Errorf("line %d: op-params.tsv has no operator %q", line, cols[0])
		}
		if seen[o.name] {
			return fmt.Errorf("line %d: operator %q repeats", line, o.name)
		}
		seen[o.name] = true
		m, err := parseMeaning(o, cols[1:])
		if err != nil {
			return fmt.Errorf("line %d (%s): %w", line, o.name, err)
		}
		o.means = m
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, o := range ops {
		if !seen[o.name] {
			return fmt.Errorf("operator %q has no row", o.name)
		}
	}
	return nil
}

func parseMeaning(o *op, cols []string) (meaning, error) {
	m := meaning{category: cols[0]}
	if _, ok := categoryIdents[m.category]; !ok {
		return m, fmt.Errorf("unknown category %q", m.category)
	}
	lists := []*[]string{&m.kernel, &m.stride, &m.dilation}
	for i, list := range lists {
		names, err := o.intFields(cols[1+i])
		if err != nil {
			return m, err
		}
		*list = names
	}
	scalars := []*string{&m.groups, &m.in, &m.out, &m.activation, &m.variant}
	for i, s := range scalars {
		names, err := o.intFields(cols[4+i])
		if err != nil {
			return m, err
		}
		if len(names) > 1 {
			return m, fmt.Errorf("column %d names %d fields, want one", 5+i, len(names))
		}
		if len(names) == 1 {
			*s = names[0]
		}
	}
	return m, nil
}

// intFields splits a comma-separated list of field names ("-" for none)
// and checks that each is an integer field of the operator.
func (o *op) intFields(col string) ([]string, error) {
	col = strings.TrimSpace(col)
	if col == "-" || col == "" {
		return nil, nil
	}
	var names []string
	for _, name := range strings.Split(col, ",") {
		name = strings.TrimSpace(name)
		f := o.field(name)
		if f == nil {
			return nil, fmt.Errorf("no field %q", name)
		}
		if f.typ != "i32" && f.typ != "u32" {
			return nil, fmt.Errorf("field %q is %s, not an integer", name, f.typ)
		}
		names = append(names, name)
	}
	return names, nil
}

func (o *op) field(name string) *field {
	for i := range o.fields {
		if o.fields[i].name == name {
			return &o.fields[i]
		}
	}
	return nil
}

// goSource spells the meaning as an opMeaning literal.
func (m meaning) goSource() string {
	var b strings.Builder
	fmt.Fprintf(&b, "opMeaning{Category: formats.%s", categoryIdents[m.category])
	for _, l := range []struct {
		name  string
		names []string
	}{{"Kernel", m.kernel}, {"Stride", m.stride}, {"Dilation", m.dilation}} {
		if len(l.names) > 0 {
			quoted := make([]string, len(l.names))
			for i, n := range l.names {
				quoted[i] = strconv.Quote(n)
			}
			fmt.Fprintf(&b, ", %s: []string{%s}", l.name, strings.Join(quoted, ", "))
		}
	}
	for _, s := range []struct{ name, value string }{
		{"Groups", m.groups}, {"In", m.in}, {"Out", m.out}, {"Activation", m.activation}, {"Variant", m.variant},
	} {
		if s.value != "" {
			fmt.Fprintf(&b, ", %s: %q", s.name, s.value)
		}
	}
	b.WriteString("}")
	return b.String()
}
