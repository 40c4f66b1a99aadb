package pytorch

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	"tensorscope/formats"
	"tensorscope/formats/internal/zipfile"
)

// readZip reads the zip format of torch.save (PyTorch ≥ 1.6) and
// torch.jit.save: <folder>/data.pkl, <folder>/data/<key>, <folder>/version...
func readZip(src *formats.Source, doc *formats.Document) (*checkpoint, error) {
	dir, err := zipfile.Read(src.Data)
	if err != nil {
		return nil, err
	}
	list := make([]zipfile.Member, 0, dir.Len())
	dir.Each(func(m *zipfile.Member) { list = append(list, *m) })
	folder, pickle, err := archiveFolder(list)
	if err != nil {
		return nil, err
	}
	// Every member's local header is read (one system call each) on other
	// goroutines while data.pkl is unpickled; the unpickler only records
	// the storages it meets, matched with their members once both are
	// done. The deferred wait runs before the file is released: nothing
	// reads the file once readZip returns.
	zreader := newZipReaderAt(src)
	defer zreader.release()
	var offsets []int64
	var errs []error
	var offsetsRead sync.WaitGroup
	offsetsRead.Go(func() { offsets, errs = dataOffsets(dir, zreader, list) })
	defer offsetsRead.Wait()

	c := &checkpoint{kind: "zip", blobs: map[string]*blob{}, folder: folder}
	if hasMember(list, folder+"/constants.pkl") {
		c.kind = "torchscript"
	}
	pklAt, err := dir.DataOffset(pickle)
	if err != nil {
		return nil, memberError(folder+"/data.pkl", err)
	}
	dataDirs := []string{"data/"}
	pkl := newMember(pickle, pklAt)
	var pickleErr error
	c.root, pickleErr = c.unpickleMember(doc, src, pkl, func(pid any, at int64) (any, error) {
		return c.zipStorage(pid, at, dataDirs)
	})
	offsetsRead.Wait()
	members, names := c.listMembers(list, offsets, errs)
	c.header = append(c.header, formats.HeaderField{Name: "archive folder", Offset: pickle.LocalHeader,
		Size: int(pklAt - pickle.LocalHeader), Value: folder, Meaning: fmt.Sprintf("%d members; data.pkl's local header", len(names))})
	c.readSmallMembers(doc, src, members)
	c.header = append(c.header, formats.HeaderField{Name: "data.pkl", Offset: pkl.at, Size: int(min(pkl.size, 1<<30)),
		Value: fmt.Sprintf("pickle of %d bytes", pkl.size), Meaning: methodName(pkl.zm.Method)})

	c.resolveStorages(doc, src, members)
	if pickleErr != nil {
		return c, pickleErr
	}
	if m := members["constants.pkl"]; m != nil {
		constDirs := []string{"constants/", "data/"}
		consts, err := c.unpickleMember(doc, src, m, func(pid any, at int64) (any, error) {
			return c.zipStorage(pid, at, constDirs)
		})
		c.resolveStorages(doc, src, members)
		if err != nil {
			c.warn(m.at, "constants.pkl: %v", err)
		} else {
			c.consts = consts
		}
	}
	c.readCode(doc, src, members, names)
	c.zipFacts(members, len(names))
	return c, nil
}

// archiveFolder finds the folder holding data.pkl, and that member:
// torch.save names the folder after the file ("archive" before 1.13), and
// a renamed file keeps the old name, so any single-level folder is
// accepted. The first data.pkl decides.
func archiveFolder(list []zipfile.Member) (string, *zipfile.Member, error) {
	for i := range list {
		name := string(list[i].Name)
		dir, base := path.Split(name)
		if base == "data.pkl" && strings.Count(dir, "/") == 1 && cleanName(name) {
			return strings.TrimSuffix(dir, "/"), &list[i], nil
		}
	}
	return "", nil, formats.Errorf(-1, "zip: no <folder>/data.pkl member: not a PyTorch checkpoint")
}

// hasMember reports whether the archive holds a member named name.
func hasMember(list []zipfile.Member, name string) bool {
	for i := range list {
		if string(list[i].Name) == name {
			return true
		}
	}
	return false
}

