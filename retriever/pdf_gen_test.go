package retriever

import (
	"bytes"
	"fmt"
	"strings"
)

// makePDF writes a minimal valid PDF: one page per entry of pages, each
// showing its text in Helvetica, and title in the document information.
func makePDF(title string, pages ...string) []byte {
	streams := make([]string, len(pages))
	for i, text := range pages {
		streams[i] = fmt.Sprintf("BT /F1 12 Tf 72 720 Td (%s) Tj ET", pdfEscape(text))
	}
	return makePDFStreams(title, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", streams...)
}

// makePDFStreams writes a PDF with one page per content stream, all
// using font as /F1.
func makePDFStreams(title, font string, streams ...string) []byte {
	var objs []string
	kids := make([]string, len(streams))
	fontObj := 3 + 2*len(streams)
	for i, stream := range streams {
		pageObj, contentObj := 3+2*i, 4+2*i
		kids[i] = fmt.Sprintf("%d 0 R", pageObj)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>", contentObj, fontObj),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream))
	}
	objs = append([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(streams)),
	}, objs...)
	objs = append(objs, font, fmt.Sprintf("<< /Title (%s) >>", pdfEscape(title)))

	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, len(objs), xref)
	return b.Bytes()
}

func pdfEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}
