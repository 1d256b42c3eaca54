package pipeline

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
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
	d.Text = strings.ReplaceAll(d.Text, "</document>", "</ document>")
	var b strings.Builder
	if err := t.Execute(&b, d); err != nil {
		return "", fmt.Errorf("prompt %s: %w", version, err)
	}
	return b.String(), nil
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
