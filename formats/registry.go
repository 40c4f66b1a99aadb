package formats

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"tensorscope/tensor"
)

// Format is a registered codec.
type Format struct {
	ID         string   // short id used in --json output and tests: "tsr", "tmfile"
	Name       string   // human name: "TSR v1 tensor file"
	Extensions []string // usual file name endings, for dialogs and MIME glob rules only
	Priority   int      // formats with a magic number sniff before heuristic ones (lower first)

	// Sniff reports whether data (the whole file; only the first bytes are
	// usually inspected) looks like this format. It must be cheap.
	Sniff func(data []byte) bool
	// Decode builds the document. It reads headers only; tensor data is
	// read through TensorEntry loaders. src.Data must not be modified. On
	// failure it may return the document as far as it got with the error:
	// Open then passes its header fields on in the *Error (Error.Header),
	// for the failed file's tab, and returns no document.
	Decode func(src *Source) (*Document, error)
	// Encoder writes the format, for codecs that can (nil otherwise).
	Encoder *Encoder
}

// Source is what a codec decodes: the whole file's bytes and the storage
// that owns them (tensors returned by loaders view this storage).
type Source struct {
	Path    string
	Data    []byte
	Storage *tensor.Storage
}

// NewDocument starts a document for src with the registry fields filled in.
func (src *Source) NewDocument(f *Format, version string) *Document {
	return &Document{
		Path:       src.Path,
		Format:     f.ID,
		FormatName: f.Name,
		Version:    version,
		Size:       int64(len(src.Data)),
		data:       src.Data,
		storage:    src.Storage,
	}
}

var (
	registryMu sync.RWMutex
	registry   []*Format
)

// Register adds a codec. Codec packages call it from init.
func Register(f *Format) {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, g := range registry {
		if g.ID == f.ID {
			panic("formats: format " + f.ID + " registered twice")
		}
	}
	registry = append(registry, f)
	sort.SliceStable(registry, func(i, j int) bool { return registry[i].Priority < registry[j].Priority })
}

// Formats returns the registered codecs in sniffing order.
func Formats() []*Format {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return append([]*Format(nil), registry...)
}

// Lookup returns the codec with id, or nil.
func Lookup(id string) *Format {
	for _, f := range Formats() {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// Detect returns the first codec whose sniffing rule accepts data.
func Detect(data []byte) (*Format, error) {
	if len(data) == 0 {
		return nil, ErrEmpty
	}
	fs := Formats()
	for _, f := range fs {
		if f.Sniff(data) {
			return f, nil
		}
	}
	ids := make([]string, len(fs))
	for i, f := range fs {
		ids[i] = f.Name
	}
	return nil, fmt.Errorf("%w: not one of %s", ErrUnknownFormat, strings.Join(ids, ", "))
}

// Open maps the file at path read-only and decodes it with the codec its
// content matches (never chosen by file name).
func Open(path string) (*Document, error) {
	if IsRemote(path) {
		return openRemote(path)
	}
	if err := CheckRegular(path); err != nil {
		return nil, err
	}
	st, err := tensor.MapFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := decode(&Source{Path: path, Data: st.Bytes(), Storage: st})
	if err != nil {
		st.Close()
		return nil, err
	}
	return doc, nil
}

// OpenBytes decodes a file already in memory (embedded assets, tests, fuzzing).
func OpenBytes(name string, data []byte) (*Document, error) {
	return decode(&Source{Path: name, Data: data, Storage: tensor.NewStorage(data)})
}

// DecodeAs decodes data with the codec id, skipping sniffing.
func DecodeAs(id, name string, data []byte) (*Document, error) {
	f := Lookup(id)
	if f == nil {
		return nil, fmt.Errorf("no codec %q is registered", id)
	}
	return runDecode(f, &Source{Path: name, Data: data, Storage: tensor.NewStorage(data)})
}

func decode(src *Source) (*Document, error) {
	var f *Format
	err := tensor.CatchFault(func() (err error) { // sniffing reads the mapped file too (a zip's end)
		f, err = Detect(src.Data)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", displayPath(src.Path), err)
	}
	return runDecode(f, src)
}

func runDecode(f *Format, src *Source) (*Document, error) {
	// Codecs that check CRCs read the mapped payload while decoding.
	var doc *Document
	err := tensor.CatchFault(func() (err error) {
		doc, err = f.Decode(src)
		return err
	})
	if err != nil {
		var fe *Error
		if errors.As(err, &fe) {
			if fe.Path == "" {
				fe.Path = displayPath(src.Path)
			}
			if fe.Format == "" {
				fe.Format = f.ID
			}
			if doc != nil && fe.Header == nil {
				fe.Header = doc.Header
			}
			return nil, err
		}
		return nil, fmt.Errorf("%s (%s): %w", displayPath(src.Path), f.ID, err)
	}
	return doc, nil
}

func displayPath(p string) string {
	if p == "" {
		return "<memory>"
	}
	return p
}

// IsNotExist reports whether err says the file does not exist.
func IsNotExist(err error) bool { return errors.Is(err, os.ErrNotExist) }

// Names lists the registered formats' names, in registration order.
func Names() []string {
	var out []string
	for _, f := range Formats() {
		out = append(out, f.Name)
	}
	return out
}
