package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The issuer is the party whose registration and bank account a document
// prints: a name heading a block of address lines with neither, while
// another block prints them with its name, is the addressee (the client
// block under a bank's letterhead, a Nordic buyer's block printed first
// above the seller's footer), even with no label before it.

// registrationLabels state who a document is from: tax and company
// registrations in many countries, a charity's number, a bank account to
// pay into.
var registrationLabels = tokenizeLabels([]string{"vat no", "vat reg", "vat reg no", "vat number", "vat registration",
	"tva", "btw", "ust idnr", "ust id", "steuernummer", "steuer nr", "cvr", "cvr nr", "org nr", "orgnr",
	"organisationsnummer", "organisasjonsnummer", "y tunnus", "ytunnus", "abn", "acn", "gst no", "gst reg",
	"gst reg no", "gstin", "ird", "nzbn", "nif", "cif", "p iva", "partita iva", "siret", "siren", "rcs", "kvk",
	"rfc", "cuit", "rut", "cnpj", "инн", "огрн", "єдрпоу", "trn", "company no", "company number",
	"company reg no", "registered in", "registered office", "registered charity", "charity no", "charity number",
	"reg no", "registration no", "co reg", "roc", "f skatt", "f skattsedel", "mva", "foretaksregisteret",
	"handelsregister", "hrb", "αφμ", "afm"})

// bankLabels name the account a document is paid into.
var bankLabels = tokenizeLabels([]string{"iban", "bic", "swift", "bankgiro", "plusgiro", "kontonr", "kontonummer",
	"account no", "account number", "sort code", "bsb", "bank account"})

// registrationCues counts the registration and bank labels line toks
// holds, whether one is a bank's, and where the first starts.
// Each word of the line looks up the labels it starts (registrationsByFirst),
// each label counted once: every block's every line is read so, and
// searching the line for each of the 80 labels was a tenth of verify.
func registrationCues(toks []string) (n int, bank bool, first int) {
	first = -1
	var seen [4]uint64 // the labels counted, by index
	for i, w := range toks {
		for _, k := range registrationsByFirst[w] {
			l, isBank := registrationLabel(k)
			if seen[k/64]&(1<<(k%64)) != 0 || i+len(l) > len(toks) || !slices.Equal(toks[i:i+len(l)], l) {
				continue
			}
			seen[k/64] |= 1 << (k % 64)
			n++
			if first < 0 {
				first = i // the words are read in order
			}
			bank = bank || isBank
		}
	}
	return n, bank, first
}

// mayHoldRegistration reports whether a line can hold a registration or
// bank label: a word of an ASCII line, lowercased on the stack, must start
// one. Most lines of a block hold none, and splitting each into words was
// most of what reading the blocks allocated.
//
// Each word is hashed as it is read, as lookupLower would hash it, and only
// a word the screen lets through is looked up; a line beyond ASCII may
// hold any label.
func mayHoldRegistration(line string) bool {
	h, start := uint32(wordHashSeed), -1
	for i := 0; i < len(line); i++ {
		c := line[i]
		if asciiWordBytes[c] {
			if start < 0 {
				start, h = i, wordHashSeed
			}
			h = wordHashStep(h, rune(c|0x20)) // a letter lowered; a digit or & as it is
			continue
		}
		if c >= utf8.RuneSelf {
			return wideMayHoldRegistration(line)
		}
		if start >= 0 && registrationWordAt(line[start:i], h) {
			return true
		}
		start = -1
	}
	return start >= 0 && registrationWordAt(line[start:], h)
}

// wideMayHoldRegistration is mayHoldRegistration of a line beyond ASCII:
// one of its words (as LabelTokens cuts them) must start a label.
func wideMayHoldRegistration(line string) bool {
	var b wordBufs
	lw, ok := b.words(line)
	if !ok {
		return true // the line is read by LabelTokens
	}
	for i := range lw.ws {
		if registrationFirstWords.has(lw.hs[i]) {
			if _, ok := registrationsByFirst[string(lw.word(i))]; ok {
				return true
			}
		}
	}
	return false
}

// registrationWordAt reports an ASCII word, whose lowered hash is h, that
// starts a registration or bank label.
func registrationWordAt(w string, h uint32) bool {
	if len(w) > maxLookupWord || !registrationFirstWords.has(h) {
		return false
	}
	_, ok := lookupLower(registrationsByFirst, nil, w)
	return ok
}

// registrationFirstWords screens words for registrationsByFirst.
var registrationFirstWords = hashesOf(registrationsByFirst)

// registrationLabel is label k of registrationLabels followed by
// bankLabels, and whether it is a bank's.
func registrationLabel(k int) ([]string, bool) {
	if k < len(registrationLabels) {
		return registrationLabels[k], false
	}
	return bankLabels[k-len(registrationLabels)], true
}

