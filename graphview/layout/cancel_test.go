package layout

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestLayoutContextStops: a layout of a large graph abandoned half way
// returns the context's error soon, not after the whole layout.
func TestLayoutContextStops(t *testing.T) {
	g := GenerateCNN(20_000).Graph(tengineTitle)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	res, err := LayoutContext(ctx, g, Options{})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("cancelled layout: %v, result %v", err, res != nil)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancelled layout took %v to return", d)
	}
	if _, err := LayoutContext(context.Background(), GenerateCNN(50).Graph(tengineTitle), Options{}); err != nil {
		t.Fatal(err)
	}
}
