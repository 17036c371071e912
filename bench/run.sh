#!/bin/sh
# make bench: the benchmarks whose figures bench/RESULTS.md quotes, with
# the targets it states checked (GRAPHCODER_ASSERT: the retrieval median
# and the memory of an opened index fail the run when over target).
#   1. index build on the Python standard library (bench/build.sh, one run)
#   2. the memory an opened index holds against its size on disk
#   3. the retrieval benchmark (500 seeded cursors, coarse to fine) on the
#      index of step 1, checked to hold the entries build --json reports
# Outputs go to OUT (default bench/out); every command is echoed.
#
# Usage: bench/run.sh [OUT]
set -eu
out=${1:-bench/out}
mkdir -p "$out"
py=${PYTHON_STDLIB:-$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])' 2>/dev/null || true)}
if [ -z "$py" ] || [ ! -d "$py" ]; then
	echo "bench: the Python standard library is not installed: nothing to measure" >&2
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/graphcoder-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/graphcoder" ./cmd/graphcoder

echo "+ graphcoder build --json --index $work/index $work/stdlib"
mkdir -p "$work/stdlib"
(cd "$py" && tar --exclude=site-packages --exclude=__pycache__ -cf - .) | tar -C "$work/stdlib" -xf -
"$work/graphcoder" build --json --index "$work/index" "$work/stdlib" >"$out/build.json"
cat "$out/build.json"

failed=""
echo "+ GRAPHCODER_ASSERT=1 GRAPHCODER_INDEX=$work/index go test ./engine -run TestIndexMemory -v"
if ! GRAPHCODER_ASSERT=1 GRAPHCODER_INDEX="$work/index" go test ./engine -run '^TestIndexMemory$' -count=1 -v >"$out/memory.txt" 2>&1; then
	failed="$failed memory"
fi
cat "$out/memory.txt"

echo "+ GRAPHCODER_ASSERT=1 GRAPHCODER_INDEX=$work/index GRAPHCODER_BENCH_MODES=coarse2fine go test ./engine -run '^\$' -bench BenchmarkRetrieval -benchtime 1x"
if ! GRAPHCODER_ASSERT=1 GRAPHCODER_INDEX="$work/index" GRAPHCODER_BENCH_MODES=coarse2fine go test ./engine -run '^$' -bench BenchmarkRetrieval -benchtime 1x -count=1 >"$out/retrieval.txt" 2>&1; then
	failed="$failed retrieval"
fi
cat "$out/retrieval.txt"
# The benchmark must have searched what graphcoder build wrote.
built=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["entries"])' "$out/build.json")
searched=$(sed -n 's/^BenchmarkRetrieval.*[[:space:]]\([0-9][0-9]*\) entries[[:space:]].*/\1/p' "$out/retrieval.txt" | head -n 1)
echo "bench: build --json entries $built, retrieval benchmark entries ${searched:-none}"
if [ -z "$built" ] || [ "$built" != "$searched" ]; then
	failed="$failed entries"
fi
echo "bench: outputs in $out"
if [ -n "$failed" ]; then
	echo "bench: over target:$failed" >&2
	exit 1
fi
