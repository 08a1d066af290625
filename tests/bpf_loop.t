#!/usr/bin/env bash
# bpf-loop end to end: real programs, figures that agree with each other and
# with what the program counted (iterations = nr_loops x calls x program
# runs, as the kernel's bench makes 1000 calls a run), JSON that a parser
# reads back and that matches the human summary, which the kernel's
# summarize patterns read.
source "$(dirname "$0")/lib.sh"
need_bpf
before=$(kernel_objects)

J="$TMPD/loop.json"
run bpf-loop -w0 -d1 --period-ms 250 --nr_loops 100 --json "$J"
ok "$RC" "bpf-loop -w0 -d1 runs (exit $RC)" || diag "$ERR"

json_check "$J" 'd["schema"] == "bpfbench-result/1" and len(d["runs"]) == 1'
ok $? "JSON parses, one run, our schema"

json_check "$J" '
e = d["env"]
all(e.get(k) for k in ("bpfbench_version", "git_commit", "kernel", "cpu_model", "libbpf_version")) and e["online_cpus"] >= 1'
ok $? "JSON environment: version, commit, kernel, CPU, libbpf"

# the CPU lists as older kernels write an empty one ("(null)"), and a real list
mkdir -p "$TMPD/cpu/cpu0/cpufreq"
echo "(null)" >"$TMPD/cpu/nohz_full"
echo "1" >"$TMPD/cpu/isolated"
echo "(null)" >"$TMPD/cpu/cpu0/cpufreq/scaling_driver"
BPFBENCH_TEST_CPU_SYSFS=$TMPD/cpu "$BPFBENCH" bpf-loop -w0 -d0.2 --period-ms 100 -q \
	--json "$TMPD/cpus.json" >/dev/null 2>"$TMPD/cpus.err"
rc=$?
[ "$rc" -eq 0 ] && ! grep -qF "(null)" "$TMPD/cpus.json" &&
	json_check "$TMPD/cpus.json" 'd["env"]["nohz_full"] == "" and d["env"]["isolated_cpus"] == "1" and d["env"]["smt_active"] is None and d["env"]["cpufreq_driver"] is None'
ok $? "a kernel's '(null)' CPU list is written as the empty list, a real one as it is, a missing file or another '(null)' as null" ||
	diag "exit $rc: $(cat "$TMPD/cpus.err")" "$(grep -E 'nohz|isolated|smt' "$TMPD/cpus.json")"

json_check "$J" '
r = d["runs"][0]
r["trigger"] in ("test-run", "raw-tp", "fentry") and r["options"]["nr_loops"] == 100'
ok $? "JSON names the trigger used and the options"

json_check "$J" '
s = d["runs"][0]["samples"]
len(s) == 4 and all(x["throughput"] > 0 for x in s)'
ok $? "four 250 ms samples, each with positive throughput"

json_check "$J" '
r = d["runs"][0]; s = r["samples"]; m = r["metrics"]["throughput"]
v = [x["throughput"] for x in s]; mean = sum(v) / len(v)
sd = (sum((x - mean) ** 2 for x in v) / (len(v) - 1)) ** 0.5
abs(m["mean"] - mean) <= 1e-9 * mean and abs(m["stddev"] - sd) <= 1e-6 * mean + 1e-12 and m["min"] == min(v) and m["max"] == max(v) and m["n"] == len(v) and m["ci95_low"] <= m["mean"] <= m["ci95_high"]'
ok $? "aggregates recomputed from the raw samples agree"

json_check "$J" '
r = d["runs"][0]; s = r["samples"]
all(abs(x["latency"] * x["throughput"] - 1000) < 1e-6 for x in s) and abs(r["metrics"]["latency"]["of_mean_inverse"] * r["metrics"]["throughput"]["mean"] - 1000) < 1e-6'
ok $? "latency is 1000 / throughput, per sample and in the summary"

