#!/bin/sh
# Stage figures of named cursors for two or more engine test binaries,
# measured in one sitting: BenchmarkCursor (GRAPHCODER_BENCH_AT, N
# requests a cursor, the buffer cache emptied before each) of each binary
# in turn, ROUNDS rounds; then per cursor and binary the median over the
# rounds of each run's medians: total, parse, coarse, fine, definitions,
# prompt (wall ms) and cpu (the process CPU time of a request, ms).
#
# Usage: bench/cursor_stages.sh ROUNDS N INDEX CURSORS TAG=BINARY...
#   CURSORS is comma separated PATH:LINE, paths relative to the index's root, e.g.
#   bench/cursor_stages.sh 3 20 /tmp/idx-jdk java.base/sun/security/ssl/SSLContextImpl.java:1032 old=/tmp/old.test new=/tmp/new.test
# Run it from the repository root (the binaries run in engine/).
set -eu
rounds=$1 n=$2 index=$3 cursors=$4
shift 4
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for i in $(seq "$rounds"); do
	for tb in "$@"; do
		tag=${tb%%=*} bin=${tb#*=}
		echo "## $tag" >>"$out"
		(cd engine && GRAPHCODER_INDEX=$index GRAPHCODER_BENCH_AT=$cursors \
			"$bin" -test.run XXX -test.bench '^BenchmarkCursor$' -test.benchtime "${n}x" | grep '^BenchmarkCursor/' >>"$out")
	done
done
python3 - "$out" <<'PY'
import re, statistics, sys
runs, tag = {}, None
for line in open(sys.argv[1]):
    if line.startswith("## "):
        tag = line.split()[1]
        continue
    name = line.split()[0].split("/", 1)[1].rsplit("-", 1)[0]
    for v, k in re.findall(r"([\d.]+) (\w+)-ms", line):
        runs.setdefault((name, tag), {}).setdefault(k, []).append(float(v))
cols = ["total", "parse", "coarse", "fine", "definitions", "prompt", "cpu"]
print("| cursor | binary | " + " | ".join(cols) + " |")
print("|---|---|" + "--:|" * len(cols))
for (name, tag), d in runs.items():
    print(f"| {name} | {tag} | " + " | ".join("%.1f" % statistics.median(d[c]) if c in d else "-" for c in cols) + " |")
PY
