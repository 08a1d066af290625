#!/usr/bin/env bash
# compare's verdicts on synthetic results of known distributions
# (tests/gen_results.py): false alarms, a crafted slowdown, metric kinds,
# degenerate samples, matching, bad numbers, memory on a large file.
# Nothing here loads BPF.
source "$(dirname "$0")/lib.sh"

GEN="$(dirname "$0")/gen_results.py"
gen() { python3 "$GEN" "$@"; }
alarm_re=' (faster|slower|better|worse|higher|lower)$'
# The widest line of a file, in characters.
# Under the sanitizers this file is there for the reader's memory errors:
# the statistical loops (the plain pass counts their false alarms) take a
# few pairs, and the large files a fifth of their size (ASan reads them at
# a fraction of the speed, so a fifth is as long to interrupt).
SAN=0
ldd "$BPFBENCH" 2>/dev/null | grep -q libasan && SAN=1
NPAIRS=$((SAN ? 6 : 20)) NPAIRS2=$((SAN ? 8 : 24)) BIG=$((SAN ? 20 : 100))
maxwidth() { python3 -c 'import sys; print(max([len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")] + [0]))' "$1"; }
# The largest count that a binomial(n, 0.05) exceeds with probability < 1%.
binom_bound() {
	python3 -c '
import math, sys
n, p = int(sys.argv[1]), 0.05
k, tail = 0, 1.0
while True:
    tail -= math.comb(n, k) * p ** k * (1 - p) ** (n - k)
    if tail < 0.01:
        break
    k += 1
print(k)' "$1"
}

# ---- false alarms: pairs drawn from one distribution ----
# 20 pairs of one process each (30 one-second samples, AR(1) with lag-1
# correlation 0.5: batch means) and 20 of five runs a side (10 samples a run,
# a 2% run-to-run effect: run means).  Each pair is one comparison of 3 rows
# (Holm across them), so its false-alarm probability is at most alpha = 0.05.
# Crafted runs do not stray from run to run: --run-noise 0 says so.
pairs=0 alarms=0 derived_bad=0
for mode in "--samples 30" "--runs 5 --samples 10"; do
	gen "$TMPD/fa%d.json" --seed 1002 --count $((2 * NPAIRS + 2)) $mode
	for i in $(seq 1 "$NPAIRS"); do
		run compare -v "$TMPD/fa$((1000 + 2 * i)).json" "$TMPD/fa$((1001 + 2 * i)).json" \
			--fail-on-regression 5 --run-noise 0
		pairs=$((pairs + 1))
		# exit 5 (rows the gate could not judge) is no alarm: it claims no change
		if [ "$RC" -eq 1 ] || grep -qE "$alarm_re" <<<"$OUT"; then
			alarms=$((alarms + 1))
		fi
		# a derived metric's verdict is its base's, row by row
		for r in 0 1 2; do
			t=$(grep "row $r  *throughput " <<<"$OUT" | awk '{ print $NF }')
			l=$(grep "row $r  *latency " <<<"$OUT" | awk '{ print $NF }')
			[ -n "$t" ] && [ "$t" = "$l" ] || derived_bad=$((derived_bad + 1))
		done
	done
done
# The bound: the largest count that a binomial(pairs, 0.05) exceeds with probability < 1%.
bound=$(binom_bound "$pairs")
[ "$alarms" -le "$bound" ]
ok $? "same distribution: $alarms false alarms in $pairs pairs (at most $bound: binomial($pairs, 0.05) exceeds it with p < 1%)"
[ "$derived_bad" -eq 0 ]
ok $? "same distribution: latency's verdict is throughput's in every row ($derived_bad differ)"

# ---- a crafted 20% slowdown ----
for mode in "--samples 60" "--runs 5 --samples 10"; do
	gen "$TMPD/o.json" --seed 7 $mode
	gen "$TMPD/n.json" --seed 8 $mode --rate-scale 0.8
	run compare -v "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression 5 --run-noise 0
	[ "$RC" -eq 1 ] && [ "$(grep -cE '  throughput  .* -(1[5-9]|2[0-5])\.[0-9][0-9]% .* slower$' <<<"$OUT")" -eq 3 ] &&
		[ "$(grep -c 'latency .* as throughput  *slower$' <<<"$OUT")" -eq 3 ] &&
		[ "$(grep -c '^bpfbench: error: regression: .* throughput -' <<<"$ERR")" -eq 3 ] &&
		! grep -q 'regression: .* latency' <<<"$ERR"
	ok $? "20% slower ($mode): slower on every row, exit 1, the base metric named once" ||
		diag "$OUT" "$ERR"
done
grep -q '5/5 runs' <<<"$OUT" && ! grep -q '1 process' <<<"$OUT"
ok $? "five runs a side: the verdict rests on run means"
# without the repeats records, the samples' repeat tags give the same run means
jq 'del(.runs[].repeats)' "$TMPD/o.json" >"$TMPD/o-tags.json"
jq 'del(.runs[].repeats)' "$TMPD/n.json" >"$TMPD/n-tags.json"
"$BPFBENCH" compare -v "$TMPD/o.json" "$TMPD/n.json" | grep ' row ' >"$TMPD/with" 2>/dev/null
"$BPFBENCH" compare -v "$TMPD/o-tags.json" "$TMPD/n-tags.json" | grep ' row ' >"$TMPD/tags" 2>/dev/null
cmp -s "$TMPD/with" "$TMPD/tags" && [ -s "$TMPD/tags" ]
ok $? "run means from the samples' repeat tags equal those of the repeats records"
gen "$TMPD/o.json" --seed 7 --samples 60
gen "$TMPD/n.json" --seed 8 --samples 60 --rate-scale 0.8
# one run a side says nothing of how far runs lie apart: no verdict, and why;
# a gate must not pass on rows it could not judge (issue 42, item 8: it did, exit 0)
run compare "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression 5
[ "$RC" -eq 5 ] && [ "$(answers "$OUT" | grep -c ': no verdict (throughput -[0-9.]*%: one run a side, .* -r 3 a side, ab, or --run-noise PCT$')" -eq 3 ] &&
	grep -q 'rows compare one run a side' <<<"$OUT" && ! grep -q '\[' <<<"$(answers "$OUT" | head -3)" &&
	grep -qx 'Gate: --fail-on-regression 5%: 0 regressions, 3 rows not judged (exit 5).' <<<"$OUT" &&
	grep -q 'gate: 3 rows not judged (no verdict, or cannot tell whether worse beyond 5%): exit 5' <<<"$ERR"
ok $? "one run a side (-20%), no --run-noise: no verdict with its reason and remedy; the gate fails unjudged, exit 5" ||
	diag "$OUT" "$ERR"
