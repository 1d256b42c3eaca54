package local

import (
	"regexp"
	"strings"
)

// legalSuffixes end a company name. Matched on tokens, so "SDN. BHD." and
// "Co., Ltd." match "sdn bhd" and "co ltd".
var legalSuffixes = [][]string{
	{"sdn", "bhd"}, {"sbn", "bhd"}, {"bhd"}, {"s", "b"}, {"plt"}, {"ltd"}, {"limited"}, {"inc"},
	{"incorporated"}, {"llc"}, {"llp"}, {"plc"}, {"gmbh"}, {"ag"}, {"kg"}, {"sa"}, {"s", "a"}, {"sarl"},
	{"s", "a", "r", "l"}, {"sas"}, {"s", "l"}, {"sl"}, {"srl"}, {"spa"}, {"s", "p", "a"}, {"bv"}, {"b", "v"}, {"nv"},
	{"pty", "ltd"}, {"pte", "ltd"}, {"sb"}, {"co"}, {"corp"}, {"corporation"}, {"company"}, {"oy"}, {"ab"}, {"as"},
	{"enterprise"}, {"enterprises"}, {"trading"}, {"株式会社"}, {"有限会社"},
}

// businessWords are words shop and firm names carry; a letterhead line with
// one is likely the vendor, though less surely than a legal suffix.
var businessWords = map[string]bool{
	"traders": true, "trading": true, "hardware": true, "restaurant": true, "restoran": true, "pharmacy": true,
	"stationery": true, "stationers": true, "cafe": true, "café": true, "bakery": true, "mart": true, "store": true,
	"stores": true, "supplies": true, "supply": true, "florist": true, "kedai": true, "motor": true, "services": true,
	"service": true, "consulting": true, "hotel": true, "books": true, "marketing": true, "electrical": true,
	"holdings": true, "group": true, "industries": true, "solutions": true, "shop": true, "boutique": true,
	"pastry": true, "confectionery": true, "petrol": true, "station": true, "house": true, "plumbing": true,
	"market": true, "supermarket": true, "minimarket": true, "printing": true, "agency": true, "studio": true,
	"clinic": true, "kitchen": true, "bistro": true, "grill": true, "bar": true, "paint": true, "farm": true,
}

// vendorLabels introduce the issuer's name.
var vendorLabelRE = regexp.MustCompile(`(?i)^\s*(?:vendor|supplier|seller|merchant|payee|issued\s+by|issuer|from|von|absender|émetteur|emetteur|proveedor|lieferant|verkäufer|fournisseur|own(?:ed)?\s+by|emitente|emisor|cedente(?:\s*/\s*prestatore)?|prestador(?:\s+de\s+servi[çc]os)?|가맹점명|販売店|発行者)\s*[:：]\s*(.+)$`)

// proseVendorRE finds the vendor in running text.
var proseVendorRE = regexp.MustCompile(`(?i)\b(?:bill|invoice|receipt)\s+from\s+(.+)|\bvendor\s+(?:is|was)\s+(.+)|\bpaid\s+(?:at\s+)?(.+)`)

// customerLabelRE starts a block that names the customer, never the vendor.
var customerLabelRE = regexp.MustCompile(`(?i)^\s*(?:bill(?:ed)?\s+to|ship(?:ped)?\s+to|sold\s+to|deliver(?:ed)?\s+to|customer|client|cliente|kunde|rechnungsempfänger|attn|attention|to|nabywca|destinatário|tomador|receptor|cessionario|datos\s+del\s+cliente)\b\s*[:：]?`)

// envelopeRE is a window envelope's form of address alone on its line
// ("Herrn", "Firma"): the addressee's block follows.
var envelopeRE = regexp.MustCompile(`(?i)^\s*(?:herrn|herr|frau|firma|monsieur|madame)\s*$`)

// headerRE marks email headers and greetings.
var headerRE = regexp.MustCompile(`(?i)^\s*(?:from|to|cc|bcc|subject|sent|date|re|fwd?|reply-to)\s*:|^\s*(?:hi|hello|dear|thanks|thank you|regards)\b|^-{2,}`)

