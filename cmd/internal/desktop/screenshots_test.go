package desktop

import (
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/testenv"
)

// screenshotNames are the PNGs scripts/screenshots.sh writes, one per tab.
var screenshotNames = []string{"preferences", "servers", "documents", "runs"}

// The screen size the script renders at.
const shotWidth, shotHeight = 1280, 800

func TestCheckedInScreenshotsAreRealRenders(t *testing.T) {
	dir := filepath.Join(testenv.RepoRoot(t), "docs", "screenshots")
	for _, name := range screenshotNames {
		t.Run(name, func(t *testing.T) { checkRender(t, filepath.Join(dir, name+".png")) })
	}
}

// TestScreenshotScriptRendersEveryTab runs the real app under Xvfb.
func TestScreenshotScriptRendersEveryTab(t *testing.T) {
	if testing.Short() {
		t.Skip("renders the real window under Xvfb; skipped with -short")
	}
	if _, err := exec.LookPath("xvfb-run"); err != nil {
		t.Fatal("xvfb-run is missing: run scripts/install-system.sh (xvfb, xauth, imagemagick, libgl1-mesa-dri)")
	}
	root := testenv.RepoRoot(t)
	out := t.TempDir()
	// a bound well under the package's test timeout, so that a hang fails
	// here with the script's output
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(root, "scripts", "screenshots.sh"), out)
	cmd.Dir = root
	cmd.WaitDelay = 10 * time.Second // Xvfb or the app may hold the output pipe
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/screenshots.sh: %v\n%s", err, msg)
	}
	for _, name := range screenshotNames {
		t.Run(name, func(t *testing.T) { checkRender(t, filepath.Join(out, name+".png")) })
	}
}

// checkRender fails unless path is a PNG of the screen's size that shows a
// window: many colours, no colour covering nearly everything, and little of
// the bare black screen.
func checkRender(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != shotWidth || b.Dy() != shotHeight {
		t.Fatalf("%s is %dx%d, want %dx%d", path, b.Dx(), b.Dy(), shotWidth, shotHeight)
	}
	colours, top, black := colourFigures(img)
	total := shotWidth * shotHeight
	if colours < 64 {
		t.Errorf("%s has %d colours: not a rendered window", path, colours)
	}
	if top > total*97/100 {
		t.Errorf("%s is %d%% one colour: blank", path, top*100/total)
	}
	if black > total/5 {
		t.Errorf("%s is %d%% bare black screen: the window did not fill it", path, black*100/total)
	}
}

// colourFigures counts distinct colours, the pixels of the commonest one,
// and pure black pixels.
func colourFigures(img image.Image) (colours, top, black int) {
	counts := map[uint32]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			key := (r>>8)<<16 | (g>>8)<<8 | bl>>8
			counts[key]++
		}
	}
	for _, n := range counts {
		top = max(top, n)
	}
	return len(counts), top, counts[0]
}
