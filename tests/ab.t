#!/usr/bin/env bash
# ab and -r N on real runs, as a user sees them: repetitions recorded as
# their samples say, the run means' spread as compare's --run-noise, ab's
# output shape (not its figures), its option checks, --precision.  The
# self-comparisons, which judge figures, are tests/verdicts.t's.
source "$(dirname "$0")/lib.sh"
need_bpf

# --runs 3: three repetitions whose records agree with their samples.
run -q -w0 -d0.4 --period-ms 100 -r 3 noop --json "$TMPD/r.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/r.json" '
r = d["runs"][0]
reps = r["repeats"]
tp = lambda k: [s["throughput"] for s in r["samples"] if s["repeat"] == k]
ok = [abs(sum(tp(k)) / len(tp(k)) - reps[k]["metrics"]["throughput"]["mean"]) < 1e-6 * reps[k]["metrics"]["throughput"]["mean"] and reps[k]["metrics"]["throughput"]["n"] == len(tp(k)) == 4 for k in range(3)]
r["runs"] == 3 and len(reps) == 3 and all(ok) and len(r["samples"]) == 12'
ok $? "-r 3: three repetitions, each record the mean and count of its samples"
run -w0 -d0.4 --period-ms 100 -r 3 noop --json "$TMPD/r3.json"
pct=$(sed -nE "s/^  one run's mean strays ([0-9.]+)% \(sd of the run means\): compare --run-noise ([0-9.]+) judges single runs by it$/\1 \2/p" <<<"$OUT")
[ "$RC" -eq 0 ] && json_check "$TMPD/r3.json" "
import statistics as st
m = [x['metrics']['throughput']['mean'] for x in d['runs'][0]['repeats']]
a, b = '$pct'.split()
abs(float(a) - st.stdev(m) / st.mean(m) * 100) < 0.051 and a == b"
ok $? "-r 3: the run means' spread in % of their mean, as compare's --run-noise ($pct)" ||
	diag "$(grep -A1 '^Runs' <<<"$OUT")"

run ab "noop -w0 -d1" "bpf-loop -w0 -d1"
[ "$RC" -eq 2 ]
ok $? "ab of two benchmarks is refused (exit 2)"
# ---- ab's output as a user sees it: its shape, not its figures ----
maxwidth() { python3 -c 'import sys; print(max([len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")] + [0]))' "$1"; }
answer_re='^bpf-loop: ((B|many) is [0-9.]+× [a-z]+ than (A|few) |(B|many) is [a-z]+ than |equal \(|cannot tell \(|no verdict \()'
# global options before the subcommand apply to both sides
run -w0 -d0.5 --period-ms 250 ab "bpf-loop --nr_loops 10" "bpf-loop --nr_loops 100" -r 3 --seed 2 \
	--json "$TMPD/ab2.json"
[ "$RC" -eq 0 ] && head -1 <<<"$OUT" | grep -qE "$answer_re" && [ "$(maxwidth "$TMPD/out")" -le 120 ] &&
	! grep -q '/tmp/' "$TMPD/out" "$TMPD/err" && grep -q '^A: bpf-loop --nr_loops 10$' <<<"$OUT" &&
	grep -q '^  metric .* A  *B  .* B/A \[95% CI\]  *verdict$' <<<"$OUT"
ok $? "ab: the first line answers, sides A and B, <= 120 columns, no temporary path" ||
	diag "$OUT" "$ERR"
! grep -qE '^  (ops|runs) ' <<<"$OUT"
ok $? "ab: no rows (or verdicts) for counts that follow the rate" || diag "$OUT"
json_check "$TMPD/ab2.json" '
all(r["options"]["duration"] == 0.5 and r["options"]["warmup"] == 0 and r["runs"] == 3 for r in d["runs"])'
ok $? "ab: -w0 -d0.5 before the subcommand ran both sides so"
run ab "bpf-loop --nr_loops 10 -w0 -d0.5 --period-ms 250" "bpf-loop --nr_loops 100 -w0 -d0.5 --period-ms 250" \
	-r 2 -q --name few --name many
