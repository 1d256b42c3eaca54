package pipeline

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"
)

// discountLabels name a reduction of the price in the languages invoices
// print it in; they take the amount after them away from every role, as
// "discount" does.
var discountLabels = []string{"rabatt", "rabat", "remise", "descuento", "desconto", "sconto", "korting", "alennus",
	"iskonto", "indirim", "sleva", "zniżka", "upust", "kedvezmény", "знижка", "скидка", "الخصم", "خصم", "تخفيض",
	"تخفیف", "ส่วนลด", "giảm giá", "diskon", "diskaun"}

// discountStems are the stems of discountLabels and of the English and
// East Asian discount and coupon words, as a label key holds them without
// its spaces ("优 惠 券", "giảm giá").
var discountStems = []string{"disc", "coupon", "promo", "rabat", "remise", "descuento", "desconto", "sconto",
	"korting", "alennus", "iskonto", "indirim", "sleva", "zniżk", "upust", "kedvezmény", "знижк", "скидк", "خصم",
	"تخفيض", "تخفیف", "ส่วนลด", "giảmgiá", "diskon", "diskaun", "쿠폰", "할인", "割引", "値引", "クーポン", "优惠", "折扣",
	// ส่วนลด as a label key holds it: the key drops the tone mark.
	"สวนลด"}

// discountWords in the folded text mean a discount is printed somewhere:
// the stems of a discount a text prints in words, not a coupon or a promo
// it may only advertise.
var discountWords = func() [][]rune {
	out := [][]rune{[]rune("saving")}
	for _, w := range discountStems {
		if w != "coupon" && w != "promo" && w != "giảmgiá" && w != "สวนลด" {
			out = append(out, []rune(w))
		}
	}
	return append(out, []rune("giảm giá"))
}()

// earlyPaymentWords mark a discount the payer earns only by paying early
// ("2% Skonto bei Zahlung innerhalb 10 Tagen", "less 2% if paid within 10
// days"): the invoice's total stands above it.
var earlyPaymentWords = []string{"skonto", "early", "prompt", "if paid", "within", "innerhalb", "settlement",
	"escompte", "pronto pago", "sconto cassa", "kontant"}

// isDiscountKey reports a discount or coupon label: a reduction of the price
// ("쿠폰 할인 -5,000원", "Promo -£5.00"), so the figure after it is still what
// the document asks to be paid, unlike the balance after a payment.
//
// It reads k once, trying at each byte only the stems that start with it,
// and steps over the spaces inside a match as if they were not there (a
// CJK key spaces its characters: "优 惠 券"): no copy of k without spaces.
func isDiscountKey(k string) bool {
	for i := 0; i < len(k); i++ {
		for set := discountFirst[k[i]]; set != 0; set &= set - 1 {
			if prefixSkippingSpaces(k[i:], discountStems[bits.TrailingZeros64(set)]) {
				return true
			}
		}
	}
	return false
}

// discountFirst maps a byte to the discountStems starting with it, one bit
// per stem.
var discountFirst = func() (t [256]uint64) {
	if len(discountStems) > 64 {
		panic("discountStems outgrew a uint64")
	}
	for i, w := range discountStems {
		t[w[0]] |= 1 << i
	}
	return t
}()

// prefixSkippingSpaces reports whether s, its spaces taken out, starts with
// w. w holds no space, so a match never starts on one.
func prefixSkippingSpaces(s, w string) bool {
	j := 0
	for i := 0; i < len(s) && j < len(w); i++ {
		if s[i] == ' ' {
			continue
		}
		if s[i] != w[j] {
			return false
		}
		j++
	}
	return j == len(w)
}

// maxDiscountLines bounds how far below an amount its discount and the
// amount after the discount are looked for.
const maxDiscountLines = 4

// beforeDiscount finds x printed above a discount and, below that, the
// amount x less the discount ("Сума 1 200,00 / Знижка 100,00 / До сплати
// 1 100,00"; "Gross Amount / Discount / Net Amount"): x is what the goods
// cost before the discount, not what the document asks to be paid. A
// discount for paying early leaves the total standing.
func (d *doc) beforeDiscount(x float64, matches []labelledAmount) (at, disc, after labelledAmount, ok bool) {
	for _, m := range matches {
		if m.Value <= 0 || d.st.stop() {
			continue
		}
		// Only the amounts a few lines below m: a megabyte of repeated
		// lines prints x thousands of times.
		first := sort.Search(len(d.amounts), func(i int) bool { return d.amounts[i].Start > m.Start })
		for i := first; i < len(d.amounts) && d.amounts[i].Line-m.Line <= maxDiscountLines; i++ {
			b := &d.amounts[i]
			if !isDiscountKey(b.key) || b.Value == 0 || d.earlyPayment(b.Line) {
				continue
			}
			net := x - math.Abs(b.Value)
			for k := i + 1; k < len(d.amounts) && d.amounts[k].Line-b.Line <= maxDiscountLines; k++ {
				t := d.amounts[k]
				if t.role != roleOther && t.role != RoleTax && near(t.Value, net, amountEpsilon) && !printedBelow(matches, b.Start) {
					return m, *b, t, true
				}
			}
		}
	}
	return labelledAmount{}, labelledAmount{}, labelledAmount{}, false
}

