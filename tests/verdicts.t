#!/usr/bin/env bash
# Verdicts on real runs: identical configurations do not cry wolf (suite
# htab-mem twice through compare's gate, ab of one command line against
# itself).  Run alone, after the other tests (Makefile SERIAL_TESTS): a
# self-comparison beside another test's bursts of load is none.  The
# sanitizer pass leaves it out: the gate's and ab's code run under ASan in
# tests/ab.t and tests/compare.t.
source "$(dirname "$0")/lib.sh"
need_bpf

# Two identical runs of the htab-mem suite find no regression at the gate
# (four samples a row: too few for a test, as two were at -d2).  One run a
# side is no verdict: the gate says it could not judge those rows (exit 5,
# not 1), and passes with --gate-unjudged pass.
run suite htab-mem -w0 -d1 --period-ms 250 --json "$TMPD/s1.json"
rc1=$RC
run suite htab-mem -w0 -d1 --period-ms 250 --json "$TMPD/s2.json"
rc2=$RC
run compare -v "$TMPD/s1.json" "$TMPD/s2.json" --fail-on-regression 5
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ] && [ "$RC" -eq 5 ] && ! grep -q 'regression:' <<<"$ERR" &&
	grep -qE '^Gate: --fail-on-regression 5%: 0 regressions, [1-9][0-9]* rows? not judged \(exit 5\)\.$' <<<"$OUT"
ok $? "two identical suite htab-mem -w0 -d1 runs: no regression at compare --fail-on-regression 5, rows not judged (rc $RC)" ||
	diag "$OUT" "$ERR"
grep -q 'level, no test\|peak, no test' <<<"$OUT"
ok $? "memory is judged as a level or peak, without a significance test"
run compare -q "$TMPD/s1.json" "$TMPD/s2.json" --fail-on-regression 5 --gate-unjudged pass
[ "$RC" -eq 0 ]
ok $? "the same with --gate-unjudged pass: exit 0 (rc $RC)" || diag "$OUT" "$ERR"

# ab of one command line against itself: equal or cannot tell, never a change.
# At the default alpha a self-comparison is called a change 1 time in 20 by
# design (tests/compare.t counts such false alarms against the binomial
# bound); here --alpha 0.001, so that a failure means a broken verdict.
# (and a work directory a killed ab left behind, its process gone: swept)
sh -c 'exit 0' & dead=$!
wait $dead
left="/tmp/bpfbench-ab.$dead.Zq3xY9"
mkdir -m 700 "$left" && echo '{}' >"$left/a.json"
run ab "noop -w0 -d1 --period-ms 250" "noop -w0 -d1 --period-ms 250" -r 3 --seed 1 \
	--alpha 0.001 --json "$TMPD/ab.json"
[ ! -e "$left" ]
ok $? "ab removes the work directory of an ab that was killed (process $dead gone)" ||
	{ diag "$(ls -la "$left")"; rm -rf "$left"; }
verdict=$(grep '^  throughput  ' <<<"$OUT" | grep -oE '(equal|cannot tell|no verdict|faster|slower)$')
[ "$RC" -eq 0 ] && { [ "$verdict" = equal ] || [ "$verdict" = "cannot tell" ]; }
ok $? "ab of noop against itself: $verdict" || diag "$OUT" "$ERR"
json_check "$TMPD/ab.json" '
[r["label"] for r in d["runs"]] == ["A", "B"] and all(r["runs"] == 3 for r in d["runs"])'
ok $? "ab --json: both sides, three runs each"
done_testing
