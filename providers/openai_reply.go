package providers

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/reflect-mcp/reflect/internal/jsonstr"
)

// chatCompletion is the part of a Chat Completions reply Complete reads.
// Token counts are floats so that a compatible server writing 120.0 is read.
type chatCompletion struct {
	Model   string       `json:"model"`
	Choices []chatChoice `json:"choices"`
	Usage   chatUsage    `json:"usage"`
}

type chatUsage struct {
	PromptTokens     float64 `json:"prompt_tokens"`
	CompletionTokens float64 `json:"completion_tokens"`
}

type chatChoice struct {
	Message      chatMessage `json:"message"`
	FinishReason string      `json:"finish_reason"`
}

type chatMessage struct {
	Content string `json:"content"`
	Refusal string `json:"refusal"`
}

// decodeCompletion decodes a reply as json.NewDecoder(…).Decode into a
// chatCompletion would, with the same result and the same error on every
// input (FuzzDecodeCompletion): a plain reply is read directly, anything
// unusual (a key differing only in case, a repeated key, a value of
// another type, a string encoding/json would repair, text after the
// object) by encoding/json. Decoding by reflection was a sixth of the CPU
// a call spends in this package, and it runs when a round of replies
// queues on the cores.
func decodeCompletion(raw []byte) (chatCompletion, error) {
	r := replyReader{b: raw}
	if comp, ok := r.completion(); ok {
		return comp, nil
	}
	var comp chatCompletion
	err := json.NewDecoder(bytes.NewReader(raw)).Decode(&comp)
	return comp, err
}

// replyReader reads a reply's JSON; each method reports false for
// anything it does not read exactly as encoding/json would.
type replyReader struct {
	b []byte
	i int
}

// maxReplyDepth bounds the nesting the reader skips through; a deeper
// reply is left to encoding/json (whose own limit is 10,000).
const maxReplyDepth = 64

func (r *replyReader) completion() (c chatCompletion, ok bool) {
	var model, choices, usage bool
	ok = r.object(func(key []byte) bool {
		switch string(key) {
		case "model":
			return once(&model) && r.str(&c.Model)
		case "choices":
			return once(&choices) && r.choices(&c.Choices)
		case "usage":
			return once(&usage) && r.nullOr(func() bool { return r.usage(&c.Usage) })
		}
		return r.other(key, "model", "choices", "usage")
	})
	r.space()
	return c, ok && r.i == len(r.b)
}

func (r *replyReader) usage(u *chatUsage) bool {
	var prompt, completion bool
	return r.object(func(key []byte) bool {
		switch string(key) {
		case "prompt_tokens":
			return once(&prompt) && r.float(&u.PromptTokens)
		case "completion_tokens":
			return once(&completion) && r.float(&u.CompletionTokens)
		}
		return r.other(key, "prompt_tokens", "completion_tokens")
	})
}

// choices reads the array; null leaves no choices, as encoding/json does.
func (r *replyReader) choices(dst *[]chatChoice) bool {
	if r.null() {
		*dst = nil
		return true
	}
	if !r.byte('[') {
		return false
	}
	out := make([]chatChoice, 0, 1)
	if r.space(); r.peek() == ']' {
		r.i++
		*dst = out
		return true
	}
	for {
		var ch chatChoice
		if !r.nullOr(func() bool { return r.choice(&ch) }) {
			return false
		}
		out = append(out, ch)
		r.space()
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			*dst = out
			return true
		default:
			return false
		}
	}
}

func (r *replyReader) choice(ch *chatChoice) bool {
	var message, finish bool
	return r.object(func(key []byte) bool {
		switch string(key) {
		case "message":
			return once(&message) && r.nullOr(func() bool { return r.message(&ch.Message) })
		case "finish_reason":
			return once(&finish) && r.str(&ch.FinishReason)
		}
		return r.other(key, "message", "finish_reason")
	})
}

func (r *replyReader) message(m *chatMessage) bool {
	var content, refusal bool
	return r.object(func(key []byte) bool {
		switch string(key) {
		case "content":
			return once(&content) && r.str(&m.Content)
		case "refusal":
			return once(&refusal) && r.str(&m.Refusal)
		}
		return r.other(key, "content", "refusal")
	})
}

// once reports whether a key is met for the first time: encoding/json
// merges a repeated key into what the first one set, which is left to it.
func once(seen *bool) bool {
	if *seen {
		return false
	}
	*seen = true
	return true
}

