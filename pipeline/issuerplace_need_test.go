package pipeline

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// An issuer number's need never hides a match: every printed form the
// regexp reads is in a text that meets its need.
func TestIssuerNumberNeedHoldsForEveryMatch(t *testing.T) {
	examples := map[string]string{
		"a Malaysian GST registration number":    "GST REG NO: 0001 2345 6789\n",
		"a German VAT ID":                        "USt-IdNr.: DE123456789\n",
		"a Japanese invoice registration number": "登録番号 T1234567890123\n",
		"a Swedish VAT number":                   "Momsreg.nr SE556677889901\n",
		"a UK VAT number":                        "VAT Reg GB 123 4567 89\n",
		"a Danish VAT number":                    "CVR DK 12345678\n",
		"a Norwegian VAT number":                 "Org.nr NO 123456789 MVA\n",
		"a Polish VAT number":                    "NIP PL1234567890\n",
		"a US address":                           "New York, NY 10013-1234\n",
		"a South African company":                "Reg 2019/123456/07\n",
		"the Malaysian telephone code":           "Tel: +60 3-7955 1234\n",
		"the Singapore telephone code":           "Tel +65 6123 4567\n",
		"the German telephone code":              "Tel. +49 30 1234567\n",
		"the Austrian telephone code":            "Tel +43 1 234 5678\n",
		"the French telephone code":              "Tél. +33 1 23 45 67 89\n",
		"the UK telephone code":                  "Tel +44 20 7946 0000\n",
		"the Australian telephone code":          "Ph +61 2 9876 5432\n",
		"the Japanese telephone code":            "TEL +81 3-1234-5678\n",
		"a company register number":              "ACME SDN BHD (872981-V)\n",
		"a New Zealand GST number":               "GST No: 123-456-789\n",
		"a New Zealand IRD number":               "IRD 98-765-432\n",
		"a New Zealand business number":          "NZBN 9429041234567\n",
		"the New Zealand telephone code":         "Ph +64 9 555 0142\n",
		"a New Zealand web address":              "www.kowhai.co.nz\n",
		"an Australian Business Number":          "ABN 51 824 753 556\n",
		"an Australian web address":              "accounts@bondiphysio.com.au\n",
		"the Hong Kong telephone code":           "Tel: +852 2123 4567\n",
		"the Mexican telephone code":             "Tel. +52 55 1234 5678\n",
		"the Argentine telephone code":           "Tel +54 11 4123-4567\n",
		"the Chilean telephone code":             "Fono +56 2 2345 6789\n",
		"the Colombian telephone code":           "Tel +57 601 234 5678\n",
		"the Swedish telephone code":             "Tel +46 8 123 456 78\n",
		"the Norwegian telephone code":           "Tlf +47 22 12 34 56\n",
		"the Danish telephone code":              "Tlf. +45 33 12 34 56\n",
		"a Canadian web address":                 "www.mapleleafmovers.ca\n",
		"a Singapore web address":                "sales@lionprint.com.sg\n",
		"a Hong Kong web address":                "www.harbourtea.com.hk\n",
		"a Mexican web address":                  "facturas@martillo.com.mx\n",
		"an Argentine web address":               "www.pampa.com.ar\n",
		"a Chilean web address":                  "contacto@andes.cl\n",
		"a Colombian web address":                "www.exito.com.co\n",
		"a Swedish web address":                  "faktura@holm.se\n",
		"a Norwegian web address":                "post@fjordvik.no\n",
		"a Danish web address":                   "www.jensen-toemrer.dk\n",
	}
	// (?i) reads a long s as an s, which lowercasing keeps.
	more := map[string]string{
		"a Malaysian GST registration number": "gſt no. 0001 2345 6789\n",
		"a German VAT ID":                     "uſt-id DE123456789\n",
		"a New Zealand GST number":            "gſt no 123-456-789\n",
		"an Australian web address":           "www.example.aſn.au\n",
	}
	for _, n := range issuerNumbers {
		text, ok := examples[n.what]
		if !ok {
			t.Errorf("no example of %s", n.what)
			continue
		}
		texts := []string{text}
		if m, ok := more[n.what]; ok {
			texts = append(texts, m)
		}
		for _, text := range texts {
			needMetWhereMatched(t, n, text)
		}
	}
}

func needMetWhereMatched(t *testing.T, n issuerNumber, text string) {
	t.Helper()
	d, err := analyze(context.Background(), text, Invoice())
	if err != nil {
		t.Fatal(err)
	}
	if n.re.FindStringIndex(text) == nil {
		t.Errorf("%s: the example %q does not match", n.what, text)
	}
	if !n.need.met(d) {
		t.Errorf("%s: %q matches, but its need is not met", n.what, text)
	}
}

// containsFold reads an ASCII text as it is, in any case, and answers as
// the lowercased text does.
func TestContainsFoldReadsASCIIInAnyCase(t *testing.T) {
	s := Invoice()
	for text, want := range map[string]bool{"GST REG NO": true, "Gst": true, "gSt": true, "G S T": false, "ust-id": false,
		"USt-IdNr": false, "": false, "GS": false, "xgstx": true, "Müller GST": true, "gſt": true} {
		d, err := analyze(context.Background(), text, s)
		if err != nil {
			t.Fatal(err)
		}
		d.facts.src = text
		if got := d.containsFold([]string{"gst"}); got != want {
			t.Errorf("%q: containsFold(gst) %v, want %v", text, got, want)
		}
	}
}

// The shapes that stand in for a regexp with no literal to start from
// (a US address, a South African registration, a company register
// number) hold in every text the regexp matches.
func TestIssuerNumberShapesHoldWhereTheRegexpMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 3))
	s := Invoice()
	for what, pieces := range map[string][]string{
		"a US address":              {"NY 10013", "NY", " ", "10013", "-1234", "1", "ny 10013", "AB 12345", "x", "\n", "CA 9", "12345"},
		"a South African company":   {"2019", "/", "123456", "07", "(Pty) Ltd", "(Pty", "1", " ", "x"},
		"a company register number": {"(872981-V)", "(", "872981", "-", " - ", "V", ")", "\n", "AB", "CO NO ", "1", " ", "x", "<", ">", "JM0828301-X"},
	} {
		i := slices.IndexFunc(issuerNumbers, func(n issuerNumber) bool { return n.what == what })
		n := issuerNumbers[i]
		matched := 0
		for range 4000 {
			var b strings.Builder
			for range r.IntN(7) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			text := b.String()
			if !n.re.MatchString(text) {
				continue
			}
			matched++
			d, err := analyze(context.Background(), text, s)
			if err != nil {
				t.Fatal(err)
			}
			if !n.need.met(d) {
				t.Errorf("%s: %q matches, but its need is not met", what, text)
			}
		}
		if matched < 100 {
			t.Errorf("%s: only %d texts match: the comparison says little", what, matched)
		}
	}
}