run compare -q "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression 5
[ "$RC" -eq 5 ] && grep -q 'gate: 3 rows not judged' <<<"$ERR"
ok $? "-q: the unjudged gate still exits 5 and says so on stderr" || diag "$ERR"
run compare "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression 5 --gate-unjudged pass
[ "$RC" -eq 0 ] && [ -z "$ERR" ] &&
	grep -qx 'Gate: --fail-on-regression 5%: 0 regressions, 3 rows not judged (passed: --gate-unjudged pass).' <<<"$OUT"
ok $? "--gate-unjudged pass: the unjudged rows pass, and the gate line says so" || diag "$OUT" "$ERR"
run compare "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression=5 --gate-unjudged=fail
[ "$RC" -eq 5 ]
ok $? "--gate-unjudged=fail: the default, exit 5"
run compare "$TMPD/o.json" "$TMPD/n.json" --gate-unjudged pass
[ "$RC" -eq 2 ] && grep -q 'gate-unjudged is for a gate: give --fail-on-regression PCT' <<<"$ERR"
ok $? "--gate-unjudged without a gate: bad usage" || diag "$ERR"
run compare "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression 5 --gate-unjudged maybe
[ "$RC" -eq 2 ] && grep -q "gate-unjudged: 'maybe' is not pass or fail" <<<"$ERR"
ok $? "--gate-unjudged takes pass or fail" || diag "$ERR"
run compare "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression 5 --json "$TMPD/gate.json"
[ "$RC" -eq 5 ] && [ "$(jq '[.rows[] | select(.unjudged)] | length' "$TMPD/gate.json")" -eq 3 ] &&
	[ "$(jq -r '[.rows[] | select(.unjudged) | .metric] | unique | join(",")' "$TMPD/gate.json")" = throughput ]
ok $? "compare --json marks the unjudged rows: the throughput ones (latency gates through them)" ||
	diag "$(jq -c '.rows[] | [.metric, .verdict, .unjudged]' "$TMPD/gate.json")"
run compare -v "$TMPD/o.json" "$TMPD/n.json" --run-noise 0
grep -q 'batches, 1 process  *slower$' <<<"$OUT" && grep -q 'rest on one run a side' <<<"$OUT" &&
	grep -q 'by Holm' <<<"$OUT"
ok $? "one process a side, --run-noise 0: batch means, and the output says the verdict rests on it"
run compare -v "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression 25 --run-noise 0
[ "$RC" -eq 0 ]
ok $? "20% slower under --fail-on-regression 25: exit 0"
run compare -v "$TMPD/n.json" "$TMPD/o.json" --fail-on-regression 5 --run-noise 0
[ "$RC" -eq 0 ] && [ "$(grep -c '  throughput  .* faster$' <<<"$OUT")" -eq 3 ]
ok $? "the other way round: faster, no regression"
# --run-noise widens the interval as run-to-run noise would: 10% a side hides a 20% change
run compare -q "$TMPD/o.json" "$TMPD/n.json" --run-noise 10
[ "$(answers "$OUT" | grep -c ': cannot tell (throughput ')" -eq 3 ]
ok $? "--run-noise 10: a 20% change of one run a side is cannot tell" || diag "$OUT"
# "cannot tell" whose interval rules out a worsening beyond the limit: the gate has its answer
gen "$TMPD/same.json" --seed 8 --samples 60
run compare "$TMPD/o.json" "$TMPD/same.json" --run-noise 0 --fail-on-regression 10
[ "$RC" -eq 0 ] && [ "$(answers "$OUT" | grep -c ': cannot tell (throughput .*\[0\.9[0-9]*, ')" -eq 3 ] &&
	grep -qx 'Gate: --fail-on-regression 10%: 0 regressions, 0 rows not judged.' <<<"$OUT"
ok $? "cannot tell, the CI above 0.9: judged by a 10% gate, exit 0" || diag "$OUT" "$ERR"
run compare -q "$TMPD/o.json" "$TMPD/same.json" --run-noise 0 --fail-on-regression 1
[ "$RC" -eq 5 ] && grep -q 'gate: 3 rows not judged' <<<"$ERR"
ok $? "the same rows at a 1% gate: their CI reaches below 0.99, not judged, exit 5" || diag "$OUT" "$ERR"
# the statistics alone: no allowance for drift between the files
run compare -v "$TMPD/o.json" "$TMPD/n.json" --drift 0 --run-noise 0
ratio=$(grep 'row 0  *throughput ' <<<"$OUT" | grep -oE '0\.[0-9]{4} \[0\.[0-9]{4}, 0\.[0-9]{4}\]')
python3 -c '
import sys
r, lo, hi = (float(x) for x in sys.argv[1].replace("[", "").replace("]", "").replace(",", "").split())
assert 0.75 < lo < r < hi < 0.85, (lo, r, hi)' "$ratio"
ok $? "the ratio's CI brackets the crafted 0.8: $ratio"

# ---- kinds without a test ----
gen "$TMPD/o.json" --seed 7
gen "$TMPD/n.json" --seed 7 --level-scale 1.01
# (the throughput rows, one run a side, are no verdict: let them pass, the levels are the point)
run compare -v "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression 5 --gate-unjudged pass
[ "$RC" -eq 0 ] && [ "$(grep -c 'memory .* +1.00% .* level, no test  *equal$' <<<"$OUT")" -eq 3 ]
ok $? "a level 1% higher: equal within the noise, no regression at 5%" || diag "$OUT"
gen "$TMPD/n.json" --seed 7 --level-scale 1.10
run compare -v "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression 5
[ "$RC" -eq 1 ] && [ "$(grep -c ' memory .* +10.00% .* level, no test  *worse$' <<<"$OUT")" -eq 3 ] &&
	grep -q 'regression: .* memory +10.00% (limit 5%, level, no test)' <<<"$ERR"
ok $? "a level 10% higher: worse beyond the noise, a regression at 5%, no p-value" ||
	diag "$OUT" "$ERR"
! grep -E ' memory .* [0-9.]+ +[0-9.]+ +[0-9.]+ +level' <<<"$OUT" | grep -q .
ok $? "levels print no p-value"

gen "$TMPD/o.json" --seed 7 --samples 30
gen "$TMPD/n.json" --seed 8 --samples 30 --drops 3.1
run compare -v "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression 5 --run-noise 0
# a row whose samples make only two batch means has one degree of freedom: no verdict
[ "$RC" -eq 1 ] && [ "$(grep -c ' drops .* from 0 .* worse$' <<<"$OUT")" -ge 2 ] &&
	[ "$(grep -cE ' drops .* from 0 .* (worse|2/2 batches, 1 process  no verdict)$' <<<"$OUT")" -eq 3 ] &&
	grep -q 'regression: .* drops from 0 to 3.[0-9]* M ops/s' <<<"$ERR" && ! grep -qi nan <<<"$OUT$ERR"
