#!/bin/sh
# The paper's benchmark protocol (docs/EVAL.md) on real code bases: four
# Python standard-library packages and three JDK 17 modules, line and API
# level, every method, a fixed seed. Each run writes tasks.jsonl,
# predictions.jsonl, summary.json and metrics.svg under
# OUT/<code base>-<level>/ and its JSON summary to OUT/<code base>-<level>.json.
#
# Usage: bench/eval.sh [OUT]   (default /tmp/graphcoder-eval)
# Environment: TASKS (default 500 per code base and level), SEED (42),
# GRAPHCODER (a prebuilt binary; default: build ./cmd/graphcoder into OUT),
# ONLY (space-separated code base names to run, default all).
set -eu
out=${1:-/tmp/graphcoder-eval}
tasks=${TASKS:-500}
seed=${SEED:-42}
py=${PYTHON_STDLIB:-/root/.pyenv/versions/3.11.7/lib/python3.11}
srczip=${JDK_SRC_ZIP:-/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip}
mkdir -p "$out"

if [ ! -f "$srczip" ]; then
	# Debian ships the JDK sources as a package.
	apt-get install -y openjdk-17-source >/dev/null
fi
if [ ! -d "$py/asyncio" ]; then
	echo "eval.sh: no Python standard library at $py (set PYTHON_STDLIB)" >&2
	exit 1
fi
jdk="$out/jdk"
if [ ! -d "$jdk/jdk.jshell" ]; then
	mkdir -p "$jdk"
	(cd "$jdk" && unzip -q -o "$srczip" 'java.net.http/*' 'java.base/java/util/concurrent/*' 'jdk.jshell/*')
fi

bin=${GRAPHCODER:-}
if [ -z "$bin" ]; then
	bin="$out/graphcoder"
	go build -o "$bin" ./cmd/graphcoder
fi
{
	echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)"
	echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "cpus $(nproc)"
	echo "tasks $tasks seed $seed"
} >"$out/run-info.txt"

# name lang dir
codebases="
asyncio python $py/asyncio
email python $py/email
idlelib python $py/idlelib
multiprocessing python $py/multiprocessing
java.net.http java $jdk/java.net.http
java.util.concurrent java $jdk/java.base/java/util/concurrent
jdk.jshell java $jdk/jdk.jshell
"
echo "$codebases" | while read -r name lang dir; do
	[ -n "$name" ] || continue
	if [ -n "${ONLY:-}" ]; then
		case " $ONLY " in *" $name "*) ;; *) continue ;; esac
	fi
	for level in line api; do
		echo "== $name ($lang, $level level)"
		/usr/bin/time -f "$name $level: wall %e s, peak RSS %M KiB" \
			"$bin" eval --repo "$dir" --lang "$lang" --level "$level" \
			--tasks "$tasks" --seed "$seed" --workers 1 \
			--json --out "$out/$name-$level" \
			>"$out/$name-$level.json" 2>"$out/$name-$level.log"
		tail -n1 "$out/$name-$level.log"
	done
done