// registrationsByFirst lists, for each word, the labels (registrationLabel
// indexes) it starts.
var registrationsByFirst = func() map[string][]int {
	by := map[string][]int{}
	for k := range len(registrationLabels) + len(bankLabels) {
		if l, _ := registrationLabel(k); len(l) > 0 {
			by[l[0]] = append(by[l[0]], k)
		}
	}
	return by
}()

// textBlock is a run of non-blank lines, first to last.
type textBlock struct{ first, last int }

// textBlocks cuts the document at its blank lines.
func (d *doc) textBlocks() []textBlock {
	var out []textBlock
	open := -1
	for li := 0; li < len(d.lineStarts); li++ {
		ls, le := d.lineBounds(li)
		if spacesOnly(d.rs[ls:le]) {
			if open >= 0 {
				out = append(out, textBlock{open, li - 1})
				open = -1
			}
			continue
		}
		if open < 0 {
			open = li
		}
	}
	if open >= 0 {
		out = append(out, textBlock{open, len(d.lineStarts) - 1})
	}
	return out
}

// registeredParty is a block's party that prints its registration: the
// name heading the block, or the name before the registration on a footer
// line ("Rakennus Lahtinen Oy | Y-tunnus 1234567-8 | IBAN …"), with the
// line the registration is on and whether it also gives a bank account or
// several registrations (a seller's footer).
type registeredParty struct {
	name        string
	line        int
	strongCues  bool
	customerish bool
}

// blockRegistration is the registered party of block b, if it prints a
// registration that no customer label qualifies ("NIF cliente").
func (d *doc) blockRegistration(b textBlock) (registeredParty, bool) {
	for li := b.first; li <= b.last; li++ {
		ls, le := d.lineBounds(li)
		line := strings.TrimSpace(d.str(ls, le))
		if !mayHoldRegistration(line) {
			continue // no label on it: registrationCues would count none
		}
		toks := LabelTokens(line)
		n, bank, first := registrationCues(toks)
		if n == 0 || d.lineHasCents(li) {
			continue
		}
		p := registeredParty{line: li, strongCues: bank || n >= 2, customerish: customerLabelOf(line) != ""}
		head := d.blockHead(b)
		switch {
		case li != b.first && partyName(head):
			p.name = head
		case first > 0:
			p.name = nameBefore(line, toks[first])
		}
		if l := customerLabelOf(head); l != "" && l != "bank" && l != "banco" && l != "banque" {
			return registeredParty{}, false // a customer's block; a bank's own name says "bank"
		}
		if p.name == "" || !partyName(p.name) || d.underCustomerLabel(b.first) {
			return registeredParty{}, false
		}
		return p, true
	}
	return registeredParty{}, false
}

// nameBefore is line up to the word w (lowercased in toks), cut at its
// first segment and trimmed of separators: the name a footer line prints
// before its registration.
func nameBefore(line, w string) string {
	low := strings.ToLower(line)
	i := strings.Index(low, w)
	if i <= 0 || len(low) != len(line) {
		return ""
	}
	return strings.TrimRightFunc(firstSegment(line[:i]), func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("|·,-–—:", r) })
}

// partyName reports a line that reads as a party's name.
func partyName(s string) bool { return s != "" && (endsInLegalForm(s) || headName(s)) }

// lineHasCents reports an amount with cents on line li: a tax line ("VAT
// 20% £48.00"), not a registration.
func (d *doc) lineHasCents(li int) bool {
	for _, a := range d.amounts {
		if a.Line == li && centsForm(a.Raw) {
			return true
		}
	}
	return false
}

// addresseeBlock reports a name that opens every block it is printed in
// (from the line's start), over address lines (one of the next three holds
// a digit), while another block prints a registered party of another name:
// a block before it (the letterhead over a window-envelope address) or the
// document's last block (a seller's footer with its bank account or
// several registrations). A block that prints its own registration is the
// addressee's only when that footer's party also heads the document. It
// returns that party.
func (d *doc) addresseeBlock(spans []Span, val string) (registeredParty, bool) {
	if !d.opensBlocks(spans) {
		return registeredParty{}, false // the loop below would return at that span
	}
	blocks := d.textBlocks()
	if len(blocks) < 2 || len(spans) == 0 {
		return registeredParty{}, false
	}
	at := -1            // the block of the value's first printing
	registered := false // a block of the value prints a registration
	// Each block's registration, read once: the value's blocks are read
	// again among all blocks below.
	regs := make([]blockReg, len(blocks))
	regOf := func(k int) (registeredParty, bool) {
		if r := &regs[k]; !r.done {
			r.p, r.ok = d.blockRegistration(blocks[k])
			r.done = true
		}
		return regs[k].p, regs[k].ok
	}
	for _, sp := range capped(spans) {
		li := d.lineOf(sp.Start)
		k := slices.IndexFunc(blocks, func(b textBlock) bool { return b.first <= li && li <= b.last })
		ls, _ := d.lineBounds(li)
		if k < 0 || li != blocks[k].first || strings.TrimSpace(d.str(ls, sp.Start)) != "" || !d.addressBelow(blocks[k]) {
			return registeredParty{}, false
		}
		if _, own := regOf(k); own {
			registered = true
		}
		if at < 0 {
			at = k
		}
	}
	for k := range blocks {
		// Only a block above the value's near the top, or the last block
		// below it, can name the party: the others' registrations are not
		// read.
		last := k == len(blocks)-1 && k > at
		if !last && (registered || k >= at || at > 3 || at >= len(blocks)-1) {
			continue
		}
		p, ok := regOf(k)
		if !ok || p.customerish || sameName(p.name, val) {
			continue
		}
		footer := last && p.strongCues
		if !registered && (k < at && at <= 3 && at < len(blocks)-1 || footer) {
			return p, true
		}
		// A buyer's block may print the buyer's VAT number (a reverse
		// charge): it is still the addressee's when the seller heads the
		// document and signs its footer with its bank.
		if registered && footer && at > 0 && sameName(d.blockHead(blocks[0]), p.name) {
			return p, true
		}
	}
	return registeredParty{}, false
}

