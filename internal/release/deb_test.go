package release

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"gopkg.in/yaml.v3"

	"github.com/toolhub/toolhub/internal/testenv"
)

// linuxAMD64Config writes a copy of .goreleaser.yaml that builds only
// linux/amd64 into dist: GoReleaser's release command has no single-target
// mode, and the other five targets would only add minutes.
func linuxAMD64Config(t *testing.T, repo, dist string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	builds, _ := cfg["builds"].([]any)
	if len(builds) != 1 {
		t.Fatalf(".goreleaser.yaml has %d builds, want 1", len(builds))
	}
	build := builds[0].(map[string]any)
	build["goos"], build["goarch"] = []string{"linux"}, []string{"amd64"}
	cfg["dist"] = dist
	out, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "goreleaser.yaml")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	// GoReleaser reads the commit only when `git ls-remote --get-url`
	// answers; a checkout without a remote gets one for this command only.
	cmd.Env = append(os.Environ(), "GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=remote.origin.url", "GIT_CONFIG_VALUE_0=https://github.com/toolhub/toolhub")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// buildDeb runs the pinned GoReleaser in snapshot mode, checks the
// checksums and the SBOM, and returns the .deb it made.
func buildDeb(t *testing.T, repo string) string {
	t.Helper()
	dist := filepath.Join(t.TempDir(), "dist")
	start := time.Now()
	run(t, repo, filepath.Join(repo, "scripts", "goreleaser.sh"), "release", "--snapshot", "--clean",
		"--config", linuxAMD64Config(t, repo, dist))
	t.Logf("goreleaser release --snapshot (linux/amd64) took %s", time.Since(start).Round(time.Second))
	debs, _ := filepath.Glob(filepath.Join(dist, "toolhub_*_amd64.deb"))
	rpms, _ := filepath.Glob(filepath.Join(dist, "toolhub_*.rpm"))
	sums, _ := os.ReadFile(filepath.Join(dist, "checksums.txt"))
	if len(debs) != 1 || len(rpms) != 1 {
		t.Fatalf("dist has debs %v and rpms %v, want one of each", debs, rpms)
	}
	for _, p := range append(debs, rpms...) {
		if !strings.Contains(string(sums), filepath.Base(p)) {
			t.Errorf("checksums.txt does not list %s:\n%s", filepath.Base(p), sums)
		}
	}
	checkSBOM(t, dist)
	checkRPM(t, rpms[0])
	return debs[0]
}

// installedPaths are the files both packages must install.
var installedPaths = []string{"usr/bin/toolhub", "usr/share/man/man1/toolhub.1.gz", "usr/share/man/man1/toolhub-serve.1.gz",
	"usr/share/bash-completion/completions/toolhub", "usr/share/zsh/vendor-completions/_toolhub",
	"usr/share/fish/vendor_completions.d/toolhub.fish"}

// checkRPM lists the .rpm's files with rpm itself, unpacks it and runs the
// toolhub inside.
func checkRPM(t *testing.T, rpm string) {
	t.Helper()
	for _, tool := range []string{"rpm", "rpm2cpio", "cpio"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Logf("%s is not installed: the .rpm is built but not read", tool)
			return
		}
	}
	list := run(t, filepath.Dir(rpm), "rpm", "-qlp", rpm)
	for _, p := range installedPaths {
		if !strings.Contains(list, "/"+p+"\n") {
			t.Errorf("the .rpm does not install /%s:\n%s", p, list)
		}
	}
	root := t.TempDir()
	run(t, root, "sh", "-c", "rpm2cpio \"$0\" | cpio -idm --no-absolute-filenames --quiet", rpm)
	if out := run(t, root, filepath.Join(root, "usr", "bin", "toolhub"), "version"); !strings.Contains(out, "-next") {
		t.Errorf("the .rpm's toolhub says %q", out)
	}
}

