package pytorch

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"

	"tensorscope/formats"
)

// Limits of the unpickler. Real checkpoints stay far below them; a file
// that reaches one is refused with the byte offset, rather than allowed
// to exhaust memory or the Go stack.
const (
	maxStack   = 1 << 20 // values on the stack at once
	maxNesting = 1000    // containers inside containers, and open MARKs (Python's own recursion limit)
	maxLongLen = 1 << 12 // bytes of one arbitrary-precision int
)

// maxMemo bounds the memo's entries (a variable so that tests can reach it).
var maxMemo = 1 << 21

// unpickler runs a pickle program over data without ever calling,
// importing or opening anything: see values.go for what it builds.
type unpickler struct {
	data []byte
	pos  int
	base int64 // file offset of data[0], for messages

	stack []any
	marks []int // stack heights at each open MARK
	memo  memo

	proto int
	// persistent resolves a persistent id (a storage reference); nil
	// refuses them.
	persistent func(pid any, at int64) (any, error)
	// globals counts the classes the allow-list did not know, by name.
	unknown map[string]int

	slab slab // tuples and item lists, allocated in blocks
}

func newUnpickler(data []byte, base int64) *unpickler {
	u := &unpickler{data: data, base: base, unknown: map[string]int{}}
	u.memo.reserve(len(data))
	return u
}

func (u *unpickler) errf(at int, format string, args ...any) error {
	return formats.Errorf(u.base+int64(at), "pickle: "+format, args...)
}

// Pickle opcodes (Python's pickletools lists them with their protocols).
const (
	opMark            = '('
	opStop            = '.'
	opPop             = '0'
	opPopMark         = '1'
	opDup             = '2'
	opFloat           = 'F'
	opInt             = 'I'
	opBinInt          = 'J'
	opBinInt1         = 'K'
	opLong            = 'L'
	opBinInt2         = 'M'
	opNone            = 'N'
	opPersID          = 'P'
	opBinPersID       = 'Q'
	opReduce          = 'R'
	opString          = 'S'
	opBinString       = 'T'
	opShortBinString  = 'U'
	opUnicode         = 'V'
	opBinUnicode      = 'X'
	opAppend          = 'a'
	opBuild           = 'b'
	opGlobal          = 'c'
	opDict            = 'd'
	opEmptyDict       = '}'
	opAppends         = 'e'
	opGet             = 'g'
	opBinGet          = 'h'
	opInst            = 'i'
	opLongBinGet      = 'j'
	opList            = 'l'
	opEmptyList       = ']'
	opObj             = 'o'
	opPut             = 'p'
	opBinPut          = 'q'
	opLongBinPut      = 'r'
	opSetItem         = 's'
	opTuple           = 't'
	opEmptyTuple      = ')'
	opSetItems        = 'u'
	opBinFloat        = 'G'
	opProto           = 0x80
	opNewObj          = 0x81
	opExt1            = 0x82
	opExt2            = 0x83
	opExt4            = 0x84
	opTuple1          = 0x85
	opTuple2          = 0x86
	opTuple3          = 0x87
	opNewTrue         = 0x88
	opNewFalse        = 0x89
	opLong1           = 0x8a
	opLong4           = 0x8b
	opBinBytes        = 'B'
	opShortBinBytes   = 'C'
	opShortBinUnicode = 0x8c
	opBinUnicode8     = 0x8d
	opBinBytes8       = 0x8e
	opEmptySet        = 0x8f
	opAddItems        = 0x90
	opFrozenSet       = 0x91
	opNewObjEx        = 0x92
	opStackGlobal     = 0x93
	opMemoize         = 0x94
	opFrame           = 0x95
	opByteArray8      = 0x96
	opNextBuffer      = 0x97
	opReadonlyBuffer  = 0x98
)

