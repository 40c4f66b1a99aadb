package viewmodel

import (
	"path/filepath"
	"testing"
	"time"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/viewmodel/summary"
)

func openOverviewDoc(t *testing.T) (*Doc, *Queue) {
	src := filepath.Join(samples.Dir(t, "gguf"), "models", "stories260K.gguf")
	fd, err := formats.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	q := NewQueue()
	d := newDoc(q.Post, fd, Source{Path: src})
	t.Cleanup(d.close)
	return d, q
}

// The Overview lists every tensor at once, fills in as tensors finish,
// keeps its result when asked again (a tab switch), and is made anew for
// a reloaded document.
func TestOverviewComputesOnceAndFills(t *testing.T) {
	d, q := openOverviewDoc(t)
	if !d.HasOverview() {
		t.Fatal("a model has no Overview")
	}
	o := d.Overview()
	if !o.Running || len(o.Model.Tensors) == 0 || o.Done() != 0 {
		t.Fatalf("start: running %v, %d tensors, %d done", o.Running, len(o.Model.Tensors), o.Done())
	}
	// Figures arrive while the summary runs, in batches (all of them in
	// one batch when the UI is slower than the workers, as under load),
	// not only when it ends.
	var seen []int
	arrivedWhileRunning := false
	o.OnChange = func() {
		seen = append(seen, o.Done())
		arrivedWhileRunning = arrivedWhileRunning || o.Running && o.Done() > 0
	}
	if !q.Drain(func() bool { return o.Running }, time.Minute) {
		t.Fatal("the summary did not finish")
	}
	if o.Err != nil || o.Done() != len(o.Model.Tensors) || o.Progress != 1 {
		t.Fatalf("end: err %v, %d of %d done, progress %v", o.Err, o.Done(), len(o.Model.Tensors), o.Progress)
	}
	if !arrivedWhileRunning {
		t.Errorf("no figures arrived before the summary ended: %v", seen)
	}
	if d.Overview() != o {
		t.Error("asking again recomputed the summary")
	}
	if o.Headline == "" {
		t.Error("no metadata headline for a GGUF model")
	}
	fp := o.Fingerprint()
	if fp == nil || len(fp.Indices) != 5 || len(fp.Roles) != 9 {
		t.Fatalf("fingerprint %+v", fp)
	}
	if s := o.Layers(); len(s) != 9 || len(s[0].Points) != 5 {
		t.Errorf("layers %+v", s)
	}

	// Sorting by std descending puts the largest first; filtering by name.
	o.SortBy(OverviewStd)
	rows := o.Rows()
	if a, b := o.Model.Tensors[rows[0]].Std, o.Model.Tensors[rows[len(rows)-1]].Std; a < b {
		t.Errorf("sorted by std: first %v < last %v", a, b)
	}
	o.SetFilter("blk.3.")
	if len(o.Rows()) != 9 {
		t.Errorf("filter blk.3.: %d rows, want 9", len(o.Rows()))
	}
	i := o.Rows()[0]
	if k := o.DocIndex(i); k < 0 || d.Doc.Tensors[k].Name != o.Model.Tensors[i].Name {
		t.Errorf("DocIndex(%d) = %d", i, k)
	}

	// A reload gives a new Overview.
	fd, err := formats.Open(d.Source.Path)
	if err != nil {
		t.Fatal(err)
	}
	d.replace(fd)
	o2 := d.Overview()
	if o2 == o {
		t.Error("a reload kept the old summary")
	}
	if !q.Drain(func() bool { return o2.Running }, time.Minute) {
		t.Fatal("the summary after reload did not finish")
	}
}

// Cancel stops the computation; Start runs it again.
func TestOverviewCancel(t *testing.T) {
	d, q := openOverviewDoc(t)
	o := d.Overview()
	o.Cancel()
	if o.Running || !o.Cancelled {
		t.Fatalf("after Cancel: running %v cancelled %v", o.Running, o.Cancelled)
	}
	q.Drain(func() bool { return false }, time.Second)
	o.Start()
	if !q.Drain(func() bool { return o.Running }, time.Minute) {
		t.Fatal("the restarted summary did not finish")
	}
	if o.Cancelled || o.Done() != len(o.Model.Tensors) {
		t.Errorf("restart: cancelled %v, %d done", o.Cancelled, o.Done())
	}
	o.SetMetric(summary.MetricKurtosis)
	if o.Fingerprint().Metric != summary.MetricKurtosis {
		t.Error("metric not applied")
	}
}
