package tmfile

import (
	"fmt"
	"strconv"
	"sync"
)

//go:generate go run ./internal/opgen -tsv ../../../shared/specs/tmfile/op-params.tsv -meaning op-meaning.tsv -o optable_gen.go

// opInfo is one operator of op-params.tsv: its name and param struct, and
// what op-meaning.tsv says it means.
type opInfo struct {
	Name    string // opstr: what the viewer shows
	CName   string // TM2_OPTYPE_ suffix
	Struct  string // param struct name; "" when the op takes none
	Size    int    // size of the newest layout of the struct
	Fields  []paramField
	Meaning opMeaning
}

// paramField is one field of a param struct.
type paramField struct {
	Name  string // attribute name
	CName string // C name when it differs (offset fields)
	Type  fieldType
	At    int // byte offset in the struct
	Ref   RefKind

	enum enumNames // set from paramEnums by prepareOps
}

type fieldType uint8

const (
	fieldI32 fieldType = iota + 1
	fieldU32
	fieldF32
	fieldU8 // a C bool in every struct that has one
	fieldOffset
)

func (t fieldType) size() int {
	if t == fieldU8 {
		return 1
	}
	return 4
}

var opByName map[string]uint32

// prepareOps indexes the table by name and links each field to its enum
// names and each operator to its meaning: at the first use, not in every
// process's start-up (it was a millisecond of it).
var prepareOps = sync.OnceFunc(func() {
	opByName = make(map[string]uint32, len(opTable))
	for id := range opTable {
		info := &opTable[id]
		if info.Name == "" {
			continue
		}
		opByName[info.Name] = uint32(id)
		for i := range info.Fields {
			info.Fields[i].enum = paramEnums[info.Name+"."+info.Fields[i].Name]
		}
		info.Meaning.resolve(info)
	}
})

// lookupOp returns the table entry of op id, or nil for ids the spec does
// not define.
func lookupOp(id uint32) *opInfo {
	prepareOps()
	if id >= uint32(len(opTable)) || opTable[id].Name == "" {
		return nil
	}
	return &opTable[id]
}

// OpName returns the operator name of id as op-params.tsv spells it
// ("Convolution", "ReLu", ...), or "Unknown(id)" for ids it does not define.
func OpName(id uint32) string {
	if info := lookupOp(id); info != nil {
		return info.Name
	}
	return "Unknown(" + strconv.FormatUint(uint64(id), 10) + ")"
}

// OpID returns the id of the operator named name (as OpName spells it).
func OpID(name string) (uint32, bool) {
	prepareOps()
	id, ok := opByName[name]
	return id, ok
}

// NumOps is one more than the largest operator id the table defines.
const NumOps = uint32(len(opTable))

func (f *paramField) String() string { return fmt.Sprintf("%s@%d", f.Name, f.At) }