json_check "$J" '
s = d["runs"][0]["samples"]; e = sorted(x["elapsed_ns"] for x in s)
# a late tick (a loaded machine) lengthens one sample; none is shorter than half a period
e[0] >= 0.125e9 and 0.2e9 < e[len(e) // 2] < 0.5e9'
ok $? "each sample's real elapsed time is about one period (the median), none under half of it"

json_check "$J" '
s = d["runs"][0]["samples"]
all(x["ops"] > 0 and abs(x["throughput"] * x["elapsed_ns"] / 1e3 - x["ops"]) <= 1e-9 * x["ops"] for x in s)'
ok $? "per sample, throughput x elapsed time = the ops the program counted"

# ops_per_run FILE NR_LOOPS CALLS: every sample's ops are NR_LOOPS x CALLS per program run
# counted, give or take the runs still going when the period ended (one per producer, and
# one started between the two counters' reads).
ops_per_run() {
	json_check "$1" "
r = d['runs'][0]; p = r['options']['producers']; per_run = $2 * $3
all(x['runs'] > 0 and abs(x['ops'] - per_run * x['runs']) <= per_run * (p + 1) for x in r['samples']) and sum(x['ops'] for x in r['samples']) <= per_run * (sum(x['runs'] for x in r['samples']) + p + 1)"
}
ops_per_run "$J" 100 1000
ok $? "nr_loops 100: ops = 100 iterations x 1000 bpf_loop calls x program runs, as the kernel's bench"

json_check "$J" '
m = d["runs"][0]["metrics"]
[(m[k]["kind"], m[k]["better"]) for k in ("throughput", "latency", "ops", "runs")] == [("rate", "higher"), ("inverse", "lower"), ("count", "none"), ("count", "none")]'
ok $? "JSON: throughput a rate, latency its inverse, ops and runs counts"

line=$(grep '^Summary:' <<<"$OUT")
grep -Eq '^Summary: throughput +[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3} M ops/s \( *[0-9]+\.[0-9]{3}M ops/prod\), latency +[0-9]+\.[0-9]{3} ns/op(, |$)' <<<"$line"
ok $? "Summary line in the kernel bench's shape" || diag "$line"

# run_bench_bpf_loop.sh's summarize_ops: the whole output on one line (echo $2 | tail -n1),
# then ops()'s two sed patterns.
flat=$(echo $OUT | tail -n1)
tp=$(sed -E 's/.*throughput\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+\sM\sops\/s).*/\1/' <<<"$flat")
lat=$(sed -E 's/.*latency\s+([0-9]+\.[0-9]+\sns\/op).*/\1/' <<<"$flat")
want=$(python3 -c 'import json,sys; m = json.load(open(sys.argv[1]))["runs"][0]["metrics"]; print("%.3f ± %.3f M ops/s|%.3f ns/op" % (m["throughput"]["mean"], m["throughput"]["stddev"], m["latency"]["of_mean_inverse"]))' "$J")
[ "$tp|$lat" = "$want" ]
ok $? "the kernel's summarize_ops sed patterns read throughput and latency from our output" || diag "got '$tp|$lat', want '$want'"

mean=$(python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["runs"][0]["metrics"]["throughput"]["mean"])' "$J")
grep -q "throughput *$mean ±" <<<"$line"
ok $? "human summary and JSON agree ($mean)"

[ "$(grep -c '^Iter ' <<<"$OUT")" -eq 4 ]
ok $? "one Iter line per period"

# Past 1000 iterations a call, fewer calls keep a run near a million iterations.
run bpf-loop -w0 -d1 -q --period-ms 250 --nr_loops 5000 --json "$TMPD/5000.json"
[ "$RC" -eq 0 ] && ops_per_run "$TMPD/5000.json" 5000 200
ok $? "nr_loops 5000: ops = 5000 iterations x 200 calls x program runs" || diag "$ERR"
run bpf-loop -w0 -d1 -q --period-ms 250 --nr_loops 1 --trigger raw-tp --json "$TMPD/1.json"
[ "$RC" -eq 0 ] && ops_per_run "$TMPD/1.json" 1 1000
ok $? "nr_loops 1, raw-tp: ops = 1 iteration x 1000 calls x program runs (getpgid calls)" || diag "$ERR"

run bpf-loop -w0 -d1 -q --nr_loops 1000000 --json -
[ "$RC" -eq 0 ] && python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["runs"][0]["metrics"]["throughput"]["mean"] > 0' <<<"$OUT"
ok $? "--json - puts only JSON on stdout (1M loops per call)"

run bpf-loop -w0 -d1 -q --trigger raw-tp --json "$TMPD/rt.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/rt.json" '
r = d["runs"][0]
r["trigger"] == "raw-tp" and r["metrics"]["throughput"]["mean"] > 0'
ok $? "the raw-tp trigger runs the same benchmark" || diag "$ERR"

run bpf-loop -w0 -d1 --test-run-repeat 7 --json "$TMPD/rep.json"
[ "$RC" -eq 0 ] && grep -q 'trigger test-run, 7 runs per syscall' <<<"$ERR" &&
	json_check "$TMPD/rep.json" 'd["runs"][0]["test_run_repeat"] == 7' &&
	json_check "$TMPD/rt.json" '"test_run_repeat" not in d["runs"][0]'
ok $? "--test-run-repeat fixes the runs per syscall; JSON says it, raw-tp runs have none" || diag "$ERR"

if "$BPFBENCH" probe --json | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["features"]["trigger_fentry"]["available"] else 1)'; then
	run bpf-loop -w0 -d1 -q --trigger fentry
	ok "$RC" "fentry allowed here: --trigger fentry runs"
