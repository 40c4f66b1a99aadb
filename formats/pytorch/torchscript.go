package pytorch

import (
	"regexp"
	"strconv"
	"strings"

	"tensorscope/formats"
)

// A TorchScript archive pickles its modules as __torch__.* objects whose
// state is their attributes. Which attributes are parameters and buffers
// is written in the class's source under code/: __parameters__ = [...]
// and __buffers__ = [...]. torch.jit.load(f).state_dict() lists, module by
// module, the parameters, then the buffers, then the submodules' entries
// under "<attribute>."; the tensors are named the same here. Other tensors
// (plain attributes, constants.pkl) follow, as constants.

// scriptClass is what the sources say of one class.
type scriptClass struct {
	module     bool // derives from Module
	parameters []string
	buffers    []string
}

var (
	classLine = regexp.MustCompile(`^class\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(([^)]*)\)\s*:`)
	listLine  = regexp.MustCompile(`^\s+(__parameters__|__buffers__)\s*=\s*\[(.*)\]`)
	quoted    = regexp.MustCompile(`"([^"]*)"|'([^']*)'`)
)

// scriptClasses reads the classes of code/: "__torch__.a.b.C" for class C
// in code/__torch__/a/b.py.
func scriptClasses(code []codeFile) map[string]*scriptClass {
	out := map[string]*scriptClass{}
	for _, f := range code {
		mod := strings.TrimSuffix(strings.TrimPrefix(f.name, "code/"), ".py")
		if mod == f.name || strings.HasSuffix(f.name, ".debug_pkl") {
			continue
		}
		mod = strings.ReplaceAll(mod, "/", ".")
		var cur *scriptClass
		for _, line := range strings.Split(f.text, "\n") {
			if m := classLine.FindStringSubmatch(line); m != nil {
				cur = &scriptClass{module: strings.TrimSpace(m[2]) == "Module"}
				out[mod+"."+m[1]] = cur
				continue
			}
			if cur == nil {
				continue
			}
			if m := listLine.FindStringSubmatch(line); m != nil {
				var names []string
				for _, q := range quoted.FindAllStringSubmatch(m[2], -1) {
					names = append(names, q[1]+q[2])
				}
				if m[1] == "__parameters__" {
					cur.parameters = names
				} else {
					cur.buffers = names
				}
			}
		}
	}
	return out
}

// scriptTensors names the tensors of a TorchScript archive.
func scriptTensors(c *checkpoint) []namedTensor {
	classes := scriptClasses(c.code)
	s := &scriptNamer{classes: classes, seen: map[*pyTensor]bool{}, onPath: map[*pyObject]bool{}}
	s.module(c.root, "", 0)
	// Every other tensor, by its attribute path, after the state_dict's.
	rest := nameTensors(c, c.root)
	if c.consts != nil {
		for _, nt := range nameTensors(c, c.consts) {
			name := nt.name
			if i, err := strconv.Atoi(name); err == nil {
				name = "c" + strconv.Itoa(i) // the code says CONSTANTS.c0
			}
			nt.name = "constants." + name
			rest = append(rest, nt)
		}
	}
	for _, nt := range rest {
		if s.seen[nt.t] {
			continue
		}
		nt.role = formats.RoleConstant
		nt.note = "not in state_dict(): a plain tensor attribute or constant"
		s.out = append(s.out, nt)
	}
	return s.out
}

type scriptNamer struct {
	classes map[string]*scriptClass
	out     []namedTensor
	seen    map[*pyTensor]bool
	onPath  map[*pyObject]bool
}

func (s *scriptNamer) module(v any, prefix string, depth int) {
	o, ok := v.(*pyObject)
	if !ok || s.onPath[o] || depth > maxNesting {
		return
	}
	s.onPath[o] = true
	defer delete(s.onPath, o)
	attrs := scriptAttrs(o)
	if attrs == nil {
		return
	}
	cls := s.classes[o.class]
	if cls != nil {
		for _, group := range [][]string{cls.parameters, cls.buffers} {
			for _, name := range group {
				if t, ok := attrs.getAny(name).(*pyTensor); ok {
					role := formats.RoleWeight
					s.out = append(s.out, namedTensor{name: prefix + name, t: t, role: role})
					s.seen[t] = true
				}
			}
		}
	}
	for i, k := range attrs.keys {
		name, _ := k.(string)
		sub, ok := attrs.vals[i].(*pyObject)
		if !ok || !s.isModule(sub) {
			continue
		}
		s.module(sub, prefix+name+".", depth+1)
	}
}

// isModule: the class derives from Module, or (with no source) its
// state has a "training" flag as every nn.Module does.
func (s *scriptNamer) isModule(o *pyObject) bool {
	if cls := s.classes[o.class]; cls != nil {
		return cls.module
	}
	attrs := scriptAttrs(o)
	if attrs == nil {
		return false
	}
	_, ok := attrs.get("training")
	return ok
}

// scriptAttrs is a TorchScript object's attribute dict (its BUILD state).
func scriptAttrs(o *pyObject) *pyDict {
	for _, part := range stateParts(o.state) {
		if d, ok := part.(*pyDict); ok {
			return d
		}
	}
	return nil
}

func (d *pyDict) getAny(k string) any {
	v, _ := d.get(k)
	return v
}
