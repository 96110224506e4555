package main

import (
	"bytes"
	"image"
	_ "image/png"
	"testing"
)

// TestIconIsAPNG: Fyne gives a tray icon to Windows only after decoding it
// with the image package (an SVG fails there and the tray shows nothing),
// so the app's icon must be an image it can decode.
func TestIconIsAPNG(t *testing.T) {
	img, format, err := image.Decode(bytes.NewReader(icon))
	if err != nil || format != "png" {
		t.Fatalf("icon: %q, %v; want a PNG", format, err)
	}
	if b := img.Bounds(); b.Dx() < 64 || b.Dx() != b.Dy() {
		t.Fatalf("icon is %dx%d; want a square of at least 64 pixels", b.Dx(), b.Dy())
	}
}
