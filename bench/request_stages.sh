#!/bin/sh
# Per-request stage figures of two or more engine test binaries, measured
# in one sitting: BenchmarkRetrieval (one mode) of each binary in turn,
# ROUNDS rounds, each run writing its per-request file
# (GRAPHCODER_BENCH_TSV: cursor, total, parse, coarse, fine, definitions,
# prompt in ms); then the median and p99 of each column over the rows of
# all rounds pooled, "rest" being total less the five stages (reading
# the candidates' windows, releasing mapped pages, the prediction, the
# result), and each binary's figures as a ratio of the first's.
#
# Usage: bench/request_stages.sh ROUNDS MODE INDEX OUT TAG=BINARY[@INDEX]...
#   e.g. go test -c -o /tmp/old.test ./engine   (at the old commit), the same for the new, then
#   bench/request_stages.sh 3 hybrid /tmp/idx-jdk /tmp/stages old=/tmp/old.test new=/tmp/new.test
# A binary given as BINARY@INDEX runs on that index instead of INDEX (a
# change whose build writes new sections: each binary on its own index).
# Run it from the repository root (the binaries run in engine/).
set -eu
rounds=$1 mode=$2 index=$3 out=$4
shift 4
mkdir -p "$out"
for i in $(seq "$rounds"); do
	for tb in "$@"; do
		tag=${tb%%=*} bin=${tb#*=} idx=$index
		case $bin in
		*@*) idx=${bin#*@} bin=${bin%%@*} ;;
		esac
		(cd engine && GRAPHCODER_INDEX=$idx GRAPHCODER_BENCH_MODES=$mode GRAPHCODER_BENCH_TSV=$out/$tag.$i \
			"$bin" -test.run XXX -test.bench 'Retrieval$' -test.benchtime 1x >"$out/$tag.$i.out" 2>&1)
	done
done
python3 - "$rounds" "$(echo "$mode" | tr / _)" "$out" "$@" <<'PY'
import sys
rounds, mode, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
tags = [a.split("=", 1)[0] for a in sys.argv[4:]]
cols = ["total", "parse", "coarse", "fine", "definitions", "prompt", "rest"]

def q(v, p):
    v = sorted(v)
    return v[int(p * (len(v) - 1))]

figs = {}
for t in tags:
    rows = {c: [] for c in cols}
    for i in range(1, rounds + 1):
        for line in open(f"{out}/{t}.{i}.{mode}.tsv"):
            v = [float(x) for x in line.split("\t")[1:7]]
            v.append(v[0] - sum(v[1:6]))
            for c, x in zip(cols, v):
                rows[c].append(x)
    figs[t] = {c: (q(rows[c], 0.5), q(rows[c], 0.99)) for c in cols}
print("| binary | " + " | ".join(f"{c} p50 / p99" for c in cols) + " |")
print("|---" * (len(cols) + 1) + "|")
for t in tags:
    print(f"| {t} | " + " | ".join(f"{a:.2f} / {b:.1f}" for a, b in (figs[t][c] for c in cols)) + " |")
for t in tags[1:]:
    r = [f"{figs[t][c][0] / max(figs[tags[0]][c][0], 1e-9):.2f}x / {figs[t][c][1] / max(figs[tags[0]][c][1], 1e-9):.2f}x" for c in cols]
    print(f"| {t} / {tags[0]} | " + " | ".join(r) + " |")
PY