// other skips the value of a key the reader does not keep, unless
// encoding/json would match it to one it does (it matches keys ignoring
// case, with Unicode's folds for non-ASCII letters).
func (r *replyReader) other(key []byte, known ...string) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	for _, k := range known {
		if asciiEqualFold(key, k) {
			return false
		}
	}
	return r.skip(0)
}

func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i, c := range b {
		if lower(c) != lower(s[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// object reads an object, calling field for each key with r.i at its value.
func (r *replyReader) object(field func(key []byte) bool) bool {
	if r.space(); !r.byte('{') {
		return false
	}
	if r.space(); r.peek() == '}' {
		r.i++
		return true
	}
	for {
		r.space()
		key, ok := r.key()
		if !ok {
			return false
		}
		if r.space(); !r.byte(':') {
			return false
		}
		if r.space(); !field(key) {
			return false
		}
		r.space()
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return true
		default:
			return false
		}
	}
}

// key reads an object's key: the reply's own bytes, or decoded when it
// holds escapes.
func (r *replyReader) key() ([]byte, bool) {
	if r.peek() != '"' {
		return nil, false
	}
	for i := r.i + 1; i < len(r.b); i++ {
		switch c := r.b[i]; {
		case c == '"':
			key := r.b[r.i+1 : i]
			r.i = i + 1
			return key, true
		case c == '\\':
			s, end, ok := jsonstr.Read(r.b, r.i)
			r.i = end
			return []byte(s), ok
		case c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// str reads a string, or null, which leaves dst as it is. A string that is
// not valid UTF-8 is left to encoding/json, which repairs it.
func (r *replyReader) str(dst *string) bool {
	if r.null() {
		return true
	}
	s, end, ok := jsonstr.Read(r.b, r.i)
	if !ok {
		return false
	}
	*dst, r.i = s, end
	return true
}

// float reads a number, or null, which leaves dst as it is.
func (r *replyReader) float(dst *float64) bool {
	if r.null() {
		return true
	}
	start := r.i
	if !r.number() {
		return false
	}
	f, err := strconv.ParseFloat(string(r.b[start:r.i]), 64)
	if err != nil {
		return false // out of range: encoding/json's error
	}
	*dst = f
	return true
}

func (r *replyReader) nullOr(read func() bool) bool { return r.null() || read() }

func (r *replyReader) null() bool { return r.literal("null") }

func (r *replyReader) peek() byte {
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

func (r *replyReader) byte(c byte) bool {
	if r.peek() != c {
		return false
	}
	r.i++
	return true
}

func (r *replyReader) space() { r.i = jsonstr.SkipSpace(r.b, r.i) }

// skip moves past one JSON value, checking it as encoding/json's scanner
// does (a string's bytes are not checked for UTF-8: skipped, it is not
// decoded).
func (r *replyReader) skip(depth int) bool {
	if depth > maxReplyDepth {
		return false
	}
	switch r.peek() {
	case '{':
		return r.object(func([]byte) bool { return r.skip(depth + 1) })
	case '[':
		r.i++
		if r.space(); r.peek() == ']' {
			r.i++
			return true
		}
		for {
			if r.space(); !r.skip(depth + 1) {
				return false
			}
			r.space()
			switch r.peek() {
			case ',':
				r.i++
			case ']':
				r.i++
				return true
			default:
				return false
			}
		}
	case '"':
		return r.skipString()
	case 't':
		return r.literal("true")
	case 'f':
		return r.literal("false")
	case 'n':
		return r.literal("null")
	}
	return r.number()
}

func (r *replyReader) literal(s string) bool {
	if !bytes.HasPrefix(r.b[r.i:], []byte(s)) {
		return false
	}
	r.i += len(s)
	return true
}

func (r *replyReader) skipString() bool {
	b, i := r.b, r.i+1
	for i < len(b) {
		switch c := b[i]; {
		case c == '"':
			r.i = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if i+1 >= len(b) {
				return false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(b)-i < 6 {
					return false
				}
				for _, h := range b[i+2 : i+6] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				i += 6
			default:
				return false
			}
		default:
			i++
		}
	}
	return false
}

// number moves past a JSON number.
func (r *replyReader) number() bool {
	end, ok := jsonstr.NumberEnd(r.b, r.i)
	if ok {
		r.i = end
	}
	return ok
}
