// Command gen writes the generated ONNX models that docs/PERFORMANCE.md
// measures:
//
//	go run ./formats/onnx/onnxtest/gen -cnn 100000 -out cnn100k.onnx
//	go run ./formats/onnx/onnxtest/gen -large 8x8192x8192 -out large2g.onnx
package main

import (
	"flag"
	"fmt"
	"os"

	"tensorscope/formats/onnx/onnxtest"
)

func main() {
	cnn := flag.Int("cnn", 0, "write a CNN-shaped model of about this many nodes")
	large := flag.String("large", "", "write COUNTxROWSxCOLS float32 raw_data initializers (8x8192x8192 is 2 GiB)")
	out := flag.String("out", "", "output file")
	flag.Parse()
	if *out == "" || (*cnn == 0) == (*large == "") {
		fmt.Fprintln(os.Stderr, "usage: gen (-cnn N | -large CxRxC) -out FILE")
		os.Exit(2)
	}
	f, err := os.Create(*out)
	if err == nil {
		if *cnn > 0 {
			_, err = f.Write(onnxtest.CNN(*cnn).Marshal())
		} else {
			var count, rows, cols int
			if _, err = fmt.Sscanf(*large, "%dx%dx%d", &count, &rows, &cols); err == nil {
				err = onnxtest.WriteLarge(f, count, rows, cols)
			}
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
