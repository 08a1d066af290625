#!/usr/bin/env bash
# The verdicts, calibrated: the fixed-seed subset of the calibration harness
# (tests/calib, doc/calibration.md) within its targets, and compare's answer
# lines on crafted documents, one for each verdict, in their golden shapes.
source "$(dirname "$0")/lib.sh"

CALIB="$BUILD_DIR/tests/calib"
[ -x "$CALIB" ] || { echo "1..0 # SKIP $CALIB not built"; exit 0; }

# the harness's own TAP, its lines counted into ours (not under ASan: its
# thousands of draws are the plain pass's; the crafted cases below run there)
if ldd "$BPFBENCH" 2>/dev/null | grep -q libasan; then
	skip "the calibration subset: the plain pass runs it"
else
"$CALIB" --check >"$TMPD/check.tap"
rc=$?
total=$(grep -c '^ok\|^not ok' "$TMPD/check.tap")
bad=$(grep '^not ok' "$TMPD/check.tap")
[ "$rc" -eq 0 ] && [ "$total" -ge 100 ] && [ -z "$bad" ]
ok $? "calibration subset (fixed seed): $total checks of coverage, false alarms, equal at ±5% and CI width" ||
	diag "$bad"
fi

# doc FILE SPEC...: a one-run result; each SPEC is metric=kind:unit:v1,v2,... (samples)
# or metric=level:unit:value[:resolution] (a level, one value a run)
doc() {
	python3 - "$@" <<'PY'
import json, sys
path, specs = sys.argv[1], sys.argv[2:]
metrics, cols = {}, {}
for spec in specs:
    name, rest = spec.split("=", 1)
    parts = rest.split(":")
    kind, unit = parts[0], parts[1]
    if kind == "level":
        v = float(parts[2])
        m = {"unit": unit, "kind": "level", "better": "lower", "n": 1, "mean": v, "stddev": None}
        if len(parts) > 3:
            m["resolution"] = float(parts[3])
        metrics[name] = m
        continue
    vals = [float(x) for x in parts[2].split(",")]
    mean = sum(vals) / len(vals)
    sd = (sum((x - mean) ** 2 for x in vals) / (len(vals) - 1)) ** 0.5
    metrics[name] = {"unit": unit, "kind": kind, "better": "higher", "n": len(vals),
                     "mean": mean, "stddev": sd}
    cols[name] = vals
n = max(len(v) for v in cols.values())
samples = [dict({"elapsed_ns": 10**9}, **{k: v[i] for k, v in cols.items()}) for i in range(n)]
run = {"bench": "bpf-loop", "family": "bpf-loop", "status": 0, "trigger": "test-run",
       "options": {"nr_loops": 10}, "metrics": metrics, "samples": samples}
json.dump({"schema": "bpfbench-result/1", "env": {"kernel": "crafted", "date": "today"},
           "runs": [run]}, open(path, "w"))
PY
}

# 1. two default runs, five samples a side, +35%, each series a steady climb
#    (strong correlation, wide spread): no test is valid.  One run a side
#    shows nothing of how far runs lie apart: that is said first; given
#    that noise (--run-noise 0: the statistics alone), the correlation is.
doc "$TMPD/c-old.json" throughput=rate:M/s:80,90,100,110,120
doc "$TMPD/c-new.json" throughput=rate:M/s:108,121.5,135,148.5,162
run compare -q "$TMPD/c-old.json" "$TMPD/c-new.json" --fail-on-regression 5
[ "$RC" -eq 5 ] && grep -qxF 'bpf-loop: no verdict (throughput +35.0%: one run a side, and runs of one configuration stray further than their samples show); -r 3 a side, ab, or --run-noise PCT' <<<"$(answers "$OUT")"
ok $? "two default runs, +35%: no verdict, one run a side, with its remedy; the gate did not judge it, exit 5" || diag "$OUT"
run compare -q "$TMPD/c-old.json" "$TMPD/c-new.json" --fail-on-regression 5 --run-noise 0
[ "$RC" -eq 5 ] && grep -qE '^bpf-loop: no verdict \(throughput \+35\.0%: 5/5 samples, lag-1 r 0\.[0-9]+: ~[0-9.]+/[0-9.]+ independent values\); -r 3 a side, a longer -d, or ab --precision 2$' <<<"$(answers "$OUT")"
ok $? "5 samples a side, +35%, strongly correlated: no verdict with its remedy; exit 5" || diag "$OUT"
run compare -v "$TMPD/c-old.json" "$TMPD/c-new.json" --run-noise 0
! grep -qE 'e\+[0-9]+|\[0\.0[0-9]*,' <<<"$OUT"
ok $? "... and no interval printed for it, degenerate or not" || diag "$OUT"

