package desktopmain

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/cmd/internal/desktop"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/internal/fsutil"
	"github.com/toolhub/toolhub/policies"
	"github.com/toolhub/toolhub/ui"
)

// flags are the desktop's command-line options.
type flags struct {
	config   string
	httpAddr string
	noHTTP   bool
	tab      string
	search   string
	runTask  string
	expand   int
	server   string
	guide    bool
	width    float64
	height   float64
	// icon is the app's icon (PNG), for the window, the task bar and the
	// tray; without it the tray shows Fyne's broken-image icon, and the
	// Windows tray nothing, since Fyne cannot convert that SVG there.
	icon []byte
}

// Main runs the desktop app with the command-line arguments args (without
// the program name) and the app icon icon (PNG) until its window closes or
// ctx ends, and returns the exit status.
func Main(ctx context.Context, args []string, icon []byte) int {
	f := flags{icon: icon}
	fs := flag.NewFlagSet("toolhub-desktop", flag.ContinueOnError)
	fs.StringVar(&f.config, "config", "", "toolhub config file (default: $TOOLHUB_CONFIG or the user config dir)")
	fs.StringVar(&f.httpAddr, "http", "127.0.0.1:8765", "address of the MCP HTTP endpoint")
	fs.BoolVar(&f.noHTTP, "no-http", false, "do not serve MCP over HTTP")
	fs.StringVar(&f.tab, "tab", "", "tab to show first: Preferences, Servers and models, Documents or Runs")
	fs.StringVar(&f.search, "search", "", "search the documents for this at start")
	fs.StringVar(&f.runTask, "run", "", "run this task at start")
	fs.IntVar(&f.expand, "expand-step", 0, "open step N of the runs shown (with --run: of that run)")
	fs.StringVar(&f.server, "expand-server", "", "show this server's tools on the Servers tab")
	fs.BoolVar(&f.guide, "guide", false, "open the setup guide at start")
	fs.Float64Var(&f.width, "width", 0, "window width (default: as last closed)")
	fs.Float64Var(&f.height, "height", 0, "window height (default: as last closed)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if err := run(ctx, f, log); err != nil {
		fmt.Fprintln(os.Stderr, "toolhub-desktop:", err)
		return 1
	}
	return 0
}

func run(ctx context.Context, f flags, log *slog.Logger) error {
	cfg, models, err := loadConfig(f.config)
	if err != nil {
		return err
	}
	data, err := fsutil.DataDir()
	if err != nil {
		return err
	}
	inst, err := claimData(data)
	if errors.Is(err, errRunning) {
		fmt.Fprintln(os.Stderr, err) // not a failure: the running one is shown
		return nil
	}
	if err != nil {
		return err
	}
	if inst.unguarded != nil {
		log.Warn("a second start of the desktop will not find this one and will start its own servers", "err", inst.unguarded)
	}
	var shut closers
	defer shut.close()
	shut.add(func() { inst.Close() })
	runs := filepath.Join(data, "runs")
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: log, RunLogDir: runs,
		OpenIndex: indexOpener(cfg.Documents, log), WatchPreferences: true, WatchConfig: true})
	if err != nil {
		return err
	}
	shut.add(func() { d.Close() })
	store := d.Preferences()
	if store == nil { // a config held only in memory: keep them in the data folder
		if store, err = openDataPreferences(data, log); err != nil {
			return err
		}
		shut.add(func() { store.Close() })
	}
	// the backend makes the daemon follow store before Start, so that under
	// local-only no remote server is contacted
	backend := desktop.New(desktop.Options{Daemon: d, Config: cfg, Models: models, Store: store, RunLogDir: runs, Logger: log})
	shut.add(backend.Close)
	d.Start(ctx)
	d.StartModelHost(ctx)
	if !f.noHTTP {
		shut.add(serveHTTP(ctx, d, f, backend, log))
	}
	return show(ctx, backend, f, inst, &shut, log)
}

// claimData makes this desktop the one running on the data folder; when
// another already runs there, it is asked to show its window and the
// error is errRunning.
func claimData(data string) (*instance, error) {
	if err := os.MkdirAll(data, 0o700); err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	return claimInstance(data)
}

// show runs the window until it is closed (or ctx ends); a later start of
// the desktop brings it to the front. Should the window toolkit hang after
// quitting, shut runs and the process exits anyway (shutdown.go).
func show(ctx context.Context, backend *desktop.Backend, f flags, inst *instance, shut *closers, log *slog.Logger) error {
	a := app.NewWithID("dev.toolhub.desktop")
	if len(f.icon) > 0 {
		a.SetIcon(fyne.NewStaticResource("Icon.png", f.icon))
	}
	w := ui.New(a, backend, ui.Options{})
	if trayAvailable() {
		w.InstallTray()
	}
	inst.serve(func() { fyne.Do(w.Reveal) })
	// before Start: the rows and steps these name arrive from its loads
	if f.server != "" {
		w.Servers.ExpandServer(f.server)
	}
	if f.expand > 0 {
		w.Runs.ExpandStep(f.expand)
	}
	w.Start()
	if f.width > 0 && f.height > 0 {
		w.Window.Resize(fyne.NewSize(float32(f.width), float32(f.height)))
	}
	if f.tab != "" {
		w.Select(f.tab)
	}
	if f.search != "" {
		w.Documents.Search(f.search)
	}
	if f.runTask != "" {
		w.Runs.RunTask(f.runTask)
	}
	if f.guide {
		w.Guide.Open()
	}
	uiDone := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			w.Quit()
		case <-uiDone:
		}
	}()
	go finishIfStuck(ctx.Done(), w.Quitting(), uiDone, func() <-chan time.Time { return time.After(uiExitGrace) },
		func() { shut.close(); os.Exit(0) }, log)
	w.Window.ShowAndRun()
	close(uiDone)
	w.Stop()
	return nil
}

// trayAvailable reports whether a system tray can be reached: on Linux and
// the BSDs the tray is a D-Bus service, so a session bus is needed.
func trayAvailable() bool {
	switch runtime.GOOS {
	case "windows", "darwin":
		return true
	default:
		return os.Getenv("DBUS_SESSION_BUS_ADDRESS") != ""
	}
}

func loadConfig(flagValue string) (*config.File, *config.Models, error) {
	path, source, err := config.Locate(flagValue)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := config.LoadServe(path, source) // a bad server entry is listed as invalid; the rest start
	if err != nil {
		return nil, nil, err
	}
	// A model entry with a problem is left out, as the daemon leaves it
	// out and logs it.
	models, err := daemon.LoadModelsServe(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, nil, err
	}
	return cfg, models, nil
}

// openDataPreferences opens preferences.json in the data folder, for a
// config held only in memory.
func openDataPreferences(data string, log *slog.Logger) (*policies.Store, error) {
	path := filepath.Join(data, policies.PreferencesFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("preferences folder: %w", err)
	}
	return policies.OpenStore(path, policies.StoreOptions{Logger: log})
}
