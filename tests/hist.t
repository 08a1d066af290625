#!/usr/bin/env bash
# Per-op latency distributions timed inside BPF (noop --latency): the
# histogram holds exactly the ops the program says it timed in the
# measured samples and the tail after them, its percentiles are ordered
# and read from its bins, and the Latency line says what the JSON says.
# No speed is asserted.
#
# Exact, not within a batch in flight: the histogram's start is read
# before the producers start (-w0) and its end after they stopped
# (src/bench/hist_bpf.h), so no batch is half recorded at either end.
source "$(dirname "$0")/lib.sh"
need_bpf

J="$TMPD/h.json"
run noop -w0 -d0.4 --period-ms 100 --batch 64 --latency --json "$J"
ok "$RC" "noop --latency runs (exit $RC)" || diag "$ERR"

json_check "$J" '
h = d["runs"][0]["histograms"]["op"]
h["unit"] == "ns" and h["count"] > 0 and sum(b[2] for b in h["bins"]) == h["count"]'
ok $? "the bins' counts sum to the ops the program counted"

json_check "$J" '
r = d["runs"][0]; h = r["histograms"]["op"]
len(r["samples"]) == 4 and sum(s["sampled_ops"] for s in r["samples"]) + h["tail_ops"] == h["count"]'
ok $? "the histogram holds exactly the ops the program timed in the measured samples and the tail" ||
	diag "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; h=r["histograms"]["op"]; print([s["sampled_ops"] for s in r["samples"]], h["tail_ops"], h["count"])' "$J")"

json_check "$J" '
h = d["runs"][0]["histograms"]["op"]
0 <= h["p50"] <= h["p90"] <= h["p99"] <= h["p999"] <= h["max"] and h["mean"] > 0'
ok $? "p50 <= p90 <= p99 <= p99.9 <= max"

json_check "$J" '
b = d["runs"][0]["histograms"]["op"]["bins"]
all(lo < hi and hi - lo <= max(lo / 16, 1 / 16) + 1e-9 for lo, hi, n in b) and all(b[i][1] <= b[i + 1][0] for i in range(len(b) - 1)) and all(n > 0 for lo, hi, n in b)'
ok $? "bins are [lo, hi, count], ascending, none wider than 1/16 of its start (or 1/16 ns)"

json_check "$J" '
h = d["runs"][0]["histograms"]["op"]
def crossing(p):
    c = 0
    for lo, hi, n in h["bins"]:
        c += n
        if c >= p * h["count"]:
            return lo, hi
inside = lambda v, b: b[0] - 1e-9 <= v <= b[1] + 1e-9
all(inside(h[k], crossing(p)) for k, p in (("p50", .5), ("p90", .9), ("p99", .99)))'
ok $? "each percentile lies in the bin where the cumulative count crosses it"

json_check "$J" '
h = d["runs"][0]["histograms"]["op"]
0 < h["clock_ns"] < 10000 and h["batches"] > 0 and h["bin_error_pct"] == 6.25'
ok $? "the clock's cost was measured and is reported beside"

line=$(latency_lines "$OUT" | grep '^Latency:')
grep -Eq '^Latency: p50 [0-9.]+ ns, p90 [0-9.]+ ns, p99 [0-9.]+ ns, p99\.9 [0-9.]+ ns, max [0-9.]+ ns mean [0-9.-]+ ns vs [0-9.]+ ns from throughput.* [0-9]+ ops sampled; clock [0-9.]+ ns' <<<"$line"
ok $? "the summary has the Latency line" || diag "$OUT"

count=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["histograms"]["op"]["count"])' "$J")
grep -q " $count ops sampled;" <<<"$line"
ok $? "the Latency line and the JSON count the same ops ($count)" || diag "$line"
awk 'length > 120 { wide = 1 } END { exit wide }' <<<"$OUT"
ok $? "--latency, default output: no line over 120 columns" || diag "$(awk 'length > 120' <<<"$OUT")"

# the line's verdict on the mean, recomputed from the JSON figures
verdict=$(python3 - "$J" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
h = r["histograms"]["op"]
thr = r["metrics"]["latency"]["of_mean_inverse"]	# per producer already: 1000 x producers / throughput
d = thr - h["mean"]
print("agree within" if abs(d) <= 0.1 * thr else "spent outside" if d > 0 else "DISAGREE")
PY
)
grep -q "$verdict" <<<"$line"
ok $? "the mean vs throughput verdict follows the figures ($verdict)" || diag "$line"

