package formats

import (
	"context"

	"tensorscope/tensor"
)

type progressKey struct{}

// WithProgress returns ctx carrying fn, so that a tensor loader with long
// work of its own (inflating a compressed member) can report how far it is
// through the same channel the caller's task reports on.
func WithProgress(ctx context.Context, fn tensor.ProgressFunc) context.Context {
	if fn == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, fn)
}

// ReportProgress passes done of total to the ctx's progress function, if any.
func ReportProgress(ctx context.Context, done, total int64) {
	if fn, ok := ctx.Value(progressKey{}).(tensor.ProgressFunc); ok {
		fn(done, total)
	}
}
