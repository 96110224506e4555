package retriever

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Kinds of document, by how their text is obtained.
const (
	KindText     = "text"
	KindMarkdown = "markdown"
	KindCode     = "code"
	KindHTML     = "html"
	KindPDF      = "pdf"
)

// extracted is the text of a document and what was learnt reading it.
type extracted struct {
	kind     string
	title    string
	text     string
	markdown bool // chunk along Markdown headings
}

// skipError says why a file is not indexed at all (as opposed to a file
// that should be indexed but could not be read).
type skipError struct{ reason string }

func (e *skipError) Error() string { return e.reason }

func skipf(format string, args ...any) error { return &skipError{reason: fmt.Sprintf(format, args...)} }

var codeExts = setOf(".go", ".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".rs", ".c", ".h", ".cc", ".cpp",
	".hpp", ".java", ".kt", ".kts", ".scala", ".rb", ".php", ".cs", ".swift", ".m", ".sh", ".bash", ".zsh", ".fish",
	".ps1", ".lua", ".pl", ".r", ".sql", ".proto", ".el", ".clj", ".ex", ".exs", ".erl", ".hs", ".ml", ".fs", ".dart",
	".vue", ".svelte", ".css", ".scss", ".less", ".zig", ".nim", ".tf", ".mk", ".cmake", ".gradle")

var markdownExts = setOf(".md", ".markdown", ".mdx", ".mdown")

var htmlExts = setOf(".html", ".htm", ".xhtml")

var binaryExts = setOf(".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".webp", ".tif", ".tiff", ".psd", ".mp3",
	".mp4", ".m4a", ".wav", ".flac", ".ogg", ".mov", ".avi", ".mkv", ".webm", ".zip", ".gz", ".tgz", ".bz2", ".xz",
	".zst", ".7z", ".rar", ".tar", ".jar", ".war", ".exe", ".dll", ".so", ".dylib", ".a", ".o", ".obj", ".class",
	".pyc", ".wasm", ".bin", ".dat", ".db", ".sqlite", ".woff", ".woff2", ".ttf", ".otf", ".eot", ".iso", ".dmg",
	".docx", ".xlsx", ".pptx", ".odt", ".ods", ".odp", ".parquet", ".npy", ".pt", ".onnx", ".gguf", ".safetensors")

func setOf(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, it := range items {
		m[it] = true
	}
	return m
}

// skipByName reports, without reading the file, why it is not indexed.
func skipByName(path string) error {
	if ext := strings.ToLower(filepath.Ext(path)); binaryExts[ext] {
		return skipf("binary file type %s", ext)
	}
	return nil
}

// extract turns file content into text according to its kind.
func extract(path string, data []byte) (extracted, error) {
	ext := strings.ToLower(filepath.Ext(path))
	base := DisplayPath(filepath.Base(path)) // a title is text, whatever bytes name the file
	switch {
	case ext == ".pdf":
		title, text, err := pdfText(data)
		if err != nil {
			return extracted{}, err
		}
		return extracted{kind: KindPDF, title: orDefault(title, base), text: text}, nil
	case htmlExts[ext]:
		decoded, err := decodeText(data)
		if err != nil {
			return extracted{}, fmt.Errorf("html: %w", err)
		}
		title, text, err := htmlText([]byte(decoded))
		if err != nil {
			return extracted{}, err
		}
		return extracted{kind: KindHTML, title: orDefault(title, base), text: text, markdown: true}, nil
	}
	text, err := decodeText(data)
	if err != nil {
		return extracted{}, err
	}
	switch {
	case markdownExts[ext]:
		return extracted{kind: KindMarkdown, title: orDefault(markdownTitle(text), base), text: text, markdown: true}, nil
	case codeExts[ext]:
		return extracted{kind: KindCode, title: base, text: text}, nil
	default:
		return extracted{kind: KindText, title: base, text: text}, nil
	}
}

// markdownTitle is the text of the first level-1 heading, if any.
func markdownTitle(text string) string {
	for _, b := range splitBlocks(text[:min(len(text), 64<<10)], true) {
		if b.level == 1 {
			return b.heading
		}
	}
	return ""
}

func orDefault(s, def string) string {
	if s = strings.TrimSpace(s); s != "" {
		return s
	}
	return def
}

// validText replaces invalid UTF-8 so that every stored text is valid.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