// load runs the program from the current position to its STOP and returns
// the value it leaves; u.pos is then just past the STOP.
func (u *unpickler) load() (any, error) {
	u.stack = u.stack[:0]
	u.marks = u.marks[:0]
	for {
		at := u.pos
		if u.pos >= len(u.data) {
			return nil, u.errf(at, "the pickle ends without a STOP opcode")
		}
		op := u.data[u.pos]
		u.pos++
		done, err := u.step(op, at)
		if err != nil {
			return nil, err
		}
		if done {
			return u.stack[len(u.stack)-1], nil
		}
		if len(u.stack) > maxStack {
			return nil, u.errf(at, "more than %d values on the stack", maxStack)
		}
	}
}

func (u *unpickler) step(op byte, at int) (bool, error) {
	switch op {
	case opProto:
		b, err := u.read(1, at)
		if err != nil {
			return false, err
		}
		if b[0] > 5 {
			return false, u.errf(at, "protocol %d: expected 0 to 5", b[0])
		}
		u.proto = int(b[0])
	case opFrame:
		b, err := u.read(8, at)
		if err != nil {
			return false, err
		}
		if n := binary.LittleEndian.Uint64(b); n > uint64(len(u.data)-u.pos) {
			return false, u.errf(at, "FRAME of %d bytes runs past the end of the pickle (%d bytes left)", n, len(u.data)-u.pos)
		}
	case opStop:
		if len(u.stack) == 0 {
			return false, u.errf(at, "STOP with an empty stack")
		}
		return true, nil
	case opMark:
		if len(u.marks) >= maxNesting {
			return false, u.errf(at, "more than %d MARKs open at once", maxNesting)
		}
		u.marks = append(u.marks, len(u.stack))
	case opPop:
		if len(u.stack) > u.floor() {
			u.stack = u.stack[:len(u.stack)-1]
		} else if _, err := u.popMark(at); err != nil {
			return false, err
		}
	case opPopMark:
		if _, err := u.popMark(at); err != nil {
			return false, err
		}
	case opDup:
		v, err := u.top(at)
		if err != nil {
			return false, err
		}
		u.push(v)

	// Scalars.
	case opNone:
		u.push(nil)
	case opNewTrue:
		u.push(true)
	case opNewFalse:
		u.push(false)
	case opBinInt:
		b, err := u.read(4, at)
		if err != nil {
			return false, err
		}
		u.push(int64(int32(binary.LittleEndian.Uint32(b))))
	case opBinInt1:
		b, err := u.read(1, at)
		if err != nil {
			return false, err
		}
		u.push(int64(b[0]))
	case opBinInt2:
		b, err := u.read(2, at)
		if err != nil {
			return false, err
		}
		u.push(int64(binary.LittleEndian.Uint16(b)))
	case opLong1, opLong4:
		var n int
		if op == opLong1 {
			b, err := u.read(1, at)
			if err != nil {
				return false, err
			}
			n = int(b[0])
		} else {
			b, err := u.read(4, at)
			if err != nil {
				return false, err
			}
			m := int32(binary.LittleEndian.Uint32(b))
			if m < 0 {
				return false, u.errf(at, "LONG4 with a negative length %d", m)
			}
			if m > maxLongLen {
				return false, u.errf(at, "LONG4 of %d bytes: integers over %d bytes are refused", m, maxLongLen)
			}
			n = int(m)
		}
		b, err := u.read(n, at)
		if err != nil {
			return false, err
		}
		u.push(decodeLong(b))
	case opInt:
		line, err := u.line(at)
		if err != nil {
			return false, err
		}
		switch string(line) {
		case "00":
			u.push(false)
		case "01":
			u.push(true)
		default:
			v, err := u.parseInt(line, at)
			if err != nil {
				return false, err
			}
			u.push(v)
		}
	case opLong:
		line, err := u.line(at)
		if err != nil {
			return false, err
		}
		v, err := u.parseInt(bytes.TrimSuffix(line, []byte("L")), at)
		if err != nil {
			return false, err
		}
		u.push(v)
	case opFloat:
		line, err := u.line(at)
		if err != nil {
			return false, err
		}
		f, perr := strconv.ParseFloat(string(line), 64)
		if perr != nil && !isRangeErr(perr) {
			return false, u.errf(at, "FLOAT %q is not a number", clip(line))
		}
		u.push(f)
	case opBinFloat:
		b, err := u.read(8, at)
		if err != nil {
			return false, err
		}
		u.push(math.Float64frombits(binary.BigEndian.Uint64(b)))

	// Strings and bytes.
	case opBinUnicode, opShortBinUnicode, opBinUnicode8:
		b, err := u.readSized(op, at)
		if err != nil {
			return false, err
		}
		u.push(decodeUTF8(b))
	case opBinString, opShortBinString:
		b, err := u.readSized(op, at)
		if err != nil {
			return false, err
		}
		u.push(py2String(b))
	case opBinBytes, opShortBinBytes, opBinBytes8, opByteArray8:
		b, err := u.readSized(op, at)
		if err != nil {
			return false, err
		}
		u.push(pyBytes(b))
	case opString:
		line, err := u.line(at)
		if err != nil {
			return false, err
		}
		b, ok := unquote(line)
		if !ok {
			return false, u.errf(at, "STRING %q is not a quoted string", clip(line))
		}
		u.push(py2String(b))
	case opUnicode:
		line, err := u.line(at)
		if err != nil {
			return false, err
		}
		u.push(rawUnicodeEscape(line))

	// Containers.
	case opEmptyList:
		u.push(&pyList{})
	case opEmptyTuple:
		u.push(u.slab.tuple(nil, 0))
	case opEmptyDict:
		u.push(newDict())
	case opEmptySet:
		u.push(&pySet{})
	case opList:
		its, err := u.popMark(at)
		if err != nil {
			return false, err
		}
		l := &pyList{items: its}
		if l.depth, err = u.nest(its, at); err != nil {
			return false, err
		}
		u.push(l)
	case opTuple:
		its, err := u.popMark(at)
		if err != nil {
			return false, err
		}
		if err := u.pushTuple(its, at); err != nil {
			return false, err
		}
	case opTuple1, opTuple2, opTuple3:
		n := int(op-opTuple1) + 1
		if len(u.stack)-u.floor() < n {
			return false, u.errf(at, "TUPLE%d needs %d values on the stack", n, n)
		}
		its := u.slab.items(u.stack[len(u.stack)-n:])
		u.stack = u.stack[:len(u.stack)-n]
		if err := u.pushTuple(its, at); err != nil {
			return false, err
		}
	case opDict:
		its, err := u.popMark(at)
		if err != nil {
			return false, err
		}
		if len(its)%2 != 0 {
			return false, u.errf(at, "DICT with an odd number (%d) of keys and values", len(its))
		}
		d := newDict()
		if err := u.setItems(d, its, at); err != nil {
			return false, err
		}
		u.push(d)
	case opFrozenSet:
		its, err := u.popMark(at)
		if err != nil {
			return false, err
		}
		s := &pySet{items: its, frozen: true}
		if s.depth, err = u.nest(its, at); err != nil {
			return false, err
		}
		u.push(s)
	case opAppend:
		v, err := u.pop(at)
		if err != nil {
			return false, err
		}
		if err := u.appendTo([]any{v}, at); err != nil {
			return false, err
		}
	case opAppends:
		its, err := u.popMark(at)
		if err != nil {
			return false, err
		}
		if err := u.appendTo(its, at); err != nil {
			return false, err
		}
	case opSetItem:
		if len(u.stack)-u.floor() < 2 {
			return false, u.errf(at, "SETITEM needs a key and a value on the stack")
		}
		kv := append([]any(nil), u.stack[len(u.stack)-2:]...)
		u.stack = u.stack[:len(u.stack)-2]
		if err := u.setItemsOnTop(kv, at); err != nil {
			return false, err
		}
	case opSetItems:
		its, err := u.popMarkView(at) // the dict keeps the values, not the list
		if err != nil {
			return false, err
		}
		if len(its)%2 != 0 {
			return false, u.errf(at, "SETITEMS with an odd number (%d) of keys and values", len(its))
		}
		if err := u.setItemsOnTop(its, at); err != nil {
			return false, err
		}
	case opAddItems:
		its, err := u.popMark(at)
		if err != nil {
			return false, err
		}
		top, err := u.top(at)
		if err != nil {
			return false, err
		}
		s, ok := top.(*pySet)
		if !ok {
			return false, u.errf(at, "ADDITEMS to a %s, expected a set", typeName(top))
		}
		d, err := u.nest(its, at)
		if err != nil {
			return false, err
		}
		s.items = append(s.items, its...)
		s.depth = max(s.depth, d)

	// The memo.
	case opPut, opBinPut, opLongBinPut:
		n, err := u.memoIndex(op, at, "PUT")
		if err != nil {
			return false, err
		}
		return false, u.put(n, at)
	case opMemoize:
		return false, u.put(uint32(u.memo.len()), at)
	case opGet, opBinGet, opLongBinGet:
		n, err := u.memoIndex(op, at, "GET")
		if err != nil {
			return false, err
		}
		return false, u.get(n, at)

	// Classes and calls: looked up in the allow-list, never imported.
	case opGlobal:
		mod, err := u.line(at)
		if err != nil {
			return false, err
		}
		name, err := u.line(at)
		if err != nil {
			return false, err
		}
		u.push(resolveGlobal(&pyGlobal{module: string(mod), name: string(name)}))
	case opStackGlobal:
		if len(u.stack)-u.floor() < 2 {
			return false, u.errf(at, "STACK_GLOBAL needs a module and a name on the stack")
		}
		mod, name := u.stack[len(u.stack)-2], u.stack[len(u.stack)-1]
		u.stack = u.stack[:len(u.stack)-2]
		ms, ok1 := mod.(string)
		ns, ok2 := name.(string)
		if !ok1 || !ok2 {
			return false, u.errf(at, "STACK_GLOBAL of a %s and a %s, expected two strings", typeName(mod), typeName(name))
		}
		u.push(resolveGlobal(&pyGlobal{module: ms, name: ns}))
	case opReduce:
		args, err := u.pop(at)
		if err != nil {
			return false, err
		}
		fn, err := u.pop(at)
		if err != nil {
			return false, err
		}
		argv, ok := args.(*pyTuple)
		if !ok {
			return false, u.errf(at, "REDUCE with arguments of type %s, expected a tuple", typeName(args))
		}
		v, err := u.call(fn, argv.items, nil, at)
		if err != nil {
			return false, err
		}
		u.push(v)
	case opNewObj, opNewObjEx:
		var kwargs any
		if op == opNewObjEx {
			var err error
			if kwargs, err = u.pop(at); err != nil {
				return false, err
			}
		}
		args, err := u.pop(at)
		if err != nil {
			return false, err
		}
		cls, err := u.pop(at)
		if err != nil {
			return false, err
		}
		argv, ok := args.(*pyTuple)
		if !ok {
			return false, u.errf(at, "NEWOBJ with arguments of type %s, expected a tuple", typeName(args))
		}
		v, err := u.call(cls, argv.items, kwargs, at)
		if err != nil {
			return false, err
		}
		u.push(v)
	case opInst:
		mod, err := u.line(at)
		if err != nil {
			return false, err
		}
		name, err := u.line(at)
		if err != nil {
			return false, err
		}
		args, err := u.popMark(at)
		if err != nil {
			return false, err
		}
		v, err := u.call(&pyGlobal{module: string(mod), name: string(name)}, args, nil, at)
		if err != nil {
			return false, err
		}
		u.push(v)
	case opObj:
		its, err := u.popMark(at)
		if err != nil {
			return false, err
		}
		if len(its) == 0 {
			return false, u.errf(at, "OBJ without a class")
		}
		v, err := u.call(its[0], its[1:], nil, at)
		if err != nil {
			return false, err
		}
		u.push(v)
	case opBuild:
		state, err := u.pop(at)
		if err != nil {
			return false, err
		}
		inst, err := u.top(at)
		if err != nil {
			return false, err
		}
		if err := u.build(inst, state, at); err != nil {
			return false, err
		}
	case opExt1, opExt2, opExt4:
		n := map[byte]int{opExt1: 1, opExt2: 2, opExt4: 4}[op]
		b, err := u.read(n, at)
		if err != nil {
			return false, err
		}
		var code uint32
		for i := n - 1; i >= 0; i-- {
			code = code<<8 | uint32(b[i])
		}
		// The copyreg extension registry is the reader's, not the file's:
		// the code stays a name.
		u.push(&pyGlobal{module: "copyreg extension", name: strconv.FormatUint(uint64(code), 10)})
	case opPersID:
		line, err := u.line(at)
		if err != nil {
			return false, err
		}
		v, err := u.persistentLoad(decodeUTF8(line), at)
		if err != nil {
			return false, err
		}
		u.push(v)
	case opBinPersID:
		pid, err := u.pop(at)
		if err != nil {
			return false, err
		}
		v, err := u.persistentLoad(pid, at)
		if err != nil {
			return false, err
		}
		u.push(v)
	case opNextBuffer, opReadonlyBuffer:
		return false, u.errf(at, "out-of-band buffers (opcode 0x%02x) are not part of a checkpoint", op)
	default:
		return false, u.errf(at, "opcode 0x%02x is not a pickle opcode", op)
	}
	return false, nil
}

