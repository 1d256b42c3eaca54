package policy

import (
	"crypto/sha256"
	"encoding/hex"
)

// envHash is hash, computed once and only when something needs it (a hold,
// a resubmission, an audit line).
func (f *facts) envHash() string {
	if f.h == "" {
		f.h = f.hash()
	}
	return f.h
}

// hash is envelope_hash of f's normalized envelope, computed from the raw
// inner objects with the canonical values substituted, so no map is built.
func (f *facts) hash() string {
	// An envelope's canonical form is a few hundred bytes: it is built on
	// the stack unless it is larger.
	var stack [512]byte
	b := stack[:0]
	b = append(b, `{"action":`...)
	b = appendPyObject(b, f.action, "verb", f.verb)
	b = append(b, `,"axes":`...)
	b = appendAxes(b, f)
	b = append(b, `,"magnitude":`...)
	b = appendPyObject(b, f.magnitude, "count", f.countValue())
	b = append(b, `,"target":`...)
	b = appendPyObject(b, f.target, "environment", f.env)
	b = append(b, '}')
	sum := sha256.Sum256(b)
	var out [64]byte
	hex.Encode(out[:], sum[:])
	return string(out[:])
}

func appendAxes(b []byte, f *facts) []byte {
	if len(f.axes) == 0 || (len(f.axes) <= 3 && onlyAxisKeys(f.axes)) {
		b = append(b, `{"blast_radius":`...)
		b = appendPyString(b, f.blast)
		b = append(b, `,"externality":`...)
		b = appendPyString(b, f.external)
		b = append(b, `,"reversibility":`...)
		b = appendPyString(b, f.reversibility)
		return append(b, '}')
	}
	ax := copyMap(f.axes, 3)
	ax["reversibility"], ax["blast_radius"], ax["externality"] = f.reversibility, f.blast, f.external
	return appendPyObject(b, ax, "", nil)
}

func onlyAxisKeys(m map[string]any) bool {
	for k := range m {
		if k != "reversibility" && k != "blast_radius" && k != "externality" {
			return false
		}
	}
	return true
}
