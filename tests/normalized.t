#!/usr/bin/env bash
# Judging on the speed reference's normalized figure when asked (issue 41):
# compare --normalized answers and gates on NAME-normalized, not NAME; db
# changes --normalized keeps only those series; the history records each
# run's placement (samples whose threads moved).  Crafted results
# (tests/gen_results.py): the raw figure falls 30% where the host slowed,
# its normalized twin stays; one ab of bpf-loop (-w0 -d1) against itself.
source "$(dirname "$0")/lib.sh"

GEN="$(dirname "$0")/gen_results.py"
# craft SEED RATE-SCALE NORM-SCALE MOVED OUT: one row, -r 3, with
# throughput-normalized = the throughput at scale 1 times NORM-SCALE
craft() {
	python3 "$GEN" --seed "$1" --rows 1 --runs 3 --samples 10 --cv 0.01 --between-cv 0.005 \
		--rate-scale "$2" "$TMPD/raw.json" || return 1
	python3 - "$TMPD/raw.json" "$2" "$3" "$4" "$5" "$1" <<'PY'
import copy, json, sys
src, rate, norm, moved, out, seed = sys.argv[1:7]
d = json.load(open(src))
d["env"]["date"] = "2026-03-%02dT12:00:00Z" % int(seed)
r = d["runs"][0]
f = float(norm) / float(rate)
m = copy.deepcopy(r["metrics"]["throughput"])
for k in ("mean", "median", "min", "max", "stddev", "ci95_low", "ci95_high"):
    if isinstance(m.get(k), (int, float)):
        m[k] *= f
r["metrics"]["throughput-normalized"] = m
for s in r["samples"]:
    s["throughput-normalized"] = s["throughput"] * f
for rep in r.get("repeats", []):
    t = copy.deepcopy(rep["metrics"]["throughput"])
    for k in ("mean", "stddev"):
        if isinstance(t.get(k), (int, float)):
            t[k] *= f
    rep["metrics"]["throughput-normalized"] = t
r["moved_samples"] = int(moved)
json.dump(d, open(out, "w"))
PY
}
craft 1 1.0 1.0 0 "$TMPD/old.json" && craft 2 0.7 1.0 2 "$TMPD/new.json" ||
	{ fail "crafted results"; done_testing; exit 1; }

run compare "$TMPD/old.json" "$TMPD/new.json" --fail-on-regression 10 -q
[ "$RC" -eq 1 ] && grep -q "slower" <<<"$OUT"
ok $? "the raw figure 30% lower: a regression (exit 1)" || diag "$RC $OUT $ERR"

run compare "$TMPD/old.json" "$TMPD/new.json" --normalized --fail-on-regression 10
[ "$RC" -eq 0 ] && head -1 <<<"$OUT" | grep -q "throughput-normalized" &&
	! head -1 <<<"$OUT" | grep -q slower && grep -q "Gate: .* 0 regressions" <<<"$OUT"
ok $? "--normalized: the answer line and the gate follow throughput-normalized" ||
	diag "$RC $OUT $ERR"

python3 "$GEN" --seed 3 --rows 1 --runs 3 "$TMPD/plain.json"
run compare "$TMPD/plain.json" "$TMPD/plain.json" --normalized
[ "$RC" -eq 2 ] && grep -q "take them with --normalize" <<<"$ERR" && [ -z "$OUT" ]
ok $? "--normalized on runs without a normalized metric: exit 2, nothing judged" ||
	diag "$RC $OUT $ERR"

run ab "bpf-loop" "bpf-loop" -r 3 -w0 -d0.25 --period-ms 250 --normalized -q
[ "$RC" -eq 0 ] && head -1 <<<"$OUT" | grep -q "^bpf-loop: .*throughput-normalized"
ok $? "ab --normalized: both sides run with --normalize, the answer on the normalized row" ||
	diag "$RC $OUT $ERR"

# a history: five runs at 1.0, five where the host slowed (raw 0.7, normalized 1.0)
DB=$TMPD/h.db
for i in 1 2 3 4 5; do craft "$i" 1.0 1.0 0 "$TMPD/h$i.json"; done
for i in 6 7 8 9; do craft "$i" 0.7 1.0 1 "$TMPD/h$i.json"; done
craft 10 0.7 1.0 1 "$TMPD/h10.json"
run db record -q --host h --db "$DB" "$TMPD"/h[0-9]*.json
[ "$RC" -eq 0 ]
ok $? "ten crafted runs recorded" || diag "$ERR"

run db changes --db "$DB" --metric throughput
grep -q "1 change point" <<<"$OUT" && grep -q "threads moved CPU in 5 of its runs" <<<"$OUT"
ok $? "raw: the host's slow phase is a change point, its side's moved runs named" ||
	diag "$OUT $ERR"

run db changes --db "$DB" --normalized
[ "$RC" -eq 0 ] && grep -q "^0 change points in 1 normalized series" <<<"$OUT"
ok $? "db changes --normalized: only the normalized series, no change" || diag "$OUT $ERR"

run db show bpf-loop --db "$DB" --metric throughput --json
python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))
assert [x["moved_samples"] for x in p] == [0] * 5 + [1] * 5, p
assert all(x["nr_samples"] == 30 for x in p)' "$TMPD/out"
ok $? "the history keeps each run's moved samples (db show --json)" || diag "$OUT $ERR"

done_testing
