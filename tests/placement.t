#!/usr/bin/env bash
# Where each sample's threads ran (cpus, migrations, on-CPU share, moved),
# --speed-ref's reference times and --normalize's metric: recorded as
# pinned, a move marked, and a CPU hog on the benchmark's CPU lowering the
# figure and its on-CPU share while the normalized figure moves by less
# (an ordering, not a speed).
source "$(dirname "$0")/lib.sh"
need_bpf
[ "$(nproc)" -ge 2 ] || skip_all "needs two CPUs"
before=$(kernel_objects_settle "0 0 0")

run -w0 -d1 --period-ms 200 --prod-affinity 1 noop --json "$TMPD/p1.json"
json_check "$TMPD/p1.json" 'ss = d["runs"][0]["samples"]
len(ss) >= 3 and all(s["cpus"] == [1] and s["migrations"] == [0] and not s["moved"] and 0 < s["oncpu"][0] <= 1.05 for s in ss)'
ok $? "--prod-affinity 1: every sample's thread on CPU 1, never moved (rc=$RC)" || diag "$ERR"

run -w0 -d1 --period-ms 200 -a -c1 rb-libbpf --json "$TMPD/rb.json"
json_check "$TMPD/rb.json" 'ss = d["runs"][0]["samples"]
len(ss) >= 3 and all(s["cpus"] == [1, 0] for s in ss)'
ok $? "-a -c1: producer on CPU 1 and consumer on CPU 0 in every sample, producers first (rc=$RC)" ||
	diag "$ERR"

# a process held on CPU 0, then moved whole to CPU 1 while it runs
taskset -c 0 "$BPFBENCH" -w0 -d2.4 --period-ms 200 noop --json "$TMPD/mv.json" >/dev/null 2>&1 &
pid=$!
sleep 1
taskset -a -p -c 1 "$pid" >/dev/null
wait "$pid"
json_check "$TMPD/mv.json" 'ss = d["runs"][0]["samples"]
ss[0]["cpus"] == [0] and ss[-1]["cpus"] == [1] and sum(s["moved"] for s in ss) == 1 and any(s["moved"] and s["cpus"] == [1] for s in ss)'
ok $? "a thread moved from CPU 0 to 1 mid-run: the one sample it moved in is marked"

run -w0 -d1 --period-ms 200 --speed-ref --normalize bpf-loop --json "$TMPD/ref.json"
json_check "$TMPD/ref.json" 'r = d["runs"][0]
ss = r["samples"]
norm = lambda s: s["throughput"] / min(max(s["oncpu"][0], 0.05), 1) * s["ref_bpf_ns"] / 1e3 / 12.5
all(s["ref_user_ns"] > 0 and s["ref_bpf_ns"] > 0 for s in ss) and "throughput-normalized" in r["metrics"] and all(abs(s["throughput-normalized"] / norm(s) - 1) < 1e-3 for s in ss)'
ok $? "--speed-ref: both reference times in every sample; --normalize: the figure / on-CPU share x ref-bpf / 12.5 us, sample by sample (rc=$RC)" ||
	diag "$ERR"
grep -q '^Summary: throughput' <<<"$OUT" && ! grep -q '^Summary:.*normalized' <<<"$OUT"
ok $? "--normalize leaves the Summary line the kernel bench's"

# a CPU hog beside the benchmark's one thread, on its CPU
run -w0 -d1 --period-ms 200 --prod-affinity 0 --normalize noop --json "$TMPD/quiet.json"
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
run -w0 -d1 --period-ms 200 --prod-affinity 0 --normalize noop --json "$TMPD/hog.json"
kill "$hog"
wait "$hog" 2>/dev/null
python3 - "$TMPD/quiet.json" "$TMPD/hog.json" <<'PY' >"$TMPD/hog.txt"
import json, sys, statistics as st
def fig(p):
    r = json.load(open(p))["runs"][0]
    ss = r["samples"]
    return (r["metrics"]["throughput"]["mean"], r["metrics"]["throughput-normalized"]["mean"],
            st.mean(s["oncpu"][0] for s in ss))
q, h = fig(sys.argv[1]), fig(sys.argv[2])
raw, norm = h[0] / q[0], h[1] / q[1]
print("raw %.3f normalized %.3f on-CPU %.2f -> %.2f" % (raw, norm, q[2], h[2]))
sys.exit(0 if raw < 1 and h[2] < q[2] and abs(norm - 1) < abs(raw - 1) else 1)
PY
ok $? "a CPU hog on its CPU lowers the figure and its on-CPU share; the normalized figure moves less: $(cat "$TMPD/hog.txt")"

run -w0 -d0.2 --period-ms 100 --normalize map-batch --max_entries 1000 -q
ok "$RC" "--normalize on a table benchmark runs (rc=$RC)" || diag "$ERR"

now=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel: $now"
done_testing
