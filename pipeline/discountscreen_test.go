package pipeline

import (
	"strings"
	"testing"
)

// isDiscountKeyByCopy is isDiscountKey as it was written first: the key
// without its spaces, searched once per stem.
func isDiscountKeyByCopy(k string) bool {
	k = strings.ReplaceAll(k, " ", "")
	for _, w := range discountStems {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// The one-pass discount screen answers as the copy-and-search it replaced,
// on keys in many scripts, spaced out or not, and on every stem cut short.
func TestIsDiscountKeyMatchesCopyAndSearch(t *testing.T) {
	keys := []string{"", " ", "total", "discount", "disc ount", "d i s c", "dis", "promo code", "coupon",
		"优 惠 券", "优惠券", "优 惠", "割 引", "쿠 폰 할 인", "giảm giá", "giảm  giá", "giảm", "скидка", "с к и д к а",
		"знижка", "خصم", "الخصم", "ส่วนลด", "zniżka", "zniż ka", "kedvezmény", "sub total", "amount due",
		"rabatt", "r a b a t", "remise", "  disc  ", "iskonto", "indirim", "sleva", "upust", "値 引", "折扣", "ＤＩＳＣ"}
	for _, w := range discountStems {
		keys = append(keys, w, "x "+w+" y", w[:len(w)-1], strings.Join(strings.Split(w, ""), " "))
	}
	for _, k := range keys {
		if got, want := isDiscountKey(k), isDiscountKeyByCopy(k); got != want {
			t.Errorf("isDiscountKey(%q) = %v, copy-and-search says %v", k, got, want)
		}
	}
}