# 2. a memory level +64% that is within the ±0.5 MiB resolution of its counter,
#    beside a kernel-memory level that moved far beyond it: two answer lines
doc "$TMPD/m-old.json" throughput=rate:M/s:100,101,99,100,100.5,99.5,100,100.2,99.8,100 \
	memory=level:MiB:0.695:0.5 kernel-memory=level:MiB:1.0:0.5
doc "$TMPD/m-new.json" throughput=rate:M/s:100,101,99,100,100.5,99.5,100,100.2,99.8,100 \
	memory=level:MiB:1.145:0.5 kernel-memory=level:MiB:2.99:0.5
run compare -q "$TMPD/m-old.json" "$TMPD/m-new.json"
grep -qxF "bpf-loop: cannot tell (memory +64.7%: 0.695 → 1.145 MiB, within its measurement's ±0.5 MiB resolution)" <<<"$OUT" &&
	grep -qE '^bpf-loop: NEW is 2\.99× worse than OLD \(kernel-memory \+199\.0%, a level: no test\)$' <<<"$OUT" &&
	! grep -q 'memory .*equal' <<<"$OUT"
ok $? "a level +64% within its resolution: cannot tell, never equal; its sibling's change on its own line" ||
	diag "$OUT"

# 3. an asymmetric interval: × r [lo, hi], no "±" (crafted single runs from
#    here on: --run-noise 0, the statistics alone)
doc "$TMPD/a-old.json" throughput=rate:M/s:100,104,96,102,98,101,99,103,97,100,102,98
doc "$TMPD/a-new.json" throughput=rate:M/s:150,160,140,155,145,152,148,158,142,150,153,147
run compare -q "$TMPD/a-old.json" "$TMPD/a-new.json" --run-noise 0
grep -qE '^bpf-loop: NEW is 1\.50× faster than OLD \(throughput \+50\.0%, NEW/OLD × 1\.500 \[1\.[0-9]{3}, 1\.[0-9]{3}\]\)$' <<<"$OUT" &&
	! grep -q '±' <<<"$OUT" &&
	python3 -c 'import re, sys, math
r, lo, hi = map(float, re.search(r"× ([0-9.]+) \[([0-9.]+), ([0-9.]+)\]", sys.argv[1]).groups())
assert abs(math.log(hi / r) - math.log(r / lo)) < 0.02 and hi - r > r - lo, (lo, r, hi)' "$OUT"
ok $? "an asymmetric CI: × r [lo, hi], symmetric on the log scale, no ±" || diag "$OUT"

# 4. the other verdicts' shapes: slower, equal, cannot tell (all with --drift 0:
#    the statistics alone), and the default --drift keeps equal out of reach
doc "$TMPD/s-new.json" throughput=rate:M/s:80,83.2,76.8,81.6,78.4,80.8,79.2,82.4,77.6,80,81.6,78.4
run compare -q "$TMPD/a-old.json" "$TMPD/s-new.json" --drift 0 --run-noise 0
grep -qE '^bpf-loop: NEW is 1\.25× slower than OLD \(throughput -20\.0%, NEW/OLD × 0\.800 \[0\.7[0-9]{2}, 0\.8[0-9]{2}\]\)$' <<<"$OUT"
ok $? "slower: the factor in the verdict's direction, NEW/OLD's interval" || diag "$OUT"
run compare -q "$TMPD/a-old.json" "$TMPD/a-old.json" --drift 0 --run-noise 0
grep -qE '^bpf-loop: equal \(throughput NEW/OLD × 1\.000 \[0\.9[89][0-9], 1\.01[0-9]\], within the ±2% noise\)$' <<<"$OUT"
ok $? "equal: the CI inside ±noise, said with the CI" || diag "$OUT"
doc "$TMPD/w-new.json" throughput=rate:M/s:103,113,93,108,98,106,100,111,95,103,108,98
run compare -q "$TMPD/a-old.json" "$TMPD/w-new.json" --drift 0 --run-noise 0
grep -qE '^bpf-loop: cannot tell \(throughput \+3\.[0-9]%, NEW/OLD × 1\.0[0-9]+ \[0\.9[0-9]+, 1\.[0-9]+\], wider than ±2%\); -r 3 a side, a longer -d, or ab --precision 2$' <<<"$(answers "$OUT")"
ok $? "cannot tell: the CI, wider than the noise, and what would narrow it" || diag "$OUT"
run compare -q "$TMPD/a-old.json" "$TMPD/a-old.json" --run-noise 0
grep -qE '^bpf-loop: cannot tell \(throughput \+0\.0%, NEW/OLD × 1\.000 \[0\.9[0-9]{2}, 1\.0[0-9]{2}\], wider than ±2%\)' <<<"$OUT"
ok $? "two files with the default --drift 3: the same figures are not proven equal within ±2%" || diag "$OUT"
run compare -q "$TMPD/a-old.json" "$TMPD/a-new.json" --json "$TMPD/v.json" --run-noise 0
json_check "$TMPD/v.json" '
r = d["rows"][0]
d["schema"] == "bpfbench-compare/1" and d["drift_pct"] == 3 and d["run_noise_pct"] == 0 and [(x["metric"], x["verdict"]) for x in d["rows"]] == [("throughput", "faster")] and r["ci95_low"] < r["ratio"] < r["ci95_high"] and r["answer"].startswith("NEW is 1.50")'
ok $? "compare --json: the rows with their verdicts, intervals and answer lines" || diag "$(cat "$TMPD/v.json")"