ok $? "drops 0 -> 3.1 M ops/s: worse, judged on the absolute change, a regression, no nan" ||
	diag "$OUT" "$ERR"
# (the throughput rows are cannot tell, their CI reaching below -5%: they pass by choice)
run compare -v "$TMPD/n.json" "$TMPD/o.json" --fail-on-regression 5 --run-noise 0 --gate-unjudged pass
[ "$RC" -eq 0 ] && [ "$(grep -c ' drops .* -100.00% .* better$' <<<"$OUT")" -ge 2 ] &&
	[ "$(grep -cE ' drops .* -100.00% .* (better|2/2 batches, 1 process  no verdict)$' <<<"$OUT")" -eq 3 ]
ok $? "drops 3.1 -> 0: better" || diag "$OUT"

# ---- n = 1 ----
gen "$TMPD/o.json" --seed 7 --samples 1
gen "$TMPD/n.json" --seed 8 --samples 1
run compare -v "$TMPD/o.json" "$TMPD/n.json" --fail-on-regression 5
rows=$(grep ' row [0-9] ' <<<"$OUT")
[ "$RC" -eq 5 ] && ! grep -q '±' <<<"$rows" && ! grep -qi nan <<<"$OUT" &&
	[ "$(grep -c 'throughput .* n 1/1, no test  *no verdict$' <<<"$rows")" -eq 3 ]
ok $? "n = 1: values without ±, no test, no verdict; the gate did not judge them, exit 5" || diag "$OUT"

# ---- counts of one sample a side follow the rate (issue 43) ----
# two single runs whose ops and runs differ with their rate: the counts get
# no word of their own ("higher"/"lower", an answer line) and no place in the
# summary's tally; it used to say "NEW is 1.32× higher than OLD (ops ...)"
gen "$TMPD/o.json" --seed 7 --samples 1
gen "$TMPD/n.json" --seed 8 --samples 1 --rate-scale 1.32
for f in o n; do
	python3 - "$TMPD/$f.json" "$TMPD/c1-$f.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    for name, scale in (("ops", 1e6), ("runs", 1e3)):
        v = r["samples"][0]["throughput"] * scale
        r["samples"][0][name] = v
        r["metrics"][name] = {"unit": name, "kind": "count", "better": "none", "n": 1,
                              "mean": v, "stddev": None}
json.dump(d, open(sys.argv[2], "w"))
PY
done
run compare "$TMPD/c1-o.json" "$TMPD/c1-n.json"
! grep -qE '(higher|lower)' <<<"$(grep -v '^Summary' <<<"$OUT")" &&
	grep -q ' 0 higher/lower;' <<<"$OUT" && ! grep -qE '^  (ops|runs) +(ops|runs) ' <<<"$OUT" &&
	! grep -qE '\((ops|runs) ' <<<"$OUT" && grep -q '^Note: 6 of 18 rows compare one run a side' <<<"$OUT"
ok $? "single runs: counts that differ with the rate get no higher/lower and no summary count" ||
	diag "$OUT"
run compare -v "$TMPD/c1-o.json" "$TMPD/c1-n.json"
[ "$(grep -cE ' (ops|runs) .* follows the rate  *-$' <<<"$OUT")" -eq 6 ]
ok $? "single runs, -v: the counts listed as following the rate, without a verdict" || diag "$OUT"

# ---- identity and matching (little noise: identical samples are equal) ----
gen "$TMPD/o.json" --seed 7 --cv 0.002
jq '.runs[].options.nr_loops = 1000' "$TMPD/o.json" >"$TMPD/n.json"
run compare -v "$TMPD/o.json" "$TMPD/n.json"
[ "$RC" -eq 1 ] && [ "$(grep -cE 'only in NEW; the closest run of OLD differs in nr_loops \(NEW 1000, OLD ([0-9]+|default)\)$' <<<"$OUT")" -eq 3 ]
ok $? "unmatched runs name the option that differs" || diag "$OUT"
run compare -v "$TMPD/o.json" "$TMPD/n.json" --ignore-option nr_loops --drift 0 --run-noise 0
[ "$RC" -eq 0 ] && [ "$(grep -c '  throughput  .* equal$' <<<"$OUT")" -eq 3 ]
ok $? "--ignore-option nr_loops: two configurations compared" || diag "$OUT"
run compare -v "$TMPD/o.json" "$TMPD/n.json" --match label,section --drift 0 --run-noise 0
[ "$RC" -eq 0 ] && [ "$(grep -c '  throughput  .* equal$' <<<"$OUT")" -eq 3 ]
ok $? "--match label,section: only those and the benchmark" || diag "$OUT"
run compare -v "$TMPD/o.json" "$TMPD/n.json" --match label --ignore-option nr_loops
[ "$RC" -eq 2 ]
ok $? "--match with --ignore-option: exit 2"
run compare -v "$TMPD/o.json" "$TMPD/n.json" --ignore-option nr_loops --drift 0 --run-noise 0 --names A,B
[ "$RC" -eq 0 ] && grep -q 'B/A \[95% CI\]' <<<"$OUT" && ! grep -qw 'NEW\|OLD' <<<"$OUT"
ok $? "--names A,B: the sides are A and B throughout, never NEW or OLD" || diag "$OUT"
run compare -v "$TMPD/o.json" "$TMPD/n.json" --names A,B
grep -q 'differs in nr_loops (B 1000, A ' <<<"$OUT" && grep -q 'CI of B/A lies within' <<<"$OUT" &&
	! grep -qiw 'new\|old' <<<"$OUT"
ok $? "--names A,B -v, runs that match none: A and B in the differences and the methods too" || diag "$OUT"
for bad in A A, ,B A,B,C; do
	run compare "$TMPD/o.json" "$TMPD/n.json" --names "$bad"
	[ "$RC" -eq 2 ] && grep -q -- '--names needs two names' <<<"$ERR"
	ok $? "--names '$bad': exit 2, said" || diag "$RC: $ERR"
done
run compare -v "$TMPD/o.json" "$TMPD/n.json" --ignore-option nr_loops --drift 0 --run-noise 0 --names A,B
names=$OUT
run compare -v "$TMPD/o.json" "$TMPD/n.json" --ignore-option nr_loops --drift 0 --run-noise 0 --name A --name B
[ "$RC" -eq 0 ] && [ "$OUT" = "$names" ]
ok $? "--name A --name B (ab's spelling): as --names A,B" || diag "$OUT"
for args in "--name A" "--name A --name B --name C"; do
	# shellcheck disable=SC2086 # the options, a word each
	run compare "$TMPD/o.json" "$TMPD/n.json" $args
	[ "$RC" -eq 2 ] && grep -q -- '--name' <<<"$ERR"
	ok $? "compare $args: exit 2, said" || diag "$RC: $ERR"
