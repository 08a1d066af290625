#!/usr/bin/env bash
# lpm-trie-*: the trie holds what the ops put there (checked from user space
# after the benchmark's own program ran the op over every key), every figure
# is the kernel bench's formula over what the programs counted, the free is
# timed and grows with the trie (by a memory cgroup of whichever version the
# host has, too), bad input exits 2, nothing is left behind.
source "$(dirname "$0")/lib.sh"
need_bpf

before=$(kernel_objects)

# bad ARGS... -- WORD: exits 2, the first line of stderr names WORD (the core
# may add a line of context after a benchmark's own check)
bad() {
	local word="${*: -1}" args=("${@:1:$#-2}")
	run "${args[@]}"
	if [ "$RC" -eq 2 ] && head -n1 <<<"$ERR" | grep -qF -- "$word"; then
		pass "rejects: ${args[*]}"
	else
		fail "rejects: ${args[*]}" "rc=$RC stderr=$ERR"
	fi
}

bad lpm-trie-lookup --prefix_len 0 -- prefix_len
bad lpm-trie-lookup --prefix_len 33 -- prefix_len
bad lpm-trie-lookup --nr_entries 0 -- nr_entries
bad lpm-trie-lookup --prefix_len 8 --nr_entries 257 -- prefix_len
bad lpm-trie-insert --random -- random
bad lpm-trie-delete --random -- random
bad lpm-trie-free --random -- random
bad lpm-trie-insert -p 2 -- lpm-trie-insert
bad lpm-trie-lookup --random --verify -- verify
bad lpm-trie-noop --verify -- verify
bad lpm-trie-free --free-method nosuch -- nosuch

