#!/bin/sh
# The paper's benchmark protocol (docs/EVAL.md) on real code bases: four
# Python standard-library packages, one Python project Debian ships as
# source (python3-oauthlib), three JDK 17 modules, three Go standard
# library packages ($(go env GOROOT)/src), three TypeScript code bases
# and two JavaScript ones from the npm packages `make deps` installs
# (@tanstack/query-core, effect, svelte), line and API level, every
# method, a fixed seed. Each run writes tasks.jsonl,
# predictions.jsonl, summary.json and metrics.svg under
# OUT/<code base>-<level>/ and its JSON summary to OUT/<code base>-<level>.json;
# OUT/index-<code base>.json is the summary of a graphcoder build of the code
# base (its index_bytes is the index's size on disk).
#
# Usage: bench/eval.sh [OUT]   (default /tmp/graphcoder-eval)
# Environment: TASKS (default 500 per code base and level), SEED (42),
# ABLATE (packing variants measured as well, default "all"; "" for none),
# METHODS (comma-separated methods, default all),
# GRAPHCODER (a prebuilt binary; default: build the committed HEAD, exported
# with git archive so that uncommitted edits stay out, into OUT),
# ONLY (space-separated code base names to run, default all).
# Needs go, git, unzip, python3 (the aggregate table) and /usr/bin/time.
set -eu
out=${1:-/tmp/graphcoder-eval}
tasks=${TASKS:-500}
ablate=${ABLATE-all}
methods=${METHODS:-}
seed=${SEED:-42}
py=${PYTHON_STDLIB:-$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')}
srczip=${JDK_SRC_ZIP:-/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip}
dist=/usr/lib/python3/dist-packages
mkdir -p "$out"

if [ ! -f "$srczip" ]; then
	# Debian ships the JDK sources as a package.
	apt-get install -y openjdk-17-source >/dev/null
fi
if [ ! -f "$dist/oauthlib/__init__.py" ]; then
	apt-get install -y python3-oauthlib >/dev/null
fi
if [ ! -d "$py/asyncio" ]; then
	echo "eval.sh: no Python standard library at $py (set PYTHON_STDLIB)" >&2
	exit 1
fi
goroot=$(go env GOROOT)/src
npm=${GRAPHCODER_NPM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/graphcoder/npm}/node_modules
if [ ! -d "$npm/effect/src" ] || [ ! -d "$npm/svelte/src" ] || [ ! -d "$npm/@tanstack/query-core/src" ]; then
	make -s deps >/dev/null
fi
jdk="$out/jdk"
if [ ! -d "$jdk/jdk.jshell" ]; then
	mkdir -p "$jdk"
	(cd "$jdk" && unzip -q -o "$srczip" 'java.net.http/*' 'java.base/java/util/concurrent/*' 'jdk.jshell/*')
fi

bin=${GRAPHCODER:-}
if [ -z "$bin" ]; then
	bin="$out/graphcoder"
	rm -rf "$out/src" && mkdir -p "$out/src"
	git archive HEAD | tar -x -C "$out/src"
	(cd "$out/src" && go build -o "$bin" ./cmd/graphcoder)
fi
{
	echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)"
	echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "cpus $(nproc)"
	echo "cpu $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
	echo "go $(go env GOVERSION 2>/dev/null || echo unknown)"
	echo "tasks $tasks seed $seed"
} >"$out/run-info.txt"