// noiseRE matches letterhead lines that are titles (an invoice's, a delivery
// note's, a notice's: a title is never the issuer's name) or contact details.
var noiseRE = regexp.MustCompile(`(?i)\b(?:tax\s+invoice|invoice|receipt|copy|c0py|duplicate|reprint|cash\s+bill|cash\s+sales?|guest\s+check|quittung|rechnung|facture|factura|請求書|tel|fax|phone|telephone|email|e-mail|gst|sst|vat|roc|reg|registration|co\.?\s*no|company\s+no|abn|siret|nif|ust|website|www|not\s+a\s+receipt|welcome|thank|notice|statement|delivery\s+note|packing\s+(?:list|slip)|quotation|purchase\s+order|order\s+confirmation|credit\s+note|debit\s+note|pro\s*forma|lieferschein|angebot|gutschrift|devis|avoir|albar[aá]n|presupuesto|納品書|見積書|注文書|nota\s+fiscal|danfe|nfs-?e|nf-?e|documento\s+auxiliar|fattura|scontrino|faktura|factuur|fatura|cfdi|ticket)\b`)

// cjkTitleRE matches titles in scripts without spaces, where \b does not
// apply: a receipt, an invoice, a tax invoice, a card slip.
var cjkTitleRE = regexp.MustCompile(`請求書|領収書|納品書|見積書|注文書|発票|发票|收据|收據|세금계산서|영수증|매출전표|계산서`)

// addressRE marks address lines.
var addressRE = regexp.MustCompile(`(?i)\b(?:jalan|jln|lot|taman|tmn|no\.|street|st\.|road|rd\.|avenue|ave|lane|drive|straße|strasse|str\.|rue|calle|floor|level|block|blok|unit|seksyen|bandar|kuala\s+lumpur|selangor|johor|suite|p\.?o\.?\s+box|〒)\b|\d{5}`)

// vendor finds the issuer: a vendor label, a "bill from X" phrase, then the
// letterhead (a line with a legal suffix, a line with a business word, the
// first name-like line), never the bill-to block.
func (d *doc) vendor() (found, bool) {
	var labelled, prose found
	for li, ln := range d.lines {
		if !strings.ContainsAny(ln.text, ":：") {
			// vendorLabelRE needs a colon; the prose test below needs none.
		} else if m := vendorLabelRE.FindStringSubmatch(ln.text); m != nil && !strings.Contains(m[1], "@") {
			if v := cleanName(cutName(m[1])); v != "" && labelled.value == nil {
				labelled = tiered("vendor:label", v, "after a vendor label")
			}
		}
		if low := d.lowLine(li); !strings.Contains(low, "from") && !strings.Contains(low, "vendor") && !strings.Contains(low, "paid") || !runningText(ln.text) {
			continue // proseVendorRE needs one of its words
		}
		for _, m := range proseVendorRE.FindAllStringSubmatch(ln.text, -1) {
			if prose.value != nil {
				break
			}
			switch {
			case m[1] != "":
				if v := capitalRun(m[1]); v != "" {
					prose = tiered("vendor:prose", v, `named in "bill from ..."`)
				}
			case m[2] != "":
				if v := cleanName(cutName(m[2])); v != "" {
					prose = tiered("vendor:prose", v, `named in "vendor is ..."`)
				}
			case m[3] != "":
				if v := capitalRun(m[3]); v != "" && !paymentWord(v) {
					prose = tiered("vendor:prose-paid", v, `named in "paid ..." (running text)`)
				}
			}
		}
	}
	head := d.letterhead()
	agree := func(a, b found) bool {
		return a.value != nil && b.value != nil && strings.EqualFold(a.value.(string), b.value.(string))
	}
	switch {
	case labelled.value != nil:
		if agree(labelled, head) {
			labelled = tiered("vendor:label+letterhead", labelled.value, labelled.method)
		}
		return labelled, true
	case prose.value != nil:
		if agree(prose, head) {
			prose = tiered("vendor:prose+letterhead", prose.value, prose.method+" and the letterhead")
		}
		return prose, true
	case head.value != nil:
		if w, bad := damagedWord(head.value.(string)); bad {
			return tiered("vendor:damaged-word", head.value, head.method+"; "+strings.ToUpper(w)+" is one letter off a legal suffix (a damaged scan)"), true
		}
		if _, lifts := tierConf[head.tier+"+repeated"]; !lifts {
			return head, true
		}
		if w, ok := d.nameRepeated(head.value.(string)); ok {
			head = tiered(head.tier+"+repeated", head.value, head.method+"; "+w+" is printed again below the letterhead")
		} else if _, lifts := tierConf[head.tier+"+registered"]; lifts && d.registeredName(head.value.(string)) {
			head = tiered(head.tier+"+registered", head.value, head.method+"; a company registration number is printed with it")
		}
		return head, true
	}
	return found{}, false
}