done
jq '.runs[1].label = "row 0" | .runs[1].options.preallocated = true' "$TMPD/o.json" >"$TMPD/dup.json"
run compare -v "$TMPD/dup.json" "$TMPD/dup.json"
grep -q '^bpf-loop: synthetic rows: row 0  ' <<<"$OUT" &&
	grep -q '^bpf-loop: synthetic rows: row 0 \[nr_loops=20,preallocated=true\]  ' <<<"$OUT"
ok $? "two rows of one label: their names carry the options that tell them apart" || diag "$OUT"
jq '.runs[1].label = "row 0" | .runs[1].section = "other rows"' "$TMPD/o.json" >"$TMPD/sec.json"
run compare -v "$TMPD/sec.json" "$TMPD/sec.json"
[ "$(grep -c '^bpf-loop: synthetic rows: row 0  ' <<<"$OUT")" -eq 6 ] &&
	[ "$(grep -c '^bpf-loop: other rows: row 0  ' <<<"$OUT")" -eq 6 ]
ok $? "one label in two sections: two rows, each named by its section" || diag "$OUT"
# an older file's kernel "(null)" (an empty CPU list) is the empty list files write now, never shown
jq '.env.isolated_cpus = "(null)" | .env.nohz_full = "(null)"' "$TMPD/o.json" >"$TMPD/null.json"
jq '.env.isolated_cpus = "" | .env.nohz_full = "1"' "$TMPD/o.json" >"$TMPD/empty.json"
run compare "$TMPD/null.json" "$TMPD/empty.json" --drift 0 --run-noise 0
[ "$RC" -eq 0 ] && ! grep -q 'isolated_cpus' <<<"$OUT" && grep -qE '^  nohz_full +-> 1$' <<<"$OUT" &&
	! grep -qF '(null)' <<<"$OUT"
ok $? "env: an old file's '(null)' CPU list compares as the empty list, and is never printed" || diag "$OUT"
# a sweep's or a suite's rows: each part of the name said once
jq '.runs[0] += {"section": "bpf-loop: nr_loops sweep", "label": "nr_loops=10", "sweep_param": "nr_loops"} |
	.runs[1] += {"section": "bpf_loop, nr_loops sweep", "label": "nr_loops 100"} |
	.runs[2] += {"section": "bpf-loop: bpf_loop() beside bpf_for, nr_loops sweep", "label": "bpf_loop nr_loops 1000",
		     "suite": "bpf-loop"}' "$TMPD/o.json" >"$TMPD/sweep.json"
run compare "$TMPD/sweep.json" "$TMPD/sweep.json" --drift 0 --run-noise 0
rows=$(grep -E '^bpf-loop[: ]' <<<"$OUT")
grep -q '^bpf-loop nr_loops=10$' <<<"$rows" && grep -q '^bpf-loop nr_loops 100$' <<<"$rows" &&
	grep -q '^bpf-loop: bpf_loop() beside bpf_for: nr_loops 1000$' <<<"$rows" &&
	grep -q '^bpf-loop nr_loops=10: equal' <<<"$OUT" && ! grep -qE 'bpf.loop.*bpf.loop.*bpf.loop|sweep' <<<"$OUT"
ok $? "a sweep's rows: 'bpf-loop nr_loops=10', never 'bpf-loop: bpf-loop: nr_loops sweep: nr_loops=10'" ||
	diag "$OUT"
jq '.runs[1] += {"section": "bpf-loop: nr_loops sweep", "label": "nr_loops=10"} |
	.runs[2] += {"section": "nr_loops sweep", "label": "nr_loops=10"}' "$TMPD/o.json" >"$TMPD/sweep2.json"
run compare "$TMPD/sweep2.json" "$TMPD/sweep2.json" --drift 0 --run-noise 0
grep -q '^bpf-loop: bpf-loop: nr_loops sweep: nr_loops=10$' <<<"$OUT" &&
	grep -q '^bpf-loop: nr_loops sweep: nr_loops=10$' <<<"$OUT"
ok $? "... unless two rows would then read the same" || diag "$OUT"
jq '.runs[].metrics |= with_entries(.key |= sub("^throughput$"; "lookup_batch_1000000_throughput")) |
	.runs[].metrics.latency.of = "lookup_batch_1000000_throughput" |
	.runs[].samples[] |= with_entries(.key |= sub("^throughput$"; "lookup_batch_1000000_throughput"))' \
	"$TMPD/o.json" >"$TMPD/long.json"
run compare -v "$TMPD/long.json" "$TMPD/long.json" --drift 0 --run-noise 0
[ "$(grep -c '  lookup_batch_1000000_throughput  M ops/s  ' <<<"$OUT")" -eq 3 ] &&
	[ "$(grep -c 'as lookup_batch_1000000_throughput  *equal$' <<<"$OUT")" -eq 3 ]
ok $? "long metric names are never cut" || diag "$OUT"