func (u *unpickler) persistentLoad(pid any, at int) (any, error) {
	if u.persistent == nil {
		return nil, u.errf(at, "a persistent id (%s) where none is expected", typeName(pid))
	}
	return u.persistent(pid, u.base+int64(at))
}

// floor is the stack height of the innermost open MARK.
func (u *unpickler) floor() int {
	if len(u.marks) == 0 {
		return 0
	}
	return u.marks[len(u.marks)-1]
}

func (u *unpickler) push(v any) { u.stack = append(u.stack, v) }

func (u *unpickler) pop(at int) (any, error) {
	if len(u.stack) <= u.floor() {
		return nil, u.errf(at, "opcode 0x%02x needs a value, the stack is empty", u.data[at])
	}
	v := u.stack[len(u.stack)-1]
	u.stack = u.stack[:len(u.stack)-1]
	return v, nil
}

func (u *unpickler) top(at int) (any, error) {
	if len(u.stack) <= u.floor() {
		return nil, u.errf(at, "opcode 0x%02x needs a value, the stack is empty", u.data[at])
	}
	return u.stack[len(u.stack)-1], nil
}

// popMark removes the values above the innermost MARK and the MARK.
func (u *unpickler) popMark(at int) ([]any, error) {
	if len(u.marks) == 0 {
		return nil, u.errf(at, "opcode 0x%02x needs a MARK, none is open", u.data[at])
	}
	m := u.marks[len(u.marks)-1]
	u.marks = u.marks[:len(u.marks)-1]
	its := u.slab.items(u.stack[m:])
	u.stack = u.stack[:m]
	return its, nil
}