// blockReg is a block's registration once read.
type blockReg struct {
	p        registeredParty
	ok, done bool
}

// blockHead is the first segment of block b's first line.
func (d *doc) blockHead(b textBlock) string {
	ls, le := d.lineBounds(b.first)
	return firstSegment(strings.TrimSpace(d.str(ls, le)))
}

// addressBelow reports a block whose lines after its first hold a digit
// within three lines: a street, a postcode, a box.
func (d *doc) addressBelow(b textBlock) bool {
	for li := b.first + 1; li <= b.last && li <= b.first+3; li++ {
		ls, le := d.lineBounds(li)
		if strings.ContainsFunc(d.str(ls, le), unicode.IsDigit) {
			return true
		}
	}
	return false
}

// checkAddresseeBlock flags a vendor name that is an addressee's block
// (addresseeBlock).
func (d *doc) checkAddresseeBlock(c *FieldCheck, val string) bool {
	p, ok := d.addresseeBlock(c.Spans, val)
	if !ok {
		return false
	}
	c.penalize(factorNotIssuer, fmt.Sprintf("%q heads an address block with no registration or bank account of its own: the addressee's; the document prints %q with its registration (line %d)", val, p.name, p.line+1))
	return true
}

// columnHeadingAbove is the heading over offset p's column when the line
// above line li is a row of party headings and nothing else ("SHIPPER
// CONSIGNEE", "Bill to      Ship to"): each of its column segments is a
// customer, sender or issuer label.
func (d *doc) columnHeadingAbove(li, p int) string {
	if li == 0 {
		return ""
	}
	ps, pe := d.lineBounds(li - 1)
	row := strings.TrimSpace(d.str(ps, pe))
	if !strings.Contains(row, "   ") || strings.ContainsFunc(row, unicode.IsDigit) {
		return ""
	}
	for _, seg := range strings.Split(row, "   ") {
		seg = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(seg), ":："))
		if seg != "" && !partyHeading(seg) {
			return ""
		}
	}
	return strings.TrimRight(d.columnAbove(li, p), ":：")
}

// partyHeading reports a heading that names a party: a customer label
// alone, a sender label, an issuer label.
func partyHeading(seg string) bool {
	if l, ok := labelLine(seg); ok && l != "" {
		return true
	}
	toks := LabelTokens(seg)
	if slices.ContainsFunc(senderLabels, func(l []string) bool { return slices.Equal(toks, l) }) {
		return true
	}
	_, _, issuer := afterIssuerLabel(seg + ": x")
	return issuer && utf8.RuneCountInString(seg) < 40
}

// customerFieldAbove is the customer label of a field line ("Guest: Daniel
// Okafor", "Bill to: Harlow Ltd") at most three lines above line li, in one
// block with it and no column gap in either: the lines under a customer's
// field continue the customer's record (the guest's company, the buyer's
// address), so a name there is the customer's too. An issuer label or a
// registration between ends the search.
func (d *doc) customerFieldAbove(li int) string {
	ls, le := d.lineBounds(li)
	if strings.Contains(strings.TrimSpace(d.str(ls, le)), "   ") {
		return ""
	}
	for k := li - 1; k >= 0 && k >= li-3; k-- {
		ks, ke := d.lineBounds(k)
		line := strings.TrimSpace(d.str(ks, ke))
		if line == "" || strings.Contains(line, "   ") {
			return ""
		}
		if _, _, ok := afterIssuerLabel(line); ok {
			return ""
		}
		i := indexColon(line)
		if i <= 0 || strings.TrimSpace(line[i:]) == ":" {
			continue
		}
		if l, ok := labelLine(strings.TrimSpace(line[:i])); ok && l != "" {
			return l
		}
	}
	return ""
}