# ---- metrics keyed by a row (map-batch: name + op and batch size) ----
# mbdoc FILE SEED [old|kunit]: a map-batch-like run, time per (op, batch size or one-by-one),
# today's name + key; "old": names with the parameters in them; "kunit": the rate in k ops/s.
mbdoc() {
	python3 - "$(dirname "$GEN")" "$@" <<'PY'
import json, random, sys
sys.path.insert(0, sys.argv[1])
from gen_results import summary
path, seed, how = sys.argv[2], int(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else ""
rng = random.Random(seed)
samples = [{"elapsed_ns": 1000000} for _ in range(20)]
metrics = {}
for op in ("lookup", "update"):
    for b in (10, 1000, "one-by-one"):
        for name, unit, kind, better, mean in (("time", "ms", "time", "lower", 5.0 if b == "one-by-one" else 1.0),
                                                ("rate", "k ops/s" if how == "kunit" else "M ops/s", "rate", "higher", 1.0)):
            vals = [rng.gauss(mean, mean / 100) for _ in samples]
            if how == "old":
                mid, extra = "%s_%s_%s" % (op, "one_by_one" if b == "one-by-one" else "batch_%d" % b, name), {}
            else:
                mid, extra = "%s{op=%s,batch=%s}" % (name, op, b), {"name": name, "key": {"op": op, "batch": b}}
            metrics[mid] = summary(vals, unit, kind, better, extra)
            for x, v in zip(samples, vals):
                x[mid] = v
run = {"bench": "map-batch", "family": "map-batch", "status": 0, "trigger": "none",
       "options": {"warmup": 0, "duration": 1, "max_entries": 1000, "batch": "10,1000", "op": "lookup,update"},
       "warmup_samples": 0, "measured_s": 1.0, "metrics": metrics, "samples": samples}
json.dump({"schema": "bpfbench-result/1", "env": {"kernel": "6.18", "date": "2026-12-03"}, "runs": [run]},
          open(path, "w"), indent=1)
PY
}
mbdoc "$TMPD/mbo.json" 1
mbdoc "$TMPD/mbn.json" 2
run compare -v "$TMPD/mbo.json" "$TMPD/mbn.json"
rows=$(grep -oE '^map-batch  +(time|rate)\{op=[a-z]+,batch=[0-9a-z-]+\}  ' <<<"$OUT" | awk '{ print $2 }' | sort | tr '\n' ' ')
want=$(for m in rate time; do for o in lookup update; do for b in 10 1000 one-by-one; do
	echo "$m{op=$o,batch=$b}"; done; done; done | sort | tr '\n' ' ')
[ "$RC" -eq 0 ] && [ "$rows" = "$want" ] && ! grep -q 'metrics\? only in\|not compared' <<<"$OUT"
ok $? "map-batch: metrics matched per name, op and batch size, each row naming its key" || diag "$OUT"
jq '.runs[0].metrics |= with_entries(select(.key | test("op=update") | not)) |
	.runs[0].samples[] |= with_entries(select(.key | test("op=update") | not))' "$TMPD/mbn.json" >"$TMPD/mbl.json"
run compare -v "$TMPD/mbo.json" "$TMPD/mbl.json"
[ "$RC" -eq 0 ] && [ "$(grep -c '^map-batch  .*{op=lookup,' <<<"$OUT")" -eq 6 ] &&
	grep -qx 'map-batch  6 metrics only in OLD: time{op=update,batch=10}, rate{op=update,batch=10}, time{op=update,batch=1000} and 3 more' <<<"$OUT"
ok $? "a key only one side has: the others compared, the lone ones listed" || diag "$OUT"
mbdoc "$TMPD/mbold.json" 1 old
run compare -v "$TMPD/mbold.json" "$TMPD/mbn.json"
[ "$RC" -eq 1 ] && grep -q '^map-batch  12 metrics only in NEW: time{op=lookup,batch=10}, ' <<<"$OUT" &&
	grep -q '^map-batch  12 metrics only in OLD: lookup_batch_10_time, ' <<<"$OUT" &&
	grep -q 'names metrics with their parameters, as bpfbench did before metric keys' <<<"$OUT" &&
	grep -q 'no metric of .* matches one of .*: see above' <<<"$ERR"
ok $? "an older map-batch file (parameters in names) against a new one: exit 1, saying why" || diag "$OUT" "$ERR"
mbdoc "$TMPD/mbk.json" 2 kunit
run compare -v "$TMPD/mbo.json" "$TMPD/mbk.json"
[ "$RC" -eq 0 ] && [ "$(grep -c 'rate{op=[a-z]*,batch=[0-9a-z-]*} not compared: its unit differs (NEW k ops/s, OLD M ops/s)$' <<<"$OUT")" -eq 6 ] &&
	[ "$(grep -c '^map-batch  time{' <<<"$OUT")" -eq 6 ] && ! grep -q '^map-batch  rate{.*  ' <<<"$OUT"
ok $? "a unit that differs: that metric not compared, said so; the others are" || diag "$OUT"

# ---- formats and options ----
gen "$TMPD/old.json" --seed 7 --old
gen "$TMPD/n.json" --seed 8
run compare -v "$TMPD/old.json" "$TMPD/n.json" --fail-on-regression 5
[ "$RC" -eq 5 ] && [ "$(grep -c ' memory .* level, no test ' <<<"$OUT")" -eq 3 ] &&
	[ "$(grep -c ' latency .* as throughput ' <<<"$OUT")" -eq 3 ]
ok $? "an earlier format (sampled/inverse) against today's: memory a level, latency derived" ||
	diag "$OUT" "$ERR"
[ "$(grep -c '  drops  *M ops/s  ' <<<"$OUT")" -eq 3 ] && [ "$(grep -c '  checked  *elems  ' <<<"$OUT")" -eq 3 ] &&
	! grep -q 'M/s\|elements\|not compared' <<<"$OUT"
ok $? "an earlier file's M/s and elements read as today's M ops/s and elems: every row compared" ||
	diag "$OUT"
run compare -v "$TMPD/old.json" "$TMPD/old.json" --adjust bh
[ "$RC" -eq 0 ] && grep -q 'by Benjamini-Hochberg' <<<"$OUT"
ok $? "--adjust bh: the output says so"
run compare -v "$TMPD/old.json" "$TMPD/old.json" --adjust hochberg
[ "$RC" -eq 2 ] && grep -q -- '--adjust' <<<"$ERR"
ok $? "--adjust hochberg: exit 2"
gen "$TMPD/o.json" --seed 1 --samples 30
gen "$TMPD/n.json" --seed 2 --samples 30
run compare -v "$TMPD/o.json" "$TMPD/n.json" --noise 50
[ "$RC" -eq 0 ] && grep -q '+-50%' <<<"$OUT" && ! grep -q 'cannot tell$' <<<"$OUT"
ok $? "--noise 50: everything within it is equal" || diag "$OUT"
for bad in -1 101 x ''; do
	run compare -v "$TMPD/o.json" "$TMPD/n.json" --noise "$bad"
	[ "$RC" -eq 2 ] && grep -q -- '--noise' <<<"$ERR"
	ok $? "--noise '$bad': exit 2"
done

# ---- numbers that are not finite: exit 2 naming the field ----
gen "$TMPD/o.json" --seed 7 --rows 1 --samples 4
nonfinite() {	# nonfinite DESC PYTHON-TARGET TEXT FIELD: d[...] = TEXT, written as is
	python3 - "$TMPD/o.json" "$TMPD/bad.json" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3] + ' = "@@VALUE@@"')
open(sys.argv[2], "w").write(json.dumps(d, indent=1).replace('"@@VALUE@@"', sys.argv[4]))
PY
	run compare -v "$TMPD/o.json" "$TMPD/bad.json"
	[ "$RC" -eq 2 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -qF "$4" <<<"$ERR"
	ok $? "$1: exit 2 naming $4" || diag "$ERR"
}
nonfinite "NaN in a metric" 'd["runs"][0]["metrics"]["throughput"]["mean"]' NaN \
	'runs[0].metrics.throughput.mean is NaN'
nonfinite "-Infinity in a sample" 'd["runs"][0]["samples"][2]["throughput"]' -Infinity \
	'runs[0].samples[2].throughput is infinite'
