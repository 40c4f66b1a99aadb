package tensor

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"sync"
	"testing"
)

// fillingPager plays a remote file: the storage's bytes are 0xFF (NaN in
// every float dtype, -1 in int8) until a chunk pages them in, when they
// are copied from the real bytes. A pass that read bytes it had not paged
// would count them.
type fillingPager struct {
	mu       sync.Mutex
	real     []byte
	data     []byte
	filled   []bool
	pages    int
	releases int
	maxAhead int
}

func (p *fillingPager) Page(ctx context.Context, off, n, ahead int) (func(), error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := off; i < off+n; i++ {
		if !p.filled[i] {
			p.data[i] = p.real[i]
			p.filled[i] = true
		}
	}
	p.pages++
	p.maxAhead = max(p.maxAhead, ahead)
	return func() {
		p.mu.Lock()
		p.releases++
		p.mu.Unlock()
	}, nil
}

func pagedStorage(real []byte) (*Storage, *fillingPager) {
	data := make([]byte, len(real))
	for i := range data {
		data[i] = 0xFF
	}
	p := &fillingPager{real: real, data: data, filled: make([]bool, len(real))}
	s := NewStorage(data)
	s.SetPager(p)
	return s, p
}

// Statistics read only what they paged, for whole tensors, slices, strided
// and permuted views, and the dtypes counted by bit pattern.
func TestStatsPageWhatTheyRead(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const rows, cols = 700, 1024
	f32 := make([]byte, 64+rows*cols*4)
	for i := range rows * cols {
		binary.LittleEndian.PutUint32(f32[64+4*i:], math.Float32bits(float32(rng.NormFloat64())))
	}
	i8 := make([]byte, 2<<20)
	rng.Read(i8)
	for i := range i8 {
		if i8[i] == 0xFF {
			i8[i] = 0
		}
	}
	// Q8_0: blocks of a float16 scale (1.0 here) and 32 int8 codes.
	q8 := make([]byte, 1024*32*34)
	rng.Read(q8)
	for b := 0; b < len(q8); b += 34 {
		q8[b], q8[b+1] = 0x00, 0x3C
	}
	type view func(x *Tensor) (*Tensor, error)
	views := map[string]view{
		"whole":    func(x *Tensor) (*Tensor, error) { return x, nil },
		"rows":     func(x *Tensor) (*Tensor, error) { return x.Slice(0, 123, 400) },
		"columns":  func(x *Tensor) (*Tensor, error) { return x.Slice(1, 100, 500) },
		"permuted": func(x *Tensor) (*Tensor, error) { return x.Permute([]int{1, 0}) },
		"stepped":  func(x *Tensor) (*Tensor, error) { return x.Step(1, 3) },
		"transpose": func(x *Tensor) (*Tensor, error) {
			p, err := x.Permute([]int{1, 0})
			if err != nil {
				return nil, err
			}
			return p.Slice(0, 5, 900)
		},
	}
	for _, c := range []struct {
		name  string
		real  []byte
		off   int64
		dt    DType
		shape []int
	}{
		{"float32", f32, 64, Float32, []int{rows, cols}},
		{"int8", i8, 0, Int8, []int{2048, 1024}},
		{"float16", i8, 0, Float16, []int{1024, 1024}},
		{"q8_0", q8, 0, GGMLQ8_0, []int{1024, 1024}},
	} {
		for name, v := range views {
			ref, err := New(NewStorage(c.real), c.off, c.dt, c.shape)
			if err != nil {
				t.Fatal(err)
			}
			st, p := pagedStorage(c.real)
			x, err := New(st, c.off, c.dt, c.shape)
			if err != nil {
				t.Fatal(err)
			}
			rv, err := v(ref)
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, name, err)
			}
			xv, _ := v(x)
			want, err := ComputeStats(context.Background(), rv, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ComputeStats(context.Background(), xv, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkStats(t, c.name+" "+name, got, want)
			if got != want && !(math.IsNaN(got.Mean) && math.IsNaN(want.Mean)) {
				t.Errorf("%s %s: paged %+v, whole %+v", c.name, name, got, want)
			}
			if p.pages < 2 || p.pages != p.releases {
				t.Errorf("%s %s: %d pages, %d releases", c.name, name, p.pages, p.releases)
			}
			// The model summary's pass, over storage paged afresh.
			st2, _ := pagedStorage(c.real)
			x2, _ := New(st2, c.off, c.dt, c.shape)
			xv2, _ := v(x2)
			wantSum, err := ComputeSummary(context.Background(), rv, nil)
			if err != nil {
				t.Fatal(err)
			}
			gotSum, err := ComputeSummary(context.Background(), xv2, nil)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(gotSum) != fmt.Sprint(wantSum) {
				t.Errorf("%s %s: paged summary %+v, whole %+v", c.name, name, gotSum, wantSum)
			}
		}
	}
}

type failingPager struct{ err error }

func (f failingPager) Page(context.Context, int, int, int) (func(), error) { return nil, f.err }

// A pager's failure (a fetch that failed, a cancel) is the pass's error.
func TestStatsReturnThePagersError(t *testing.T) {
	x := seqTensor(t, 512, 1024)
	st := NewStorage(x.storage.data)
	want := context.Canceled
	st.SetPager(failingPager{want})
	y, _ := New(st, 0, Float32, []int{512, 1024})
	if _, err := ComputeStats(context.Background(), y, nil); err != want {
		t.Fatalf("got %v", err)
	}
}
