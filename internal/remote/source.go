package remote

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// IsURL reports whether name is a remote file: an http:// or https:// URL
// or an hf://ORG/REPO[@REV]/PATH reference to the Hugging Face Hub.
func IsURL(name string) bool {
	l := strings.ToLower(name)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "hf://")
}

// DefaultEndpoint is the Hub's address when HF_ENDPOINT is not set.
const DefaultEndpoint = "https://huggingface.co"

// Target is a resolved remote file: the URL requests go to, and the
// bearer token for its host, if any. The token is never part of an error
// or of String.
type Target struct {
	URL   string // http(s) URL of the file
	Name  string // as the user gave it (hf://… or the URL)
	token string // sent only to tokenHost
	// tokenHost is the host:port the token belongs to; a redirect to any
	// other host is followed without it.
	tokenHost string
}

// String and GoString give the name only, so that no format verb prints
// the token.
func (t Target) String() string   { return t.Name }
func (t Target) GoString() string { return t.Name }

// HasToken reports whether a token will be sent (messages say so).
func (t *Target) HasToken() bool { return t.token != "" }

// Resolve turns name (see IsURL) into a Target. hf://ORG/REPO[@REV]/PATH
// becomes {endpoint}/ORG/REPO/resolve/REV/PATH as the Hub resolves it (REV
// defaults to main); the endpoint is HF_ENDPOINT or DefaultEndpoint. The
// Hub's token (HF_TOKEN, else the file huggingface_hub writes) is sent to
// the endpoint's host only.
func Resolve(name string) (*Target, error) {
	endpoint := strings.TrimRight(os.Getenv("HF_ENDPOINT"), "/")
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	ep, err := url.Parse(endpoint)
	if err != nil || (ep.Scheme != "http" && ep.Scheme != "https") || ep.Host == "" {
		return nil, fmt.Errorf("HF_ENDPOINT %q is not an http(s) address", endpoint)
	}
	t := &Target{Name: name}
	if strings.HasPrefix(strings.ToLower(name), "hf://") {
		u, err := hubURL(endpoint, name[len("hf://"):])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		t.URL = u
	} else {
		u, err := url.Parse(name)
		if err != nil {
			return nil, fmt.Errorf("%s: not a URL: %v", name, err)
		}
		if u.Host == "" {
			return nil, fmt.Errorf("%s: the URL names no host", name)
		}
		if u.User != nil {
			return nil, fmt.Errorf("%s: credentials in the URL are refused (use HF_TOKEN for the Hub)", redact(u))
		}
		t.URL = u.String()
		t.Name = u.String()
	}
	u, _ := url.Parse(t.URL)
	if u.Host == ep.Host && u.Scheme == ep.Scheme {
		t.token = hubToken()
		t.tokenHost = ep.Host
	}
	return t, nil
}

func redact(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// hubURL resolves ORG/REPO[@REV]/PATH (or a single-segment REPO, as for
// the Hub's oldest models, when PATH has no further slash) against the
// endpoint.
func hubURL(endpoint, ref string) (string, error) {
	parts := strings.Split(ref, "/")
	if len(parts) < 3 {
		return "", errors.New("expected hf://ORG/REPO[@REV]/PATH")
	}
	org, repo, file := parts[0], parts[1], parts[2:]
	rev := "main"
	if i := strings.IndexByte(repo, '@'); i >= 0 {
		repo, rev = repo[:i], repo[i+1:]
	}
	if org == "" || repo == "" || rev == "" {
		return "", errors.New("expected hf://ORG/REPO[@REV]/PATH")
	}
	for _, seg := range append([]string{org, repo}, file...) {
		if seg == "" || seg == "." || seg == ".." {
			return "", fmt.Errorf("the path segment %q is refused", seg)
		}
	}
	esc := make([]string, len(file))
	for i, f := range file {
		esc[i] = url.PathEscape(f)
	}
	return fmt.Sprintf("%s/%s/%s/resolve/%s/%s", endpoint, url.PathEscape(org), url.PathEscape(repo),
		url.PathEscape(rev), strings.Join(esc, "/")), nil
}

// hubToken is HF_TOKEN, else the token file huggingface_hub's login
// writes ($HF_HOME/token, or ~/.cache/huggingface/token).
func hubToken() string {
	if t := strings.TrimSpace(os.Getenv("HF_TOKEN")); t != "" {
		return t
	}
	home := os.Getenv("HF_HOME")
	if home == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			if h, err := os.UserHomeDir(); err == nil {
				cache = filepath.Join(h, ".cache")
			}
		}
		if cache == "" {
			return ""
		}
		home = filepath.Join(cache, "huggingface")
	}
	b, err := os.ReadFile(filepath.Join(home, "token"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// ErrEscapes reports a reference that leaves the folder of the file that
// names it.
var ErrEscapes = errors.New("path leaves the model's folder")

// ResolveRelative resolves ref, a file named inside the remote file base
// (a shard of an index, ONNX external data), as a URL in base's folder or
// below it. Absolute URLs, absolute paths, queries and paths that leave
// the folder are refused. hf:// names resolve to hf:// names.
func ResolveRelative(base, ref string) (string, error) {
	if ref == "" || strings.ContainsAny(ref, "\x00?#\\") || strings.Contains(ref, "://") ||
		strings.HasPrefix(ref, "/") || strings.Contains(ref, ":") {
		return "", fmt.Errorf("%w: %q", ErrEscapes, ref)
	}
	clean := path.Clean(ref)
	if clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%w: %q", ErrEscapes, ref)
	}
	// Percent-escapes are decoded by servers: a "%2e%2e" must not climb.
	if strings.Contains(ref, "%") {
		return "", fmt.Errorf("%w: %q holds a percent escape", ErrEscapes, ref)
	}
	if strings.HasPrefix(strings.ToLower(base), "hf://") {
		i := strings.LastIndexByte(base, '/')
		return base[:i+1] + clean, nil
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	dir := u.Path[:strings.LastIndexByte(u.Path, '/')+1]
	parts := strings.Split(clean, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	r := *u
	r.RawQuery, r.Fragment, r.RawPath = "", "", ""
	r.Path = dir + clean
	r.RawPath = escapedDir(u) + strings.Join(parts, "/")
	return r.String(), nil
}

func escapedDir(u *url.URL) string {
	p := u.EscapedPath()
	return p[:strings.LastIndexByte(p, '/')+1]
}