nonfinite "1e400 in an option" 'd["runs"][0]["options"]["nr_loops"]' 1e400 \
	'runs[0].options.nr_loops is beyond the range of a double'
nonfinite "Infinity in the environment" 'd["env"]["date"]' Infinity 'env.date is infinite'

# ---- memory and time in proportion to the file, no size cap ----
# One long run as bpfbench writes it (a sample a period): 100 MB, over the
# 64 MiB that was once a hard cap.  Compared with a short run of its own
# kind, it must fit in 4 times its size, and take about 4 times as long
# as a quarter of it (allowed: 12 times, the machine being shared).
gen "$TMPD/l100.json" --long-run-mb "$BIG" --seed 5
gen "$TMPD/l25.json" --long-run-mb $((BIG / 4)) --seed 6
gen "$TMPD/l1.json" --long-run-mb 0.1 --seed 7
size=$(stat -c %s "$TMPD/l100.json")
if ldd "$BPFBENCH" 2>/dev/null | grep -q libasan; then
	skip "memory of a 100 MB compare: ASan's shadow memory is not the reader's"
	skip "time of a 100 MB compare: not under ASan"
else
	measure() {	# measure OLD NEW: "rc max-rss-KiB seconds"
		/usr/bin/time -f '%x %M %e' -o "$TMPD/time" "$BPFBENCH" compare "$1" "$2" >"$TMPD/out" 2>&1
		tail -1 "$TMPD/time"
	}
	read -r rc rss t100 <<<"$(measure "$TMPD/l1.json" "$TMPD/l100.json")"
	[ "$rc" -eq 0 ] && [ $((rss * 1024)) -le $((4 * size)) ] && grep -qE ' (equal|cannot tell|no verdict)$' "$TMPD/out"
	ok $? "a $((size >> 20)) MiB result of one long run compared: max RSS $((rss >> 10)) MiB (at most 4x), ${t100} s (rc $rc)" ||
		diag "$(tail -3 "$TMPD/out")"
	read -r rc rss t25 <<<"$(measure "$TMPD/l1.json" "$TMPD/l25.json")"
	python3 -c 'import sys; t25, t100 = map(float, sys.argv[1:]); sys.exit(not t100 <= 12 * t25 + 2)' "$t25" "$t100"
	ok $? "time about linear: 25 MB in ${t25} s, 100 MB in ${t100} s" || diag "$(tail -3 "$TMPD/out")"
fi
# SIGINT honoured within a moment: in the middle of reading a large file, and
# on a pipe that stalls.  A moment, measured now (tests/lib.sh): less than
# twice a whole compare of a quarter of the large file takes, before and
# after; ignored, the signal would wait for the other three quarters, or
# for the pipe's writer (6 s).
ref1=$(ref_ms compare "$TMPD/l1.json" "$TMPD/l25.json")
int_ends() {	# int_ends DESC [WCHAN]: SIGINT to $pid once it waits in WCHAN (or after a moment), exit 130 in time
	local rc t0 t1 i limit
	sleep 0.4
	for i in $(seq 100); do	# a slow start (ASan) must not see it before its handler is there
		[ -z "$2" ] || [[ "$(cat /proc/$pid/wchan 2>/dev/null)" == $2 ]] && break
		sleep 0.1
	done
	t0=$(date +%s%N)
	kill -INT $pid
	wait $pid
	rc=$?
	t1=$(date +%s%N)
	limit=$(deadline_ms "$ref1" "$(ref_ms compare "$TMPD/l1.json" "$TMPD/l25.json")")
	[ "$rc" -eq 130 ] && [ $(((t1 - t0) / 1000000)) -le "$limit" ]
	ok $? "SIGINT $1: exit 130 after $(((t1 - t0) / 1000000)) ms (deadline $limit ms; rc $rc)" || diag "$(cat "$TMPD/err")"
}
"$BPFBENCH" compare "$TMPD/l1.json" "$TMPD/l100.json" >/dev/null 2>"$TMPD/err" &
pid=$!
int_ends "while reading $BIG MB"
"$BPFBENCH" compare /dev/stdin "$TMPD/l1.json" >/dev/null 2>"$TMPD/err" \
	< <({ head -c 4096 "$TMPD/l25.json"; sleep 6; } 2>/dev/null) &
pid=$!
int_ends "while a pipe stalls" '*pipe_read'	# anon_pipe_read on 6.18
rm -f "$TMPD/l100.json" "$TMPD/l25.json"

# ---- matching: thousands of runs that match none, in linear time ----
python3 - "$TMPD" <<'PY'
import json, sys
def doc(prefix, n):
    return {"schema": "bpfbench-result/1", "env": {}, "runs": [
        {"bench": "bpf-loop", "label": "%s %d" % (prefix, k), "status": 0,
         "options": {"nr_loops": k + 1},
         "metrics": {"throughput": {"unit": "M ops/s", "kind": "rate", "n": 2, "mean": 1.0}},
         "samples": [{"throughput": 1.0}, {"throughput": 1.0}]} for k in range(n)]}
json.dump(doc("row", 20000), open(sys.argv[1] + "/u_old.json", "w"))
json.dump(doc("new", 20000), open(sys.argv[1] + "/u_new.json", "w"))
PY
OUT=$(timeout -k 5 60 "$BPFBENCH" compare "$TMPD/u_old.json" "$TMPD/u_new.json" 2>"$TMPD/err")
RC=$?
[ "$RC" -eq 1 ] && [ "$(grep -c ' only in NEW; the closest run of OLD differs in label (NEW new [0-9]*, OLD row [0-9]*)$' <<<"$OUT")" -eq 20000 ] &&
	[ "$(grep -c ' only in OLD; ' <<<"$OUT")" -eq 20000 ] &&
	grep -q '^bpf-loop: new 19999  only in NEW; the closest run of OLD differs in label (NEW new 19999, OLD row 19999)$' <<<"$OUT"
ok $? "20,000 unmatched runs a side: each with its closest run, within a minute (rc $RC)" ||
	diag "$(tail -3 <<<"$OUT")" "$(cat "$TMPD/err")"
rm -f "$TMPD"/u_*.json

# ---- the environment: compare names the fields that differ, first ----
gen "$TMPD/e1.json" --seed 11
python3 - "$TMPD/e1.json" "$TMPD/e2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["env"].update({"bpf_jit_harden": 0, "vulnerabilities": {"mds": "Not affected"}})
json.dump(d, open(sys.argv[1], "w"))
d["env"].update({"bpf_jit_harden": 2, "vulnerabilities": {"mds": "Vulnerable"}, "date": "another"})
json.dump(d, open(sys.argv[2], "w"))
PY
run compare -v "$TMPD/e1.json" "$TMPD/e2.json"
envblock=$(sed -n '/^Environment:/,/^$/p' <<<"$OUT")
first=$(grep -n '^Environment:' <<<"$OUT" | cut -d: -f1)
table=$(grep -n '^Tests:' <<<"$OUT" | cut -d: -f1)
grep -qE '^  bpf_jit_harden +0 -> 2$' <<<"$envblock" &&
	grep -qE '^  vulnerabilities.mds +Not affected -> Vulnerable$' <<<"$envblock" &&
	[ "$(grep -c '^  ' <<<"$envblock")" -eq 2 ] && [ -n "$first" ] && [ "$first" -lt "$table" ]