else
	run bpf-loop -w0 -d1 -q --trigger fentry
	[ "$RC" -eq 4 ] && grep -q 'refuses the fentry trigger' <<<"$ERR"
	ok $? "fentry refused here: --trigger fentry exits 4 (skip) saying why"
fi

# --latency: every run's calls timed inside the program (1000 calls of 100
# iterations, or the first 500 in every other run: the linearity check),
# the histogram per iteration, its mean beside latency
source "$(dirname "$0")/hist.sh"
CPUS=$(nproc)
J="$TMPD/lat.json"
run bpf-loop -w0 -d1 --period-ms 250 --nr_loops 100 --latency --json "$J"
[ "$RC" -eq 0 ] && grep -qE '^Latency: p50 [0-9.]+ ns, .*mean [0-9.]+ ns vs [0-9.]+ ns from throughput.* [0-9]+ ops sampled; clock' <<<"$(latency_lines "$OUT")" &&
	hist_ok "$J" op sampled_ops "$CPUS * 100000" latency
ok $? "--latency: Latency line, histogram = the iterations timed, ordered percentiles, beside latency" ||
	diag "rc=$RC $(grep '^Latency' <<<"$OUT") $ERR" "$(hist_diag "$J")"
# every run timed: a full batch is 100000 iterations, a half 50000 (its
# other 500 calls untimed), and all of them are the ops counted but for
# the runs in flight at the two edges (one a CPU each)
json_check "$J" "
r = d['runs'][0]; h = r['histograms']['op']; ops = sum(x['ops'] for x in r['samples'])
full = h['batches'] - h['half_batches']
ok = h['half_batches'] > 0 and abs(h['half_ops'] - 50000 * h['half_batches']) <= $CPUS * 100000
ok = ok and abs(h['count'] - 100000 * full - 50000 * h['half_batches']) <= $CPUS * 100000
ok and abs(h['count'] + h['half_ops'] - ops) <= 2 * $CPUS * 100000"
ok $? "--latency: every run timed by default, whole or half, and they are the iterations counted" ||
	diag "$(hist_diag "$J")"

run bpf-loop -w0 -d0.5 -q --period-ms 250 --nr_loops 1000000 --latency --latency-every 2 --json "$J"
[ "$RC" -eq 0 ] && hist_ok "$J" op sampled_ops "$CPUS * 1000000" latency && json_check "$J" '
r = d["runs"][0]; h = r["histograms"]["op"]; runs = sum(x["runs"] for x in r["samples"])
h["half_batches"] == 0 and h["linearity"] is None and h["count"] == 1000000 * h["batches"] and abs(2 * h["batches"] - runs) <= 2 * '"$CPUS"' + 2'
ok $? "--nr_loops 1000000 --latency-every 2: one call a run is never halved, one run in two timed" ||
	diag "rc=$RC $ERR" "$(hist_diag "$J")"

run bpf-loop -w0 -d0.5 -q --period-ms 250 --nr_loops 100 --json "$J"
[ "$RC" -eq 0 ] && ! grep -q '^Latency' <<<"$OUT" && latency_off "$J"
ok $? "without --latency: no Latency line, no histogram, no sampled_ops"

run noop -w0 -d1 -q --batch 100 --json "$TMPD/noop.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/noop.json" 'd["runs"][0]["metrics"]["throughput"]["mean"] > 0'
ok $? "noop floor runs"

now=$(kernel_objects_settle "$before")
ok $? "bpfbench's programs, maps, links as before: $now"
done_testing