// nameRepeated reports a distinctive word of a letterhead name (four letters
// or more, not a legal suffix or business word) that the document prints
// again below its letterhead: "THANK YOU FOR SHOPPING AT GUARDIAN",
// "www.kings.com.my", an e-mail domain. The name is then two printed
// things that agree, not one line's position.
func (d *doc) nameRepeated(name string) (string, bool) {
	end := max(d.headerEnd(), 1) // never the name's own line
	if end >= len(d.lines) {
		return "", false
	}
	words := map[string]bool{}
	for _, t := range tokens(name) {
		if len([]rune(t)) >= 4 && !businessWords[t] && !hasDigit(t) && !isSuffixWord(t) {
			words[t] = true
		}
	}
	if len(words) == 0 {
		return "", false
	}
	for li := end; li < len(d.lines); li++ {
		if len(d.lines[li].text) > maxNameLine {
			continue
		}
		for _, t := range tokens(d.lines[li].text) {
			if words[t] {
				return strings.ToUpper(t), true
			}
		}
		// glued into a web or mail address: "www.kings.com.my"
		low := d.lowLine(li)
		if strings.Contains(low, "www") || strings.Contains(low, "@") || strings.Contains(low, ".com") {
			for w := range words {
				if strings.Contains(low, w) {
					return strings.ToUpper(w), true
				}
			}
		}
	}
	return "", false
}

func hasBusinessWord(s string) bool {
	for _, t := range tokens(s) {
		if businessWords[t] {
			return true
		}
	}
	return false
}

func isSuffixWord(t string) bool {
	for _, s := range legalSuffixes {
		if len(s) == 1 && s[0] == t {
			return true
		}
	}
	return t == "sdn" || t == "bhd" || t == "malaysia"
}

// maxNameLine is the longest letterhead line read as a name, in bytes: a
// long company name with its registration number fits.
const maxNameLine = 200

// letterhead picks the vendor from the first lines of the document.
func (d *doc) letterhead() found {
	type cand struct {
		idx  int
		text string
	}
	var cs []cand
	inCustomer := false
	end := d.headerEnd()
	for i, ln := range d.lines {
		if len(cs) >= 8 || i >= end {
			break
		}
		t := strings.TrimSpace(ln.text)
		if t == "" {
			inCustomer = false
			continue
		}
		if len(t) > maxNameLine {
			continue // a paragraph, not a letterhead line
		}
		if customerLabelRE.MatchString(t) || envelopeRE.MatchString(t) {
			inCustomer = true
			continue
		}
		if inCustomer {
			continue
		}
		if !nameLike(t) {
			// A window envelope's sender line: "Müller Haustechnik GmbH ·
			// Gewerbestraße 12 · 70565 Stuttgart".
			if head, _, ok := strings.Cut(t, " · "); ok && nameLike(head) && hasLegalSuffix(head) {
				cs = append(cs, cand{i, cleanName(head)})
			}
			continue
		}
		cs = append(cs, cand{i, cleanName(t)})
	}
	// "HOME MASTER HARDWARE &" / "ELECTRICAL": a line ending in "&"
	// continues on the next one.
	for k := 0; k+1 < len(cs); k++ {
		if strings.HasSuffix(cs[k].text, "&") && cs[k+1].idx == cs[k].idx+1 {
			cs[k].text = cs[k].text + " " + cs[k+1].text
			cs = append(cs[:k+1], cs[k+2:]...)
		}
	}
	for k, c := range cs {
		toks := tokens(c.text)
		n, ok := suffixLen(toks)
		if !ok && hasLegalSuffix(c.text) {
			n, ok = 0, true // 株式会社さくら商事: the suffix is inside the word
		}
		if !ok {
			continue
		}
		name := c.text
		joined := false
		// "WESTERN EASTERN / STATIONERY SDN. BHD": a suffix line with at most
		// one word of its own continues the name on the line above.
		switch {
		case len(toks)-n <= 1 && k > 0 && cs[k-1].idx == c.idx-1:
			name, joined = cs[k-1].text+" "+c.text, true
		case len(toks) == n:
			continue // a suffix alone is not a name
		}
		name = cleanName(name)
		if name == "" {
			continue
		}
		tier, method := "vendor:letterhead-suffix", "letterhead line with a legal suffix"
		switch {
		case k > 0 && cs[k-1].idx == c.idx-1 && name != cleanName(cs[k-1].text+" "+c.text) && restates(cs[k-1].text, name):
			// "LAVENDER" / "LAVENDER CONFECTIONERY & BAKERY S/B": the line
			// above is the short form of the company line, so the name is
			// printed twice and the company line is the whole of it.
			tier, method = "vendor:letterhead-suffix+restated", "letterhead line with a legal suffix, restating the short name above it ("+strings.ToUpper(cs[k-1].text)+")"
		case k > 0 && cs[k-1].idx == c.idx-1 && name != cleanName(cs[k-1].text+" "+c.text):
			// A brand or trade name right above the company line: either
			// could be what the document calls the vendor.
			tier, method = "vendor:letterhead-suffix-below-name", "letterhead line with a legal suffix, below another name-like line"
		case joined && k == 1 && hasBusinessWord(cs[0].text) && !hasLegalSuffix(cs[0].text) &&
			c.idx+1 < len(d.lines) && regLine(d.lines[c.idx+1].text):
			// "KEDAI UBAT & RUNCIT HONG" / "NING SDN. BHD." / "(717853-P)":
			// the first line names a business (not a person, and not a
			// complete name of its own) and the register's number closes
			// the name.
			tier, method = "vendor:letterhead-joined+registered", "letterhead name over two lines, ending in a legal suffix, a company registration number below it"
		case joined && k == 1:
			// Read whole, but where the name starts is a guess: the line
			// above may be a brand, a person or the name's first half.
			tier, method = "vendor:letterhead-joined", "letterhead name over two lines, ending in a legal suffix"
		case k > 0:
			tier, method = "vendor:letterhead-suffix-not-first", "letterhead line with a legal suffix (not the first line)"
		}
		return tiered(tier, name, method)
	}
	for k, c := range cs {
		if k > 2 {
			break
		}
		for _, t := range tokens(c.text) {
			if businessWords[t] {
				return tiered("vendor:letterhead-business-word", cleanName(c.text), "letterhead line with the business word "+strings.ToUpper(t))
			}
		}
	}
	if len(cs) > 0 {
		return tiered("vendor:first-line", cleanName(cs[0].text), "first name-like line of the document (no label)")
	}
	return d.openingSegment()
}