# verify_run EXPECTED-LINE-REGEX ARGS...: the run succeeds and its verify line matches
verify_run() {
	local want=$1
	shift
	run -w0 -d0.3 --period-ms 100 "$@" --verify --json "$TMPD/v.json"
	local line
	line=$(awk '/^Note: verify:/ { t = 1; printf "%s", $0; next }
		    t && /^  / { sub(/^ +/, " "); printf "%s", $0; next } { t = 0 }' <<<"$OUT")
	if [ "$RC" -eq 0 ] && grep -qE -- "$want" <<<"$line" &&
	   json_check "$TMPD/v.json" 'm = d["runs"][0]["metrics"]
m["throughput"]["mean"] > 0 and m["latency"]["mean"] > 0'; then
		pass "$* --verify: $line"
	else
		fail "$* --verify" "rc=$RC line=$line want=$want stderr=$ERR"
	fi
}

# insert: 20000 keys take two program runs of 10000, so the sequence carries over
verify_run ': 20000 ops by the program, 20000 of 20000 keys found, 0 of 1000 keys outside found, 20000 entries$' \
	lpm-trie-insert --nr_entries 20000
verify_run ': 4096 ops by the program, 4096 of 4096 keys found, 0 of 0 keys outside found, 4096 entries$' \
	lpm-trie-insert --nr_entries 4096 --prefix_len 12
verify_run ': 10000 ops by the program, 3000 of 3000 keys found, 0 of 1000 keys outside found, 3000 entries$' \
	lpm-trie-lookup --nr_entries 3000
verify_run ' 3000 of 3000 keys found with the updated value, 0 of 1000 keys outside found, 3000 entries$' \
	lpm-trie-update --nr_entries 3000
verify_run ': 20000 ops by the program, 0 of 20000 keys found, 0 of 1000 keys outside found, 0 entries$' \
	lpm-trie-delete --nr_entries 20000
verify_run ': 300 ops by the program, 0 of 300 keys found, 0 of 212 keys outside found, 0 entries$' \
	lpm-trie-delete --nr_entries 300 --prefix_len 9

# --latency: the histogram holds exactly the ops the program timed in the
# measured samples, its percentiles are ordered, the Latency line is there
# and, the headline being per wall second, the timed ops' mean cannot
# exceed the throughput's ns per op (beyond the agreement bound)
# hist_ok FILE [VERDICTS]: the checks every --latency run passes.  Insert
# and delete set the mean beside their in-kernel ns per op, the time of
# every op; the histogram holds one batch in 64, so a few slow batches can
# put its mean above that by more than the bound: "disagree" is then a
# figure, not a fault, and those runs pass "agree outside disagree".
hist_ok() {
	local verdicts=${2:-agree outside}
	json_check "$1" '
r = d["runs"][0]; h = r["histograms"]["op"]; s = r["samples"]
# exact: the histogram starts before the producers do (-w0) and ends with a read after they stopped
# (src/bench/hist_bpf.h), so no batch is half recorded; tail_ops are those after the last sample
ok = h["count"] == sum(x["sampled_ops"] for x in s) + h["tail_ops"] > 0 and sum(b[2] for b in h["bins"]) == h["count"]
ok = ok and h["p50"] <= h["p90"] <= h["p99"] <= h["p999"] <= h["max"] and h["vs"] == "latency"
ok and h["verdict"] in "'"$verdicts"'".split()'
}
J="$TMPD/lat.json"
run -w0 -d1 lpm-trie-lookup --latency --json "$J"
[ "$RC" -eq 0 ] && grep -qE '^Latency: p50 .* mean .* from throughput.* ops sampled; clock' <<<"$(latency_lines "$OUT")" &&
	hist_ok "$J" && json_check "$J" '
h = d["runs"][0]["histograms"]["op"]
h["half_batches"] > 0 and h["half_ops"] == 8 * h["half_batches"] and h["count"] == 16 * h["batches"] - h["half_ops"]'
ok $? "lookup --latency: histogram count = sampled ops, ordered percentiles, batches of 16 (half: 8)" ||
	diag "rc=$RC $(grep '^Latency' <<<"$OUT") $ERR"

# every batch timed: the histogram holds every op the program counted (a
# half batch leaves its second 8 untimed) and the tail after the last
# sample, which the counts leave out: the run in flight at it and any run
# begun before the stop (10000 ops each; two allowed)
for b in lookup insert; do
	run -w0 -d1 lpm-trie-$b --latency --latency-every 1 --json "$J"
	# exact although a batch is being recorded nearly always: both ends are
	# read with no program running (src/bench/hist_bpf.h)
	[ "$RC" -eq 0 ] && json_check "$J" '
r = d["runs"][0]; h = r["histograms"]["op"]
ok = h["count"] > 0 and sum(b[2] for b in h["bins"]) == h["count"] == sum(x["sampled_ops"] for x in r["samples"]) + h["tail_ops"]
ok = ok and h["p50"] <= h["p90"] <= h["p99"] <= h["p999"] <= h["max"]
# a reset (insert: the trie full) ends a batch early, so whole batches of 16 are lookup'"'"'s only
ok and (h["count"] == 16 * h["batches"] - h["half_ops"] or r["bench"] != "lpm-trie-lookup")' &&
		json_check "$J" '
r = d["runs"][0]; h = r["histograms"]["op"]
0 <= h["count"] + h["half_ops"] - sum(x["ops"] for x in r["samples"]) <= 2 * 10000'
	ok $? "$b --latency-every 1: every op counted is in the histogram (within the edges)" ||
		diag "rc=$RC $ERR" "$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]; h = r["histograms"]["op"]
print("count", h["count"], "half_ops", h["half_ops"], "ops", sum(x["ops"] for x in r["samples"]),
      "sampled", sum(x["sampled_ops"] for x in r["samples"]), "tail", h["tail_ops"],
      "batches", h["batches"], "half_batches", h["half_batches"], "bins", sum(b[2] for b in h["bins"]))' "$J" 2>&1)"
done

# insert and delete time whole batches only: their halves are not alike
run -w0 -d1 lpm-trie-delete --latency --json "$J"
[ "$RC" -eq 0 ] && hist_ok "$J" "agree outside disagree" && json_check "$J" '
h = d["runs"][0]["histograms"]["op"]
h["half_batches"] == 0 and h["linearity_warning"] is False'
ok $? "delete --latency: consistent, no half batches (no linearity check)" ||
	diag "rc=$RC $ERR" "$(python3 -c 'import json, sys
h = json.load(open(sys.argv[1]))["runs"][0]["histograms"]["op"]
print({k: v for k, v in h.items() if k != "bins"})' "$J" 2>&1)"

# without it: no line, no histograms, no sampled_ops, and no clock program loaded
# (a fixed wait is too short on a slow machine, an emulated CPU: up to 60 s)
"$BPFBENCH" -q -w0 -d3 lpm-trie-lookup --json "$TMPD/off.json" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 120); do
	run_progs=$(held_by $pid prog lpm_run)
	[ "$run_progs" = 1 ] || ! kill -0 $pid 2>/dev/null && break
	sleep 0.5
done
clock=$(held_by $pid prog hist_clock)
wait $pid
rc=$?
# its measured program seen held proves the look could find one
[ "$rc" -eq 0 ] && [ "$clock" = 0 ] && [ "$run_progs" = 1 ] && json_check "$TMPD/off.json" '
r = d["runs"][0]
"histograms" not in r and "sampled_ops" not in r["metrics"]'
ok $? "without --latency: no histograms, no sampled_ops, no clock program (rc $rc, clock progs $clock, lpm_run $run_progs)"