// popMarkView is popMark without the copy: the values stay in the
// stack's array, valid until the next push (SETITEMS, which stores them
// one by one: a state dict's batches of 1,000 pairs were copied twice).
func (u *unpickler) popMarkView(at int) ([]any, error) {
	if len(u.marks) == 0 {
		return nil, u.errf(at, "opcode 0x%02x needs a MARK, none is open", u.data[at])
	}
	m := u.marks[len(u.marks)-1]
	u.marks = u.marks[:len(u.marks)-1]
	its := u.stack[m:]
	u.stack = u.stack[:m]
	return its, nil
}

// nest is the depth of a container holding its, refused beyond maxNesting.
func (u *unpickler) nest(its []any, at int) (int, error) {
	d := 0
	for _, it := range its {
		d = max(d, depthOf(it))
	}
	if d+1 > maxNesting {
		return 0, u.errf(at, "containers nest more than %d deep", maxNesting)
	}
	return d + 1, nil
}

func (u *unpickler) pushTuple(its []any, at int) error {
	d, err := u.nest(its, at)
	if err != nil {
		return err
	}
	u.push(u.slab.tuple(its, d))
	return nil
}

func (u *unpickler) appendTo(its []any, at int) error {
	top, err := u.top(at)
	if err != nil {
		return err
	}
	d, err := u.nest(its, at)
	if err != nil {
		return err
	}
	switch x := top.(type) {
	case *pyList:
		x.items = append(x.items, its...)
		x.depth = max(x.depth, d)
	case *pyObject:
		x.list = append(x.list, its...)
		x.depth = max(x.depth, d)
	default:
		return u.errf(at, "APPEND to a %s, expected a list", typeName(top))
	}
	return nil
}

