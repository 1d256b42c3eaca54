package golden

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

func itoa(n int) string { return strconv.Itoa(n) }

// ParseBarSpec reads a bar flag: a bare number sets the AllFields bar,
// field=number pairs set named fields ("0.9,total=0.98,tax=0.98"). Each bar
// must lie in [0,1].
func ParseBarSpec(spec string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, val := AllFields, part
		if k, v, ok := strings.Cut(part, "="); ok {
			key, val = strings.TrimSpace(k), strings.TrimSpace(v)
			if key == "" {
				return nil, fmt.Errorf("%q: a field name goes before '='", part)
			}
		}
		x, err := strconv.ParseFloat(val, 64)
		if err != nil || x < 0 || x > 1 {
			return nil, fmt.Errorf("%q: want a fraction between 0 and 1 (0.98, not 98)", part)
		}
		out[key] = x
	}
	return out, nil
}

// WriteText prints the confusion report: totals, a per-field table, up to
// list misses and false alarms per field (all of them when list < 0), then a
// PASS or FAIL line per bar.
func (r ConfusionReport) WriteText(w io.Writer, list int) error {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("%s", heavyRule)
	line("reflect eval --confusions  |  heuristics-only gate, no model")
	line("%s", heavyRule)
	line("schema            : %s", r.Schema)
	line("records           : %d  (%d error rows)", r.Records, len(r.ErrorRows))
	line("false alarms      : %s  (%d/%d labelled records flagged on a labelled field)", pct(r.FalseAlarmRate), r.RecordsFalseAlarm, r.Records)
	if r.CatchRate != nil {
		line("confusions caught : %s  (%d/%d)", pct(*r.CatchRate), r.Caught, r.Candidates)
	} else {
		line("confusions caught : n/a  (no candidates)")
	}
	line("%s", lightRule)
	line("  %-16s %-9s %-15s %-20s %s", "field", "labelled", "false alarms", "caught", "missed (in review anyway)")
	for _, pf := range r.PerField {
		caught := "n/a (0 candidates)"
		if pf.CatchRate != nil {
			caught = fmt.Sprintf("%s (%d/%d)", pct(*pf.CatchRate), pf.Caught, pf.Candidates)
		}
		line("  %-16s %-9d %-15s %-20s %d (%d)", pf.Field, pf.Labelled,
			fmt.Sprintf("%d (%s)", pf.FalseAlarms, pct(pf.FalseAlarmRate)), caught, len(pf.Missed), pf.ReviewedElsewhere)
	}
	line("%s", lightRule)
	line("missed: a wrong value that passed on its field (label, what the gate said, the line it came from)")
	shown := false
	for _, pf := range r.PerField {
		// A field with misses shows them, or says how many it left out:
		// either way "none" would be false.
		shown = shown || len(pf.Missed) > 0
		for i, m := range pf.Missed {
			if list >= 0 && i >= list {
				line("    … %d more for %s (--list -1 or --json for all)", len(pf.Missed)-i, pf.Field)
				break
			}
			line("  [%s] %s = %s for %s  (%s, %.3f)  line %d: %q", m.ID, pf.Field, reprValue(m.Value), reprValue(m.Label),
				m.Status, m.Confidence, m.Line, m.LineText)
		}
	}
	if !shown {
		line("  none")
	}
	line("false alarms: a labelled value the gate flagged")
	shown = false
	for _, pf := range r.PerField {
		shown = shown || len(pf.FalseAlarmList) > 0
		for i, fa := range pf.FalseAlarmList {
			if list >= 0 && i >= list {
				line("    … %d more for %s (--list -1 or --json for all)", len(pf.FalseAlarmList)-i, pf.Field)
				break
			}
			line("  [%s] %s = %s: %s", fa.ID, pf.Field, reprValue(fa.Value), oneLine(fa.Reason))
		}
	}
	if !shown {
		line("  none")
	}
	for _, e := range r.ErrorRows {
		line("  [%s] ERROR: %s", e.ID, oneLine(e.Message))
	}
	for _, warn := range r.Warnings {
		line("  warning: %s", warn)
	}
	line("%s", heavyRule)
	for _, v := range r.verdicts() {
		if v.pass {
			line("PASS: %s", v.passMsg)
		} else {
			line("FAIL: %s", v.fail)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