for b in noop baseline; do
	run -w0 -d0.3 --period-ms 100 lpm-trie-$b --random --json "$TMPD/f.json"
	[ "$RC" -eq 0 ] && json_check "$TMPD/f.json" 'm = d["runs"][0]["metrics"]
m["throughput"]["mean"] > 0 and m["latency"]["mean"] > 0'
	ok $? "lpm-trie-$b runs and reports a floor"
done

run -w0 -d0.3 --period-ms 100 -p 2 lpm-trie-lookup --random --nr_entries 5000 --json "$TMPD/l.json"
[ "$RC" -eq 0 ] && grep -q '^Summary: throughput .* M ops/s (.*M ops/prod), latency .* ns/op$' <<<"$OUT"
ok $? "lookup with two producers and random keys: seed-shaped summary"

# The figures are the kernel bench's formulas over what the programs counted
# in each measured period (the JSON samples).  Wall-timed ops (lookup, update,
# noop, baseline): throughput = ops of all producers / elapsed, latency =
# 1000 x producers / throughput, kernel_latency = kernel_ns / ops; with several
# producers, ops is the sum of each one's own count, and each of them counted
# over the run (in a single period one may have had no CPU on a busy machine).
CLOSE='close = lambda a, b: abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1)'
defs_wall() {	# defs_wall FILE PRODUCERS
	json_check "$1" "$CLOSE
r = d['runs'][0]; p = $2; S = r['samples']
prods = lambda s: [s['ops{producer=%d}' % i] for i in range(p)] if p > 1 else [s['ops']]
def good(s):
    if s['ops'] == 0:	# a period the producers were starved through (load): it reads 0
        return s['throughput'] == 0 and s['latency'] == 0 and s['kernel_latency'] == 0
    return (close(sum(prods(s)), s['ops']) and
            close(s['throughput'] * s['elapsed_ns'] / 1e3, s['ops']) and
            close(s['latency'], 1e3 * p / s['throughput']) and
            close(s['kernel_latency'], s['kernel_ns'] / s['ops']))
len(S) == r['metrics']['throughput']['n'] > 0 and all(good(s) for s in S) and min(map(sum, zip(*map(prods, S)))) > 0"
}
# The Summary prints the samples' mean throughput, per producer, and
# 1000 x producers / that mean; the kernel's run_common.sh ops() patterns
# (re-written here) read both numbers from it.
summary_ok() {	# summary_ok FILE PRODUCERS
	local line
	line=$(grep '^Summary:' <<<"$OUT")
	[ -n "$(sed -nE 's/.*throughput\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+\sM\sops\/s).*/\1/p' <<<"$line")" ] &&
	[ -n "$(sed -nE 's/.*latency\s+([0-9]+\.[0-9]+\sns\/op).*/\1/p' <<<"$line")" ] &&
	python3 - "$1" "$2" "$line" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))["runs"][0]
p = int(sys.argv[2])
m = re.match(r"Summary: throughput +([0-9.]+) ± [0-9.]+ M ops/s \( *([0-9.]+)M ops/prod\), "
             r"latency +([0-9.]+) ns/op$", sys.argv[3])
t = r["metrics"]["throughput"]["mean"]
near = lambda shown, v: abs(float(shown) - v) <= 0.0011
sys.exit(0 if m and near(m[1], t) and near(m[2], t / p) and near(m[3], 1e3 * p / t) else 1)
PY
}
for p in 1 2; do
	run -w0 -d0.5 --period-ms 100 -a -p $p lpm-trie-lookup --json "$TMPD/w$p.json"
	[ "$RC" -eq 0 ] && defs_wall "$TMPD/w$p.json" $p && summary_ok "$TMPD/w$p.json" $p
	ok $? "lookup -p $p: throughput = ops of all producers / wall time, latency = 1000 x $p / throughput, summary from them" ||
		diag "rc=$RC $(grep '^Summary' <<<"$OUT") $ERR"
done
run -w0 -d0.3 --period-ms 100 -p 2 lpm-trie-update --json "$TMPD/u.json"
[ "$RC" -eq 0 ] && defs_wall "$TMPD/u.json" 2
ok $? "update -p 2: the same definitions"
# -r: each repetition's fresh setup finds the run's metrics again
run -r 2 -w0 -d0.5 --period-ms 500 -p 2 lpm-trie-noop --json "$TMPD/r.json"
[ "$RC" -eq 0 ] && defs_wall "$TMPD/r.json" 2 && json_check "$TMPD/r.json" 'len(d["runs"][0]["samples"]) == 2'
ok $? "noop -r 2 -p 2: two repetitions, the same definitions in each"

