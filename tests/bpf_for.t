#!/usr/bin/env bash
# bpf-for: the open-coded iterator's figures are its counts (throughput is
# iterations over the period, latency the kernel bench's 1000 / throughput
# per producer), runs and iterations agree with the program's shape, a
# kernel without the kfuncs is a SKIP, nothing is left in the kernel.
source "$(dirname "$0")/lib.sh"
need_bpf
before=$(kernel_objects)	# ours only (lib.sh)

# calls per run as the program makes them: 1000, fewer past 1000 iterations
calls() { python3 -c "n=$1; print(1000 if n <= 1000 else 1 if n >= 1000000 else 1000000 // n)"; }

for n in 1 1000 5000; do
	for p in 1 2; do
		run -w0 -d1 -q -p$p --period-ms 250 bpf-for --nr_loops $n --json "$TMPD/f.json"
		c=$(calls $n)
		[ "$RC" -eq 0 ] && json_check "$TMPD/f.json" "
s = d['runs'][0]['samples']
def close(a, b): return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1)
per_run = $c * $n
ok = len(s) == 4 and all(x['ops'] > 0 and
                         close(x['throughput'] * x['elapsed_ns'], x['ops'] * 1e3) and
                         close(x['latency'] * x['throughput'], 1000 * $p) for x in s)
ops = sum(x['ops'] for x in s); runs = sum(x['runs'] for x in s)
ok = ok and 0 <= runs * per_run - ops <= ($p + 1) * per_run and all(x['ops'] % $n == 0 for x in s)
ok"
		ok $? "-p$p --nr_loops $n: figures = counts, latency 1000 x $p / throughput, $c loops a run" ||
			diag "rc=$RC $ERR"
	done
done

run -w0 -d1 bpf-for --nr_loops 100
line=$(grep '^Summary:' <<<"$OUT")
tp=$(echo $OUT | sed -E "s/.*throughput\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+\sM\sops\/s).*/\1/")
lat=$(echo $OUT | sed -E "s/.*latency\s+([0-9]+\.[0-9]+\sns\/op).*/\1/")
[ "$RC" -eq 0 ] && grep -Eq '^[0-9.]+ ns/op$' <<<"$lat" && grep -q '^Summary: throughput' <<<"$line"
ok $? "Summary in the kernel bench's shape: its ops() sed finds latency ($lat)" || diag "$line"

run -w0 -d1 -q --trigger raw-tp bpf-for --json "$TMPD/rt.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/rt.json" '
r = d["runs"][0]
r["trigger"] == "raw-tp" and r["metrics"]["throughput"]["mean"] > 0'
ok $? "the raw-tp trigger runs the same loops" || diag "$ERR"

# --latency: every run's loops timed inside the program (the first 500 of
# 1000 in every other run), one histogram per iteration beside latency,
# which keeps its meaning (1000 x producers / throughput)
source "$(dirname "$0")/hist.sh"
CPUS=$(nproc)
J="$TMPD/lat.json"
run -w0 -d1 --period-ms 250 bpf-for --nr_loops 100 --latency --json "$J"
[ "$RC" -eq 0 ] && grep -qE '^Latency: p50 [0-9.]+ ns, .*mean [0-9.]+ ns vs [0-9.]+ ns from throughput.* [0-9]+ ops sampled; clock' <<<"$(latency_lines "$OUT")" &&
	hist_ok "$J" op sampled_ops "$CPUS * 100000" latency && json_check "$J" "
r = d['runs'][0]; h = r['histograms']['op']; ops = sum(x['ops'] for x in r['samples'])
lat = r['metrics']['latency']['of_mean_inverse']
ok = abs(h['vs_ns'] - lat) <= 1e-9 * lat and h['half_batches'] > 0
ok = ok and abs(h['count'] - 100000 * (h['batches'] - h['half_batches']) - 50000 * h['half_batches']) <= $CPUS * 100000
ok and abs(h['count'] + h['half_ops'] - ops) <= 2 * $CPUS * 100000"
ok $? "--latency: Latency line, histogram = the iterations of every run timed (whole or half), beside latency" ||
	diag "rc=$RC $(grep '^Latency' <<<"$OUT") $ERR" "$(hist_diag "$J")"

run -w0 -d0.5 -q -p2 --period-ms 250 bpf-for --nr_loops 1000 --latency --json "$J"
[ "$RC" -eq 0 ] && hist_ok "$J" op sampled_ops "$CPUS * 1000000" latency && json_check "$J" '
s = d["runs"][0]["samples"]
all(abs(x["latency"] * x["throughput"] - 2000) <= 1e-6 * 2000 for x in s)'
ok $? "-p2 --latency: latency still 1000 x 2 / throughput, the histogram as with one producer" ||
	diag "rc=$RC $ERR" "$(hist_diag "$J")"

run -w0 -d0.5 -q --period-ms 250 bpf-for --nr_loops 100 --json "$J"
[ "$RC" -eq 0 ] && ! grep -q '^Latency' <<<"$OUT" && latency_off "$J"
ok $? "without --latency: no Latency line, no histogram, no sampled_ops"

# Without the kfuncs: the probe looks for a name no kernel has.
BPFBENCH_BPF_FOR_KFUNC=bpf_iter_num_nosuch run -w0 -d1 bpf-for
[ "$RC" -eq 4 ] && grep -q 'skip: bpf-for: this kernel lacks the kfunc bpf_iter_num_nosuch' <<<"$ERR"
ok $? "kfunc missing: exit 4 with the reason" || diag "rc=$RC $ERR"

run -w0 -d1 bpf-for --nr_loops 0
[ "$RC" -eq 2 ]
ok $? "--nr_loops 0 is refused (exit 2)"

run suite bpf-for --help
[ "$RC" -eq 0 ] && grep -q 'bpf-loop --nr_loops 1000' <<<"$OUT" &&
	grep -q 'bpf-for --nr_loops 1000' <<<"$OUT"
ok $? "suite bpf-for puts both loops side by side"

now=$(kernel_objects_settle "$before")
ok $? "no program, map or link of ours left ($now)"
done_testing
