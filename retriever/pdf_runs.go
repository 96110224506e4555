package retriever

import (
	"github.com/ledongthuc/pdf"
)

// The parser's own positioned output (Page.Content) re-reads a font's
// width table from the file for every glyph, which on a real manual runs
// past the extraction budget. pageRuns interprets the content stream
// itself, with each font's widths read once, and reports one positioned
// run per string shown: the gaps between runs are where words end.

// runFont is what pageRuns needs of a font, read once per page.
type runFont struct {
	enc    pdf.TextEncoding
	first  int
	widths []float64 // in 1/1000 em, from first
	cid    bool      // two-byte codes
	dw     float64   // default width of a CID font
	cidW   map[int]float64
}

func loadRunFont(f pdf.Font) *runFont {
	rf := &runFont{enc: f.Encoder(), dw: 1000}
	if f.V.Key("Subtype").Name() == "Type0" {
		rf.cid = true
		desc := f.V.Key("DescendantFonts").Index(0)
		if dw := desc.Key("DW"); dw.Kind() != pdf.Null {
			rf.dw = dw.Float64()
		}
		rf.cidW = parseCIDWidths(desc.Key("W"))
		return rf
	}
	rf.first = int(f.V.Key("FirstChar").Int64())
	w := f.V.Key("Widths")
	rf.widths = make([]float64, w.Len())
	for i := range rf.widths {
		rf.widths[i] = w.Index(i).Float64()
	}
	return rf
}

// parseCIDWidths reads a CID font's W array: "c [w1 w2 ...]" or
// "cFirst cLast w" entries.
func parseCIDWidths(w pdf.Value) map[int]float64 {
	out := map[int]float64{}
	for i := 0; i < w.Len() && len(out) < 1<<16; {
		c := int(w.Index(i).Int64())
		if i+1 < w.Len() && w.Index(i+1).Kind() == pdf.Array {
			arr := w.Index(i + 1)
			for j := range min(arr.Len(), 1<<16) {
				out[c+j] = arr.Index(j).Float64()
			}
			i += 2
			continue
		}
		if i+2 >= w.Len() {
			break
		}
		last, width := int(w.Index(i+1).Int64()), w.Index(i+2).Float64()
		for k := c; k <= last && k-c < 1<<16; k++ {
			out[k] = width
		}
		i += 3
	}
	return out
}

// advance is the width of raw, in 1/1000 em, and its count of single-byte
// spaces (for word spacing).
func (rf *runFont) advance(raw string) (width float64, spaces int) {
	if rf.cid {
		for i := 0; i+1 < len(raw); i += 2 {
			code := int(raw[i])<<8 | int(raw[i+1])
			if w, ok := rf.cidW[code]; ok {
				width += w
			} else {
				width += rf.dw
			}
		}
		return width, 0
	}
	for i := 0; i < len(raw); i++ {
		if c := int(raw[i]) - rf.first; c >= 0 && c < len(rf.widths) {
			width += rf.widths[c]
		}
		if raw[i] == ' ' {
			spaces++
		}
	}
	return width, spaces
}

// textState is the part of the PDF text state that moves glyphs.
type textState struct {
	tm, tlm        [6]float64 // text and line matrices: a b c d e f
	size           float64    // Tfs
	charSp, wordSp float64    // Tc, Tw
	scale, leading float64    // Tz / 100, TL
	font           *runFont
	runs           []pdf.Text
}

var identity = [6]float64{1, 0, 0, 1, 0, 0}

// translate moves the line start by (tx, ty) in text space.
func (ts *textState) translate(tx, ty float64) {
	m := ts.tlm
	ts.tlm[4] = tx*m[0] + ty*m[2] + m[4]
	ts.tlm[5] = tx*m[1] + ty*m[3] + m[5]
	ts.tm = ts.tlm
}

// show records raw as one run and advances the text matrix past it.
func (ts *textState) show(raw string) {
	if ts.font == nil {
		return
	}
	w, spaces := ts.font.advance(raw)
	adv := (w/1000*ts.size + ts.charSp*float64(len(raw)) + ts.wordSp*float64(spaces)) * ts.scale
	em := ts.size * ts.tm[0]
	ts.runs = append(ts.runs, pdf.Text{FontSize: em, X: ts.tm[4], Y: ts.tm[5], W: adv * ts.tm[0], S: ts.font.enc.Decode(raw)})
	ts.shift(adv)
}

// shift moves the text matrix along the line by tx text-space units.
func (ts *textState) shift(tx float64) {
	ts.tm[4] += tx * ts.tm[0]
	ts.tm[5] += tx * ts.tm[1]
}

// pageRuns interprets a page's content stream into positioned runs.
func pageRuns(p pdf.Page) []pdf.Text {
	fonts := map[string]*runFont{}
	ts := &textState{tm: identity, tlm: identity, scale: 1}
	pdf.Interpret(p.V.Key("Contents"), func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		num := func(i int) float64 {
			if i < len(args) {
				return args[i].Float64()
			}
			return 0
		}
		switch op {
		case "BT":
			ts.tm, ts.tlm = identity, identity
		case "Tf":
			if len(args) == 2 {
				name := args[0].Name()
				if _, ok := fonts[name]; !ok {
					fonts[name] = loadRunFont(p.Font(name))
				}
				ts.font, ts.size = fonts[name], num(1)
			}
		case "Td":
			ts.translate(num(0), num(1))
		case "TD":
			ts.leading = -num(1)
			ts.translate(num(0), num(1))
		case "Tm":
			if len(args) == 6 {
				for i := range 6 {
					ts.tlm[i] = num(i)
				}
				ts.tm = ts.tlm
			}
		case "T*":
			ts.translate(0, -ts.leading)
		case "Tc":
			ts.charSp = num(0)
		case "Tw":
			ts.wordSp = num(0)
		case "Tz":
			ts.scale = num(0) / 100
		case "TL":
			ts.leading = num(0)
		case "Tj":
			if len(args) == 1 {
				ts.show(args[0].RawString())
			}
		case "'", "\"":
			if op == "\"" && len(args) == 3 {
				ts.wordSp, ts.charSp = num(0), num(1)
				args = args[2:]
			}
			ts.translate(0, -ts.leading)
			if len(args) == 1 {
				ts.show(args[0].RawString())
			}
		case "TJ":
			if len(args) == 1 {
				ts.showArray(args[0])
			}
		}
	})
	return ts.runs
}

// showArray shows a TJ array: strings, and numbers that move the next
// glyph left by n/1000 em.
func (ts *textState) showArray(v pdf.Value) {
	for i := range v.Len() {
		x := v.Index(i)
		if x.Kind() == pdf.String {
			ts.show(x.RawString())
			continue
		}
		ts.shift(-x.Float64() / 1000 * ts.size * ts.scale)
	}
}
