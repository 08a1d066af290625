#!/usr/bin/env bash
# The results workflow: suites, sweeps, exports, compare, --precision (plot: tests/plot.t).
# compare and the JSON reader run on crafted documents with known samples;
# everything else on real runs (-w0 -d1), asserting rows and files, never speeds.
source "$(dirname "$0")/lib.sh"

# mkdoc FILE SCALE [SCHEMA]: a two-run result in the format of today's writer
# (kind "sampled" / "inverse", no "better"), whose throughput samples are
# SCALE * (100 + small spread) M ops/s and latency 1000/that ns/op.
mkdoc() {
	python3 - "$@" <<'PY'
import json, sys
path, scale = sys.argv[1], float(sys.argv[2])
schema = sys.argv[3] if len(sys.argv) > 3 else "bpfbench-result/1"
# in no trend: compare tests one process's samples in batches as long as
# their correlation, and a rising series is one long correlation
spread = [-1.5, 1.0, -0.5, 1.5, 0.0, -1.0, 0.5, -0.2, 0.2, 0.0]
def run(nr_loops, base):
    thr = [scale * (base + s) for s in spread]
    lat = [1000.0 / t for t in thr]
    mean = lambda v: sum(v) / len(v)
    sd = lambda v: (sum((x - mean(v)) ** 2 for x in v) / (len(v) - 1)) ** 0.5
    return {"bench": "bpf-loop", "family": "bpf-loop", "status": 0, "trigger": "test-run",
            "label": "nr_loops=%d" % nr_loops, "sweep_param": "nr_loops",
            "options": {"warmup": 0, "duration": 1, "producers": 1, "nr_loops": nr_loops},
            "warmup_samples": 0, "measured_s": 10.0,
            "metrics": {"throughput": {"unit": "M ops/s", "kind": "sampled", "n": 10,
                                       "mean": mean(thr), "stddev": sd(thr)},
                        "latency": {"unit": "ns/op", "kind": "inverse", "of": "throughput",
                                    "of_mean_inverse": 1000.0 / mean(thr), "n": 10,
                                    "mean": mean(lat), "stddev": sd(lat)}},
            "samples": [{"elapsed_ns": 10**9, "throughput": t, "latency": l}
                        for t, l in zip(thr, lat)]}
doc = {"schema": schema, "env": {"kernel": "test", "date": "today"},
       "runs": [run(10, 100.0), run(100, 200.0)]}
json.dump(doc, open(path, "w"), indent=1)
PY
}


mkdoc "$TMPD/base.json" 1.0
mkdoc "$TMPD/same.json" 1.0
mkdoc "$TMPD/slow.json" 0.9
mkdoc "$TMPD/fast.json" 1.1
mkdoc "$TMPD/foreign.json" 1.0 "someone-else/3"

# crafted figures: the statistics alone, no allowance for drift between sessions
# or for runs that stray (one run a side: --run-noise 0)
run compare -v "$TMPD/base.json" "$TMPD/same.json" --drift 0 --run-noise 0
echo "$OUT" >"$TMPD/c"
[ "$RC" -eq 0 ] && [ "$(grep -c ' equal$' "$TMPD/c")" -eq 4 ] &&
	! grep -qE ' (faster|slower)$' "$TMPD/c"
ok $? "compare: identical samples are equal on all 4 metrics"

run compare -v "$TMPD/base.json" "$TMPD/slow.json" --run-noise 0
echo "$OUT" >"$TMPD/c"
[ "$RC" -eq 0 ] && [ "$(grep -c ' slower$' "$TMPD/c")" -eq 4 ] &&
	grep -q 'throughput .* -10.00% .* slower' "$TMPD/c" &&
	grep -q 'latency .* +11.1[0-9]% .* slower' "$TMPD/c"
ok $? "compare: 10% less throughput (and more latency) is slower"
[ "$RC" -eq 0 ] || diag "$OUT"