func (u *unpickler) setItemsOnTop(kv []any, at int) error {
	top, err := u.top(at)
	if err != nil {
		return err
	}
	switch x := top.(type) {
	case *pyDict:
		return u.setItems(x, kv, at)
	case *pyObject:
		if x.dict == nil {
			x.dict = newDict()
		}
		if err := u.setItems(x.dict, kv, at); err != nil {
			return err
		}
		x.depth = max(x.depth, x.dict.depth)
		return nil
	}
	return u.errf(at, "SETITEM on a %s, expected a dict", typeName(top))
}

func (u *unpickler) setItems(d *pyDict, kv []any, at int) error {
	nd, err := u.nest(kv, at)
	if err != nil {
		return err
	}
	d.depth = max(d.depth, nd)
	d.grow(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		d.set(kv[i], kv[i+1])
	}
	return nil
}

func (u *unpickler) put(i uint32, at int) error {
	v, err := u.top(at)
	if err != nil {
		return err
	}
	if u.memo.len() >= maxMemo && !u.memo.has(i) {
		return u.errf(at, "more than %d memo entries", maxMemo)
	}
	u.memo.put(i, v)
	return nil
}

func (u *unpickler) get(i uint32, at int) error {
	v, ok := u.memo.get(i)
	if !ok {
		return u.errf(at, "memo entry %d was never stored", i)
	}
	u.push(v)
	return nil
}