lin=$(python3 -c 'import json,sys; l=json.load(open(sys.argv[1]))["runs"][0]["histograms"]["op"]["linearity"]; print("none" if l is None else "warn" if abs(l - 1) > 0.05 else "quiet")' "$J")
case $lin in
warn) grep -q 'system noise or a cost per batch may affect this figure' <<<"$line" ;;
*) ! grep -q 'system noise' <<<"$line" ;;
esac
ok $? "the linearity warning appears exactly when 2N vs N is off by more than 5% ($lin)" || diag "$line"

# every run timed: its batches are then every run the throughput counted;
# with a batch recorded on some CPU at nearly every instant, the figures
# agree exactly only because both ends are read with no program running
J1="$TMPD/every.json"
run noop -w0 -d0.3 --period-ms 300 -q --batch 16 --latency --latency-every 1 --json "$J1"
[ "$RC" -eq 0 ] && json_check "$J1" '
r = d["runs"][0]; h = r["histograms"]["op"]
ops = sum(s["throughput"] * s["elapsed_ns"] / 1000 for s in r["samples"])
abs(h["batches"] * 16 - ops) <= 0.01 * ops and h["count"] == h["batches"] * 16 - h["half_batches"] * 8 and h["half_ops"] == h["half_batches"] * 8 and sum(b[2] for b in h["bins"]) == h["count"]'
ok $? "--latency-every 1: every run the throughput counted was timed (within the sample edges), half batches timed 8 of 16" ||
	diag "$ERR"

# the warm-up's ops are not in the histogram
J2="$TMPD/warm.json"
run noop -w0.2 -d0.2 -q --period-ms 100 --batch 64 --latency --json "$J2"
[ "$RC" -eq 0 ] && json_check "$J2" '
r = d["runs"][0]; h = r["histograms"]["op"]
r["warmup_samples"] == 2 and len(r["samples"]) == 2 and sum(s["sampled_ops"] for s in r["samples"]) + h["tail_ops"] == h["count"]'
ok $? "after a warm-up, the histogram still holds exactly the measured samples' ops" || diag "$ERR"

# repetitions sum
J3="$TMPD/rep.json"
run noop -w0 -d0.2 -q -r 2 --period-ms 100 --batch 64 --latency --json "$J3"
[ "$RC" -eq 0 ] && json_check "$J3" '
r = d["runs"][0]; h = r["histograms"]["op"]
r["runs"] == 2 and len(r["samples"]) == 4 and sum(s["sampled_ops"] for s in r["samples"]) + h["tail_ops"] == h["count"] == sum(b[2] for b in h["bins"])'
ok $? "-r 2: the histograms of both repetitions are summed" || diag "$ERR"

J4="$TMPD/rt.json"
run noop -w0 -d0.2 --period-ms 100 -q --trigger raw-tp --batch 64 --latency --json "$J4"
[ "$RC" -eq 0 ] && json_check "$J4" '
r = d["runs"][0]; h = r["histograms"]["op"]
r["trigger"] == "raw-tp" and h["count"] > 0 and sum(s["sampled_ops"] for s in r["samples"]) + h["tail_ops"] == h["count"]'
ok $? "the raw-tp trigger times its ops the same way" || diag "$ERR"

# one empty op is far below the clock: the line says the figure is clock noise
J5="$TMPD/one.json"
run noop -w0 -d0.2 --period-ms 100 --latency --json "$J5"
below=$(python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["runs"][0]["histograms"]["op"]; print(int(h["below_clock"] * 10 > h["batches"]))' "$J5")
if [ "$below" = 1 ]; then
	grep -q "took less than the clock's cost: these are clock noise" <<<"$OUT"
else
	! grep -q "clock noise" <<<"$OUT"
fi
ok $? "--batch 1: the note on batches below the clock's cost follows the count ($below)" ||
	diag "$OUT"

run noop -w0 -d0.2 --period-ms 100 -q --batch 64 --json "$TMPD/off.json"
[ "$RC" -eq 0 ] && ! grep -q '^Latency' <<<"$OUT" && json_check "$TMPD/off.json" '
r = d["runs"][0]
"histograms" not in r and "sampled_ops" not in r["metrics"]'
ok $? "without --latency: no Latency line, no histograms, no sampled_ops"

# nothing of ours stays in the kernel, also after a signal mid-run; the
# objects counted are those our run holds (others may run --latency too)
BEFORE=$(kernel_objects)
bg_start -w0 -d30 noop --latency
pid=$PID
during="$(held_by $pid prog hist_clock) $(held_by $pid map hist_map)"
kill -INT "$pid"
wait "$pid"
rc=$?
after=$(kernel_objects_settle "$BEFORE")
[ "$rc" -eq 130 ] && [ "$during" = "1 1" ] && [ "$after" = "$BEFORE" ]
ok $? "SIGINT mid-run: exit 130, the clock program and histogram map gone (during: $during, after: $after, before: $BEFORE)"
done_testing
