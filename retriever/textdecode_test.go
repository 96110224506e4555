package retriever

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecodeText(t *testing.T) {
	utf16le := []byte{0xFF, 0xFE, 'c', 0, 'a', 0, 'f', 0, 0xE9, 0, '\n', 0}
	utf16be := []byte{0xFE, 0xFF, 0, 'c', 0, 'a', 0, 'f', 0, 0xE9, 0, '\n'}
	for _, tc := range []struct {
		name string
		data []byte
		want string
		skip bool
	}{
		{name: "utf-8", data: []byte("café\n"), want: "café\n"},
		{name: "utf-8 with bom", data: []byte("\xEF\xBB\xBFcafé"), want: "café"},
		{name: "utf-16le with bom", data: utf16le, want: "café\n"},
		{name: "utf-16be with bom", data: utf16be, want: "café\n"},
		{name: "latin-1", data: []byte("caf\xe9 cr\xe8me br\xfbl\xe9e\n"), want: "café crème brûlée\n"},
		{name: "windows-1252 quotes", data: []byte("\x93quoted\x94 \x96 dash \x80\n"), want: "\u201cquoted\u201d \u2013 dash €\n"},
		{name: "nul bytes", data: []byte("bin\x00ary"), skip: true},
		{name: "control codes", data: []byte(strings.Repeat("\x01\x02\x03abc", 50)), skip: true},
		{name: "random high bytes", data: []byte(strings.Repeat("\x81\x8d\x8f\x90\x9d\x01", 40)), skip: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeText(tc.data)
			var skip *skipError
			if tc.skip {
				if !errors.As(err, &skip) {
					t.Fatalf("decodeText = %q, %v; want a skip", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("decodeText = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func FuzzDecodeText(f *testing.F) {
	for _, s := range []string{"plain", "\xEF\xBB\xBFbom", "\xFF\xFEa\x00", "\xFE\xFF\x00a", "caf\xe9", "a\x00b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeText(data)
		if err == nil && !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 out of %q", data)
		}
	})
}