// openingSegment reads a one-line document ("ACME CORP, Invoice #INV-1001,
// Total: $108.50"), where the letterhead is the text before the first comma.
func (d *doc) openingSegment() found {
	if len(d.lines) == 0 {
		return found{}
	}
	first, _, ok := strings.Cut(strings.TrimSpace(d.lines[0].text), ",")
	if !ok || customerLabelRE.MatchString(first) || headerRE.MatchString(first) || !nameLike(first) {
		return found{}
	}
	name := cleanName(first)
	if name == "" {
		return found{}
	}
	if _, suffix := suffixLen(tokens(name)); suffix && len(tokens(name)) > 1 {
		return tiered("vendor:opening-suffix", name, "opening words before the first comma, with a legal suffix")
	}
	return tiered("vendor:opening", name, "opening words before the first comma (no label)")
}

// headerEnd is the index of the first line past the letterhead: the first
// line (other than an email header) holding a date or a priced amount.
func (d *doc) headerEnd() int {
	end := min(len(d.lines), 15)
	// Each line's header test once: many dates can share a line.
	var header [15]int8
	isHeader := func(li int) bool {
		if header[li] == 0 {
			header[li] = -1
			if headerRE.MatchString(d.lines[li].text) {
				header[li] = 1
			}
		}
		return header[li] > 0
	}
	for _, m := range d.dates {
		if li := d.lineOf(m.Start); li < end && !isHeader(li) {
			end = li
		}
	}
	for _, a := range d.amounts {
		if cents := a.Raw; len(cents) > 3 && (cents[len(cents)-3] == '.' || cents[len(cents)-3] == ',') {
			if li := d.lineOf(a.Start); li < end && !isHeader(li) {
				end = li
			}
		}
	}
	return end
}

// suffixLen reports whether toks end with a legal suffix (ignoring a trailing
// registration number) and how many tokens the suffix takes.
func suffixLen(toks []string) (int, bool) {
	for len(toks) > 0 && hasDigit(toks[len(toks)-1]) {
		toks = toks[:len(toks)-1]
	}
	best := 0
	for _, s := range legalSuffixes {
		if len(s) <= len(toks) && tokensEqual(toks[len(toks)-len(s):], s) && len(s) > best {
			best = len(s)
		}
	}
	return best, best > 0
}

func hasLegalSuffix(s string) bool {
	if strings.Contains(s, "株式会社") || strings.Contains(s, "有限会社") {
		return true
	}
	_, ok := suffixLen(tokens(s))
	return ok
}