// printedBelow reports a printing of the value below position p: the
// amount after a discount, when the discount came off it before.
func printedBelow(matches []labelledAmount, p int) bool {
	for _, m := range matches {
		if m.Start > p {
			return true
		}
	}
	return false
}

// earlyPayment reports a line that offers a discount for paying early.
func (d *doc) earlyPayment(line int) bool {
	ls, le := d.lineBounds(line)
	text := strings.ToLower(string(d.rs[ls:le]))
	for _, w := range earlyPaymentWords {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// penalizeBeforeDiscount flags a total printed only above a discount that
// the document then takes off it.
func (d *doc) penalizeBeforeDiscount(c *FieldCheck, x float64, matches []labelledAmount) bool {
	at, disc, after, ok := d.beforeDiscount(x, matches)
	if !ok {
		return false
	}
	c.setPrimary(at.Start)
	c.penalize(factorWrongRole, fmt.Sprintf("%.2f is the amount before the discount (%q %.2f, line %d); the amount after it is %.2f (line %d)",
		x, strings.Join(strings.Fields(disc.label), " "), math.Abs(disc.Value), disc.Line+1, after.Value, after.Line+1))
	return true
}

// maxItemGap bounds the lines between two item lines of one list, and
// between the list and the sum printed below it.
const maxItemGap = 3

// oneItemOf finds x printed only as the amount of one item line among
// others whose amounts add up to a figure printed below them (three
// donations and "Total received", a shop's lines and a sum under an
// unknown label): x is a part, not the whole, even when it adds up as the
// subtotal and the total of one record.
func (d *doc) oneItemOf(x float64, matches []labelledAmount) (items int, sum labelledAmount, ok bool) {
	if len(matches) == 0 || len(matches) > maxRelated {
		return 0, sum, false
	}
	for _, m := range matches {
		if m.role != "" || m.summary {
			return 0, sum, false
		}
	}
	m := matches[0]
	i := sort.Search(len(d.amounts), func(k int) bool { return d.amounts[k].Start >= m.Start })
	if i == len(d.amounts) || !d.itemAmount(i) {
		return 0, sum, false
	}
	lo, hi := i, i
	total := d.amounts[i].Value
	items = 1
	for k := i - 1; k >= 0 && d.amounts[lo].Line-d.amounts[k].Line <= maxItemGap; k-- {
		if d.amounts[k].Line == d.amounts[lo].Line {
			continue // a quantity or unit price before the line's amount
		}
		if !d.itemAmount(k) {
			break
		}
		lo, total, items = k, total+d.amounts[k].Value, items+1
	}
	for k := i + 1; k < len(d.amounts) && d.amounts[k].Line-d.amounts[hi].Line <= maxItemGap; k++ {
		a := d.amounts[k]
		if items > 1 && near(a.Value, total, amountEpsilon) && a.Line > d.amounts[hi].Line {
			return items, a, true
		}
		if a.Line == d.amounts[hi].Line || !d.itemAmount(k) {
			if a.role != "" {
				break
			}
			continue
		}
		hi, total, items = k, total+a.Value, items+1
	}
	return 0, sum, false
}

// itemAmount reports an unlabelled amount with cents that ends its line's
// amounts: an item line's amount.
func (d *doc) itemAmount(k int) bool {
	a := d.amounts[k]
	if a.role != "" || a.summary || a.Value <= 0 || !centsForm(a.Raw) {
		return false
	}
	return k+1 == len(d.amounts) || d.amounts[k+1].Line != a.Line
}

// penalizeOneItem flags a total or subtotal that is one item line's amount
// of several that add up to a printed sum.
func (d *doc) penalizeOneItem(c *FieldCheck, f Field, x float64, matches []labelledAmount) bool {
	n, sum, ok := d.oneItemOf(x, matches)
	if !ok {
		return false
	}
	c.penalize(factorWrongRole, fmt.Sprintf("%.2f is one of %d item lines whose amounts add up to %.2f (line %d), not the %s",
		x, n, sum.Value, sum.Line+1, f.Role))
	return true
}
