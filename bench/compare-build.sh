#!/bin/sh
# Index builds of two graphcoder binaries, interleaved: for each code base,
# RUNS times, A then B: the parse floor, a first build into an empty index
# and an unchanged rebuild, with wall and CPU time and peak RSS from
# /usr/bin/time and the index size on disk. Prints every run, then the
# medians of each binary and B's ratio to A. Code bases: the Python
# standard library and the JDK 17 java.base sources (bench/build.sh's), or
# CODEBASES, a list of "name dir" pairs separated by ';'.
#
# Usage: bench/compare-build.sh BIN_A BIN_B [WORKDIR]   (RUNS=3, CODEBASES)
set -eu
a=$1 b=$2
work=${3:-/tmp/graphcoder-compare-build}
runs=${RUNS:-3}
py=${PYTHON_STDLIB:-$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')}
srczip=${JDK_SRC_ZIP:-/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip}
mkdir -p "$work"
codebases=${CODEBASES:-}
if [ -z "$codebases" ]; then
	if [ ! -d "$work/jdk/java.base" ]; then
		mkdir -p "$work/jdk"
		(cd "$work/jdk" && unzip -q "$srczip" 'java.base/*')
	fi
	codebases="python $py;java.base $work/jdk/java.base"
fi
field() { sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p" "$1"; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
: >"$work/runs"
IFS=';'
set -- $codebases
unset IFS
for cb in "$@"; do
	set -- $cb
	name=$1 repo=$2
	i=1
	while [ "$i" -le "$runs" ]; do
		for v in A B; do
			bin=$a
			[ "$v" = B ] && bin=$b
			"$bin" parse-floor "$repo" >"$work/floor.json" 2>/dev/null
			rm -rf "$work/idx"
			/usr/bin/time -f "%e %U %S %M" -o "$work/time" "$bin" build --json --index "$work/idx" "$repo" >"$work/build.json" 2>/dev/null
			"$bin" build --json --index "$work/idx" "$repo" >"$work/rebuild.json" 2>/dev/null
			set -- $(cat "$work/time")
			line="$name $v $(field "$work/floor.json" seconds) $(field "$work/build.json" seconds) $(echo "$2 $3" | awk '{print $1+$2}') $4 $(field "$work/rebuild.json" seconds) $(field "$work/build.json" index_bytes)"
			echo "$line" >>"$work/runs"
			echo "$line" | awk '{printf "%s %s run: floor %.2f s, build %.2f s (CPU %.2f s, peak RSS %d KiB), rebuild %.3f s, index %d B\n", $1, $2, $3, $4, $5, $6, $7, $8}'
		done
		i=$((i + 1))
	done
done
for cb in $(awk '{print $1}' "$work/runs" | uniq); do
	for col in 3 4 5 6 7 8; do
		ma=$(awk -v n=$cb -v c=$col '$1==n && $2=="A" {print $c}' "$work/runs" | median)
		mb=$(awk -v n=$cb -v c=$col '$1==n && $2=="B" {print $c}' "$work/runs" | median)
		echo "$cb $col $ma $mb"
	done
done | awk 'BEGIN {split("x x floor_s build_s build_cpu_s peak_rss_kib rebuild_s index_bytes", h, " ")}
	{printf "SUMMARY %s %s: A %g, B %g, B/A %.3f\n", $1, h[$2], $3, $4, ($3 > 0) ? $4 / $3 : 0}'
