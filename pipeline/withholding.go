package pipeline

import "math"

// netAfterWithholding reports whether a, a labelled total, is the net an
// invoice asks to be paid after the buyer withholds part of it: a
// withholding is printed before a, and before the withholding a larger
// total that is a plus the withholding. The total before it is the
// invoice's. A withholding printed before every total (a Turkish KDV
// tevkifatı above "Vergiler Dahil Toplam" and "Ödenecek Tutar", a CFDI's
// retentions above its "Total") leaves the payable the total.
func (d *doc) netAfterWithholding(r Role, a labelledAmount) (gross, w labelledAmount, ok bool) {
	if r != RoleTotal {
		return gross, w, false
	}
	for _, h := range d.amounts {
		if h.Start >= a.Start || h.Value == 0 || !withholdingKeys[h.key] {
			continue
		}
		for _, g := range d.amounts {
			if g.role == RoleTotal && g.Start < h.Start && near(g.Value, a.Value+math.Abs(h.Value), 0.011) {
				return g, h, true
			}
		}
	}
	return gross, w, false
}
