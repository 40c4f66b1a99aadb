package viewmodel

import (
	"fmt"
	"strconv"
	"strings"
)

// A ViewExpr is a way of looking at a tensor written as NumPy-style
// indexing and the tensor core's view operations:
//
//	w[:, :, 1, 1]    w[0:64]    w[..., ::2]    w[-1]
//	w.permute(0,2,1,3).merge(0,1).merge(1,2)
//	w.select(0, 3)   w.split(0, 4, 8)   w.view(64, -1)   w.transpose(0, 1)
//
// The leading name is any identifier (w, x, the tensor's short name) or may
// be left out. Axis arguments may count from the end (-1 is the last axis);
// merge(a, b) joins axes a..b inclusive. Every operation is a view: nothing
// is copied (see Apply). Errors say at which column they arise.
type ViewExpr struct {
	src string
	ops []viewOp
}

// viewOp is one parsed step: an indexing bracket or a method call.
type viewOp struct {
	col     int // 1-based column of the operation, for errors
	name    string
	args    []int       // method arguments
	items   []indexItem // a bracket's items
	spelled string      // the call as written, "merge(1,2)"
}

// indexItem is one item of a bracket: an integer, a slice or "...".
type indexItem struct {
	col               int
	ellipsis, isSlice bool
	index             int
	start, stop, step *int // nil when left out
}

// Bounds on an expression, so that a pasted novel cannot stall the UI.
const (
	maxViewExprLen = 1000
	maxViewOps     = 64
	maxViewArgs    = 64
)

// viewMethods are the method names and how many arguments each takes
// (−1: one or more).
var viewMethods = map[string]int{
	"permute": -1, "merge": 2, "split": -1, "select": 2, "view": -1, "reshape": -1, "transpose": 2,
}

// ParseViewExpr reads an expression; it does not look at any tensor.
func ParseViewExpr(src string) (*ViewExpr, error) {
	if len(src) > maxViewExprLen {
		return nil, fmt.Errorf("the expression has %d characters; at most %d", len(src), maxViewExprLen)
	}
	p := &exprParser{src: src}
	e := &ViewExpr{src: strings.TrimSpace(src)}
	p.space()
	if p.identStart() {
		p.ident()
	}
	for {
		p.space()
		if p.done() {
			return e, nil
		}
		if len(e.ops) == maxViewOps {
			return nil, p.errf("more than %d operations", maxViewOps)
		}
		var op viewOp
		var err error
		switch p.peek() {
		case '[':
			op, err = p.bracket()
		case '.':
			op, err = p.method()
		default:
			return nil, p.errf("expected '[' or '.', found %s", p.found())
		}
		if err != nil {
			return nil, err
		}
		e.ops = append(e.ops, op)
	}
}

// String is the expression as written, trimmed.
func (e *ViewExpr) String() string { return e.src }

// text is String, "" for no expression.
func (e *ViewExpr) text() string {
	if e == nil {
		return ""
	}
	return e.src
}

// exprParser is a hand-written scanner over the expression's bytes.
type exprParser struct {
	src string
	pos int
}

func (p *exprParser) done() bool { return p.pos >= len(p.src) }

func (p *exprParser) peek() byte {
	if p.done() {
		return 0
	}
	return p.src[p.pos]
}

