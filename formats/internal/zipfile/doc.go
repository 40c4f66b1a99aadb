// Package zipfile reads zip archives in place, for the codecs whose files
// are zip archives (.npz, torch.save's checkpoints): the central directory
// straight from the mapped file a record at a time, where each member's
// data starts, and inflating a deflated member on first use.
//
// It accepts exactly the archives archive/zip's NewReader accepts and reads
// the same values from them (FuzzDirectory holds the two together), but
// keeps nothing per member, leaves names in the mapping, and names the byte
// of every problem as formats.Errorf does. Only codecs import it.
package zipfile
