#!/usr/bin/env bash
# Verdicts on real runs: identical configurations do not cry wolf, repeated
# runs are recorded consistently, ab of one command line against itself.
source "$(dirname "$0")/lib.sh"
need_bpf

# Two identical runs of the htab-mem suite pass the gate (four samples a row:
# too few for a test, as two were at -d2).
run suite htab-mem -w0 -d1 --period-ms 250 --json "$TMPD/s1.json"
rc1=$RC
run suite htab-mem -w0 -d1 --period-ms 250 --json "$TMPD/s2.json"
rc2=$RC
run compare "$TMPD/s1.json" "$TMPD/s2.json" --fail-on-regression 5
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ] && [ "$RC" -eq 0 ] && ! grep -q 'regression:' <<<"$ERR"
ok $? "two identical suite htab-mem -w0 -d1 runs pass compare --fail-on-regression 5 (rc $RC)" ||
	diag "$OUT" "$ERR"
grep -q 'level, no test\|peak, no test' <<<"$OUT"
ok $? "memory is judged as a level or peak, without a significance test"

# --runs 3: three repetitions whose records agree with their samples.
run -q -w0 -d0.4 --period-ms 100 -r 3 noop --json "$TMPD/r.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/r.json" '
r = d["runs"][0]
reps = r["repeats"]
tp = lambda k: [s["throughput"] for s in r["samples"] if s["repeat"] == k]
ok = [abs(sum(tp(k)) / len(tp(k)) - reps[k]["metrics"]["throughput"]["mean"]) < 1e-6 * reps[k]["metrics"]["throughput"]["mean"] and reps[k]["metrics"]["throughput"]["n"] == len(tp(k)) == 4 for k in range(3)]
r["runs"] == 3 and len(reps) == 3 and all(ok) and len(r["samples"]) == 12'
ok $? "-r 3: three repetitions, each record the mean and count of its samples"

# ab of one command line against itself: equal or inconclusive, never a change.
# At the default alpha a self-comparison is called a change 1 time in 20 by
# design (tests/compare.t counts such false alarms against the binomial
# bound); here --alpha 0.001, so that a failure means a broken verdict.
run ab "noop -w0 -d1 --period-ms 250" "noop -w0 -d1 --period-ms 250" -r 3 --seed 1 \
	--alpha 0.001 --json "$TMPD/ab.json"
verdict=$(grep '  throughput  ' <<<"$OUT" | awk '{ print $NF }')
[ "$RC" -eq 0 ] && { [ "$verdict" = equal ] || [ "$verdict" = inconclusive ]; }
ok $? "ab of noop against itself: $verdict" || diag "$OUT" "$ERR"
json_check "$TMPD/ab.json" '
[r["label"] for r in d["runs"]] == ["A", "B"] and all(r["runs"] == 3 for r in d["runs"])'
ok $? "ab --json: both sides, three runs each"
run ab "noop -w0 -d1" "bpf-loop -w0 -d1"
[ "$RC" -eq 2 ]
ok $? "ab of two benchmarks is refused (exit 2)"
done_testing
