#!/bin/sh
# Index build benchmarks (issue 2): the Python standard library (without
# site-packages, which the walk skips) and the JDK 17 java.base sources;
# (issue 14) the Go standard library ($(go env GOROOT)/src), and the
# sources of the npm packages effect (TypeScript) and svelte (JavaScript)
# as `make deps` installs them.
# For each code base, RUNS times: the parse floor (tree-sitter alone, same
# walk and workers: hidden `graphcoder parse-floor`), a first build into an
# empty index, and an unchanged rebuild; peak RSS from /usr/bin/time.
# Prints every run and a summary line of medians.
#
# Usage: bench/build.sh [WORKDIR] (default /tmp/graphcoder-bench); RUNS=3;
# ONLY="go effect" runs only the named code bases (python java.base go
# effect svelte).
set -eu
work=${1:-/tmp/graphcoder-bench}
runs=${RUNS:-3}
py=${PYTHON_STDLIB:-$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')}
srczip=${JDK_SRC_ZIP:-/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip}
if [ ! -e "$srczip" ] && [ "$(id -u)" = 0 ]; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-source >/dev/null
fi
mkdir -p "$work"
go build -o "$work/graphcoder" ./cmd/graphcoder
gc="$work/graphcoder"
if [ ! -d "$work/jdk/java.base" ]; then
	mkdir -p "$work/jdk"
	(cd "$work/jdk" && unzip -q "$srczip" 'java.base/*')
fi
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

# timed FILE CMD...: runs CMD, its stdout (one JSON object) to FILE, and
# appends "wall_s rss_kib" to FILE.time.
timed() {
	out=$1
	shift
	/usr/bin/time -f "%e %M" -o "$out.time" "$@" >"$out" 2>"$out.err"
}
field() { sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p" "$1"; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

run() { # name repo
	name=$1 repo=$2 idx="$work/index-$1" d="$work/$1"
	mkdir -p "$d"
	: >"$d/floor" && : >"$d/build" && : >"$d/rebuild" && : >"$d/rss"
	i=1
	while [ "$i" -le "$runs" ]; do
		timed "$d/floor.json" "$gc" parse-floor "$repo"
		field "$d/floor.json" seconds >>"$d/floor"
		rm -rf "$idx"
		timed "$d/build.json" "$gc" build --json --index "$idx" "$repo"
		field "$d/build.json" seconds >>"$d/build"
		cut -d' ' -f2 "$d/build.json.time" >>"$d/rss"
		timed "$d/rebuild.json" "$gc" build --json --index "$idx" "$repo"
		field "$d/rebuild.json" seconds >>"$d/rebuild"
		echo "$name run $i: floor $(tail -n1 "$d/floor") s, build $(tail -n1 "$d/build") s, rebuild $(tail -n1 "$d/rebuild") s, build peak RSS $(tail -n1 "$d/rss") KiB"
		i=$((i + 1))
	done
	floor=$(median <"$d/floor") build=$(median <"$d/build") rebuild=$(median <"$d/rebuild") rss=$(median <"$d/rss")
	lines=$(field "$d/build.json" lines) entries=$(field "$d/build.json" entries)
	stmts=$(field "$d/build.json" statements) bytes=$(field "$d/build.json" index_bytes)
	files=$(field "$d/build.json" files)
	awk -v n="$name" -v f="$floor" -v b="$build" -v r="$rebuild" -v rss="$rss" -v l="$lines" \
		-v e="$entries" -v s="$stmts" -v by="$bytes" -v fi="$files" 'BEGIN {
		printf "SUMMARY %s: files %d, lines %d, statements %d, entries %d, index %.1f MB (%.0f B/entry), ", n, fi, l, s, e, by/1e6, by/e
		printf "median floor %.2f s, build %.2f s (%.2fx floor, %.0f lines/s), unchanged rebuild %.3f s (%.1f%% of build), build peak RSS %.0f MiB\n", f, b, b/f, l/b, r, 100*r/b, rss/1024
	}'
	echo "== $name: decode every record"
	GRAPHCODER_BENCH_INDEX="$idx" go test ./db -run XXX -bench LoadAll -benchtime 3x | grep Benchmark
}
npm=${GRAPHCODER_NPM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/graphcoder/npm}/node_modules
want() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }
want python && run python "$py"
want java.base && run java.base "$work/jdk/java.base"
want go && run go "$(go env GOROOT)/src"
want effect && run effect "$npm/effect/src"
want svelte && run svelte "$npm/svelte/src"
true
