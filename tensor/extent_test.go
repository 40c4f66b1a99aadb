package tensor

import (
	"errors"
	"testing"
)

func TestByteExtent(t *testing.T) {
	st := NewStorage(make([]byte, 4096))
	x, err := New(st, 64, Float32, []int{8, 16})
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := x.ByteExtent(); lo != 64 || hi != 64+8*16*4 {
		t.Fatalf("whole: [%d,%d)", lo, hi)
	}
	row, _ := x.Select(0, 3)
	if lo, hi := row.ByteExtent(); lo != 64+3*64 || hi != 64+4*64 {
		t.Fatalf("row 3: [%d,%d)", lo, hi)
	}
	col, _ := x.Select(1, 5)
	if lo, hi := col.ByteExtent(); lo != 64+5*4 || hi != 64+7*64+5*4+4 {
		t.Fatalf("column 5: [%d,%d)", lo, hi)
	}
	tr, _ := x.Permute([]int{1, 0})
	if lo, hi := tr.ByteExtent(); lo != 64 || hi != 64+8*16*4 {
		t.Fatalf("transposed: [%d,%d)", lo, hi)
	}
	q, err := New(st, 100, GGMLQ4_0, []int{2, 64})
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := q.ByteExtent(); lo != 100 || hi != 100+4*18 {
		t.Fatalf("q4_0: [%d,%d)", lo, hi)
	}
	empty, err := New(st, 8, Float32, []int{0, 4})
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := empty.ByteExtent(); lo != hi {
		t.Fatalf("empty: [%d,%d)", lo, hi)
	}
}

func TestFaultErrorIsErrFault(t *testing.T) {
	err := error(&FaultError{Addr: 0x1234})
	if !errors.Is(err, ErrFault) {
		t.Fatal("FaultError is not ErrFault")
	}
	if a, ok := FaultAddr(err); !ok || a != 0x1234 {
		t.Fatalf("FaultAddr = %x, %v", a, ok)
	}
}
