package golden

import (
	"fmt"
	"slices"
	"testing"
)

func TestAuditSampleSize(t *testing.T) {
	// 598 clean values bound 0.5% at 95%; at 7 values a document, 86.
	if got := AuditSampleSize(0.005, 0.95, 7); got != 86 {
		t.Errorf("AuditSampleSize(0.5%%, 95%%, 7) = %d, want 86", got)
	}
	if got := AuditSampleSize(0.01, 0.99, 1); got != 459 {
		// 1 - 0.01^(1/n) <= 0.01 first at n = 459.
		t.Errorf("AuditSampleSize(1%%, 99%%, 1) = %d, want 459", got)
	}
}

// The sample is reproducible from the seed, ignores input order, and a
// document added later does not reshuffle the ones already ranked.
func TestAuditSampleReproducible(t *testing.T) {
	var ids []string
	for i := range 500 {
		ids = append(ids, fmt.Sprintf("doc-%03d", i))
	}
	a := AuditSample(ids, 40, 9)
	rev := slices.Clone(ids)
	slices.Reverse(rev)
	if b := AuditSample(rev, 40, 9); !slices.Equal(a, b) {
		t.Error("sample depends on input order")
	}
	if c := AuditSample(ids, 40, 10); slices.Equal(a, c) {
		t.Error("another seed drew the same sample")
	}
	more := AuditSample(append(slices.Clone(ids), "doc-new"), 41, 9)
	for _, id := range a {
		if !slices.Contains(more, id) {
			t.Errorf("%s left the sample when one document was added", id)
		}
	}
	if len(AuditSample(ids[:5], 40, 9)) != 5 {
		t.Error("asking for more than there are should return all")
	}
}

func TestEstimateAudit(t *testing.T) {
	var docs []AuditDoc
	for i := range 100 {
		d := AuditDoc{ID: fmt.Sprint(i), Confirmed: []string{"total", "vendor_name"}, Original: map[string]any{"total": 1.0, "vendor_name": "x"}}
		if i < 10 {
			// Ten wrong vendor names passed the gate.
			d.Confirmed, d.Corrected = []string{"total"}, []string{"vendor_name"}
		}
		if i == 50 {
			d.Corrected = append(d.Corrected, "tax") // a missed null
		}
		docs = append(docs, d)
	}
	rep := EstimateAudit(docs, 0.005, 0.95)
	byField := map[string]AuditLine{}
	for _, l := range rep.Fields {
		byField[l.Field] = l
	}
	v, tot, tax := byField["vendor_name"], byField["total"], byField["tax"]
	if v.N != 100 || v.SilentWrong != 10 || v.Status != "breached" {
		t.Errorf("vendor_name %+v, want 10 of 100 breached", v)
	}
	near(t, "vendor lower", v.Lower, LowerBound(10, 100, 0.95), 0)
	if tot.N != 100 || tot.SilentWrong != 0 || tot.Status != "unproven" {
		t.Errorf("total %+v, want 0 of 100 unproven (bound 2.95%% > 0.5%%)", tot)
	}
	if tax.Missed != 1 || tax.SilentWrong != 0 {
		t.Errorf("tax %+v, want one missed null, no silent-wrong", tax)
	}
	if !rep.Breached || rep.All.N != 201 || rep.All.SilentWrong != 10 {
		t.Errorf("all %+v breached %v", rep.All, rep.Breached)
	}
	// Known value: one-sided 95% lower bound for 10 of 100 (R: binom.test(10,
	// 100, alternative="greater")) is 0.05526.
	near(t, "LowerBound(10,100)", LowerBound(10, 100, 0.95), 0.05526, 1e-4)
	clean := EstimateAudit([]AuditDoc{{Confirmed: make([]string, 0)}}, 0.005, 0.95)
	if clean.Breached {
		t.Error("an empty audit breached")
	}
}
