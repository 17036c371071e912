# graphcoder: `make demo` runs the main job on testdata/demo, `make test` runs the tests.
GO        ?= go
BIN       := bin/graphcoder
DEMO_REPO := testdata/demo
DEMO_IDX  := bin/demo-index
BENCH_OUT ?= bench/out

.PHONY: all build test demo bench fuzz vet fmt clean deps

# Debian packages the tests and benchmarks read real code from (JDK sources)
# or drive (Graphviz renders `graphcoder ccg --format dot`; Neovim is the
# editor of the LSP end-to-end test). Installed only
# when missing and when apt-get is usable; tests skip what they cannot find.
DEB_PACKAGES := openjdk-17-source graphviz neovim

all: build

build:
	$(GO) build -o $(BIN) ./cmd/graphcoder

vet:
	$(GO) vet ./...
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

test: deps vet
	$(GO) test -timeout 30m ./...

demo: build
	rm -rf $(DEMO_IDX)
	$(BIN) build --index $(DEMO_IDX) $(DEMO_REPO)
	$(BIN) complete --index $(DEMO_IDX) $(DEMO_REPO)/ledger/reports.py:31

bench: build
	bash bench/run.sh $(BENCH_OUT)

fuzz:
	$(GO) test ./lang/python -run '^$$' -fuzz FuzzParse -fuzztime 60s
	$(GO) test ./lang/java -run '^$$' -fuzz FuzzParse -fuzztime 60s
	$(GO) test ./ccg -run '^$$' -fuzz FuzzBuild -fuzztime 60s
	$(GO) test ./db -run '^$$' -fuzz FuzzDecode -fuzztime 60s

clean:
	rm -rf bin