// checkSBOM reads the binary's CycloneDX document: it must name toolhub
// and list the modules built into it, with their versions.
func checkSBOM(t *testing.T, dist string) {
	t.Helper()
	docs, _ := filepath.Glob(filepath.Join(dist, "toolhub_*_linux_amd64.cdx.json"))
	if len(docs) != 1 {
		t.Fatalf("dist has SBOMs %v, want one for linux/amd64", docs)
	}
	data, err := os.ReadFile(docs[0])
	if err != nil {
		t.Fatal(err)
	}
	var bom struct {
		BOMFormat string `json:"bomFormat"`
		Metadata  struct {
			Component struct{ Name string } `json:"component"`
		} `json:"metadata"`
		Components []struct{ Name, Version string } `json:"components"`
	}
	if err := json.Unmarshal(data, &bom); err != nil {
		t.Fatalf("SBOM %s: %v", docs[0], err)
	}
	versions := map[string]string{}
	for _, c := range bom.Components {
		versions[c.Name] = c.Version
	}
	if bom.BOMFormat != "CycloneDX" || !strings.Contains(bom.Metadata.Component.Name, "toolhub") {
		t.Fatalf("SBOM is %q of %q", bom.BOMFormat, bom.Metadata.Component.Name)
	}
	for _, mod := range []string{"github.com/mark3labs/mcp-go", "github.com/dgraph-io/badger/v4", "github.com/blevesearch/bleve/v2"} {
		if !strings.HasPrefix(versions[mod], "v") {
			t.Errorf("SBOM lists %s at %q; want its version", mod, versions[mod])
		}
	}
}

func TestDebInstallsAWorkingToolhub(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the release packages with GoReleaser; skipped under -short")
	}
	if _, err := exec.LookPath("dpkg"); err != nil {
		t.Skip("dpkg is not installed: the .deb cannot be unpacked here")
	}
	everything := testenv.NPMBin(t, "mcp-server-everything")
	repo := testenv.RepoRoot(t)
	deb := buildDeb(t, repo)

	root := t.TempDir()
	run(t, repo, "dpkg", "-x", deb, root)
	for _, p := range installedPaths {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("the package does not install /%s: %v", p, err)
		}
	}
	toolhub := filepath.Join(root, "usr", "bin", "toolhub")

	var info struct{ Version, Commit, Date string }
	if err := json.Unmarshal([]byte(run(t, repo, toolhub, "version", "--json")), &info); err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(run(t, repo, "git", "rev-parse", "HEAD"))
	if !strings.HasSuffix(info.Version, "-next") || info.Commit != head || info.Date == "" {
		t.Fatalf("installed toolhub version %+v; want a -next snapshot of commit %s with a date", info, head)
	}
	serveEverything(t, toolhub, everything)
}

// serveEverything runs the installed `toolhub serve` over stdio with
// server-everything behind it and calls its echo tool through the hub.
func serveEverything(t *testing.T, toolhub, everything string) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config.json")
	cfg := map[string]any{"mcpServers": map[string]any{"everything": map[string]any{"command": everything, "args": []string{"stdio"}}}}
	data, _ := json.Marshal(cfg)
	if err := os.WriteFile(config, data, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env := []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "XDG_DATA_HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	c, err := mcpclient.NewStdioMCPClient(toolhub, env, "--config", config, "serve")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var init mcpgo.InitializeRequest
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "release-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	tools, err := c.ListTools(ctx, mcpgo.ListToolsRequest{}) // waits for the downstream servers
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tool := range tools.Tools {
		found = found || tool.Name == "everything__echo"
	}
	if !found {
		t.Fatalf("the installed toolhub lists %d tools, none everything__echo", len(tools.Tools))
	}
	var call mcpgo.CallToolRequest
	call.Params.Name = "everything__echo"
	call.Params.Arguments = map[string]any{"message": "from the .deb"}
	res, err := c.CallTool(ctx, call)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) == 0 || res.IsError || !strings.Contains(mcpgo.GetTextFromContent(res.Content[0]), "from the .deb") {
		t.Fatalf("echo through the installed toolhub: %+v", res)
	}
}
