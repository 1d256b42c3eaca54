package pipeline

import (
	"context"
	"reflect"
	"slices"
	"testing"
)

// textRunes reads a text once into its runes, their fold and its line
// starts, into arrays a scratch lends after another document left them
// dirty: the same as narrowing, folding and splitting it apart, fresh.
func TestTextRunesIsNarrowFoldAndLinesInLentArrays(t *testing.T) {
	texts := []string{
		"", "ACME\nTOTAL 5.00", "ACME  TRADING\n\n  TOTAL\t 5.00 \n",
		"Café Müller\nSumme 7,50 €", "株式会社さくら　商事\n合計　　￥１，１００\r\n",
		"ＩＮＶ－２０２６  Ｎｏ．\u00a0\u00a05\n\u2028x", "bad \xff\xfe utf-8\n\xc3",
		"İSTANBUL \u212A  ǅ ß ΣΑΣ\n\n",
		// ASCII up to a run of spaces, then beyond it: the fold's offsets
		// start in one pass and are redone in the other.
		"  x", "ACME  TRADING\n\nTOTAL 5.00 €", "ACME TRADING\n\u00a0\u00a0", "é", "x\xff",
		// A printed U+FFFD, and a full-width form after a run of spaces:
		// neither text spells its runes.
		"printed \uFFFD here", "Café  Müller ＩＮＶ", "Café  Müller \uFFFD", "Café  Müller",
	}
	sc := new(scratch)
	for _, dirty := range []string{"", "x", "ÿ" + string(make([]byte, 300))} {
		for _, text := range texts {
			textRunes(dirty, sc) // leave the lent arrays holding another text
			lineStartsIn(sc.runes, "", sc)
			rs, f, ascii, offs := textRunes(text, sc)
			want := narrowRunes(text)
			if wantF := foldRunes(want, foldSpaces); !slices.Equal(rs, want) || !slices.Equal(f.r, wantF.r) || !reflect.DeepEqual(f.start, wantF.start) {
				t.Errorf("textRunes(%q) = %q, %q %v; want %q, %q %v", text, string(rs), string(f.r), f.start, string(want), string(wantF.r), wantF.start)
			}
			// A text beyond ASCII that spells its runes comes with their
			// byte offsets; any other text with none.
			var wantOffs []int32
			if ascii == "" && spells(text, want) && text != "" {
				for i := range text {
					wantOffs = append(wantOffs, int32(i))
				}
				wantOffs = append(wantOffs, int32(len(text)))
			}
			if !slices.Equal(offs, wantOffs) || (offs == nil) != (wantOffs == nil) {
				t.Errorf("textRunes(%q) offsets = %v, want %v", text, offs, wantOffs)
			}
			// An ASCII text's fold is its bytes too; another's is not.
			if wantB := []byte(string(f.r)); ascii != "" && string(f.b) != string(wantB) || ascii == "" && f.b != nil && text != "" {
				t.Errorf("textRunes(%q) fold bytes = %q, want %q (ASCII %v)", text, f.b, wantB, ascii != "")
			}
			if got, wantLines := lineStartsIn(rs, ascii, sc), lineStartsOf(want); !reflect.DeepEqual(got, wantLines) {
				t.Errorf("lineStartsIn(%q) = %v, want %v", text, got, wantLines)
			}
		}
	}
}

// A doc's text is its runes written out, whether it is the source itself
// (nothing narrowed) or written anew: full-width forms, invalid bytes and a
// printed U+FFFD among them.
func TestDocTextIsItsRunes(t *testing.T) {
	for _, src := range []string{"", "ACME\nTOTAL 5.00", "Café Müller\nSumme 7,50 €", "株式会社さくら　商事",
		"ＩＮＶ－２０２６", "bad \xff utf-8\xc3", "printed \uFFFD here", "İSTANBUL \u212A", "é\xe9",
		"Café  Müller\n€ 5", "ＩＮＶ  Café"} {
		d, err := analyze(context.Background(), src, Invoice())
		if err != nil {
			t.Fatal(err)
		}
		d.facts.src = src
		if got, want := d.text(), string(d.rs); got != want {
			t.Errorf("text of %q = %q, want %q", src, got, want)
		}
		for a := range len(d.rs) + 1 {
			for b := a; b <= len(d.rs); b++ {
				if got, want := d.str(a, b), string(d.rs[a:b]); got != want {
					t.Errorf("str(%d, %d) of %q = %q, want %q", a, b, src, got, want)
				}
			}
		}
	}
}

// A document analysed in arrays a scratch lends, after other documents
// left them dirty, is the document analysed fresh: its amounts found from
// the digit runs the date scan listed, their lines from the line starts.
func TestLentAnalysisIsFreshAnalysis(t *testing.T) {
	texts := []string{
		"ACME TRADING\nINVOICE NO: 1234\nDATE: 12/03/2018\nSUBTOTAL 10.00\nGST 6% 0.60\nTOTAL 10.60\n",
		"no digits here\nat all", "", "5", "x5", ".50 and 0.50\n(68.75) 12-", "2 400 000,00 Ft\n1 2345\nHUF 51 800",
		"Rechnung vom 3. März 2026\nGesamt 1.190,00 €\nMwSt. 19 % 190,00", "2026年4月1日\n合計 ￥１，１００\n",
		"TOTAL   12.50\n\n\nCASH    20.00\t\tCHANGE 7.50", "ŞİRKET  A.Ş.\nTUTAR 1.250,50 TL\n12.03.2026",
	}
	s := Invoice()
	var pool scratchPool
	ctx := context.Background()
	for range 2 {
		for _, text := range texts {
			want, err := analyze(ctx, text, s)
			if err != nil {
				t.Fatal(err)
			}
			got, err := analyzeWith(ctx, text, s, &pool)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.rs, want.rs) || !reflect.DeepEqual(got.fold, want.fold) ||
				!reflect.DeepEqual(got.dates, want.dates) || !reflect.DeepEqual(got.amounts, want.amounts) ||
				!reflect.DeepEqual(got.lineStarts, want.lineStarts) || !reflect.DeepEqual(got.moneyHits, want.moneyHits) ||
				!reflect.DeepEqual(got.fieldHits, want.fieldHits) || !reflect.DeepEqual(got.summary, want.summary) {
				t.Errorf("%q: lent analysis differs:\n got %+v %v\nwant %+v %v", text, got.amounts, got.lineStarts, want.amounts, want.lineStarts)
			}
			pool.put(got.lent)
		}
	}
}
