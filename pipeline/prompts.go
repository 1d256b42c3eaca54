package pipeline

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/template"

	"github.com/reflect-mcp/reflect/internal/jsonstr"
)

//go:embed prompts/*.txt
var promptFS embed.FS

// Prompt versions in use. A change to a prompt's wording is a new file and a
// new version here, so cached calls and recorded fixtures never mix versions.
const (
	GeneratorPrompt = "generator.v1"
	CriticPrompt    = "critic.v1"
)

type promptData struct {
	Schema     *Schema
	JSONSchema string
	Text       string
	Candidate  string
}

// promptTemplates holds every embedded prompt, parsed once: parsing per call
// cost more than the rest of a cached pipeline run. Read-only after init.
var promptTemplates = parsePrompts()

func parsePrompts() map[string]*template.Template {
	out := map[string]*template.Template{}
	entries, err := promptFS.ReadDir("prompts")
	if err != nil {
		panic(err) // embedded at build time: cannot fail
	}
	for _, e := range entries {
		version := strings.TrimSuffix(e.Name(), ".txt")
		src, _ := promptFS.ReadFile("prompts/" + e.Name())
		out[version] = template.Must(template.New(version).Option("missingkey=error").Parse(string(src)))
	}
	return out
}

// renderPrompt executes the template: the reference every prompt is
// rendered by. Calls go through Schema.prompt, which gives the same bytes.
func renderPrompt(version string, d promptData) (string, error) {
	t, ok := promptTemplates[version]
	if !ok {
		return "", fmt.Errorf("prompt %s: no such prompt", version)
	}
	// The document closes with a marker; a document that contains the marker
	// itself must not be able to end the data section early.
	d.Text = defuseMarkers(d.Text)
	var b strings.Builder
	if err := t.Execute(&b, d); err != nil {
		return "", fmt.Errorf("prompt %s: %w", version, err)
	}
	return b.String(), nil
}

// markerRE matches anything a model could read as a document marker: any
// case, spaces anywhere inside, attributes ("</DOCUMENT>", "< / document >",
// "<Document id=2>", "</d o c u m e n t>").
var markerRE = regexp.MustCompile(`(?i)<\s*/?\s*d\s*o\s*c\s*u\s*m\s*e\s*n\s*t\b[^<>]*>`)

// defuseMarkers writes every marker look-alike in a document with entities,
// so the text cannot close the data section early or open a second one.
func defuseMarkers(text string) string {
	return markerRE.ReplaceAllStringFunc(text, func(m string) string {
		return "&lt;" + m[1:len(m)-1] + "&gt;"
	})
}

// candidateJSON shows the Critic the record as JSON without HTML escaping: a
// vendor "A&B Ltd" shown as "A\u0026B Ltd" is not the text in the document.
//
// It is built on every critique, between the generator's reply and the
// critic's request: a record of plain values (every record a generator
// returns, once normalized) is written directly (appendCandidate), the
// rest through encoding/json and json.Indent, whose bytes the direct form
// matches (FuzzCandidateJSON): the prompt, and so the call cache's key, is
// the same either way.
func candidateJSON(s *Schema, rec Record) (string, error) {
	if b, ok := appendCandidate(nil, s, rec); ok {
		return string(b), nil
	}
	return candidateJSONEncoded(s, rec)
}

// appendCandidate appends rec as candidateJSONEncoded writes it, an object
// indented by two spaces with its keys in orderedMap's order, when every
// value is null, a bool, a string or a finite float64; ok is false (and b
// unusable) when one is not.
func appendCandidate(b []byte, s *Schema, rec Record) (_ []byte, ok bool) {
	if len(rec) == 0 {
		return append(b, "{}"...), true
	}
	b = append(b, '{')
	n := 0
	field := func(k string, v any) bool {
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, "\n  "...)
		b = jsonstr.AppendQuote(b, k)
		b = append(b, ": "...)
		switch v := v.(type) {
		case nil:
			b = append(b, "null"...)
		case bool:
			b = strconv.AppendBool(b, v)
		case string:
			b = jsonstr.AppendQuote(b, v)
		case float64:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
			b = jsonstr.AppendFloat(b, v)
		default:
			return false
		}
		return true
	}
	names := s.FieldNames()
	for _, k := range names {
		if v, in := rec[k]; in && !field(k, v) {
			return b, false
		}
	}
	if n < len(rec) { // keys the schema does not name, sorted, as orderedMap puts them
		var rest []string
		for k := range rec {
			if !slices.Contains(names, k) {
				rest = append(rest, k)
			}
		}
		sort.Strings(rest)
		for _, k := range rest {
			if !field(k, rec[k]) {
				return b, false
			}
		}
	}
	return append(b, "\n}"...), true
}

