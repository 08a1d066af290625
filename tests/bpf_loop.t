#!/usr/bin/env bash
# bpf-loop end to end: real programs, figures that agree with each other,
# JSON that a parser reads back and that matches the human summary.
source "$(dirname "$0")/lib.sh"
need_bpf

J="$TMPD/loop.json"
run bpf-loop -w0 -d1 --period-ms 250 --nr_loops 100 --json "$J"
ok "$RC" "bpf-loop -w0 -d1 runs (exit $RC)" || diag "$ERR"

json_check "$J" 'd["schema"] == "bpfbench-result/1" and len(d["runs"]) == 1'
ok $? "JSON parses, one run, our schema"

json_check "$J" '
e = d["env"]
all(e.get(k) for k in ("bpfbench_version", "git_commit", "kernel", "cpu_model", "libbpf_version")) and e["online_cpus"] >= 1'
ok $? "JSON environment: version, commit, kernel, CPU, libbpf"

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
s = d["runs"][0]["samples"]
all(0.2e9 < x["elapsed_ns"] < 0.5e9 for x in s)'
ok $? "each sample's real elapsed time is about one period"

line=$(grep '^Summary:' <<<"$OUT")
grep -Eq '^Summary: throughput +[0-9]+\.[0-9]{3} ± [0-9]+\.[0-9]{3} M ops/s \( *[0-9]+\.[0-9]{3}M ops/prod\), latency +[0-9]+\.[0-9]{3} ns/op$' <<<"$line"
ok $? "Summary line in the kernel bench's shape" || diag "$line"

mean=$(python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["runs"][0]["metrics"]["throughput"]["mean"])' "$J")
grep -q "throughput *$mean ±" <<<"$line"
ok $? "human summary and JSON agree ($mean)"

[ "$(grep -c '^Iter ' <<<"$OUT")" -eq 4 ]
ok $? "one Iter line per period"

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

run noop -w0 -d1 -q --batch 100 --json "$TMPD/noop.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/noop.json" 'd["runs"][0]["metrics"]["throughput"]["mean"] > 0'
ok $? "noop floor runs"
done_testing