# name lang dir
codebases="
asyncio python $py/asyncio
email python $py/email
idlelib python $py/idlelib
multiprocessing python $py/multiprocessing
oauthlib python $dist/oauthlib
java.net.http java $jdk/java.net.http
java.util.concurrent java $jdk/java.base/java/util/concurrent
jdk.jshell java $jdk/jdk.jshell
net.http go $goroot/net/http
go.types go $goroot/go/types
encoding.json go $goroot/encoding/json
query-core typescript $npm/@tanstack/query-core/src
effect.http typescript $npm/effect/src/http
effect.cluster typescript $npm/effect/src/cluster
svelte.compiler javascript $npm/svelte/src/compiler
svelte.internal javascript $npm/svelte/src/internal
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
			--tasks "$tasks" --seed "$seed" --workers 1 ${ablate:+--ablate "$ablate"} ${methods:+--methods "$methods"} \
			--json --out "$out/$name-$level" \
			>"$out/$name-$level.json" 2>"$out/$name-$level.log"
		tail -n1 "$out/$name-$level.log"
	done
	# The graphcoder index on disk (the eval reports the loaded index).
	rm -rf "$out/index-$name"
	"$bin" build --json --index "$out/index-$name" "$dir" >"$out/index-$name.json" 2>/dev/null
done

# Mean of every metric over the code bases of a language and level, then
# the context metrics of graphcoder's prompt under each packing variant.
python3 - "$out" >"$out/aggregate.md" <<'PY'
import json, os, sys
out = sys.argv[1]
cols = ["em", "es", "id_em", "id_f1", "hit@1", "hit@5", "hit@10", "outside_hit@10", "retrieval_ms_p50", "retrieval_ms_p95"]
ctx = ["recall@5", "recall@10", "mrr", "novel_id_recall", "api_def_recall", "api_def_ceiling", "dup_line_share", "prompt_tokens", "utilization"]
vctx = ctx + ["em", "hit@10"]  # a variant that retrieves again has its own
groups = {}
for name in sorted(os.listdir(out)):
    if not name.endswith(".json") or name.startswith("index-"):
        continue
    with open(os.path.join(out, name)) as f:
        s = json.load(f)
    groups.setdefault((s["language"], s["level"]), []).append((name[:-5], s))
order = ["none", "vanilla", "shifted", "repocoder", "graphcoder-coarse", "graphcoder-fine", "graphcoder", "bm25", "graphcoder-hybrid"]
def key(m):
    return order.index(m) if m in order else len(order)
def mean(runs, get):
    vals = [get(s) for _, s in runs]
    vals = [v for v in vals if v is not None]
    return sum(vals) / len(vals) if vals else float("nan")
for (lang, level), runs in sorted(groups.items()):
    names = ", ".join(n for n, _ in runs)
    print(f"### {lang}, {level} level: mean of {len(runs)} code bases ({names})\n")
    print("| method | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    methods = sorted(runs[0][1]["methods"], key=key)
    for m in methods:
        vals = [mean(runs, lambda s: s["methods"][m].get(c)) for c in cols]
        print(f"| {m} | " + " | ".join(f"{v:.2f}" for v in vals) + " |")
    print(f"\n#### context of the prompts, {lang}, {level} level\n")
    print("| method | " + " | ".join(ctx) + " |")
    print("|---" * (len(ctx) + 1) + "|")
    for m in methods:
        vals = [mean(runs, lambda s: s["methods"][m].get(c)) for c in ctx]
        print(f"| {m} | " + " | ".join(f"{v:.2f}" for v in vals) + " |")
    variants = runs[0][1].get("ablation") or {}
    for m in [m for m in ("graphcoder", "vanilla") if m in methods]:
        if not variants:
            break
        print(f"\n#### packing ablation, {m}, {lang}, {level} level\n")
        print("| variant | " + " | ".join(vctx) + " |")
        print("|---" * (len(vctx) + 1) + "|")
        vals = [mean(runs, lambda s: s["methods"][m].get(c)) for c in vctx]
        print(f"| default | " + " | ".join(f"{v:.2f}" for v in vals) + " |")
        for v in variants:
            vals = [mean(runs, lambda s: s.get("ablation", {}).get(v, {}).get(m, {}).get(c)) for c in vctx]
            print(f"| {v} | " + " | ".join(f"{x:.2f}" for x in vals) + " |")
    print()
PY
cat "$out/aggregate.md"
