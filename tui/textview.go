package tui

import (
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/reflect-mcp/reflect/pipeline"
)

// Highlight classes of one source code point, in rising precedence.
const (
	classNone uint8 = iota
	classSpan
	classFlagged
	classSelected
)

// lineRange is one display line: code-point indices [start, end) into the
// source, excluding the newline.
type lineRange struct{ start, end int }

// textView renders source text with provenance highlights. It works on the
// text as []rune throughout, because spans are code-point offsets: slicing the
// UTF-8 string by span numbers would split multi-byte runes.
type textView struct {
	runes  []rune
	class  []uint8
	lines  []lineRange
	width  int
	offset int
}

func (t *textView) SetText(s string) {
	t.runes = []rune(s)
	t.class = make([]uint8, len(t.runes))
	t.offset = 0
	t.wrap()
}

func (t *textView) SetWidth(w int) {
	if w == t.width {
		return
	}
	t.width = w
	t.wrap()
}

// displayRune maps a source rune to what is drawn, keeping one source rune per
// drawn rune so highlights stay aligned. ok=false draws nothing.
func displayRune(r rune) (rune, bool) {
	switch {
	case r == '\r':
		return 0, false
	case r == '\t' || r < 0x20 || r == 0x7f:
		return ' ', true
	default:
		return r, true
	}
}

func runeWidth(r rune) int {
	d, ok := displayRune(r)
	if !ok {
		return 0
	}
	if d < 0x80 {
		return 1
	}
	return ansi.StringWidth(string(d))
}

// wrap splits the text into display lines at newlines and at the width.
func (t *textView) wrap() {
	t.lines = t.lines[:0]
	w := max(1, t.width)
	start, cells := 0, 0
	for i, r := range t.runes {
		if r == '\n' {
			t.lines = append(t.lines, lineRange{start, i})
			start, cells = i+1, 0
			continue
		}
		rw := runeWidth(r)
		if cells+rw > w && i > start {
			t.lines = append(t.lines, lineRange{start, i})
			start, cells = i, 0
		}
		cells += rw
	}
	t.lines = append(t.lines, lineRange{start, len(t.runes)})
}

// fieldSpans is one field's provenance with its highlight class.
type fieldSpans struct {
	class uint8
	spans []pipeline.Span
}

// SetHighlights recomputes the class of every code point. Spans are clamped to
// the text, so a bad offset from a model cannot index out of range.
func (t *textView) SetHighlights(hs []fieldSpans) {
	clear(t.class)
	n := len(t.runes)
	for _, h := range hs {
		for _, sp := range h.spans {
			a, b := max(0, sp.Start), min(n, sp.End)
			for i := a; i < b; i++ {
				if t.class[i] < h.class {
					t.class[i] = h.class
				}
			}
		}
	}
}

// LineOf is the display line holding code point i.
func (t *textView) LineOf(i int) int {
	l := sort.Search(len(t.lines), func(k int) bool { return t.lines[k].start > i }) - 1
	return max(0, l)
}

// ScrollTo brings the span into a window of height lines, leaving context
// above it when it has to move.
func (t *textView) ScrollTo(sp pipeline.Span, height int) {
	first, last := t.LineOf(sp.Start), t.LineOf(max(sp.Start, sp.End-1))
	if first >= t.offset && last < t.offset+height {
		return
	}
	t.offset = max(0, first-height/3)
	t.clampOffset(height)
}

func (t *textView) Scroll(delta, height int) {
	t.offset += delta
	t.clampOffset(height)
}

func (t *textView) clampOffset(height int) {
	t.offset = max(0, min(t.offset, len(t.lines)-height))
}

// Render draws the visible window, styling runs of equal class.
func (t *textView) Render(height int, st *Styles) string {
	t.clampOffset(height)
	var b, run strings.Builder
	for l := 0; l < height; l++ {
		if l > 0 {
			b.WriteByte('\n')
		}
		li := t.offset + l
		if li >= len(t.lines) {
			continue
		}
		lr := t.lines[li]
		cur := classNone
		flush := func() {
			if run.Len() == 0 {
				return
			}
			b.WriteString(classStyle(st, cur, run.String()))
			run.Reset()
		}
		for i := lr.start; i < lr.end; i++ {
			d, ok := displayRune(t.runes[i])
			if !ok {
				continue
			}
			if c := t.class[i]; c != cur {
				flush()
				cur = c
			}
			run.WriteRune(d)
		}
		flush()
	}
	return b.String()
}

func classStyle(st *Styles, c uint8, s string) string {
	switch c {
	case classSpan:
		return st.Span.Render(s)
	case classFlagged:
		return st.SpanFlagged.Render(s)
	case classSelected:
		return st.SpanSelected.Render(s)
	default:
		return s
	}
}