run compare -v "$TMPD/base.json" "$TMPD/fast.json" --run-noise 0
[ "$RC" -eq 0 ] && [ "$(grep -c ' faster$' <<<"$OUT")" -eq 4 ] && ! grep -q ' slower$' <<<"$OUT"
ok $? "compare: 10% more throughput (and less latency) is faster"

run compare -v "$TMPD/base.json" "$TMPD/slow.json" --fail-on-regression 5 --run-noise 0
[ "$RC" -eq 1 ] && grep -q 'regression: bpf-loop: nr_loops=10 throughput -10.00%' <<<"$ERR"
ok $? "compare --fail-on-regression 5: a 10% slowdown exits 1 and names it"
run compare -v "$TMPD/base.json" "$TMPD/slow.json" --fail-on-regression 20 --run-noise 0
[ "$RC" -eq 0 ]
ok $? "compare --fail-on-regression 20: a 10% slowdown passes"
run compare -v "$TMPD/base.json" "$TMPD/fast.json" --fail-on-regression=1 --run-noise 0
[ "$RC" -eq 0 ]
ok $? "compare --fail-on-regression: a speed-up is no regression"
run compare -v "$TMPD/base.json" "$TMPD/slow.json" --alpha 1e-300 --run-noise 0
[ "$RC" -eq 0 ] && [ "$(grep -c ' cannot tell$' <<<"$OUT")" -eq 4 ]
ok $? "compare --alpha: the stated level decides significance"

# A metric that counts trouble is better lower, whatever its unit says.
for f in base fast; do
	python3 - "$TMPD/$f.json" "$TMPD/$f-drops.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    r["metrics"]["drops"] = dict(r["metrics"].pop("latency"), unit="M/s", kind="sampled")
    del r["metrics"]["drops"]["of"]
    for s in r["samples"]:
        s["drops"] = s.pop("latency")
json.dump(d, open(sys.argv[2], "w"))
PY
done
run compare -v "$TMPD/base-drops.json" "$TMPD/fast-drops.json" --drift 0 --run-noise 0
[ "$RC" -eq 0 ] && [ "$(grep -c 'drops .* M ops/s .* better$' <<<"$OUT")" -eq 2 ]
ok $? "compare: fewer drops per second is better, not slower"
run compare -v "$TMPD/fast-drops.json" "$TMPD/base-drops.json" --fail-on-regression 5 --drift 0 --run-noise 0
[ "$RC" -eq 1 ] && [ "$(grep -c 'drops .* worse$' <<<"$OUT")" -eq 2 ] && grep -q 'regression: .* drops' <<<"$ERR"
ok $? "compare: more drops is worse, and a regression"

