package pyref

import (
	"runtime"
	"testing"
)

// recorder is a testing.TB that records how a helper ended the test.
type recorder struct {
	testing.TB
	fatal, skip bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Fatalf(string, ...any) { r.fatal = true; runtime.Goexit() }
func (r *recorder) Skipf(string, ...any)  { r.skip = true; runtime.Goexit() }
func (r *recorder) Fatal(...any)          { r.fatal = true; runtime.Goexit() }

func run(f func(tb testing.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

// A module no Python has makes the test skip, or fail under CI=true.
func TestMissingModuleSkipsOrFailsUnderCI(t *testing.T) {
	missing := func(tb testing.TB) { Python(tb, "nothing", "tensorscope_no_such_module") }
	t.Setenv("CI", "")
	if r := run(missing); !r.skip || r.fatal {
		t.Errorf("without CI: skip=%v fatal=%v, want a skip", r.skip, r.fatal)
	}
	t.Setenv("CI", "true")
	if r := run(missing); !r.fatal || r.skip {
		t.Errorf("CI=true: skip=%v fatal=%v, want a failure", r.skip, r.fatal)
	}
}

// A module every Python has is found, and the test goes on.
func TestPresentModuleIsFound(t *testing.T) {
	if _, err := find([]string{"sys"}); err != nil {
		t.Skipf("no python3 here at all: %v", err)
	}
	var py string
	r := run(func(tb testing.TB) { py = Python(tb, "python3", "sys", "json") })
	if r.skip || r.fatal || py == "" {
		t.Errorf("skip=%v fatal=%v python=%q", r.skip, r.fatal, py)
	}
}