// read takes n bytes, refusing lengths beyond the end of the data: a
// declared length is never allocated before it is known to be there.
func (u *unpickler) read(n int, at int) ([]byte, error) {
	if n < 0 || n > len(u.data)-u.pos {
		return nil, formats.Errorf(u.base+int64(at), "pickle: opcode 0x%02x needs %d bytes, %d are left", u.data[at], n, len(u.data)-u.pos)
	}
	b := u.data[u.pos : u.pos+n]
	u.pos += n
	return b, nil
}

// memoIndex reads the memo index of a PUT or GET: a decimal line (protocol
// 0), one byte (BINPUT, BINGET) or four little-endian bytes (LONG_BIN...).
func (u *unpickler) memoIndex(op byte, at int, what string) (uint32, error) {
	switch op {
	case opPut, opGet:
		line, err := u.line(at)
		if err != nil {
			return 0, err
		}
		n, perr := strconv.ParseUint(string(line), 10, 32)
		if perr != nil {
			return 0, u.errf(at, "%s index %q is not a number", what, clip(line))
		}
		return uint32(n), nil
	case opBinPut, opBinGet:
		b, err := u.read(1, at)
		if err != nil {
			return 0, err
		}
		return uint32(b[0]), nil
	}
	b, err := u.read(4, at)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

// readSized reads a length-prefixed string or bytes.
func (u *unpickler) readSized(op byte, at int) ([]byte, error) {
	var n uint64
	switch op {
	case opShortBinString, opShortBinBytes, opShortBinUnicode:
		b, err := u.read(1, at)
		if err != nil {
			return nil, err
		}
		n = uint64(b[0])
	case opBinString, opBinBytes, opBinUnicode:
		b, err := u.read(4, at)
		if err != nil {
			return nil, err
		}
		if op == opBinString {
			m := int32(binary.LittleEndian.Uint32(b))
			if m < 0 {
				return nil, u.errf(at, "BINSTRING with a negative length %d", m)
			}
		}
		n = uint64(binary.LittleEndian.Uint32(b))
	default:
		b, err := u.read(8, at)
		if err != nil {
			return nil, err
		}
		n = binary.LittleEndian.Uint64(b)
	}
	if n > uint64(len(u.data)-u.pos) {
		return nil, u.errf(at, "a string of %d bytes, but only %d bytes are left", n, len(u.data)-u.pos)
	}
	return u.read(int(n), at)
}

// line reads up to the next newline (protocol 0 arguments).
func (u *unpickler) line(at int) ([]byte, error) {
	i := bytes.IndexByte(u.data[u.pos:], '\n')
	if i < 0 {
		return nil, u.errf(at, "opcode %q needs a line ending in a newline", u.data[at])
	}
	b := u.data[u.pos : u.pos+i]
	u.pos += i + 1
	return b, nil
}

func (u *unpickler) parseInt(s []byte, at int) (any, error) {
	if len(s) > maxLongLen {
		return nil, u.errf(at, "an integer of %d digits: over %d are refused", len(s), maxLongLen)
	}
	if n, err := strconv.ParseInt(string(s), 10, 64); err == nil {
		return n, nil
	}
	b, ok := new(big.Int).SetString(string(s), 10)
	if !ok {
		return nil, u.errf(at, "%q is not an integer", clip(s))
	}
	return b, nil
}

// decodeLong reads a little-endian two's complement integer (LONG1/LONG4).
func decodeLong(b []byte) any {
	if len(b) == 0 {
		return int64(0)
	}
	if len(b) <= 8 {
		var v uint64
		for i := len(b) - 1; i >= 0; i-- {
			v = v<<8 | uint64(b[i])
		}
		shift := uint(64 - 8*len(b))
		return int64(v<<shift) >> shift
	}
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	v := new(big.Int).SetBytes(be)
	if b[len(b)-1]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	if v.IsInt64() {
		return v.Int64()
	}
	return v
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// decodeUTF8 decodes Python's utf-8 with surrogatepass: invalid bytes
// become U+FFFD rather than an error.
func decodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

// py2String is a Python 2 str: torch.load decodes it as UTF-8; bytes that
// are not UTF-8 stay bytes.
func py2String(b []byte) any {
	if utf8.Valid(b) {
		return string(b)
	}
	return pyBytes(append([]byte(nil), b...))
}

// unquote decodes a protocol 0 STRING: a Python repr in quotes.
func unquote(s []byte) ([]byte, bool) {
	if len(s) < 2 || (s[0] != '\'' && s[0] != '"') || s[len(s)-1] != s[0] {
		return nil, false
	}
	s = s[1 : len(s)-1]
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			out = append(out, c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'a':
			out = append(out, 7)
		case 'b':
			out = append(out, 8)
		case 'f':
			out = append(out, 12)
		case 'v':
			out = append(out, 11)
		case '\n':
		case 'x':
			if i+2 < len(s) {
				if v, err := strconv.ParseUint(string(s[i+1:i+3]), 16, 8); err == nil {
					out = append(out, byte(v))
					i += 2
					continue
				}
			}
			return nil, false
		case '\\', '\'', '"':
			out = append(out, e)
		default:
			if e >= '0' && e <= '7' {
				v, j := 0, i
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
					v = v*8 + int(s[j]-'0')
					j++
				}
				out = append(out, byte(v))
				i = j - 1
				continue
			}
			out = append(out, '\\', e) // unknown escapes stay as written
		}
	}
	return out, true
}

// rawUnicodeEscape decodes a protocol 0 UNICODE argument: \uXXXX and
// \UXXXXXXXX escapes, other bytes Latin-1.
func rawUnicodeEscape(s []byte) string {
	var out []rune
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+5 < len(s) && s[i+1] == 'u' {
			if v, err := strconv.ParseUint(string(s[i+2:i+6]), 16, 32); err == nil {
				out = append(out, rune(v))
				i += 5
				continue
			}
		}
		if s[i] == '\\' && i+9 < len(s) && s[i+1] == 'U' {
			if v, err := strconv.ParseUint(string(s[i+2:i+10]), 16, 32); err == nil && v <= utf8.MaxRune {
				out = append(out, rune(v))
				i += 9
				continue
			}
		}
		out = append(out, rune(s[i]))
	}
	return string(out)
}

// clip shortens a byte string for a message.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
