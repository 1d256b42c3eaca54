package providers

import (
	"crypto/sha256"
	"encoding"
	"hash"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// prefixMemo spares a cache key hashing, on every call, the prompt text
// that every call of one purpose shares. A rendered prompt is a template of
// a few kilobytes (instructions, fields, the JSON schema) and then the
// document, so a key's SHA-256 went mostly over the same bytes, and
// encoding them, each call: a tenth of a cached rerun's CPU. The memo keeps
// the hash state after the shared part, learned as the common start of the
// first message of successive calls, and a key hashes only what follows.
// The key is the same (TestPrefixMemoKeys).
type prefixMemo struct {
	mu      sync.Mutex
	entries []*prefixEntry
	digests sync.Pool // of hash.Hash, sha256
}

// prefixEntry is what the memo knows of calls with one head (everything of
// the key before the first message's content).
type prefixEntry struct {
	provider, model, promptVersion, purpose, role string
	prev                                          string     // the first message of the last call that missed p
	p                                             *keyPrefix // nil until learned; never changed, only replaced
}

// keyPrefix is a learned shared start of the first message: the key bytes
// up to the end of content (enc), and the SHA-256 state after the first
// aligned bytes of enc (a whole number of blocks).
type keyPrefix struct {
	content string
	enc     []byte
	aligned int
	state   []byte
}

// keyPrefixMin is the shortest shared start worth a memo.
const keyPrefixMin = 256

// prefixEntriesMax bounds the memo (a run has a head or two per purpose).
const prefixEntriesMax = 16

func (m *prefixMemo) find(provider string, req llm.Request) *prefixEntry {
	for _, e := range m.entries {
		if e.provider == provider && e.model == req.Model && e.promptVersion == req.PromptVersion &&
			e.purpose == req.Purpose && e.role == req.Messages[0].Role {
			return e
		}
	}
	return nil
}

// key returns req's key from a learned prefix, and the buffer it wrote
// (from buf); nil when no prefix fits req.
func (m *prefixMemo) key(buf []byte, provider string, req llm.Request, schema []byte, schemaOK bool) (key, used []byte) {
	if len(req.Messages) == 0 {
		return nil, buf
	}
	m.mu.Lock()
	var p *keyPrefix
	if e := m.find(provider, req); e != nil {
		p = e.p
	}
	m.mu.Unlock()
	content := req.Messages[0].Content
	if p == nil || !strings.HasPrefix(content, p.content) ||
		(len(content) > len(p.content) && !utf8.RuneStart(content[len(p.content)])) {
		return nil, buf
	}
	b := append(buf[:0], p.enc[p.aligned:]...)
	b = appendKeyRest(b, req, len(p.content), schema, schemaOK)
	d, _ := m.digests.Get().(hash.Hash)
	if d == nil {
		d = sha256.New()
	}
	if err := d.(encoding.BinaryUnmarshaler).UnmarshalBinary(p.state); err != nil {
		return nil, b
	}
	d.Write(b)
	key = d.Sum(make([]byte, 0, sha256.Size))
	m.digests.Put(d)
	return key, b
}

// learn notes req, whose key no prefix gave: its first message's shared
// start with the last such call of its head (or with the learned prefix it
// did not fit) becomes the prefix, when long enough.
func (m *prefixMemo) learn(provider string, req llm.Request) {
	if len(req.Messages) == 0 {
		return
	}
	content := req.Messages[0].Content
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.find(provider, req)
	if e == nil {
		if len(m.entries) >= prefixEntriesMax {
			m.entries = nil
		}
		e = &prefixEntry{provider: provider, model: req.Model, promptVersion: req.PromptVersion, purpose: req.Purpose, role: req.Messages[0].Role}
		m.entries = append(m.entries, e)
	}
	other := e.prev
	if e.p != nil {
		other = e.p.content
	}
	e.prev = content
	n := commonPrefix(content, other)
	for n > 0 && n < len(content) && !utf8.RuneStart(content[n]) {
		n--
	}
	if n < keyPrefixMin {
		return
	}
	p := &keyPrefix{content: content[:n]}
	p.enc = appendJSONChars(appendKeyHead(nil, provider, req), p.content)
	p.aligned = len(p.enc) &^ (sha256.BlockSize - 1)
	d := sha256.New()
	d.Write(p.enc[:p.aligned])
	state, err := d.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return
	}
	p.state = state
	e.p = p
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