# insert, delete: over in-kernel time, as upstream's frac_second_report_*.
# A period spent wholly in the untimed refill (a loaded machine starves the
# producer for 100 ms) timed no op: it reads 0, and at least one period timed some.
defs_kernel() {	# defs_kernel FILE
	json_check "$1" "$CLOSE
S = d['runs'][0]['samples']
def good(s):
    if s['ops'] == 0:
        return s['throughput'] == 0 and s['latency'] == 0
    return (close(s['throughput'], s['ops'] * 1e3 / s['kernel_ns']) and
            close(s['latency'], s['kernel_ns'] / s['ops']))
any(s['ops'] > 0 for s in S) and all(good(s) for s in S)"
}
for b in insert delete; do
	run -w0 -d0.3 --period-ms 100 lpm-trie-$b --json "$TMPD/k.json"
	[ "$RC" -eq 0 ] && defs_kernel "$TMPD/k.json"
	ok $? "$b: throughput = ops / in-kernel time, latency = in-kernel ns / op" ||
		diag "$(jq -c '[.runs[0].samples[] | {ops, kernel_ns, throughput, latency}]' "$TMPD/k.json" | head -c 1500)"
done

# free: median latency of each size; the big trie must take clearly longer
free_median() {	# free_median FILE -> median latency in ms, or nothing
	python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(r["metrics"]["latency"]["median"])
PY
}
# a sample is a period of frees: K frees per second of free time, ms per
# free; the frees' time lies within the sample's; memcg names its version
memcg_ver=$("$BPFBENCH" probe --json 2>/dev/null | jq -r '.features.memcg.detail' | cut -d: -f1)
free_json_ok() {	# free_json_ok FILE METHOD-WORD
	local also=True
	[ "$2" = memcg ] && also="'cgroup-$memcg_ver ' in r['method']"
	json_check "$1" "$CLOSE
r = d['runs'][0]
def good(s):
    return (s['ops'] >= 1 and 0 < s['free_ns'] <= s['elapsed_ns'] and
            close(s['throughput'], s['ops'] * 1e6 / s['free_ns']) and
            close(s['latency'], s['free_ns'] / s['ops'] / 1e6))
r['method'].startswith('$2') and $also and len(r['samples']) > 0 and all(good(s) for s in r['samples'])"
}

# memcg cannot see a small trie (charge caching): its sizes are larger
declare -A small_n=([wq-tracepoint]=1000 [memcg]=100000) big_n=([wq-tracepoint]=200000 [memcg]=800000)
for m in wq-tracepoint memcg; do
	run -w0 -d1 lpm-trie-free --free-method $m --nr_entries ${small_n[$m]} --json "$TMPD/s.json"
	rc_small=$RC err_small=$ERR
	grep -q "^Method: $m" <<<"$OUT"
	said=$?
	run -w0 -d1 lpm-trie-free --free-method $m --nr_entries ${big_n[$m]} --json "$TMPD/b.json"
	if [ "$rc_small" -eq 4 ] || [ "$RC" -eq 4 ]; then
		skip "free by $m: not available here ($err_small$ERR)"
		continue
	fi
	if [ "$rc_small" -eq 0 ] && [ "$RC" -eq 0 ] && [ "$said" -eq 0 ] &&
	   free_json_ok "$TMPD/s.json" $m && free_json_ok "$TMPD/b.json" $m; then
		small=$(free_median "$TMPD/s.json")
		big=$(free_median "$TMPD/b.json")
		# 8x (memcg) to 200x the nodes: well over 3x the time, whatever the noise
		python3 -c "import sys; sys.exit(0 if $big > 3 * $small > 0 else 1)"
		ok $? "free by $m: positive, grows with the trie (${small_n[$m]}: $small ms, ${big_n[$m]}: $big ms)"
	else
		fail "free by $m" "rc=$rc_small/$RC said=$said stderr=$err_small $ERR"
	fi
done

# the memcg way makes a cgroup bpfbench-PID (the name the stale sweep knows),
# of whichever version: there during the run, gone after SIGINT mid-run
cgdirs() { find /sys/fs/cgroup -maxdepth 6 -type d -name "bpfbench-$1" 2>/dev/null | wc -l; }
bg_start -w0 -d30 lpm-trie-free --free-method memcg --nr_entries 800000
pid=$PID
during=$(cgdirs $pid)
kill -INT $pid
wait $pid
rc=$?
[ "$during" -eq 1 ] && [ "$(cgdirs $pid)" -eq 0 ] && [ "$rc" -eq 130 ]
ok $? "SIGINT during a memcg free run: clean stop (rc $rc), its cgroup ($during during) gone"

# ours only (tests/lib.sh): other runs may hold objects of the same names meanwhile
after=$(kernel_objects_settle "$before")
[ "$after" = "$before" ]
ok $? "none of our programs or maps left in the kernel ($before -> $after)"

done_testing
