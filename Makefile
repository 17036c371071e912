# graphcoder: `make demo` runs the main job on testdata/demo, `make test` runs the tests.
GO        ?= go
BIN       := bin/graphcoder
DEMO_REPO := testdata/demo
DEMO_IDX  := bin/demo-index
BENCH_OUT ?= /tmp/graphcoder-bench-out

.PHONY: all build test demo bench fuzz vet fmt clean deps attack

# Debian packages the tests and benchmarks read real code from (JDK sources)
# or drive (Graphviz renders `graphcoder ccg --format dot`; Neovim is the
# editor of the LSP end-to-end test). Installed only
# when missing and when apt-get is usable; tests skip what they cannot find.
DEB_PACKAGES := openjdk-17-source graphviz neovim

# npm packages whose sources the TypeScript and JavaScript tests and
# evaluations read, installed into a cache folder outside the repository
# (npm install --prefix); tests skip when they are absent.
NPM_DIR      ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/graphcoder/npm
NPM_PACKAGES := effect@4.1.0 @tanstack/query-core@5.108.4 svelte@5.57.3
export GRAPHCODER_NPM_DIR := $(NPM_DIR)
# Tabby's editor agent, which the Tabby end-to-end test drives against
# graphcoder serve, in a prefix of its own (it brings its own dependencies);
# the version is server/backend's TabbyAgentVersion.
TABBY_AGENT_VERSION := 1.5.0
TABBY_AGENT_DIR     := $(NPM_DIR)/tabby-agent-$(TABBY_AGENT_VERSION)

all: build

build:
	$(GO) build -o $(BIN) ./cmd/graphcoder

vet:
	$(GO) vet ./...
	$(GO) mod tidy -diff
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
		else echo "not installing$$missing (needs root and apt-get); tests that need them skip"; fi; \
	fi
	@if command -v npm >/dev/null; then \
		missing=""; for p in $(NPM_PACKAGES); do n=$${p%@*}; v=$${p##*@}; \
			grep -qs "\"version\": \"$$v\"" "$(NPM_DIR)/node_modules/$$n/package.json" || missing="$$missing $$p"; done; \
		if [ -n "$$missing" ]; then \
			echo "npm installing$$missing into $(NPM_DIR)"; mkdir -p "$(NPM_DIR)"; \
			npm install --prefix "$(NPM_DIR)" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund $(NPM_PACKAGES) >/dev/null \
				|| echo "npm install failed; tests that need these packages skip"; \
		fi; \
	else echo "npm not found; tests that need npm packages skip"; fi
	@if command -v npm >/dev/null && [ ! -f "$(TABBY_AGENT_DIR)/node_modules/tabby-agent/dist/cli.js" ]; then \
		echo "npm installing tabby-agent@$(TABBY_AGENT_VERSION) into $(TABBY_AGENT_DIR)"; mkdir -p "$(TABBY_AGENT_DIR)"; \
		timeout 300 npm install --prefix "$(TABBY_AGENT_DIR)" --no-audit --no-fund --ignore-scripts --loglevel=error \
			tabby-agent@$(TABBY_AGENT_VERSION) >/dev/null \
			|| echo "npm install tabby-agent failed; the Tabby agent test installs it itself or skips"; \
	fi

test: deps vet
	$(GO) test -timeout 30m ./...

demo: build
	rm -rf $(DEMO_IDX)
	$(BIN) build --index $(DEMO_IDX) $(DEMO_REPO)
	$(BIN) complete --index $(DEMO_IDX) $(DEMO_REPO)/ledger/reports.py:31

bench: build
	bash bench/run.sh $(BENCH_OUT)

# The attack matrix of docs/RELIABILITY.md (disk-full rows need root).
attack:
	$(GO) run ./internal/attack -out docs/RELIABILITY.md

fuzz:
	$(GO) test ./lang/python -run '^$$' -fuzz FuzzParse -fuzztime 60s
	$(GO) test ./lang/java -run '^$$' -fuzz FuzzParse -fuzztime 60s
	$(GO) test ./lang/golang -run '^$$' -fuzz FuzzParse -fuzztime 60s
	$(GO) test ./lang/javascript -run '^$$' -fuzz FuzzParse -fuzztime 60s
	$(GO) test ./lang/typescript -run '^$$' -fuzz FuzzParse -fuzztime 60s
	$(GO) test ./ccg -run '^$$' -fuzz FuzzBuild -fuzztime 60s
	$(GO) test ./db -run '^$$' -fuzz FuzzDecode -fuzztime 60s

clean:
	rm -rf bin
