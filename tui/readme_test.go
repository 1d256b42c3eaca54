package tui

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// TestReadmeListsEveryKey: every key the workstation's help names is in the
// README, in backquotes, so a reviewer reading it finds every key the help
// bar offers (X and S included).
func TestReadmeListsEveryKey(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// Fenced blocks first, so their backquotes do not pair with the text's.
	text := regexp.MustCompile("(?s)```.*?```").ReplaceAllString(string(b), "")
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(text, -1) {
		documented[m[1]] = true
	}
	km := DefaultKeyMap()
	var bindings []key.Binding
	v := reflect.ValueOf(km)
	for i := range v.NumField() {
		switch f := v.Field(i).Interface().(type) {
		case key.Binding:
			bindings = append(bindings, f)
		case [len(tabNames)]key.Binding:
			bindings = append(bindings, f[:]...)
		}
	}
	for _, kb := range bindings {
		h := kb.Help()
		for _, k := range strings.Split(h.Key, "/") {
			if k == "" { // the filter key is "/" itself
				k = "/"
			}
			if strings.Trim(k, "↑↓") == "" && len([]rune(k)) > 1 {
				k = string([]rune(k)[:1]) // "↑↓" summarises the README's `↓`/`↑`
			}
			if !documented[k] && !documentedRange(documented, k) {
				t.Errorf("the help's %q (%s) is not in README.md", k, h.Desc)
			}
		}
	}
}

// documentedRange accepts a tab digit or "1-6" the README writes as `1`–`6`
// (the last tab's digit).
func documentedRange(doc map[string]bool, k string) bool {
	last := string(rune('0' + len(tabNames)))
	return (len(k) == 1 && k >= "1" && k <= last || k == "1-"+last) && doc["1"] && doc[last]
}
