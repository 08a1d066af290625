#!/usr/bin/env bash
# maps family: every map type x op passes the oracle the programs and the
# user side apply; the figures are what the raw counts say; --fill and --hit
# give exactly the hits they promise; an LRU map smaller than its key range
# evicts within the kernel's batch bounds; a type the kernel lacks is a SKIP;
# nothing is left in the kernel.
source "$(dirname "$0")/lib.sh"
need_bpf

before=$(kernel_objects)
# The kernel sizes LRU lists by possible CPUs; evictions come in batches of 128 per CPU.
CPUS=$(awk -F- '{print $NF + 1}' /sys/devices/system/cpu/possible)
SLACK=$(( (2 * CPUS + 1) * 128 ))

# Checks every sample's figures against the raw counts they come from.
FIGURES='
r = d["runs"][0]; s = r["samples"]
def close(a, b): return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1)
ok = len(s) >= 1
for x in s:
    ok = ok and x["ops"] > 0 and close(x["latency"] * x["ops"], x["kernel_ns"])
    ok = ok and close(x["throughput"] * x["pass_ns"], x["ops"] * 1e3)
    ok = ok and x["pass_ns"] >= x["kernel_ns"] * 0.999
ok'

# single BENCH TYPE ELEMENTS-EXPR: the run passes its oracle, figures are its counts
single() {
	local bench=$1 type=$2 want=$3
	run -w0 -d0.2 -q "$bench" --map_type "$type" --json "$TMPD/s.json"
	if [ "$RC" -ne 0 ]; then
		fail "$bench --map_type $type runs (rc $RC)" "$ERR"
		return
	fi
	json_check "$TMPD/s.json" "$FIGURES
cap = 10000
lo = cap - $SLACK
ok and all($want for e in [x['elements'] for x in s])"
	ok $? "$bench --map_type $type: oracle passed, figures = counts, elements ok" ||
		diag "$(jq -c '[.runs[0].samples[] | {elements, ops, kernel_ns, pass_ns, latency, throughput}]' \
			"$TMPD/s.json" 2>&1 | head -c 2000) (elements within [$want], lo = 10000 - $SLACK)"
}

KEYED="hash percpu_hash lru_hash lru_hash_no_common lru_percpu_hash lru_percpu_hash_no_common"
KEYED="$KEYED lpm_trie"
for t in $KEYED; do
	case $t in
	lru_hash|lru_percpu_hash) full=9984 ;;	# 10000 rounded down to 128s: more would evict
	*) full=10000 ;;
	esac
	case $t in
	lru_*_no_common) upd_lo="cap // $CPUS - $SLACK" ;;	# a CPU updates through its own share
	lru_*) upd_lo="lo" ;;
	*) upd_lo="$full" ;;
	esac
	single map-lookup "$t" "e == $full"
	single map-update "$t" "$upd_lo <= e <= $full"
	single map-delete "$t" "e == 0"
done
for t in array percpu_array; do
	run -w0 -d0.2 -q map-lookup --map_type $t --json "$TMPD/a.json"
	[ "$RC" -eq 0 ] && json_check "$TMPD/a.json" "$FIGURES
ok and all(x['hits'] == x['ops'] and x['misses'] == 0 for x in s)"
	ok $? "map-lookup --map_type $t: every index found"
	run -w0 -d0.2 -q map-update --map_type $t --json "$TMPD/a.json"
	[ "$RC" -eq 0 ] && json_check "$TMPD/a.json" "$FIGURES"
	ok $? "map-update --map_type $t: every update succeeded"
done
for t in queue stack; do
	single map-push $t "e == 10000"
	single map-pop $t "e == 0"
done

# map-ops: every op of every type, each op's figure its own counts
for t in $KEYED array percpu_array queue stack; do
	run -w0 -d0.5 -q map-ops --map_type "$t" --json "$TMPD/o.json"
	case $t in
	queue|stack) ops="peek push pop" ;;
	array|percpu_array) ops="lookup update" ;;
	*) ops="lookup update delete" ;;
	esac
	[ "$RC" -eq 0 ] && json_check "$TMPD/o.json" "
s = d['runs'][0]['samples']; m = d['runs'][0]['metrics']
ops = '$ops'.split()
def close(a, b): return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1)
ok = [k for k, v in m.items() if v['unit'] == 'ns/op'] == ops and all(
    x[o + '_ops'] > 0 and close(x[o] * x[o + '_ops'], x[o + '_kernel_ns']) for x in s for o in ops)
ok"
	ok $? "map-ops --map_type $t: ${ops// //} each timed and checked" || diag "rc=$RC $ERR"
done
line=$(grep '^Summary:' <<<"$OUT")
grep -Eq '^Summary: peek +[0-9.]+ ns/op, push +[0-9.]+ ns/op, pop +[0-9.]+ ns/op$' <<<"$line"
ok $? "map-ops Summary: one ns/op per op" || diag "$line"

