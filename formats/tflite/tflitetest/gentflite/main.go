// Command gentflite writes the generated TFLite models of the benchmarks
// (docs/PERFORMANCE.md):
//
//	go run ./formats/tflite/tflitetest/gentflite -ops 5000 -o chain5000.tflite
//	go run ./formats/tflite/tflitetest/gentflite -weights 1024 -o big1g.tflite
//
// -ops writes a chain of CONV_2D and RELU operators; -weights writes a
// model whose CONV_2D weights, stored inline in the flatbuffer, add up to
// that many MiB.
package main

import (
	"flag"
	"log"
	"os"

	"tensorscope/formats/tflite/tflitetest"
)

func main() {
	ops := flag.Int("ops", 5000, "operators in the chain")
	weights := flag.Int("weights", 0, "MiB of inline weights (0: none beyond the chain's)")
	out := flag.String("o", "model.tflite", "output file")
	flag.Parse()
	m := tflitetest.Chain(*ops)
	if *weights > 0 {
		m = tflitetest.Heavy(*weights)
	}
	if err := os.WriteFile(*out, m.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
}
