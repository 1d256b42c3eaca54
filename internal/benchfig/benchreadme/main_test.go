package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/internal/benchfig"
)

// The README table is the rows the run logged, in order, with the verdicts
// counted; the rest of the README is left byte for byte.
func TestReadmeTableIsTheLoggedRun(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "bench.tsv")
	t.Setenv(benchfig.LogEnv, log)
	benchfig.Print("verify docs/s, one core", "21000", "≥ 20,000", true)
	benchfig.Print("cached rerun | c=32", "33×", "≥ 50×", false)
	benchfig.Note("disk fdatasync p50", "1.1 ms")

	readme := filepath.Join(dir, "README.md")
	before := "# x\n\n## Performance\n\n" + startMarker + "\nold table\n" + endMarker + "\n\n## Next\ntext\n"
	if err := os.WriteFile(readme, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(log, readme, "test machine"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(readme)
	s := string(got)
	for _, want := range []string{
		"on test machine (3 figures, 1 missed)",
		"| verify docs/s, one core | 21000 | ≥ 20,000 | ok |",
		"| cached rerun \\| c=32 | 33× | ≥ 50× | MISSED |",
		"| disk fdatasync p50 | 1.1 ms | - | - |",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("README lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "old table") {
		t.Error("the old table is still there")
	}
	if !strings.HasPrefix(s, "# x\n\n## Performance\n\n"+startMarker) || !strings.HasSuffix(s, endMarker+"\n\n## Next\ntext\n") {
		t.Errorf("text outside the markers changed:\n%s", s)
	}
}

func TestReadmeWithoutMarkersIsRefused(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "bench.tsv")
	os.WriteFile(log, []byte("a\tb\tc\tok\n"), 0o644)
	readme := filepath.Join(dir, "README.md")
	os.WriteFile(readme, []byte("# no markers\n"), 0o644)
	if err := run(log, readme, ""); err == nil {
		t.Fatal("a README without the markers was rewritten")
	}
	if got, _ := os.ReadFile(readme); string(got) != "# no markers\n" {
		t.Errorf("README changed: %q", got)
	}
}

func TestEmptyLogIsRefused(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "bench.tsv")
	os.WriteFile(log, nil, 0o644)
	if err := run(log, filepath.Join(dir, "README.md"), ""); err == nil || !strings.Contains(err.Error(), "make bench") {
		t.Fatalf("err = %v, want one that says to run make bench", err)
	}
}