func (p *exprParser) space() {
	for !p.done() && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// errf reports an error at the current column.
func (p *exprParser) errf(format string, args ...any) error {
	return fmt.Errorf("col %d: %s", p.pos+1, fmt.Sprintf(format, args...))
}

// found names what is at the current position, for "expected" errors.
func (p *exprParser) found() string {
	if p.done() {
		return "the end"
	}
	return strconv.Quote(p.src[p.pos : p.pos+1])
}

func (p *exprParser) identStart() bool {
	c := p.peek()
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (p *exprParser) ident() string {
	start := p.pos
	for !p.done() {
		c := p.peek()
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			break
		}
		p.pos++
	}
	return p.src[start:p.pos]
}

// expect consumes c or fails naming it.
func (p *exprParser) expect(c byte) error {
	p.space()
	if p.peek() != c {
		return p.errf("expected '%c', found %s", c, p.found())
	}
	p.pos++
	return nil
}

// integer reads an optionally signed decimal integer.
func (p *exprParser) integer() (int, error) {
	p.space()
	start := p.pos
	if c := p.peek(); c == '-' || c == '+' {
		p.pos++
	}
	digits := p.pos
	for !p.done() && p.peek() >= '0' && p.peek() <= '9' {
		p.pos++
	}
	if p.pos == digits {
		p.pos = start
		return 0, p.errf("expected an integer, found %s", p.found())
	}
	v, err := strconv.Atoi(p.src[start:p.pos])
	if err != nil || v > 1<<48 || v < -(1<<48) {
		text := p.src[start:p.pos]
		p.pos = start
		return 0, p.errf("integer %s is out of range", text)
	}
	return v, nil
}

// isIntStart reports whether an integer starts here.
func (p *exprParser) isIntStart() bool {
	c := p.peek()
	return c == '-' || c == '+' || c >= '0' && c <= '9'
}

// bracket reads "[item, item, ...]".
func (p *exprParser) bracket() (viewOp, error) {
	op := viewOp{col: p.pos + 1, name: "index"}
	p.pos++ // '['
	for {
		p.space()
		if len(op.items) == maxViewArgs {
			return op, p.errf("more than %d indices", maxViewArgs)
		}
		it, err := p.item()
		if err != nil {
			return op, err
		}
		op.items = append(op.items, it)
		p.space()
		switch p.peek() {
		case ',':
			p.pos++
			continue
		case ']':
			p.pos++
			op.spelled = p.src[op.col-1 : p.pos]
			return op, nil
		}
		return op, p.errf("expected ',' or ']', found %s", p.found())
	}
}

// item reads one index item: "...", "i", or "start:stop:step" with any
// part left out.
func (p *exprParser) item() (indexItem, error) {
	it := indexItem{col: p.pos + 1}
	if strings.HasPrefix(p.src[p.pos:], "...") {
		p.pos += 3
		it.ellipsis = true
		return it, nil
	}
	bound := func() (*int, error) {
		p.space()
		if !p.isIntStart() {
			return nil, nil
		}
		v, err := p.integer()
		return &v, err
	}
	var err error
	if it.start, err = bound(); err != nil {
		return it, err
	}
	p.space()
	if p.peek() != ':' {
		if it.start == nil {
			return it, p.errf("expected an index, a slice or '...', found %s", p.found())
		}
		it.index = *it.start
		return it, nil
	}
	it.isSlice = true
	p.pos++
	if it.stop, err = bound(); err != nil {
		return it, err
	}
	p.space()
	if p.peek() == ':' {
		p.pos++
		if it.step, err = bound(); err != nil {
			return it, err
		}
	}
	return it, nil
}

// method reads ".name(int, int, ...)".
func (p *exprParser) method() (viewOp, error) {
	p.pos++ // '.'
	p.space()
	op := viewOp{col: p.pos + 1}
	if !p.identStart() {
		return op, p.errf("expected an operation name, found %s", p.found())
	}
	op.name = p.ident()
	want, ok := viewMethods[op.name]
	if !ok {
		p.pos = op.col - 1
		return op, p.errf("unknown operation %q (choose permute, merge, split, select, view, reshape, transpose)", op.name)
	}
	if err := p.expect('('); err != nil {
		return op, err
	}
	for {
		p.space()
		if p.peek() == ')' && len(op.args) == 0 {
			break
		}
		if len(op.args) == maxViewArgs {
			return op, p.errf("more than %d arguments", maxViewArgs)
		}
		v, err := p.integer()
		if err != nil {
			return op, err
		}
		op.args = append(op.args, v)
		p.space()
		if p.peek() == ',' {
			p.pos++
			continue
		}
		break
	}
	if err := p.expect(')'); err != nil {
		return op, err
	}
	op.spelled = p.src[op.col-1 : p.pos]
	switch {
	case want >= 0 && len(op.args) != want:
		return op, fmt.Errorf("col %d: %s takes %d arguments, not %d", op.col, op.name, want, len(op.args))
	case want < 0 && len(op.args) == 0:
		return op, fmt.Errorf("col %d: %s needs arguments", op.col, op.name)
	}
	return op, nil
}
