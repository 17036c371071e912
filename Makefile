# graphcoder: `make demo` runs the main job on testdata/demo, `make test` runs the tests.
GO        ?= go
BIN       := bin/graphcoder
DEMO_REPO := testdata/demo
DEMO_IDX  := bin/demo-index
BENCH_OUT ?= bench/out

.PHONY: all build test demo bench fuzz vet fmt clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/graphcoder

vet:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

test: vet
	$(GO) test -timeout 30m ./...

demo: build
	rm -rf $(DEMO_IDX)
	$(BIN) build --index $(DEMO_IDX) $(DEMO_REPO)
	$(BIN) complete --index $(DEMO_IDX) $(DEMO_REPO)/ledger/reports.py:32

bench: build
	bash bench/run.sh $(BENCH_OUT)

fuzz:
	$(GO) test ./lang/python -run '^$$' -fuzz FuzzParse -fuzztime 60s
	$(GO) test ./lang/java -run '^$$' -fuzz FuzzParse -fuzztime 60s
	$(GO) test ./ccg -run '^$$' -fuzz FuzzBuild -fuzztime 60s
	$(GO) test ./db -run '^$$' -fuzz FuzzDecode -fuzztime 60s

clean:
	rm -rf bin
