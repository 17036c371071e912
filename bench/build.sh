#!/bin/sh
# Index build benchmarks: the Python standard library (without
# site-packages, which the walk skips) and the JDK's java.base sources.
# For each: the tree-sitter parse floor (hidden `graphcoder parse-floor`),
# a first build, and an unchanged rebuild, with peak RSS from /usr/bin/time.
# Usage: bench/build.sh [WORKDIR]   (default /tmp/graphcoder-bench)
set -eu
work=${1:-/tmp/graphcoder-bench}
py=${PYTHON_STDLIB:-/root/.pyenv/versions/3.11.7/lib/python3.11}
srczip=${JDK_SRC_ZIP:-/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip}
mkdir -p "$work"
go build -o "$work/graphcoder" ./cmd/graphcoder
if [ ! -d "$work/jdk/java.base" ]; then
	mkdir -p "$work/jdk"
	(cd "$work/jdk" && unzip -q "$srczip" 'java.base/*')
fi
run() { # name repo
	name=$1 repo=$2 idx="$work/index-$1"
	rm -rf "$idx"
	echo "== $name: parse floor"
	/usr/bin/time -f "wall %e s, peak RSS %M KiB" "$work/graphcoder" parse-floor "$repo"
	echo "== $name: first build"
	/usr/bin/time -f "wall %e s, peak RSS %M KiB" "$work/graphcoder" build --json --index "$idx" "$repo" 2>"$work/$name.progress"
	tail -n1 "$work/$name.progress"
	echo "== $name: unchanged rebuild"
	/usr/bin/time -f "wall %e s, peak RSS %M KiB" "$work/graphcoder" build --json --index "$idx" "$repo" 2>"$work/$name.progress"
	tail -n1 "$work/$name.progress"
	echo "== $name: load every record"
	GRAPHCODER_BENCH_INDEX="$idx" go test ./db -run XXX -bench LoadAll -benchtime 3x | grep Benchmark
}
run python "$py"
run java.base "$work/jdk/java.base"