# 4b. one run against a baseline of five: the baseline's spread is the one run's
#     noise too, no --run-noise needed (Student's t, 4 degrees of freedom)
python3 - "$TMPD/a-old.json" "$TMPD/r5-old.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
run = d["runs"][0]
means = [100.0, 97.0, 103.0, 99.0, 101.0]
samples = []
for k, m in enumerate(means):
    for s in (m - 1, m + 1, m - 0.5, m + 0.5):
        samples.append({"elapsed_ns": 10**9, "repeat": k, "throughput": s})
run["samples"] = samples
run["metrics"]["throughput"].update(n=len(samples), mean=sum(means) / len(means))
run["repeats"] = [{"metrics": {"throughput": {"mean": m}}} for m in means]
json.dump(d, open(sys.argv[2], "w"))
PY
run compare -q "$TMPD/r5-old.json" "$TMPD/s-new.json" --fail-on-regression 5
[ "$RC" -eq 1 ] && grep -qE '^bpf-loop: NEW is 1\.25× slower than OLD \(throughput -20\.0%, NEW/OLD × 0\.800 \[0\.7[0-9]{2}, 0\.8[0-9]{2}\]\)$' <<<"$OUT"
ok $? "one run against a baseline of -r 5: slower, its interval from the baseline's spread" || diag "$OUT" "$ERR"
run compare -v "$TMPD/r5-old.json" "$TMPD/s-new.json"
grep -q ' throughput .* 5/1 runs, 1 vs spread  *slower$' <<<"$OUT"
ok $? "... its basis: 5/1 runs, the one against their spread" || diag "$OUT"
run compare -q "$TMPD/r5-old.json" "$TMPD/w-new.json"
grep -q '^bpf-loop: cannot tell (throughput +' <<<"$OUT"
ok $? "... and a 3% change inside a 2.3% run-to-run spread: cannot tell" || diag "$OUT"

# 5. two configurations without --ignore-option: the answer names the option
jq '.runs[0].options.nr_loops = 1000' "$TMPD/a-new.json" >"$TMPD/o-new.json"
run compare -q "$TMPD/a-old.json" "$TMPD/o-new.json"
[ "$RC" -eq 1 ] && grep -qE '^bpf-loop( \[nr_loops=1000\])?: not compared: no run of OLD has its options \(they differ in nr_loops\); to compare these configurations: --ignore-option nr_loops$' <<<"$(answers "$OUT")"
ok $? "two configurations: the answer line names the --ignore-option that pairs them" || diag "$OUT"
run compare -q "$TMPD/a-old.json" "$TMPD/o-new.json" --ignore-option nr_loops --run-noise 0
[ "$RC" -eq 0 ] && grep -q '^bpf-loop: NEW is 1\.50× faster' <<<"$OUT"
ok $? "... and with it, they are compared" || diag "$OUT" "$ERR"

# 6. a gate on a failed or interrupted NEW run fails, loudly
jq '.runs[0].status = 1 | .runs[0].error = "crafted failure"' "$TMPD/a-new.json" >"$TMPD/f-new.json"
jq '.runs[0].interrupted = true' "$TMPD/a-new.json" >"$TMPD/i-new.json"
for f in f i; do
	run compare -q "$TMPD/a-old.json" "$TMPD/$f-new.json" --fail-on-regression 5
	[ "$RC" -eq 1 ] && grep -q '^bpf-loop: not compared: NEW.s run \(failed\|was interrupted\)' <<<"$OUT" &&
		grep -q 'gate: bpf-loop: NEW.s run .* the gate fails' <<<"$ERR"
	ok $? "compare --fail-on-regression on a $([ $f = f ] && echo failed || echo interrupted) NEW run: exit 1, said" ||
		diag "$OUT" "$ERR"
done
run compare -q "$TMPD/a-old.json" "$TMPD/f-new.json"
[ "$RC" -eq 0 ] && grep -q '^bpf-loop: not compared: NEW.s run failed' <<<"$OUT"
ok $? "without a gate, a failed NEW run is said on the answer line (exit 0)" || diag "$OUT" "$ERR"

done_testing
