package policy

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// BudgetUse says how much of the budgets of env's session the window's
// ledger has used, for a reviewer deciding a hold: "deletions 25/20 (over),
// objects_touched 25/200". Every decision, a hold too, is in the ledger
// (the reference counts attempts), so asked after env was decided it counts
// env's action. Untouched dimensions are left out; "" means none. It reads
// the ledger and spends nothing (not even the nonce).
func (e *Engine) BudgetUse(ctx context.Context, env Envelope) (string, error) {
	var f facts
	if verr := validate(env, &f); verr != nil {
		return "", verr
	}
	if verr := normalize(&f); verr != nil {
		return "", verr
	}
	now := e.now()
	var cum Cumulative
	cum.Reset()
	if err := e.state.Cumulative(ctx, f.sessionID, now.Add(-e.window), &cum); err != nil {
		return "", fmt.Errorf("budget use of %s: %w", f.sessionID, err)
	}
	return e.active.Load().budgets.use(&f, &cum), nil
}

func (b *Budgets) use(f *facts, c *Cumulative) string {
	var parts []string
	count := func(dim string, used int64) {
		lim, ok := b.countLimit(f.sessionID, dim)
		if !ok || used == 0 {
			return
		}
		parts = append(parts, usePart(dim, float64(used), lim, ""))
	}
	count("deletions", c.CountByVerb["delete"])
	count("external_sends", c.CountByExternality["outbound"])
	ccys := make([]string, 0, len(c.AmountByCurrency))
	for ccy := range c.AmountByCurrency {
		ccys = append(ccys, ccy)
	}
	slices.Sort(ccys)
	for _, ccy := range ccys {
		if lim, ok := b.moneyLimit(f.sessionID, ccy); ok && c.AmountByCurrency[ccy] > 0 {
			parts = append(parts, usePart("money", c.AmountByCurrency[ccy], lim, " "+ccy))
		}
	}
	count("objects_touched", c.TotalCount)
	return strings.Join(parts, ", ")
}

func usePart(dim string, used, lim float64, unit string) string {
	s := dim + " " + strconv.FormatFloat(used, 'f', -1, 64) + "/" + strconv.FormatFloat(lim, 'f', -1, 64) + unit
	if used > lim {
		s += " (over)"
	}
	return s
}
