package local_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The README's keyless receipts figures are what the extractor does on
// receipts-dev (new user report #10: they had needs-review and ok swapped,
// 56% for 44%, and stale right-but-flagged counts). Run
// `reflect eval --provider local --dataset ../shared/data/receipts-dev.jsonl`
// and copy its figures when this fails after a rule change.
func TestReadmeKeylessReceiptsFigures(t *testing.T) {
	st := evaluate(t, loadRows(t, repoPath(t, "../shared/data/receipts-dev.jsonl")))
	raw, err := os.ReadFile(repoPath(t, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	start := strings.Index(readme, "**The keyless extractor.**")
	end := strings.Index(readme, "**Seven fields")
	if start < 0 || end < start {
		t.Fatal("README: the keyless extractor's section is gone; update this test with it")
	}
	sec := readme[start:end]
	m := regexp.MustCompile(`needs-review rate (\d+)%\s+\((\d+)/(\d+)\)`).FindStringSubmatch(sec)
	if m == nil {
		t.Fatal("README: no 'needs-review rate N% (a/b)' in the keyless extractor's section")
	}
	if got, want := m[2]+"/"+m[3], strconv.Itoa(st.needsReview)+"/"+strconv.Itoa(st.rows); got != want {
		t.Errorf("README says needs-review %s, receipts-dev gives %s", got, want)
	}
	if pct, _ := strconv.Atoi(m[1]); pct != 100*st.needsReview/st.rows {
		t.Errorf("README says needs-review %s%%, receipts-dev gives %d of %d", m[1], st.needsReview, st.rows)
	}
	for _, f := range []string{"total", "invoice_date", "vendor_name"} {
		row := regexp.MustCompile(`(?m)^\| ` + f + ` \|.*\| (\d+) \|$`).FindStringSubmatch(sec)
		if row == nil {
			t.Errorf("README: no %s row in the keyless extractor's table", f)
			continue
		}
		if n, _ := strconv.Atoi(row[1]); n != st.fields[f].rightFlagged {
			t.Errorf("README says %s right but flagged %d, receipts-dev gives %d", f, n, st.fields[f].rightFlagged)
		}
	}
}
