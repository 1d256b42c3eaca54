package providers

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/reflect-mcp/reflect/internal/jsonstr"
	"github.com/reflect-mcp/reflect/pipeline/llm"
)

// CacheKey is the cache key of a call: the SHA-256 of everything that shapes
// the reply. Source is left out because it is already inside Messages.
//
// The hashed bytes are what encoding/json made of the key when the cache was
// first written (a struct of the fields below, the schema compacted), so
// every entry stored since stays reachable; they are written here directly
// because marshalling by reflection cost more than a cache lookup itself.
// TestCacheKeyMatchesEncodingJSON and FuzzCacheKey hold the two to the byte.
func CacheKey(provider string, req llm.Request) []byte {
	schema, ok := compactSchema(req.JSONSchema)
	key, _ := cacheKey(nil, provider, req, schema, ok)
	return key
}

// compactSchema is the schema as it is hashed: compacted, with the HTML
// escapes encoding/json applies to a RawMessage. ok is false for bytes that
// are not JSON, which are hashed raw after the rest of the key.
func compactSchema(raw []byte) (out []byte, ok bool) {
	if len(raw) == 0 {
		return nil, true
	}
	var b, esc bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return nil, false
	}
	json.HTMLEscape(&esc, b.Bytes())
	return esc.Bytes(), true
}

// cacheKey returns the key and the buffer it hashed, grown from buf (whose
// contents it overwrites) so a caller can reuse it for the next key.
func cacheKey(buf []byte, provider string, req llm.Request, schema []byte, schemaOK bool) (key, used []byte) {
	n := 160 + len(provider) + len(req.Model) + len(req.PromptVersion) + len(req.Purpose) + len(req.SchemaName) + len(schema)
	for _, m := range req.Messages {
		n += len(m.Role) + len(m.Content) + 32
	}
	if !schemaOK {
		n += len(req.JSONSchema)
	}
	b := buf[:0]
	if cap(b) < n {
		b = make([]byte, 0, n+n/8)
	}
	if len(req.Messages) == 0 {
		b = appendKeyStart(b, provider, req)
		if req.Messages == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, "[]"...)
		}
		b = appendKeyTail(b, req, schema, schemaOK)
	} else {
		b = appendKeyHead(b, provider, req)
		b = appendKeyRest(b, req, 0, schema, schemaOK)
	}
	sum := sha256.Sum256(b)
	return sum[:], b
}

// appendKeyStart appends the key's bytes up to its messages.
func appendKeyStart(b []byte, provider string, req llm.Request) []byte {
	b = append(b, `{"v":1,"provider":`...)
	b = appendJSONString(b, provider)
	b = append(b, `,"model":`...)
	b = appendJSONString(b, req.Model)
	b = append(b, `,"prompt_version":`...)
	b = appendJSONString(b, req.PromptVersion)
	b = append(b, `,"purpose":`...)
	b = appendJSONString(b, req.Purpose)
	return append(b, `,"messages":`...)
}

// appendKeyHead appends the key's bytes up to the first message's content,
// its opening quote included. req has a message.
func appendKeyHead(b []byte, provider string, req llm.Request) []byte {
	b = appendKeyStart(b, provider, req)
	b = append(b, `[{"role":`...)
	b = appendJSONString(b, req.Messages[0].Role)
	return append(b, `,"content":"`...)
}

// appendKeyRest appends the rest of the key after appendKeyHead and the
// first from bytes of the first message's content (from falls on a rune
// start, so the content's encoding splits there).
func appendKeyRest(b []byte, req llm.Request, from int, schema []byte, schemaOK bool) []byte {
	b = appendJSONChars(b, req.Messages[0].Content[from:])
	b = append(b, `"}`...)
	for _, m := range req.Messages[1:] {
		b = append(b, `,{"role":`...)
		b = appendJSONString(b, m.Role)
		b = append(b, `,"content":`...)
		b = appendJSONString(b, m.Content)
		b = append(b, '}')
	}
	b = append(b, ']')
	return appendKeyTail(b, req, schema, schemaOK)
}

// appendKeyTail appends what follows the messages.
func appendKeyTail(b []byte, req llm.Request, schema []byte, schemaOK bool) []byte {
	if len(schema) > 0 {
		b = append(b, `,"schema":`...)
		b = append(b, schema...)
	}
	if req.SchemaName != "" {
		b = append(b, `,"schema_name":`...)
		b = appendJSONString(b, req.SchemaName)
	}
	b = append(b, `,"max_tokens":`...)
	b = strconv.AppendInt(b, int64(req.MaxTokens), 10)
	b = append(b, '}')
	if !schemaOK {
		b = append(b, req.JSONSchema...)
	}
	return b
}

// appendJSONString appends s as encoding/json writes a string with HTML
// escaping on: <, > and & as \u00XX, control bytes escaped, invalid UTF-8
// as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendJSONChars(dst, s)
	return append(dst, '"')
}

// appendJSONChars appends s escaped as inside a JSON string, without the
// quotes, as json.Marshal escapes it (HTML characters too): the keys are
// those encoding/json made before (TestCacheKeyMatchesEncodingJSON).
func appendJSONChars(dst []byte, s string) []byte {
	return jsonstr.AppendChars(dst, s, true)
}

// schemaMemo remembers the compacted form of the few schemas a run sends
// (one per record schema, plus the Critic's), so a call does not compact
// the same kilobyte again. Bounded: a caller sending ever new schemas only
// empties it now and then.
type schemaMemo struct {
	mu sync.Mutex
	m  map[string]memoSchema
	// bufs holds the buffers keys are written into (a prompt's size each),
	// so a call does not allocate one.
	bufs sync.Pool
	// prefixes spare hashing the prompt text every call of a purpose shares
	// (cachekey_prefix.go).
	prefixes prefixMemo
}

type memoSchema struct {
	compact []byte
	ok      bool
}

const schemaMemoMax = 64

func (s *schemaMemo) key(provider string, req llm.Request) []byte {
	s.mu.Lock()
	e, found := s.m[string(req.JSONSchema)]
	s.mu.Unlock()
	if !found {
		e.compact, e.ok = compactSchema(req.JSONSchema)
		s.mu.Lock()
		if s.m == nil || len(s.m) >= schemaMemoMax {
			s.m = map[string]memoSchema{}
		}
		s.m[string(req.JSONSchema)] = e
		s.mu.Unlock()
	}
	var buf []byte
	if p, _ := s.bufs.Get().(*[]byte); p != nil {
		buf = *p
	}
	key, used := s.prefixes.key(buf, provider, req, e.compact, e.ok)
	if key == nil {
		key, used = cacheKey(buf, provider, req, e.compact, e.ok)
		s.prefixes.learn(provider, req)
	}
	if cap(used) <= keyBufMax {
		s.bufs.Put(&used)
	}
	return key
}

// keyBufMax bounds the buffers kept for keys: a huge prompt's is let go.
const keyBufMax = 64 << 10
