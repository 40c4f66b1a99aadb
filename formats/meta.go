package formats

// Meta is a node of the metadata tree: a named leaf value, or an object or
// list of children. Order is kept as the file has it.
type Meta struct {
	Name     string
	Value    any // leaf value (same kinds as Attr.Value); ignored when Children is non-nil
	Children []*Meta
	List     bool // children are a list (their names are indices)
	// Lazy, when set, is a long array kept in the file and read on demand
	// (see LazyList); the node has neither Value nor Children.
	Lazy *LazyList
	// Tensor, when set, names the document tensor the node shows (a
	// checkpoint's object tree holds its tensors): the viewer links it to
	// the inspector.
	Tensor string
}

// NewObject returns an interior node whose children are named.
func NewObject(name string, children ...*Meta) *Meta {
	if children == nil {
		children = []*Meta{}
	}
	return &Meta{Name: name, Children: children}
}

// NewList returns an interior node whose children are positional.
func NewList(name string, children ...*Meta) *Meta {
	if children == nil {
		children = []*Meta{}
	}
	return &Meta{Name: name, Children: children, List: true}
}

// Leaf returns a leaf node.
func Leaf(name string, value any) *Meta { return &Meta{Name: name, Value: value} }

// Add appends children and returns m.
func (m *Meta) Add(children ...*Meta) *Meta {
	m.Children = append(m.Children, children...)
	return m
}

// IsLeaf reports whether m holds a value (or a lazy list) rather than children.
func (m *Meta) IsLeaf() bool { return m.Children == nil }

// Child returns the first child named name, or nil.
func (m *Meta) Child(name string) *Meta {
	if m == nil {
		return nil
	}
	for _, c := range m.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}