# The kernel's run_common.sh ops() patterns find both figures in the Summary.
run -w0 -d0.5 map-lookup
tp=$(echo $OUT | sed -E "s/.*throughput\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+\sM\sops\/s).*/\1/")
lat=$(echo $OUT | sed -E "s/.*latency\s+([0-9]+\.[0-9]+\sns\/op).*/\1/")
grep -Eq '^[0-9.]+ ± [0-9.]+ M ops/s$' <<<"$tp" && grep -Eq '^[0-9.]+ ns/op$' <<<"$lat"
ok $? "Summary parses with the kernel's ops() sed patterns ($tp, $lat)"

# --fill and --hit: exact hit counts from the program, for one and two producers
for p in 1 2; do
	run -w0 -d0.5 -q -p$p map-lookup --fill 50 --hit 37 --json "$TMPD/h.json"
	[ "$RC" -eq 0 ] && json_check "$TMPD/h.json" "
s = d['runs'][0]['samples']
share = max(-(-5000 // $p), 65536); share = -(-share // 100) * 100
ok = all(x['hits'] * 100 == x['ops'] * 37 and x['misses'] == x['ops'] - x['hits'] and
         x['elements'] == 5000 and x['ops'] % ($p * share) == 0 for x in s)
ok"
	ok $? "-p$p --fill 50 --hit 37: hits = 37% of lookups exactly, 5000 keys held, whole passes" ||
		diag "rc=$RC $ERR"
done
run -w0 -d0.5 -q map-lookup --hit 0 --nr_entries 1234 --json "$TMPD/h0.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/h0.json" "
ok = all(x['hits'] == 0 and x['misses'] == x['ops'] and x['elements'] == 1234
         for x in d['runs'][0]['samples'])
ok"
ok $? "--hit 0 --nr_entries 1234: no lookup finds, 1234 keys held"

# deletes and pops: every pass removes each element exactly once
run -w0 -d0.5 -q -p2 map-delete --max_entries 3001 --json "$TMPD/d.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/d.json" "
all(x['ops'] % 3001 == 0 and x['elements'] == 0 for x in d['runs'][0]['samples'])"
ok $? "-p2 map-delete: whole passes over the 3001 keys, the map empty after each"
run -w0 -d0.5 -q -p3 map-pop --map_type stack --max_entries 1000 --json "$TMPD/p.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/p.json" "
all(x['ops'] % 1000 == 0 and x['elements'] == 0 for x in d['runs'][0]['samples'])"
ok $? "-p3 map-pop: the stack's 1000 values popped once each, empty after"

# LRU: twice the keys the map holds; it evicts, within the kernel's batches
for t in lru_hash lru_percpu_hash lru_hash_no_common; do
	run -w0 -d0.5 -q map-update --map_type $t --max_entries 10000 --nr_entries 20000 \
		--json "$TMPD/l.json"
	lo=$((10000 - SLACK))
	[ "$t" = lru_hash_no_common ] && lo=$((10000 / CPUS - SLACK))
	[ "$RC" -eq 0 ] && json_check "$TMPD/l.json" "
s = d['runs'][0]['samples']
all($lo <= x['elements'] <= 10000 and x['ops'] % 65536 == 0 for x in s)"
	ok $? "$t over 20000 keys: holds $lo ... 10000 of them, every update succeeded" ||
		diag "rc=$RC $ERR"
done
bad_hash=$(run -w0 -d0.2 map-update --nr_entries 20000; echo "$RC $ERR")
[ "${bad_hash%% *}" = 2 ] && grep -q 'only map-update of an LRU map' <<<"$bad_hash"
ok $? "a hash map with more keys than max_entries is refused (exit 2)"

# A type the kernel does not have: type number 1000 is past every kernel's
# last one.  Number 1 (hash) through the same option runs: the skip is the kernel's.
run -w0 -d0.2 map-lookup --map_type_nr 1000
[ "$RC" -eq 4 ] && grep -q 'skip: map-lookup: this kernel lacks map type number 1000' <<<"$ERR"
ok $? "--map_type_nr 1000: exit 4 with the reason" || diag "rc=$RC $ERR"
run -w0 -d0.2 -q map-lookup --map_type_nr 1
ok "$RC" "--map_type_nr 1 (BPF_MAP_TYPE_HASH) runs"

# refused combinations: exit 2 with one line naming the problem
bad() {	# bad WORD ARGS...
	local word=$1
	shift
	run -w0 -d0.2 "$@"
	[ "$RC" -eq 2 ] && grep -qF -- "$word" <<<"$ERR"
	ok $? "refused ($word): $*" || diag "rc=$RC $ERR"
}
bad "no keys" map-lookup --map_type queue
bad "have keys" map-push --map_type hash
bad "cannot be deleted" map-delete --map_type array
bad "always preallocated" map-update --map_type lru_hash --no_prealloc
bad "--hit applies to lookups" map-update --hit 50
bad "hold every index" map-lookup --map_type array --fill 50
bad "--trigger raw-tp" map-lookup --trigger raw-tp
bad "not both" map-lookup --fill 50 --nr_entries 10

# --latency: every timed chunk (1000 ops) also in a histogram per op kind.
# The runs are whole samples read between passes: the histogram holds
# exactly the measured runs' ops, the warm-up's not.
source "$(dirname "$0")/hist.sh"
J="$TMPD/lat.json"
run -w0 -d1 map-lookup --latency --json "$J"
[ "$RC" -eq 0 ] && grep -qE '^Latency: p50 [0-9.]+ ns, .*mean [0-9.]+ ns vs [0-9.]+ ns from throughput.* [0-9]+ ops sampled; clock' <<<"$(latency_lines "$OUT")" &&
	hist_ok "$J" op sampled_ops 0 wall_latency && json_check "$J" '
r = d["runs"][0]; h = r["histograms"]["op"]; s = r["samples"]; m = r["metrics"]
ok = h["count"] == sum(x["ops"] for x in s) and h["half_batches"] == 0
ok = ok and h["batches"] >= h["count"] / 1000 and abs(h["vs_ns"] - m["wall_latency"]["of_mean_inverse"]) <= 1e-9 * h["vs_ns"]
# the same clock reads: its time is the kernel time the runs counted, less the clock a chunk
kns = sum(x["kernel_ns"] for x in s)
ok = ok and abs(h["mean"] * h["count"] - (kns - h["batches"] * h["clock_ns"])) <= 1e-6 * kns
ok and all(abs(x["wall_latency"] * x["throughput"] - 1000) < 1e-6 for x in s)'
ok $? "map-lookup --latency: every chunk in the histogram, its time the kernel time, beside wall_latency" ||
	diag "rc=$RC $(grep '^Latency' <<<"$OUT") $ERR" "$(hist_diag "$J")"

run -w0.5 -d0.5 -q map-update --latency --json "$J"
[ "$RC" -eq 0 ] && hist_ok "$J" op sampled_ops 0 wall_latency && json_check "$J" '
r = d["runs"][0]; h = r["histograms"]["op"]
r["warmup_samples"] > 0 and h["count"] == sum(x["ops"] for x in r["samples"])'
ok $? "map-update -w0.5 --latency: the warm-up runs' chunks are not in the histogram" ||
	diag "rc=$RC $ERR" "$(hist_diag "$J")"

# map-ops: one histogram per op; an LRU map is made again between passes
for t in hash lru_hash queue; do
	run -w0 -d0.5 map-ops --map_type $t --latency --json "$J"
	[ "$RC" -eq 0 ] && [ "$(grep -c '^Latency [a-z]*: p50' <<<"$OUT")" -eq 3 ] && json_check "$J" '
r = d["runs"][0]; s = r["samples"]
ok = len(r["histograms"]) == 3
for op, h in r["histograms"].items():
    ok = ok and h["count"] == sum(x[op + "_ops"] for x in s) == sum(x[op + "_sampled_ops"] for x in s) > 0
    ok = ok and sum(b[2] for b in h["bins"]) == h["count"] and h["p50"] <= h["p90"] <= h["p99"] <= h["max"]
    kns = sum(x[op + "_kernel_ns"] for x in s)
    ok = ok and "vs" not in h and abs(h["mean"] * h["count"] - (kns - h["batches"] * h["clock_ns"])) <= 1e-6 * kns
ok'
	ok $? "map-ops --map_type $t --latency: a histogram per op, each every chunk of that op, its time the kernel time" ||
		diag "rc=$RC $ERR" "$(hist_diag "$J")"
done

run -w0 -d0.5 -q -r2 map-pop --latency --latency-every 2 --json "$J"
[ "$RC" -eq 0 ] && hist_ok "$J" op sampled_ops 0 wall_latency && json_check "$J" '
r = d["runs"][0]; h = r["histograms"]["op"]; ops = sum(x["ops"] for x in r["samples"])
r["runs"] == 2 and 0.3 * ops < h["count"] < 0.7 * ops'
ok $? "map-pop -r2 --latency-every 2: both repetitions summed, about one chunk in two" ||
	diag "rc=$RC $ERR" "$(hist_diag "$J")"

run -w0 -d0.5 -q map-lookup --json "$J"
[ "$RC" -eq 0 ] && ! grep -q '^Latency' <<<"$OUT" && latency_off "$J" &&
	json_check "$J" '"wall_latency" not in d["runs"][0]["metrics"]'
ok $? "without --latency: no Latency line, histogram, sampled_ops or wall_latency"

now=$(kernel_objects_settle "$before")
ok $? "after the --latency runs, bpfbench's programs, maps, links as before: $now"

# interrupted mid-run: a clean stop, nothing of ours left
bg_start -w0 -d30 -p2 map-ops --map_type lru_hash
pid=$PID
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 130 ]
ok $? "SIGINT mid-run: exit 130 (got $rc)"

now=$(kernel_objects_settle "$before")
ok $? "no program, map or link of ours left ($now)"
done_testing