// candidateJSONEncoded is candidateJSON through encoding/json, for any
// record.
func candidateJSONEncoded(s *Schema, rec Record) (string, error) {
	b, err := marshalNoEscape(orderedMap(map[string]any(rec), s.FieldNames()))
	if err != nil {
		return "", fmt.Errorf("candidate record: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return "", fmt.Errorf("candidate record: %w", err)
	}
	return out.String(), nil
}

// Slots filled per call when a prompt is assembled from its per-schema parts.
// The NULs keep them from occurring in a template or a schema by chance; a
// schema whose text contains them anyway is rendered by the template per call.
const (
	textSlot      = "\x00reflect:text\x00"
	candidateSlot = "\x00reflect:candidate\x00"
)

// promptParts is a prompt rendered once for a schema with the per-call slots
// left open: lits[i] comes before slots[i], and lits has one more element.
// Executing the template for every call cost more than the rest of a cached
// pipeline run (reflection over the schema's fields for every document).
type promptParts struct {
	lits  []string
	slots []string // textSlot or candidateSlot
	size  int      // bytes in lits
}

// promptCache holds a schema's derived texts, built on first use; like the
// label indexes it assumes the schema does not change once used.
type promptCache struct {
	schemaOnce sync.Once
	jsonSchema []byte
	parts      sync.Map // prompt version → *promptParts, or nil: use the template
}

// prompt renders the prompt version for one call: the same bytes as
// renderPrompt with the schema's JSON Schema, text and candidate.
func (s *Schema) prompt(version, text, candidate string) (string, error) {
	v, ok := s.prompts.parts.Load(version)
	if !ok {
		v, _ = s.prompts.parts.LoadOrStore(version, s.splitPrompt(version))
	}
	p := v.(*promptParts)
	if p == nil {
		return renderPrompt(version, promptData{Schema: s, JSONSchema: string(s.jsonSchema()), Text: text, Candidate: candidate})
	}
	text = defuseMarkers(text)
	var b strings.Builder
	b.Grow(p.size + len(text) + len(candidate))
	for i, slot := range p.slots {
		b.WriteString(p.lits[i])
		if slot == textSlot {
			b.WriteString(text)
		} else {
			b.WriteString(candidate)
		}
	}
	b.WriteString(p.lits[len(p.lits)-1])
	return b.String(), nil
}

// splitPrompt renders the template once with the slots as placeholders and
// cuts it at them. It returns nil (render per call) when the template fails
// or a placeholder does not appear exactly as often as the template uses it.
func (s *Schema) splitPrompt(version string) *promptParts {
	t, ok := promptTemplates[version]
	if !ok {
		return nil
	}
	var b strings.Builder
	if err := t.Execute(&b, promptData{Schema: s, JSONSchema: string(s.jsonSchema()), Text: textSlot, Candidate: candidateSlot}); err != nil {
		return nil
	}
	src, _ := promptFS.ReadFile("prompts/" + version + ".txt")
	out := b.String()
	if strings.Count(out, textSlot) != strings.Count(string(src), "{{.Text}}") ||
		strings.Count(out, candidateSlot) != strings.Count(string(src), "{{.Candidate}}") {
		return nil
	}
	p := &promptParts{}
	for {
		ti, ci := strings.Index(out, textSlot), strings.Index(out, candidateSlot)
		if ti < 0 && ci < 0 {
			break
		}
		slot, at := textSlot, ti
		if ti < 0 || (ci >= 0 && ci < ti) {
			slot, at = candidateSlot, ci
		}
		p.lits = append(p.lits, out[:at])
		p.slots = append(p.slots, slot)
		p.size += at
		out = out[at+len(slot):]
	}
	p.lits = append(p.lits, out)
	p.size += len(out)
	return p
}
