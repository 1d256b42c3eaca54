package pipeline

import (
	"fmt"
	"strings"
)

// parseRelation reads "a + b - c = d". Every operand must be a money field.
func parseRelation(expr string, s *Schema) (Relation, error) {
	lhs, rhs, ok := strings.Cut(expr, "=")
	if !ok || strings.Contains(rhs, "=") {
		return Relation{}, fmt.Errorf("relation %q: want the form \"a + b = c\"", expr)
	}
	rel := Relation{Expr: strings.TrimSpace(expr), Result: strings.TrimSpace(rhs)}
	if err := checkMoney(rel.Result, s, expr); err != nil {
		return Relation{}, err
	}
	sign := 1
	// Operands and operators must alternate, so "a b = c" and "a + + b = c"
	// are errors rather than relations that silently mean something else.
	afterOp := false
	for _, tok := range strings.Fields(strings.NewReplacer("+", " + ", "-", " - ").Replace(lhs)) {
		switch tok {
		case "+", "-":
			if afterOp {
				return Relation{}, fmt.Errorf("relation %q: two operators in a row", expr)
			}
			sign, afterOp = 1, true
			if tok == "-" {
				sign = -1
			}
		default:
			if len(rel.Terms) > 0 && !afterOp {
				return Relation{}, fmt.Errorf("relation %q: missing '+' or '-' before %q", expr, tok)
			}
			if err := checkMoney(tok, s, expr); err != nil {
				return Relation{}, err
			}
			rel.Terms = append(rel.Terms, Term{Field: tok, Sign: sign})
			sign, afterOp = 1, false
		}
	}
	if len(rel.Terms) == 0 {
		return Relation{}, fmt.Errorf("relation %q: no operands left of '='", expr)
	}
	if afterOp {
		return Relation{}, fmt.Errorf("relation %q: ends with an operator", expr)
	}
	return rel, nil
}

func checkMoney(name string, s *Schema, expr string) error {
	f, ok := s.Field(name)
	if !ok {
		return fmt.Errorf("relation %q: unknown field %q", expr, name)
	}
	if f.Kind != KindMoney {
		return fmt.Errorf("relation %q: field %q is %s, relations take money fields", expr, name, f.Kind)
	}
	return nil
}
