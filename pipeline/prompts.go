package pipeline

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"text/template"
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
func candidateJSON(s *Schema, rec Record) (string, error) {
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
