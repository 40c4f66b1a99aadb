// Command gendemo writes the demo model the viewer opens when started
// without a file (go generate ./assets): a small CNN with deterministic,
// structured weights, built by formats/tmfile/synth and written by the
// tmfile encoder.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
	"tensorscope/formats/tmfile/synth"
)

func main() {
	out := flag.String("o", "demo.tmfile", "output file")
	flag.Parse()
	err := formats.WriteFileAtomic(*out, func(w io.Writer) error {
		return tmfile.Encode(w, synth.Demo())
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendemo:", err)
		os.Exit(1)
	}
}