ok $? "compare lists the two env fields that differ (not the date), before the table" ||
	diag "$OUT"
run compare -v "$TMPD/e1.json" "$TMPD/e1.json"
grep -q '^Environment: the same in both files' <<<"$OUT"
ok $? "compare of a file with itself: the environment is the same"

# ---- the answer first: shape of the default output, -q ----
answer_re='^[^ ].*: ((NEW|B) is [0-9.]+× [a-z]+ than (OLD|A) |(NEW|B) is [a-z]+ than |equal \(|cannot tell \(|no verdict \()'
# a bookkeeping count (ops a sample) that follows the rate
gen "$TMPD/o.json" --seed 7 --samples 30
gen "$TMPD/n.json" --seed 8 --samples 30 --rate-scale 0.5
for f in o n; do
	python3 - "$TMPD/$f.json" "$TMPD/ops-$f.json" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    vals = [s["throughput"] * 1e6 for s in r["samples"]]
    for s, v in zip(r["samples"], vals):
        s["ops"] = v
    r["metrics"]["ops"] = {"unit": "ops", "kind": "count", "better": "none", "n": len(vals),
                           "mean": statistics.fmean(vals), "stddev": statistics.stdev(vals)}
json.dump(d, open(sys.argv[2], "w"))
PY
done
run compare "$TMPD/ops-o.json" "$TMPD/ops-n.json" --run-noise 0
head -1 <<<"$OUT" | grep -qE "$answer_re" &&
	[ "$(grep -cE "$answer_re" <<<"$OUT")" -eq 3 ] &&
	[ "$(maxwidth "$TMPD/out")" -le 120 ] &&
	! grep -q 'Tests:\|Verdicts:' <<<"$OUT" && ! grep -q '^  ops ' <<<"$OUT"
ok $? "compare: the first line answers, a line per run, rows <= 120 columns, no methods, no count rows" ||
	diag "$OUT"
grep -qE '^bpf-loop: synthetic rows: row 0: NEW is [12]\.[0-9]+× slower than OLD \(throughput -[0-9.]+%, NEW/OLD × 0\.[0-9]+ \[0\.[0-9]+, 0\.[0-9]+\]\)$' <<<"$OUT" &&
	! grep -q '±' <<<"$(head -3 <<<"$OUT")"
ok $? "compare: the answer says how many times slower, with NEW/OLD's CI as × r [lo, hi]" || diag "$OUT"
run compare -v "$TMPD/ops-o.json" "$TMPD/ops-n.json" --run-noise 0
[ "$(grep -c ' ops  .* follows the rate  *-$' <<<"$OUT")" -eq 3 ] && grep -q '^Tests:' <<<"$OUT" &&
	! grep -E ' ops  .* (higher|lower|faster|slower|cannot tell|no verdict|equal)$' <<<"$OUT" | grep -q .
ok $? "compare -v: the methods; a count that follows the rate listed without a verdict" || diag "$OUT"
run compare -q "$TMPD/ops-o.json" "$TMPD/ops-n.json" --run-noise 0
[ "$(answers "$OUT" | grep -c .)" -eq 3 ] && [ "$(answers "$OUT" | grep -cvE "$answer_re")" -eq 0 ]
ok $? "compare -q: only the three answer lines" || diag "$OUT"

# ---- ab's pairs: a paired test sees through drift both sides share ----
# ten runs a side whose means drift by 10% from run to run, the same drift in
# both files (adjacent runs of ab); B 5% slower; the runs' own noise is small
pgen() { gen "$1" --rows 1 --runs 10 --samples 5 --cv 0.005 --between-cv 0.002 --drift-cv 0.1 "${@:2}"; }
pgen "$TMPD/pa.json" --seed 1 --drift-seed 3
pgen "$TMPD/pb.json" --seed 2 --drift-seed 3 --rate-scale 0.95
run compare -v "$TMPD/pa.json" "$TMPD/pb.json" --paired
ratio=$(grep ' throughput ' <<<"$OUT" | grep -oE '0\.[0-9]{4} \[0\.[0-9]{4}, 0\.[0-9]{4}\]')
python3 -c '
import sys
r, lo, hi = (float(x) for x in sys.argv[1].replace("[", "").replace("]", "").replace(",", "").split())
assert lo < 0.95 < hi and hi - lo < 0.02 and abs(r - 0.95) < 0.005, (lo, r, hi)' "$ratio" &&
	grep -q ' throughput .* 10 pairs  *slower$' <<<"$OUT"
ok $? "paired: B/A $ratio brackets the crafted 0.95 within +-1%, slower" || diag "$OUT"
run compare -v "$TMPD/pa.json" "$TMPD/pb.json"
grep -q ' throughput .* 10/10 runs  *cannot tell$' <<<"$OUT"
ok $? "the same runs unpaired (Welch on run means): the drift hides the change" || diag "$OUT"
run compare -q "$TMPD/pa.json" "$TMPD/pb.json" --paired --fail-on-regression 3
[ "$RC" -eq 1 ] && grep -qE '^bpf-loop: synthetic rows: row 0: NEW is 1\.0[45]× slower than OLD \(throughput -[0-9.]+%, NEW/OLD × 0\.9[0-9]+ \[0\.9[0-9]+, 0\.9[0-9]+\]\)$' <<<"$OUT"
ok $? "paired: the answer line and the gate" || diag "$OUT" "$ERR"
pairs=0 alarms=0
# every document of one drift: each pair shares it, as ab's adjacent runs do
pgen "$TMPD/fa%d.json" --seed 5000 --count $((2 * NPAIRS2)) --drift-seed 9 --between-cv 0.01
for i in $(seq 0 $((NPAIRS2 - 1))); do
	run compare "$TMPD/fa$((5000 + 2 * i)).json" "$TMPD/fa$((5001 + 2 * i)).json" --paired
	pairs=$((pairs + 1))
	grep -qE "$alarm_re" <<<"$OUT" && alarms=$((alarms + 1))
