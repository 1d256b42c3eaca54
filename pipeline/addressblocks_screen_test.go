package pipeline

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// addresseeBlockEveryBlock is addresseeBlock as it was written first: the
// registration of every block is read before the blocks that cannot name
// the party are passed over.
func addresseeBlockEveryBlock(d *doc, spans []Span, val string) (registeredParty, bool) {
	blocks := d.textBlocks()
	if len(blocks) < 2 || len(spans) == 0 {
		return registeredParty{}, false
	}
	at, registered := -1, false
	for _, sp := range capped(spans) {
		li := d.lineOf(sp.Start)
		k := slices.IndexFunc(blocks, func(b textBlock) bool { return b.first <= li && li <= b.last })
		ls, _ := d.lineBounds(li)
		if k < 0 || li != blocks[k].first || strings.TrimSpace(d.str(ls, sp.Start)) != "" || !d.addressBelow(blocks[k]) {
			return registeredParty{}, false
		}
		if _, own := d.blockRegistration(blocks[k]); own {
			registered = true
		}
		if at < 0 {
			at = k
		}
	}
	for k := range blocks {
		p, ok := d.blockRegistration(blocks[k])
		if !ok || p.customerish || sameName(p.name, val) {
			continue
		}
		footer := k == len(blocks)-1 && k > at && p.strongCues
		if !registered && (k < at && at <= 3 && at < len(blocks)-1 || footer) {
			return p, true
		}
		if registered && footer && at > 0 && sameName(d.blockHead(blocks[0]), p.name) {
			return p, true
		}
	}
	return registeredParty{}, false
}

// Reading only the registrations of the blocks that can name the party
// (above the value's block near the top, or the last block) gives the
// party reading every block gave: for the head of every block of every
// stored document and of documents built to hold registered blocks above,
// below and around the addressee's, as the value and as another name.
func TestAddresseeBlockReadsOnlyTheBlocksThatCanName(t *testing.T) {
	texts := []string{
		"ACME Widgets Ltd\n1 High Street\nLondon\nVAT No: GB123456789\n\nBolt Parts GmbH\nHauptstr. 5\n10115 Berlin\n\nInvoice 42\nTotal 100.00\n\nACME Widgets Ltd · IBAN GB29NWBK60161331926819 · VAT GB123456789",
		"Bolt Parts GmbH\nHauptstr. 5\n10115 Berlin\n\nInvoice 42\n\nTotal 100.00\n\nNorth Wind AB\nIBAN SE4550000000058398257466\nOrg.nr 556677-8899 VAT SE556677889901",
		"Bolt Parts GmbH\nHauptstr. 5\n10115 Berlin\nUSt-IdNr. DE123456789\n\nNorth Wind AB\nStorgatan 1\n111 22 Stockholm\nVAT SE556677889901\n\nTotal 100.00\n\nBolt Parts GmbH\nIBAN DE89370400440532013000\nUSt-IdNr. DE123456789",
		"Client:\nBolt Parts GmbH\nHauptstr. 5\n\nSeller SA\nNIF B12345678\n\nSeller SA\nIBAN ES9121000418450200051332 NIF B12345678",
	}
	for _, g := range goldenDocuments(t) {
		texts = append(texts, g.text)
	}
	found := 0
	for _, text := range texts {
		d, err := analyze(context.Background(), text, Invoice())
		if err != nil {
			t.Fatal(err)
		}
		blocks := d.textBlocks()
		var heads []Span
		for _, b := range blocks {
			ls, le := d.lineBounds(b.first)
			ls, le = trimmedRunes(d.rs, ls, le)
			if ls < le {
				heads = append(heads, Span{Start: ls, End: le})
			}
		}
		for i, sp := range heads {
			for _, spans := range [][]Span{{sp}, heads[i:]} {
				for _, val := range []string{d.str(sp.Start, sp.End), "Someone Else Ltd"} {
					p, ok := d.addresseeBlock(spans, val)
					wp, wok := addresseeBlockEveryBlock(d, spans, val)
					if p != wp || ok != wok {
						t.Fatalf("addresseeBlock(%v, %q) = %+v, %v; reading every block gives %+v, %v\n%s", spans, val, p, ok, wp, wok, text)
					}
					if ok {
						found++
					}
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no document names a registered party beside an addressee's block: the comparison covers only misses")
	}
	t.Logf("%d addressee blocks found, as reading every block finds them", found)
}
