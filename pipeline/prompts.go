package pipeline

import (
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

// PromptVersions names the prompts a result was produced with.
func PromptVersions() map[string]string {
	return map[string]string{"generator": GeneratorPrompt, "critic": CriticPrompt}
}

type promptData struct {
	Schema     *Schema
	JSONSchema string
	Text       string
	Candidate  string
}

func renderPrompt(version string, d promptData) (string, error) {
	src, err := promptFS.ReadFile("prompts/" + version + ".txt")
	if err != nil {
		return "", fmt.Errorf("prompt %s: %w", version, err)
	}
	t, err := template.New(version).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return "", fmt.Errorf("prompt %s: %w", version, err)
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

func candidateJSON(s *Schema, rec Record) string {
	b, _ := json.MarshalIndent(orderedMap(map[string]any(rec), s.FieldNames()), "", "  ")
	return string(b)
}