// listMembers maps the members of the archive folder by their names
// within it, warning of those it leaves out: unreadable local headers,
// names outside the folder or unsafe, repeated names.
func (c *checkpoint) listMembers(list []zipfile.Member, offsets []int64, errs []error) (map[string]*member, []string) {
	members := make(map[string]*member, len(list))
	var names []string
	prefix := []byte(c.folder + "/")
	for i := range list {
		zm := &list[i]
		at, derr := offsets[i], errs[i]
		if derr != nil {
			c.warnErr(memberError(string(zm.Name), derr))
			continue
		}
		rel, ok := bytes.CutPrefix(zm.Name, prefix)
		if !ok || !cleanName(string(rel)) {
			c.warn(at, "member %q is outside the archive folder %q or has an unsafe name: ignored", zm.Name, c.folder)
			continue
		}
		if zm.IsFolder() {
			continue
		}
		if _, dup := members[string(rel)]; dup {
			c.warn(at, "member %q appears again: the first is read", zm.Name)
			continue
		}
		members[string(rel)] = newMember(zm, at)
		names = append(names, string(rel))
	}
	return members, names
}

// readSmallMembers reads the version and byte order members into the
// header and the checkpoint.
func (c *checkpoint) readSmallMembers(doc *formats.Document, src *formats.Source, members map[string]*member) {
	for _, name := range []string{"version", ".data/version", "byteorder"} {
		m := members[name]
		if m == nil || m.size > 64 {
			continue
		}
		b, err := m.readAll(doc, src, 64)
		if err != nil {
			c.warnErr(err)
			continue
		}
		v := strings.TrimSpace(string(b))
		c.header = append(c.header, formats.HeaderField{Name: name, Offset: m.at, Size: int(m.size), Value: v})
		switch name {
		case "version", ".data/version":
			if c.version == "" {
				c.version = v
			}
		case "byteorder":
			if v == "big" {
				c.bigEnd = true
			} else if v != "little" {
				c.warn(m.at, "byteorder %q: expected little or big; read as little", v)
			}
		}
	}
}

// unpickleMember runs the pickle member m, adding the classes it did not
// know to the checkpoint's.
func (c *checkpoint) unpickleMember(doc *formats.Document, src *formats.Source, m *member, persistent func(any, int64) (any, error)) (any, error) {
	b, err := m.readAll(doc, src, maxPickleBytes)
	if err != nil {
		return nil, err
	}
	v, unknown, err := unpickleData(b, m.unpickleBase(), m.zm.Method != zipfile.Store, persistent)
	if err != nil {
		return nil, err
	}
	if c.unknown == nil {
		c.unknown = map[string]int{}
	}
	for k, n := range unknown {
		c.unknown[k] += n
	}
	return v, nil
}

// readCode reads TorchScript's source files, code/*, in name order.
func (c *checkpoint) readCode(doc *formats.Document, src *formats.Source, members map[string]*member, names []string) {
	sort.Strings(names)
	for _, name := range names {
		if !strings.HasPrefix(name, "code/") || strings.HasSuffix(name, ".debug_pkl") {
			continue
		}
		m := members[name]
		b, err := m.readAll(doc, src, maxPickleBytes)
		if err != nil {
			c.warnErr(err)
			continue
		}
		c.code = append(c.code, codeFile{name: name, text: decodeUTF8(b)})
	}
}

// zipFacts says what the metadata pane shows of the archive.
func (c *checkpoint) zipFacts(members map[string]*member, listed int) {
	stored, deflated := 0, 0
	for _, m := range members {
		if m.zm.Method == zipfile.Store {
			stored++
		} else {
			deflated++
		}
	}
	c.facts = append(c.facts,
		formats.Leaf("container", "zip"),
		formats.Leaf("archive folder", c.folder),
		formats.Leaf("members", int64(listed)),
		formats.Leaf("stored members", int64(stored)),
		formats.Leaf("deflated members", int64(deflated)))
	if c.version != "" {
		c.facts = append(c.facts, formats.Leaf("version", c.version))
	}
}
