# toolhub — `make help` lists the targets.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
GO      ?= go
BIN     := bin
ADDR    ?= 127.0.0.1:8765

.DEFAULT_GOAL := help

.PHONY: help
help: ## Show this help
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  \033[36m%-12s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: setup
setup: ## Install missing Debian packages and the npm test servers
	@./scripts/install-system.sh
	@./scripts/install-tools.sh

# -s -w leave out the symbol table and DWARF: the binary is a third smaller
# and an idle "toolhub serve" maps about 3 MiB fewer of its pages. Panics and
# stack traces still name every function.
LDFLAGS ?= -s -w

# -buildvcs=auto: `toolhub version` names the commit and its date when the
# build is made from a git checkout, even where GOFLAGS turns that off.
.PHONY: build
build: ## Build bin/toolhub (pure Go, CGO_ENABLED=0, no symbol table)
	@mkdir -p $(BIN)
	CGO_ENABLED=0 $(GO) build -trimpath -buildvcs=auto -ldflags="$(LDFLAGS)" -o $(BIN)/toolhub ./cmd/toolhub

.PHONY: desktop
# no_animations: a focused text box's blinking cursor repainted the window
# all the time (14% of a core while idle); without animations it is drawn
# once.
DESKTOP_TAGS ?= no_animations

.PHONY: desktop
desktop: ## Build bin/toolhub-desktop (Fyne: cgo and the X11/GL headers from make setup)
	@mkdir -p $(BIN)
	$(GO) build -tags $(DESKTOP_TAGS) -o $(BIN)/toolhub-desktop ./cmd/toolhub-desktop

FYNE ?= $(GO) run fyne.io/tools/cmd/fyne@v1.7.4

.PHONY: desktop-package
desktop-package: ## Package the Linux desktop app: dist/desktop/toolhub-desktop.tar.xz (fyne package: binary, .desktop entry, icon; cgo)
	@mkdir -p dist/desktop
	cd cmd/toolhub-desktop && $(FYNE) package --target linux --release --tags $(DESKTOP_TAGS) --icon Icon.png --name toolhub-desktop
	mv cmd/toolhub-desktop/toolhub-desktop.tar.xz dist/desktop/

# The Windows desktop app, cross-built here with mingw-w64's gcc (Debian:
# apt-get install gcc-mingw-w64-x86-64), as a GUI program: no console window.
MINGW_CC ?= x86_64-w64-mingw32-gcc

.PHONY: desktop-windows
desktop-windows: ## Cross-build bin/toolhub-desktop.exe for Windows amd64 (cgo with mingw-w64's gcc, x86_64-w64-mingw32-gcc)
	@command -v $(MINGW_CC) >/dev/null || { echo "desktop-windows needs $(MINGW_CC): apt-get install gcc-mingw-w64-x86-64" >&2; exit 1; }
	@mkdir -p $(BIN)
	CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=$(MINGW_CC) $(GO) build -tags $(DESKTOP_TAGS) -ldflags="-H=windowsgui" -o $(BIN)/toolhub-desktop.exe ./cmd/toolhub-desktop

.PHONY: release-snapshot
release-snapshot: ## Build every release archive, checksums, SBOMs, .deb and .rpm into dist/ (pinned GoReleaser, no publishing)
	./scripts/goreleaser.sh release --snapshot --clean

.PHONY: cross-build
cross-build: ## Build the headless binary for linux, darwin and windows (amd64, arm64) and go vet for windows and darwin
	./scripts/cross-build.sh

.PHONY: run
run: setup build ## Open the desktop app when a display is available, else serve MCP over HTTP on $(ADDR)
	@if [[ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]]; then \
		echo "make run: no display (DISPLAY and WAYLAND_DISPLAY are unset): serving MCP over HTTP on $(ADDR) (toolhub serve --http)"; \
		exec $(BIN)/toolhub serve --http=$(ADDR); \
	fi; \
	echo "make run: display $${DISPLAY:-$$WAYLAND_DISPLAY} found: opening the desktop app, which also serves MCP over HTTP on $(ADDR)"; \
	$(MAKE) --no-print-directory desktop && exec $(BIN)/toolhub-desktop --http $(ADDR)

.PHONY: screenshots
screenshots: setup ## Render docs/screenshots/*.png: the real desktop app under Xvfb with a demo configuration
	./scripts/screenshots.sh

.PHONY: test
test: setup build ## Set up and run every test (race detector, npm servers, conformance)
	$(GO) vet -trimpath ./...
	$(GO) test -race -count=1 -timeout 20m ./...

.PHONY: test-short
test-short: ## Run the fast tests only (no npm servers, no child-process suites)
	$(GO) test -race -short ./...

.PHONY: test-windows
test-windows: ## Run every package's Windows tests under Wine (installs wine64 and mingw-w64; not part of make test)
	./scripts/test-windows.sh

.PHONY: bench
bench: setup build ## Run the Go benchmarks and the toolhub bench suite
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(BIN)/toolhub bench catalog

.PHONY: lint
lint: ## gofmt, go vet and golangci-lint (pinned; .golangci.yml)
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [[ -n "$$out" ]]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet -trimpath ./...
	./scripts/golangci-lint.sh

.PHONY: clean
clean: ## Remove build outputs
	rm -rf $(BIN)
