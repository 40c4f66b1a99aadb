package viewmodel

import (
	"cmp"
	"context"
	"fmt"
	"image"
	"path/filepath"
	"slices"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// CheckpointFigures are one checkpoint's figures of a followed tensor.
type CheckpointFigures struct {
	Checkpoint string // the file's name
	Tensor     string
	Std        float64
	AbsMax     float64
	seq        int // the order Measure was called in
}

// HistoryFigures are the figures FollowHistory plots, by name.
var HistoryFigures = []string{"std", "absmax"}

// FollowHistory keeps the figures of the inspected tensor in each
// checkpoint of a followed folder, in the order the checkpoints came, for
// the plot of a figure across them.
type FollowHistory struct {
	Points []CheckpointFigures // in the order Measure was called
	calls  int
}

// Measure computes the figures of the tensor d's inspector shows, in the
// background under d's document, and appends them; done (may be nil) runs
// after, through post. Nothing is measured when no tensor with values is
// inspected.
func (h *FollowHistory) Measure(post Poster, d *Doc, done func(error)) *Task {
	e := d.Inspector.Entry()
	if e == nil || !e.HasData() {
		return nil
	}
	name, checkpoint := e.Name, filepath.Base(d.Source.Display())
	h.calls++
	seq := h.calls
	return StartTask(post, d.Doc, func(ctx context.Context, progress Progress) (tensor.Stats, error) {
		t, err := e.Load(ctx)
		if err != nil {
			return tensor.Stats{}, err
		}
		return tensor.ComputeStats(ctx, t, progress)
	}, nil, func(st tensor.Stats, err error) {
		if err == nil {
			// Measures may finish out of order: keep the checkpoints' order.
			p := CheckpointFigures{Checkpoint: checkpoint, Tensor: name, Std: st.Std, AbsMax: st.AbsMax, seq: seq}
			i, _ := slices.BinarySearchFunc(h.Points, seq, func(p CheckpointFigures, s int) int { return cmp.Compare(p.seq, s) })
			h.Points = slices.Insert(h.Points, i, p)
		}
		if done != nil {
			done(err)
		}
	})
}

// Series is the figure ("std" or "absmax") of tensor name across the
// checkpoints measured, and their names.
func (h *FollowHistory) Series(name, figure string) (checkpoints []string, values []float64, err error) {
	for _, p := range h.Points {
		if p.Tensor != name {
			continue
		}
		switch figure {
		case "std":
			values = append(values, p.Std)
		case "absmax":
			values = append(values, p.AbsMax)
		default:
			return nil, nil, fmt.Errorf("no figure %q: choose one of %v", figure, HistoryFigures)
		}
		checkpoints = append(checkpoints, p.Checkpoint)
	}
	return checkpoints, values, nil
}

// Plot draws the figure of tensor name against the checkpoints, numbered
// in the order they came (1 is the first seen).
func (h *FollowHistory) Plot(name, figure string, w, ht int, style PlotStyle) (image.Image, error) {
	_, values, err := h.Series(name, figure)
	if err != nil {
		return nil, err
	}
	return RenderPlot(formats.Plot{
		Title: fmt.Sprintf("%s of %s across checkpoints", figure, name), XLabel: "checkpoint", YLabel: figure,
		Series: []formats.Series{{Name: figure, Y: values}},
	}, w, ht, style)
}