# bad_input NAME FILE: compare exits 2 with one line on stderr naming FILE
bad_input() {
	run compare -v "$2" "$TMPD/base.json"
	local lines
	lines=$(printf '%s' "$ERR" | grep -c .)
	if [ "$RC" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF "$2" <<<"$ERR"; then
		pass "compare refuses $1: $(sed "s|$TMPD/||" <<<"$ERR")"
	else
		fail "compare refuses $1" "rc=$RC stderr=$ERR"
	fi
}
head -c 700 "$TMPD/base.json" >"$TMPD/truncated.json"
printf '{"schema": "bpfbench-result/1", "runs": [ }' >"$TMPD/malformed.json"
printf '{"schema": "bpfbench-result/1", "runs": [{"bench": 3}]}' >"$TMPD/wrongtype.json"
printf '{"schema": "bpfbench-result/1", "env": {}, "runs": []} trailing' >"$TMPD/trailing.json"
printf '[1, 2, 3]' >"$TMPD/array.json"
: >"$TMPD/empty.json"
python3 -c 'print("[" * 100000)' >"$TMPD/deep.json"
head -c 1M /dev/urandom >"$TMPD/binary.json"
truncate -s 65M "$TMPD/huge.json"
bad_input "a truncated document" "$TMPD/truncated.json"
bad_input "malformed JSON" "$TMPD/malformed.json"
bad_input "a run of the wrong shape" "$TMPD/wrongtype.json"
bad_input "data after the document" "$TMPD/trailing.json"
bad_input "a foreign schema" "$TMPD/foreign.json"
bad_input "a document that is no object" "$TMPD/array.json"
bad_input "an empty file" "$TMPD/empty.json"
bad_input "deep nesting" "$TMPD/deep.json"
bad_input "binary garbage" "$TMPD/binary.json"
bad_input "a file over 64 MiB" "$TMPD/huge.json"
bad_input "a missing file" "$TMPD/nosuch.json"
bad_input "a directory" "$TMPD"
rm -f "$TMPD/huge.json" "$TMPD/binary.json" "$TMPD/deep.json"

# An option at its default matches its absence (a document from a version
# without it); set to anything else, it makes another measurement.
jq '.runs[].options += {"test-run-repeat": 0, "trigger": "auto"}' "$TMPD/same.json" >"$TMPD/newer.json"
jq '.runs[].options += {"test-run-repeat": 7}' "$TMPD/same.json" >"$TMPD/other.json"
run compare -v "$TMPD/base.json" "$TMPD/newer.json" --drift 0 --run-noise 0
[ "$RC" -eq 0 ] && [ "$(grep -c ' equal$' <<<"$OUT")" -eq 4 ]
ok $? "compare: options at their default match a document without them" || diag "$OUT" "$ERR"
run compare -v "$TMPD/base.json" "$TMPD/other.json" --run-noise 0
[ "$RC" -eq 1 ] && grep -q 'no run of' <<<"$ERR" &&
	[ "$(grep -c ' only in NEW; the closest run of OLD differs in test-run-repeat (NEW 7, OLD default)$' <<<"$OUT")" -eq 2 ]
ok $? "compare: an option away from its default is another measurement, named" || diag "$OUT" "$ERR"

run compare -v "$TMPD/base.json"
[ "$RC" -eq 2 ]
ok $? "compare with one file: exit 2"
run compare -v "$TMPD/base.json" "$TMPD/same.json" --alpha 2
[ "$RC" -eq 2 ] && grep -q alpha <<<"$ERR"
ok $? "compare --alpha 2: exit 2 naming the option"

# ---- what follows loads BPF ----
need_bpf

run suite --list
[ "$RC" -eq 0 ] && grep -q '^bpf-loop ' <<<"$OUT" && grep -q '^seeds ' <<<"$OUT" &&
	grep -q '^quick ' <<<"$OUT"
ok $? "suite --list names bpf-loop, seeds and quick"
run suite nosuch
[ "$RC" -eq 2 ] && grep -q nosuch <<<"$ERR"
ok $? "suite nosuch: exit 2 naming it"
run suite seed
[ "$RC" -eq 2 ] && grep -q "did you mean 'seeds'" <<<"$ERR"
ok $? "suite seed: exit 2, did you mean 'seeds'"
# seeds holds the seed documents' tables only; all adds the suites beyond them
run suite seeds --help
SEEDS=$OUT
run suite all --help
grep -q ' bpf-loop ' <<<"$SEEDS" && grep -q ' htab-mem ' <<<"$SEEDS" &&
	! grep -q ' map-ops ' <<<"$SEEDS" && grep -q ' map-ops ' <<<"$OUT" &&
	[ "$(wc -l <<<"$OUT")" -gt "$(wc -l <<<"$SEEDS")" ]
ok $? "suite seeds has the seed suites and not maps; suite all has maps too"
run suite bpf-loop --nosuchopt
[ "$RC" -eq 2 ] && grep -q nosuchopt <<<"$ERR"
ok $? "suite with a bad option: exit 2 before running anything"

run suite bpf-loop --help
nsteps=$(grep -c 'bpfbench bpf-loop' <<<"$OUT")
# two samples a step, as short as they come: the rows and exports are what is checked
run suite bpf-loop -w0 -d0.2 --period-ms 100 --json "$TMPD/suite.json" --csv "$TMPD/suite.csv" \
	--md "$TMPD/suite.md"
rows=$(grep -cE '^nr_loops [0-9]+ +throughput [0-9.e+-]+ ± [0-9.e+-]+ M ops/s, latency' <<<"$OUT")
[ "$RC" -eq 0 ] && [ "$nsteps" -ge 10 ] && [ "$rows" -eq "$nsteps" ] &&
	grep -q '^bpf_loop, nr_loops sweep$' <<<"$OUT"
ok $? "suite bpf-loop -w0 -d0.2: a section header and one row per step ($rows of $nsteps)"
[ "$RC" -eq 0 ] || diag "$OUT" "$ERR"
json_check "$TMPD/suite.json" "
runs = d['runs']
good = [r['suite'] == 'bpf-loop' and r['label'] == 'nr_loops %d' % r['options']['nr_loops'] and r['options']['duration'] == 0.2 and r['options']['warmup'] == 0 and len(r['samples']) == 2 for r in runs]
len(runs) == $nsteps and all(good)"
ok $? "suite --json: one run per step with suite, label and the step's options"
python3 - "$TMPD/suite.csv" "$nsteps" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
n = int(sys.argv[2])
assert len(rows) == n, len(rows)
assert {"throughput [M ops/s]", "throughput stddev [M ops/s]", "latency [ns/op]"} <= set(rows[0])
assert all(r["status"] == "0" and int(r["n"]) == 2 and float(r["throughput [M ops/s]"]) > 0
           and float(r["throughput stddev [M ops/s]"]) >= 0 for r in rows)
assert rows[0]["section"] == "bpf_loop, nr_loops sweep"
PY
ok $? "suite --csv: a row per step, a column per metric with its unit, parseable"
grep -q '^## bpf_loop, nr_loops sweep$' "$TMPD/suite.md" &&
	grep -Eq '^\| Step +\| Benchmark \| throughput \[M ops/s\] \| +latency \[ns/op\] \|' "$TMPD/suite.md" &&
	[ "$(grep -Ec '^\| nr_loops [0-9]+ +\| bpf-loop +\| +[0-9.]+ ± [0-9.]+ \| ' "$TMPD/suite.md")" -eq "$nsteps" ] &&
	python3 "$(dirname "$0")/md_tables.py" "$TMPD/suite.md" >/dev/null
ok $? "suite --md: a section, a column per metric (unit in the header), one row per step"

run bpf-loop --sweep nr_loops=1,10,100 -w0 -d0.2 --period-ms 100 --json "$TMPD/sweep.json"
[ "$RC" -eq 0 ] && [ "$(grep -c '^nr_loops=' <<<"$OUT")" -eq 3 ]
ok $? "--sweep nr_loops=1,10,100: three rows"
json_check "$TMPD/sweep.json" "
runs = d['runs']
values = [r['options']['nr_loops'] for r in runs]
labels = [r['label'] for r in runs]
good = all(r['sweep_param'] == 'nr_loops' and r['status'] == 0 and r['samples'] for r in runs)
values == [1, 10, 100] and labels == ['nr_loops=1', 'nr_loops=10', 'nr_loops=100'] and good"
ok $? "--sweep --json: one run per value, in order, with its option"
! grep -q '\[1/3\]' <<<"$ERR"
ok $? "no progress line when stderr is not a terminal"
if command -v script >/dev/null; then
	script -qc "$BPFBENCH noop -w0 -d1 --sweep batch=1,2" /dev/null >"$TMPD/tty" 2>&1
	grep -q '\[1/2\] batch=1 (noop), about [0-9]* s left' "$TMPD/tty" &&
		grep -q '\[2/2\] batch=2 (noop), about [0-9]* s left' "$TMPD/tty"
	ok $? "on a terminal: a progress line with the step, i of n and the time left"
else
	skip "script(1) is not installed: no terminal to test the progress line"
fi

# An option that changes nothing of the measurement (its table says so) is never swept.
bad=0
for o in json folded quiet; do
	run noop -w0 -d0.2 --period-ms 100 --sweep "$o=a,b"
	[ "$RC" -eq 2 ] && grep -q -- "--sweep: --$o cannot be swept" <<<"$ERR" || bad=$((bad + 1))
done
[ "$bad" -eq 0 ]
ok $? "--sweep refuses an output file and -q: they measure nothing ($bad not refused)"

# fentry is refused on these machines (exit 4, SKIP, the reason in the row); where it loads,
# the row has figures.
run noop -w0 -d0.2 --period-ms 100 --sweep trigger=raw-tp,fentry --csv -
[ "$RC" -eq 0 ] && grep -q '^trigger=raw-tp  *throughput' <<<"$ERR" &&
	grep -qE '^trigger=fentry  *(SKIP|throughput)' <<<"$ERR"
ok $? "--sweep of a global option: a step the kernel cannot run is a SKIP row, exit 0"
[ "$(grep -c '^,noop: trigger sweep,trigger=raw-tp,noop,0,' <<<"$OUT")" -eq 1 ] &&
	grep -qE '^,noop: trigger sweep,trigger=fentry,noop,(4,.*refuses the fentry trigger \(|0,)' <<<"$OUT"
ok $? "--csv -: the rows on stdout (the table goes to stderr)"

for bad in 'nr_loops=' 'nr_loops=1,,2' 'nosuch=1' 'json=x' 'affinity=1' 'nr_loops=0,1' 'nr_loops'; do
	run bpf-loop -w0 -d1 --sweep "$bad"
	[ "$RC" -eq 2 ] && [ "$(printf '%s' "$ERR" | grep -c .)" -eq 1 ] && [ -z "$OUT" ]
	ok $? "--sweep '$bad': exit 2, one line, nothing run"
done

# A generous target on the harness floor (raw_tp: many ops per sample), reached in a few
# seconds even on a busy machine.
run noop -w0 --trigger raw-tp --period-ms 100 --precision 10 --max-duration 30 --json "$TMPD/prec.json"
[ "$RC" -eq 0 ] && grep -q '^Precision: .* reached after' <<<"$OUT"
ok $? "--precision 10: says when the target was reached"
json_check "$TMPD/prec.json" "
r = d['runs'][0]
p = r['precision']
p['reached'] and p['target_pct'] == 10 and p['achieved_pct'] <= 10 and p['time_s'] < 30 and len(r['samples']) >= 3 and r['measured_s'] == p['time_s']"
ok $? "--precision: stopped before --max-duration with at least 3 samples"
run noop -w0 --period-ms 100 --precision 0.0001 --max-duration 1 --json "$TMPD/prec.json"
[ "$RC" -eq 0 ] && grep -q 'NOT reached' <<<"$OUT" &&
	json_check "$TMPD/prec.json" "not d['runs'][0]['precision']['reached'] and len(d['runs'][0]['samples']) == 10"
ok $? "--precision out of reach: stops at --max-duration and says so"
# A whole-run benchmark: run_once() is repeated until the target, not for -d.
oneshot=$("$BPFBENCH" --list | awk '$1 == "lpm-trie-free" { print $1 }')
if [ -n "$oneshot" ]; then
	run "$oneshot" -w0 -q --precision 20 --max-duration 30 --json "$TMPD/prec1.json"
	[ "$RC" -eq 0 ] && json_check "$TMPD/prec1.json" "
p = d['runs'][0]['precision']
p['reached'] and p['time_s'] < 30 and len(d['runs'][0]['samples']) >= 3"
	ok $? "--precision on a whole-run benchmark ($oneshot)"
else
	skip "no whole-run benchmark to try --precision on"
fi
for bad in 0 abc 101 -1 ''; do
	run noop -w0 -d1 --precision "$bad"
	[ "$RC" -eq 2 ] && grep -q precision <<<"$ERR"
	ok $? "--precision '$bad': exit 2"
done

done_testing
