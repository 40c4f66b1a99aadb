package cli

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tensorscope/internal/gentransformer"
)

// render --depth draws the generated transformer at a depth, checks its
// argument, and info --json writes every node's scope.
func TestRenderDepthAndScopes(t *testing.T) {
	path := gentransformer.Path(t)
	out := filepath.Join(t.TempDir(), "g.png")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--depth", "3"}, 0, ""},
		{[]string{"--depth", "all", "--size", "400x300"}, 0, ""},
		{[]string{"--depth", "0"}, 2, "a depth is auto, all or a scope level"},
		{[]string{"--depth", "deep"}, 2, "a depth is auto, all or a scope level"},
		{[]string{"--view", "heatmap", "--depth", "2"}, 2, "--depth applies to --view graph"},
		{[]string{"--colour-by", "Kurtosis", "--size", "400x300"}, 0, ""},
		{[]string{"--colour-by", "weights"}, 2, `unknown colouring "weights" (choose category, std,`},
		{[]string{"--view", "heatmap", "--colour-by", "std"}, 2, "--colour-by applies to --view graph"},
	} {
		args := append([]string{"render", path, "--out", out}, c.args...)
		if !strings.Contains(strings.Join(c.args, " "), "--view") {
			args = append(args, "--view", "graph")
		}
		_, errOut, code := runCmd(args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want %d, %q", c.args, code, errOut, c.code, c.want)
			continue
		}
		if code == 0 {
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := png.Decode(f); err != nil {
				t.Errorf("%v: %v", c.args, err)
			}
			f.Close()
		}
	}
	stdout, errOut, code := runCmd("info", "--json", path)
	if code != 0 {
		t.Fatalf("info: exit %d: %s", code, errOut)
	}
	var doc struct {
		Graph struct {
			Nodes []struct {
				Name  string    `json:"name"`
				Scope *[]string `json:"scope"`
			} `json:"nodes"`
		} `json:"graph"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	for _, n := range doc.Graph.Nodes {
		if n.Scope == nil {
			t.Fatalf("node %q has no \"scope\"", n.Name)
		}
		if n.Name == "/model/layers.0/self_attn/q_proj/MatMul" && strings.Join(*n.Scope, "/") != "model/layers.0/self_attn/q_proj" {
			t.Errorf("q_proj scope %q", *n.Scope)
		}
		if n.Name == "input_ids" && len(*n.Scope) != 0 {
			t.Errorf("input_ids scope %q", *n.Scope)
		}
	}
}