[ "$RC" -eq 0 ] && [ "$(grep -c . <<<"$OUT")" -ge 1 ] && [ "$(answers "$OUT" | grep -cvE "$answer_re")" -eq 0 ]
ok $? "ab -q --name few --name many: only answer lines, in the names given" || diag "$OUT" "$ERR"
run ab "bpf-loop --nr_loops 10 -w0 -d0.5 --period-ms 250" "bpf-loop -w0 -d0.5 --period-ms 250" -r 1 -q \
	--fail-on-regression 5
grep -q 'no verdict (.*); run 3 or more pairs' <<<"$(answers "$OUT")"
ok $? "ab -r 1: no verdict, and what would give one" || diag "$OUT"
# the gate must not pass on what it could not judge (issue 42, item 8: it exited 0)
[ "$RC" -eq 5 ] && grep -qE '^bpfbench: error: gate: [1-9][0-9]* rows? not judged .*: exit 5; --gate-unjudged pass' <<<"$ERR" &&
	! grep -q 'regression:' <<<"$ERR"
ok $? "ab -r 1 --fail-on-regression 5: the gate could not judge, exit 5 (rc $RC)" || diag "$ERR"

# option checks before any run: one line, exit 2, at once
start=$(date +%s)
run ab "noop -w0 -d30" "noop -w0 -d30" --alpha nan
[ "$RC" -eq 2 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -q '^bpfbench: error: .*alpha' <<<"$ERR" &&
	[ $(($(date +%s) - start)) -lt 20 ]
ok $? "ab --alpha nan: exit 2 before any pair runs" || diag "$ERR"
run ab "noop -w0 -d30" "noop -w0 -d30" $(for i in $(seq 9); do echo --noise 1; done) --json /nonexistent/x
[ "$RC" -ne 0 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -q '^bpfbench: error: cannot write /nonexistent/x' <<<"$ERR"
ok $? "ab with 9 --noise and --json /nonexistent/x: one error line" || diag "$ERR"
run ab "noop -w0 -d30" "noop -w0 -d30" --precision 0
[ "$RC" -eq 2 ] && grep -q 'precision' <<<"$ERR"
ok $? "ab --precision 0: exit 2"
run ab "noop -w0 -d30" "noop -w0 -d30" --gate-unjudged pass
[ "$RC" -eq 2 ] && grep -q 'gate-unjudged is for a gate' <<<"$ERR"
ok $? "ab --gate-unjudged without --fail-on-regression: exit 2 before any pair runs" || diag "$ERR"
for bad in A A,B,C; do
	run ab "noop -w0 -d30" "noop -w0 -d30" --names "$bad"
	[ "$RC" -eq 2 ] && grep -q -- '--names needs two names' <<<"$ERR"
	ok $? "ab --names '$bad': exit 2 before any pair runs" || diag "$RC: $ERR"
done
run ab "noop -w0 -d30" "noop -w0 -d30" --names A,B --name C
[ "$RC" -eq 2 ]
ok $? "ab --names A,B --name C: exit 2 (the sides are named once)" || diag "$ERR"
# compare's spelling of the names: the sides' labels in the JSON
run ab "noop -w0 -d0.1 --period-ms 100" "noop -w0 -d0.1 --period-ms 100" -r 1 -q --names old,new --json "$TMPD/names.json"
json_check "$TMPD/names.json" '[r["label"] for r in d["runs"]] == ["old", "new"]'
ok $? "ab --names old,new (compare's spelling): the sides labelled old and new" || diag "$RC: $ERR"

# --precision: pairs until the CI of B/A is narrow enough, or the time bound
run ab "noop -w0 -d0.3 --period-ms 100" "noop -w0 -d0.3 --period-ms 100" --precision 50 --max-duration 30
pairs=$(grep -oE '^[0-9]+ pairs in random order' <<<"$OUT" | cut -d' ' -f1)
[ "$RC" -eq 0 ] && [ "${pairs:-0}" -ge 5 ] && grep -qE -- '--precision 50%: (reached|NOT reached)' <<<"$OUT"
ok $? "ab --precision 50: $pairs pairs, says whether the target was met" || diag "$OUT" "$ERR"

done_testing
