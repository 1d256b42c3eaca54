package policy

import (
	"context"
	"testing"
)

// The reviewer of a hold sees the session's budget use with the held call
// counted (the ledger counts every decision, holds too): 25 deletions
// against a limit of 20 is over. Asking spends nothing, not even a nonce.
func TestBudgetUseCountsTheCall(t *testing.T) {
	h := newHarness(t, nil)
	h.decide(`{"agent":{"session_id":"s"},"action":{"verb":"delete"},"target":{"environment":"dev"},"magnitude":{"count":5}}`)
	h.decide(`{"agent":{"session_id":"s"},"action":{"verb":"delete"},"target":{"environment":"production"},"magnitude":{"count":20}}`)
	js := `{"agent":{"session_id":"s"},"action":{"verb":"read"},"target":{"environment":"dev"},"meta":{"nonce":"n-use"}}`
	got, err := h.e.BudgetUse(context.Background(), decode(t, js))
	if err != nil {
		t.Fatal(err)
	}
	if want := "deletions 25/20 (over), objects_touched 25/200"; got != want {
		t.Errorf("BudgetUse = %q, want %q", got, want)
	}
	if _, err := h.decideErr(js); err != nil {
		t.Errorf("the nonce was spent by BudgetUse: %v", err)
	}
	pay := `{"agent":{"session_id":"p"},"action":{"verb":"pay"},"target":{"environment":"dev"},"params":{"amount":683.2,"currency":"EUR"}}`
	h.decide(pay)
	if got, _ := h.e.BudgetUse(context.Background(), decode(t, pay)); got != "money 683.2/5000 EUR, objects_touched 1/200" {
		t.Errorf("pay: %q", got)
	}
}
