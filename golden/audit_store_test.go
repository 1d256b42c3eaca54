package golden

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reflect-mcp/reflect/pipeline"
	"github.com/reflect-mcp/reflect/store"
	"github.com/reflect-mcp/reflect/store/storetest"
)

// An export marks the rows of the audit sample and carries each row's
// reviewed vendor as its group, and calibrate reads both back: audited rows
// counted, rows grouped by vendor.
func TestExportMarksAuditedRowsAndGroupsByVendor(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "reflect.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.Populate(ctx, st, "c", 12); err != nil {
		t.Fatal(err)
	}
	sp := AuditSpecFor(pipeline.Invoice(), nil, "ann")
	sp.ValuesPerDoc = 1000 // a sample of one document
	draw, drawn, err := DrawAudit(ctx, st, "c", sp, false)
	if err != nil || !drawn || len(draw.IDs) != 1 {
		t.Fatalf("draw %+v drawn %v: %v", draw, drawn, err)
	}
	if again, _, _ := DrawAudit(ctx, st, "c", sp, false); !slices.Equal(again.IDs, draw.IDs) {
		t.Fatalf("second open drew %v, first %v", again.IDs, draw.IDs)
	}
	audited, other := draw.IDs[0], "doc-000004" // needs review: never in the sample
	for _, doc := range []string{audited, other} {
		if _, err := st.Decide(ctx, store.Decision{CorpusID: "c", DocID: doc, Field: "vendor_name", Action: store.ActionCorrect, Value: "  Kedai   RUNCIT Ali ", Reviewer: "ann"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Decide(ctx, store.Decision{CorpusID: "c", DocID: other, Field: "total", Action: store.ActionAccept, Reviewer: "ann"}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if n, err := Export(ctx, st, &buf, ExportOptions{CorpusID: "c"}); err != nil || n != 2 {
		t.Fatalf("export: %d rows, %v", n, err)
	}
	path := filepath.Join(t.TempDir(), "export.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var r ExportRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Review.Audit != (r.ID == audited) {
			t.Errorf("row %s: audit %v, want %v", r.ID, r.Review.Audit, r.ID == audited)
		}
		if r.Review.Group != "kedai runcit ali" {
			t.Errorf("row %s: group %q, want the reviewed vendor normalised", r.ID, r.Review.Group)
		}
	}
	keys, err := LoadRowKeys(path, DefaultGroupKey)
	if err != nil {
		t.Fatal(err)
	}
	if keys.Groups[audited] != "vendor:kedai runcit ali" || keys.Groups[other] != keys.Groups[audited] || !keys.Audited[audited] || keys.Audited[other] {
		t.Errorf("calibrate reads groups %v, audited %v", keys.Groups, keys.Audited)
	}
	a, err := ReadAudit(ctx, st, "c")
	if err != nil || a.Audited != 1 || a.Report.All.SilentWrong != 1 {
		t.Errorf("ReadAudit = %+v, %v; want the one audited document's wrong vendor", a, err)
	}
}