done
bound=$(binom_bound "$pairs")
[ "$alarms" -le "$bound" ]
ok $? "paired, same configuration: $alarms false alarms in $pairs (at most $bound)"
gen "$TMPD/p1.json" --rows 1 --samples 5
run compare -q "$TMPD/p1.json" "$TMPD/p1.json" --paired
grep -q 'no verdict (throughput +0.0%: 1/1 runs, too few pairs to test); run 3 or more pairs' <<<"$(answers "$OUT")"
ok $? "paired, one run a side: no verdict, and what would give one" || diag "$OUT"

# ---- two default runs (5 one-second samples of one process): with --run-noise ----
gen "$TMPD/d5.json" --seed 5 --rows 1 --samples 5
jq '.runs[0].samples[] |= (.throughput *= 0.8 | .latency /= 0.8) |
	.runs[0].metrics.throughput.mean *= 0.8 | .runs[0].metrics.latency.of_mean_inverse /= 0.8' \
	"$TMPD/d5.json" >"$TMPD/d5s.json"
run compare "$TMPD/d5.json" "$TMPD/d5s.json" --fail-on-regression 5 --run-noise 0
[ "$RC" -eq 1 ] && head -1 <<<"$OUT" | grep -q 'NEW is 1\.2[0-9]*× slower than OLD (throughput -20.0%, NEW/OLD × 0\.8' &&
	grep -q 'rest on one run a side' <<<"$OUT"
ok $? "five samples a side, 0.8 x the throughput: slower, a regression, resting on one process" ||
	diag "$OUT" "$ERR"
pairs=0 alarms=0
gen "$TMPD/s%d.json" --seed 3000 --count $((2 * NPAIRS2)) --samples 5 --phi 0.5
for i in $(seq 0 $((NPAIRS2 - 1))); do
	run compare "$TMPD/s$((3000 + 2 * i)).json" "$TMPD/s$((3001 + 2 * i)).json" --run-noise 0
	pairs=$((pairs + 1))
	grep -qE "$alarm_re" <<<"$OUT" && alarms=$((alarms + 1))
done
bound=$(binom_bound "$pairs")
[ "$alarms" -le "$bound" ]
ok $? "five samples a side (lag-1 0.5), same distribution: $alarms false alarms in $pairs (at most $bound)"

# ---- option checks ----
run compare "$TMPD/d5.json" "$TMPD/d5.json" --match nosuch
[ "$RC" -eq 2 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -q 'match nosuch' <<<"$ERR"
ok $? "--match nosuch: exit 2, one line" || diag "$ERR"
run compare "$TMPD/d5.json" "$TMPD/d5.json" --ignore-option nr-loop
[ "$RC" -eq 2 ]
ok $? "--ignore-option with a part no run has: exit 2"
run compare -q "$TMPD/d5.json" "$TMPD/d5.json" --match nr_loops,producers
[ "$RC" -eq 0 ]
ok $? "--match of recorded options: accepted"
jq '.runs[0].metrics.throughput.n = -1' "$TMPD/d5.json" >"$TMPD/bad.json"
run compare "$TMPD/d5.json" "$TMPD/bad.json"
[ "$RC" -eq 2 ] && grep -q 'throughput.n is not a count' <<<"$ERR"
ok $? "n: -1 (the schema's minimum is 0): exit 2" || diag "$ERR"
jq '.env = "x"' "$TMPD/d5.json" >"$TMPD/bad.json"
run compare "$TMPD/d5.json" "$TMPD/bad.json"
[ "$RC" -eq 2 ] && grep -q '"env" is of another type' <<<"$ERR"
ok $? "env: \"x\" (the schema wants an object): exit 2" || diag "$ERR"

# an output naming an input replaces what compare reads (issue 50.6): refused first
cp "$TMPD/d5.json" "$TMPD/in6.json"
ln -s in6.json "$TMPD/in6.link"
for out in "--junit $TMPD/in6.json" "--json $TMPD/in6.link" "--json $TMPD/../$(basename "$TMPD")/in6.json"; do
	# shellcheck disable=SC2086 # the option and its path
	run compare "$TMPD/in6.json" "$TMPD/d5s.json" $out
	[ "$RC" -eq 2 ] && cmp -s "$TMPD/in6.json" "$TMPD/d5.json" && [ -z "$OUT" ] &&
		grep -qx "bpfbench: error: .* is the input $TMPD/in6.json: an output would replace it; give the output another name" <<<"$ERR"
	ok $? "compare ${out%% *} naming an input (${out##*/}): exit 2, the input as it was" ||
		diag "rc $RC" "$ERR"
done

# a file's label and section on stdout (issue 50.10): '?' for a control, as stderr shows them
jq '.runs[0].label = "row\n1\u001b[2J" | .runs[0].section = "sec\u0007"' "$TMPD/d5.json" >"$TMPD/c10o.json"
jq '.runs[0].label = "row\n1\u001b[2J" | .runs[0].section = "sec\u0007"' "$TMPD/d5s.json" >"$TMPD/c10n.json"
jq '.runs[0].label = "other\n" | .runs[0].section = "sec\u0007"' "$TMPD/d5s.json" >"$TMPD/c10x.json"
for new in c10n c10x; do
	run compare -v "$TMPD/c10o.json" "$TMPD/$new.json"
	! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$TMPD/out" &&
		! grep -qE '^(1|\[2J)' "$TMPD/out" && grep -qF 'sec?: row?1?[2J' "$TMPD/out"
	ok $? "compare $new: labels and sections from the files with '?' for controls on stdout" ||
		diag "$(cat -v "$TMPD/out" | head -20)"
done

# a result's figures: db record's rule wherever one is read; percentages bounded (issue 50.12)
jq '.runs[0].metrics.throughput.mean = -5' "$TMPD/d5.json" >"$TMPD/neg.json"
run compare "$TMPD/d5.json" "$TMPD/neg.json" --normalized
[ "$RC" -eq 2 ] && [ -z "$OUT" ] &&
	grep -qx "bpfbench: error: $TMPD/neg.json: runs\[0\].metrics.throughput: -5 M ops/s, but a rate is >= 0 (and finite)" <<<"$ERR"
ok $? "a negative mean throughput: refused as db record refuses it, exit 2" || diag "rc $RC" "$ERR"
jq '.runs[0].metrics.throughput.mean = 1e308 | .runs[0].samples |= map(.throughput = 1e308)' \
	"$TMPD/d5.json" >"$TMPD/huge.json"
run compare "$TMPD/d5.json" "$TMPD/huge.json" --run-noise 0
[ "$RC" -eq 0 ] && grep -qE 'throughput \+1(\.[0-9]+)?e\+308%' <<<"$OUT" && ! grep -qE '[0-9]{12}' <<<"$OUT"
ok $? "a mean of 1e308: its percentage in three digits, no 95-digit figure" || diag "$OUT"

done_testing
