#!/usr/bin/env bash
# What a steadier figure buys a user (doc/variance.md): TRIES ab runs of a
# command against itself (how often ab calls the same thing different), and
# a 5% step planted in the second half of 20 single runs recorded into a
# fresh history (whether db changes finds it), on the raw figure and the
# --normalize one.  Run it on an idle machine.
# usage: [TRIES=10] [PAIRS=10] scripts/steady-check.sh BPFBENCH OUTDIR [BENCH ARGS...]
set -euo pipefail
B=$(readlink -f "${1:?bpfbench binary}")
OUT=${2:?output dir}
shift 2
ARGS=("${@:-bpf-loop}")
[ $# -gt 0 ] || ARGS=(bpf-loop --nr_loops 1000)
TRIES=${TRIES:-10}
PAIRS=${PAIRS:-10}
mkdir -p "$OUT"
cmd="${ARGS[*]} --normalize"
# plant F JSON OUTDIR: ab's two sides as compare's two files (OUTDIR/a.json, b.json), B's
# figure and its normalized twin times F
plant() {
	local first
	first=$(python3 -c 'import json, sys; print(next(iter(json.load(open(sys.argv[1]))["runs"][1]["metrics"])))' "$2")
	python3 "$(dirname "$0")/ab_split.py" "$2" "$3/a.json" "$3/b.json" "$1" "$first" "$first-normalized"
}
# Each try: ab of the command against itself (how often the same is called
# different), then the same pairs with B's rates planted 5% lower (whether
# the paired test finds a 5% slowdown in PAIRS pairs), on the raw figure and
# on the normalized one.
for t in $(seq "$TRIES"); do
	"$B" ab "$cmd" "$cmd" -w0 -d1 -r "$PAIRS" --json "$OUT/ab.$t.json" >"$OUT/ab.$t.txt" 2>&1 || true
	mkdir -p "$OUT/p$t"
	plant 0.95 "$OUT/ab.$t.json" "$OUT/p$t"
	"$B" compare "$OUT/p$t/a.json" "$OUT/p$t/b.json" --paired -q >"$OUT/p$t/raw.txt" 2>&1 || true
	"$B" compare "$OUT/p$t/a.json" "$OUT/p$t/b.json" --paired --normalized -q \
		>"$OUT/p$t/norm.txt" 2>&1 || true
	echo "ab $t: $(head -1 "$OUT/ab.$t.txt" | cut -c1-110)" >&2
	echo "  same, normalized: $(grep -m1 -- '-normalized' "$OUT/ab.$t.txt" | tr -s ' ' | cut -c1-100)" >&2
	echo "  planted -5%: raw: $(head -1 "$OUT/p$t/raw.txt" | cut -c1-90)" >&2
	echo "  planted -5%: normalized: $(head -1 "$OUT/p$t/norm.txt" | cut -c1-90)" >&2
done
for i in $(seq 20); do
	"$B" -q -w0 -d1 "${ARGS[@]}" --normalize --json "$OUT/run.$i.json" >/dev/null 2>&1
done
python3 - "$OUT" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
# the second half 5% slower: every figure of the first metric and its normalized twin
for i in range(11, 21):
    p = os.path.join(out, "run.%d.json" % i)
    d = json.load(open(p))
    r = d["runs"][0]
    for name, m in r["metrics"].items():
        if m.get("kind") in ("rate",) and m.get("unit", "").endswith("ops/s"):
            for k in ("mean", "median", "min", "max", "ci95_low", "ci95_high", "stddev"):
                if isinstance(m.get(k), (int, float)):
                    m[k] *= 0.95
            for s in r["samples"]:
                if isinstance(s.get(name), (int, float)):
                    s[name] *= 0.95
    # one run a day apart: the history orders by date
    d["env"]["date"] = "2026-12-%02dT00:00:00Z" % i
    json.dump(d, open(p, "w"))
for i in range(1, 11):
    p = os.path.join(out, "run.%d.json" % i)
    d = json.load(open(p))
    d["env"]["date"] = "2026-12-%02dT00:00:00Z" % i
    json.dump(d, open(p, "w"))
PY
rm -f "$OUT/h.db"
"$B" db record --db "$OUT/h.db" -q "$OUT"/run.*.json
"$B" db changes --db "$OUT/h.db" --json >"$OUT/changes.json" || true
python3 - "$OUT/changes.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
items = d if isinstance(d, list) else d.get("changes", d.get("series", []))
print(json.dumps(items, indent=1)[:3000])
PY
