#!/usr/bin/env bash
# The bloom family's --latency (src/bench/hist_bpf.h): the four periodic benchmarks
# time sampled batches of 16 ops inside their programs.  The histogram
# holds exactly what the programs timed, its percentiles are ordered, its
# mean lies in its range and is set beside the throughput's ns per op,
# the kernel bench's Summary line keeps its shape and stays last, and
# without the flag nothing of it is there.  Small maps, -w0 -d1: fast.
# No speed is asserted.
source "$(dirname "$0")/lib.sh"
need_bpf

BEFORE=$(kernel_objects)
BENCHS="bloom-lookup bloom-update hashmap-without-bloom hashmap-with-bloom"

# The Summary as the kernel bench prints it (run_bench_bloom_filter_map.sh reads it), last.
summary_ok() {	# summary_ok BENCH OUTPUT
	local re='^Summary: hits +[0-9]+\.[0-9]{3} ± +[0-9]+\.[0-9]{3}M/s \( *[0-9]+\.[0-9]{3}M/prod\), drops +[0-9]+\.[0-9]{3} ± +[0-9]+\.[0-9]{3}M/s, total operations +[0-9]+\.[0-9]{3} ± +[0-9]+\.[0-9]{3}M/s'
	tail -n 1 <<<"$2" | grep -Eq "$re\$"
}

# Exact identities: the histogram starts before the producers do (-w0) and
# ends with a read after they stopped, so no batch is half recorded; a
# timed batch is 16 ops, or its first 8 (the linearity check).
hist_check() {	# hist_check JSON TOTAL-METRIC
	json_check "$1" "
r = d['runs'][0]; h = r['histograms']['op']; m = r['metrics']; s = r['samples']
bins = sum(b[2] for b in h['bins'])
ok = h['count'] > 0 and bins == h['count'] == sum(x['sampled_ops'] for x in s) + h['tail_ops']
ok = ok and h['count'] == 16 * h['batches'] - 8 * h['half_batches'] == 16 * h['batches'] - h['half_ops']
ok = ok and 0 <= h['p50'] <= h['p90'] <= h['p99'] <= h['p999'] <= h['max']
ok = ok and h['bins'][0][0] - 1e-9 <= h['mean'] <= h['max'] + 1e-9
# beside it, 1000 x producers / the ops per second of the run
lat = m['latency']
ok = ok and lat['kind'] == 'inverse' and lat['of'] == '$2' and h['vs'] == 'latency'
ok = ok and abs(h['vs_ns'] - lat['of_mean_inverse']) <= 1e-6 * h['vs_ns']
ok and h['verdict'] in ('agree', 'outside', 'disagree')"
}

for b in $BENCHS; do
	case $b in
	bloom-update) total=updates ;;
	*) total=lookups ;;
	esac
	J="$TMPD/$b.json"
	run -w0 -d1 --period-ms 250 "$b" --nr_entries 2000 --latency --json "$J"
	line=$(latency_lines "$OUT" | grep '^Latency:')
	[ "$RC" -eq 0 ] && grep -Eq '^Latency: p50 [0-9.]+ ns, p90 [0-9.]+ ns, p99 [0-9.]+ ns, p99\.9 [0-9.]+ ns, max [0-9.]+ ns mean [0-9.-]+ ns vs [0-9.]+ ns from throughput.* [0-9]+ ops sampled; clock [0-9.]+ ns' <<<"$line"
	ok $? "$b --latency: the Latency line, mean beside the throughput's ns per op" ||
		diag "rc=$RC" "$OUT" "$ERR"
	hist_check "$J" "$total"
	ok $? "$b --latency: bins sum to the count = sampled ops + tail, batches of 16 (half: 8), p50 <= p90 <= p99 <= max, mean inside" ||
		diag "$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]; h = r["histograms"]["op"]
print({k: h[k] for k in ("count", "tail_ops", "batches", "half_batches", "half_ops", "p50", "p90", "p99", "max", "mean")},
      "bins", sum(b[2] for b in h["bins"]), "sampled", sum(x["sampled_ops"] for x in r["samples"]))' "$J" 2>&1)"
	count=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["runs"][0]["histograms"]["op"]["count"])' "$J" 2>/dev/null)
	grep -q " $count ops sampled;" <<<"$line" && summary_ok "$b" "$OUT"
	ok $? "$b --latency: the line counts the JSON's ops ($count); the Summary keeps its shape, last" ||
		diag "$line" "$(tail -n 1 <<<"$OUT")"
done

# two producers: the mean is set beside one producer's ns per op, 1000 x 2 / lookups
J="$TMPD/p2.json"
run -w0 -d1 -p 2 bloom-lookup --nr_entries 2000 --latency --json "$J"
[ "$RC" -eq 0 ] && hist_check "$J" lookups && json_check "$J" '
r = d["runs"][0]; h = r["histograms"]["op"]
r["options"]["producers"] == 2 and abs(h["vs_ns"] - 2000 / r["metrics"]["lookups"]["mean"]) <= 1e-6 * h["vs_ns"]'
ok $? "bloom-lookup -p 2 --latency: the mean beside 1000 x producers / throughput" || diag "rc=$RC $ERR"

# every batch timed: every op the programs counted was timed (a half batch
# leaves its second 8 untimed), the histogram holding more by its tail only
J="$TMPD/every.json"
run -w0 -d1 hashmap-with-bloom --nr_entries 2000 --hit_percent 50 --latency --latency-every 1 --json "$J"
[ "$RC" -eq 0 ] && hist_check "$J" lookups && json_check "$J" '
r = d["runs"][0]; h = r["histograms"]["op"]
ops = sum(x["ops"] for x in r["samples"])
ops <= h["count"] + h["half_ops"] and h["count"] - h["tail_ops"] <= ops'
ok $? "hashmap-with-bloom --latency-every 1: every op counted was timed" || diag "rc=$RC $ERR"

# without it: no line, no histograms, no latency metrics, no clock program
for b in $BENCHS; do
	bg_start -w0 -d3 "$b" --nr_entries 2000 --json "$TMPD/off.json"
	started=$?
	# the hash map benchmarks run from raw_tp under --trigger auto, as the kernel bench
	names=$(held_names "$PID" prog)
	clock=$(grep -cx hist_clock <<<"$names")
	measured=$(grep -cxE 'bloom_test_run|bloom_raw_tp' <<<"$names")
	wait "$PID"
	rc=$?
	out=$(cat "$TMPD/bg.out")
	[ "$started" -eq 0 ] && [ "$rc" -eq 0 ] && [ "$clock" = 0 ] && [ "$measured" = 1 ] &&
		! grep -q '^Latency' <<<"$out" && summary_ok "$b" "$out" && json_check "$TMPD/off.json" '
r = d["runs"][0]
"histograms" not in r and "sampled_ops" not in r["metrics"] and "latency" not in r["metrics"]'
	ok $? "$b without --latency: no Latency line, histograms or latency metrics, no clock program" ||
		diag "started=$started rc=$rc clock=$clock measured=$measured" "$out"
done

run -w0 -d1 bloom-false-positive --nr_entries 2000 --latency
[ "$RC" -eq 2 ] && grep -q -- '--latency' <<<"$ERR"
ok $? "bloom-false-positive has no --latency (a rate, not an op time): exit 2" || diag "rc=$RC $ERR"

after=$(kernel_objects_settle "$BEFORE")
[ "$after" = "$BEFORE" ]
ok $? "none of our programs or maps left in the kernel ($BEFORE -> $after)"
done_testing
