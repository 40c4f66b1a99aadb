package tmfile_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tensorscope/internal/samples"
)

// specPath returns a file of ../shared/specs/tmfile; it skips (fails under
// CI=true) like the samples do when the folder is missing.
func specPath(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(filepath.Dir(samples.Root()), "specs", "tmfile", name)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("spec file %s is missing, and CI=true requires it", p)
		}
		t.Skipf("spec file %s is missing; skipping (set CI=true to make this a failure)", p)
	}
	return p
}

// sampleSummary is one file of samples-summary.txt, the structure an
// independent reader found in each sample.
type sampleSummary struct {
	size, pad, origFormat, nsub  int64
	mname                        *string // nil for None
	inputs, outputs              []int64
	nodes, tensors, buffers      int64
	ops                          map[string]int64
	opVer, dynamicShape          map[string]int64
	tensorTypes, dtypes, layouts map[string]int64
	quant, constWithoutData      int64
	subInfoOff                   int64
}

var (
	kvRE   = regexp.MustCompile(`([a-z_-]+)=('[^']*'|\[[^\]]*\]|\S+)`)
	dictRE = regexp.MustCompile(`([a-z_ -]+): (\{[^}]*\})`)
	pairRE = regexp.MustCompile(`'?([^',{}]+?)'?: (-?[0-9]+)`)
)

func parseSummary(t *testing.T) map[string]*sampleSummary {
	f, err := os.Open(specPath(t, "samples-summary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]*sampleSummary{}
	var cur *sampleSummary
	num := func(s string) int64 {
		if strings.HasPrefix(s, "0x") {
			v, err := strconv.ParseInt(s[2:], 16, 64)
			if err != nil {
				t.Fatalf("summary: bad number %q", s)
			}
			return v
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("summary: bad number %q", s)
		}
		return v
	}
	list := func(s string) []int64 {
		s = strings.Trim(s, "[]")
		var l []int64
		for _, x := range strings.Split(s, ",") {
			if x = strings.TrimSpace(x); x != "" {
				l = append(l, num(x))
			}
		}
		return l
	}
	dict := func(s string) map[string]int64 {
		m := map[string]int64{}
		for _, p := range pairRE.FindAllStringSubmatch(s, -1) {
			m[strings.TrimSpace(p[1])] = num(p[2])
		}
		return m
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "":
		case !strings.HasPrefix(line, " "):
			name, rest, ok := strings.Cut(line, ": ")
			if !ok {
				t.Fatalf("summary: unexpected line %q", line)
			}
			cur = &sampleSummary{}
			out[name] = cur
			for _, kv := range kvRE.FindAllStringSubmatch(rest, -1) {
				switch kv[1] {
				case "size":
					cur.size = num(kv[2])
				case "pad":
					cur.pad = num(kv[2])
				case "orig_format":
					cur.origFormat = num(kv[2])
				case "nsub":
					cur.nsub = num(kv[2])
				case "mname":
					if kv[2] != "None" {
						s := strings.Trim(kv[2], "'")
						cur.mname = &s
					}
				}
			}
		case strings.HasPrefix(line, "  subgraph"):
			for _, kv := range kvRE.FindAllStringSubmatch(line, -1) {
				switch kv[1] {
				case "inputs":
					cur.inputs = list(kv[2])
				case "outputs":
					cur.outputs = list(kv[2])
				case "nodes":
					cur.nodes = num(kv[2])
				case "tensors":
					cur.tensors = num(kv[2])
				case "buffers":
					cur.buffers = num(kv[2])
				case "sub_info_off":
					cur.subInfoOff = num(kv[2])
				}
			}
		default:
			for _, d := range dictRE.FindAllStringSubmatch(line, -1) {
				switch strings.TrimSpace(d[1]) {
				case "ops":
					cur.ops = dict(d[2])
				case "op_ver":
					cur.opVer = dict(d[2])
				case "dynamic_shape":
					cur.dynamicShape = dict(d[2])
				case "tensor types":
					cur.tensorTypes = dict(d[2])
				case "dtypes":
					cur.dtypes = dict(d[2])
				case "layouts":
					cur.layouts = dict(d[2])
				}
			}
			if m := regexp.MustCompile(`quant: ([0-9]+)`).FindStringSubmatch(line); m != nil {
				cur.quant = num(m[1])
			}
			if m := regexp.MustCompile(`const-without-data: ([0-9]+)`).FindStringSubmatch(line); m != nil {
				cur.constWithoutData = num(m[1])
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
