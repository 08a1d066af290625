#!/usr/bin/env bash
# The bloom family against the real kernel: no false negatives, the false
# positive rate within statistical tolerance of theory, hash map lookups
# giving the same answers with and without the filter, every figure what
# the programs counted, summaries the kernel's scripts can read, bad input,
# and the kernel left as found.  Exact counts come from --count (run before
# the measured phase, on one CPU, from the start of the window).
source "$(dirname "$0")/lib.sh"
need_bpf

# This family's programs and maps: bpfbench's own only (tests/lib.sh's
# rule), so whatever else runs on the machine meanwhile does not count.
bloom_objects() {
	kernel_objects
}
bloom_objects_settle() {	# polls: maps are freed a little after the last fd closes
	objects_settle "$1" bloom_objects
}
BEFORE=$(bloom_objects)

# totals: the Totals: line of $OUT and the lines it continues on, as one
totals() { awk '/^Totals: /{t=1; printf "%s", $0; next} t && /^  /{sub(/^ +/, ""); printf " %s", $0; next} {t=0}' <<<"$OUT"; }
# field NAME: --count's NAME (the total window_NAME; window itself) in the Totals of $OUT
field() {
	local n=window_$1
	[ "$1" = window ] && n=window
	totals | grep -oE "(: |, )$n [0-9]+" | grep -oE '[0-9]+$'
}

# counts_are DESC ops=N found=N ...: every listed --count field of the Totals as given
counts_are() {
	local desc=$1 kv bad=""
	shift
	for kv in "$@"; do
		[ "$(field "${kv%%=*}")" = "${kv#*=}" ] || bad="$bad $kv"
	done
	[ "$RC" -eq 0 ] && [ -z "$bad" ]
	ok $? "$desc" || diag "rc=$RC, want$bad" "$(grep -E 'Totals|bpfbench' <<<"$OUT$ERR")"
}

# --- no false negatives: every inserted value is found, exactly once per lookup ---
# aligned (jhash2) and unaligned (jhash) value sizes, 1 to 15 hash functions
for args in "1 8 50000" "5 64 20000" "3 5 30000" "15 4 10000"; do
	set -- $args
	run -w0 -d0.2 --period-ms 100 bloom-lookup --nr_hash_funcs "$1" --value_size "$2" --nr_entries "$3" \
		--count "$((2 * $3))"
	counts_are "bloom-lookup k=$1 B=$2 n=$3: all $((2 * $3)) lookups of inserted values found" \
		ops=$((2 * $3)) found=$((2 * $3)) missed=0 errors=0
done
# more entries than 2-byte values (run_bench_bloom_filter_map.sh asks it): values repeat, all found
run -w0 -d0.2 --period-ms 100 bloom-lookup --value_size 2 --nr_entries 100000 --count 140000
counts_are "bloom-lookup B=2 n=100000: values repeat, all 140000 lookups found" \
	ops=140000 found=140000 missed=0 errors=0
# the measured phase fails the run on any false negative, so rc 0 covers it too
run -w0 -d0.2 --period-ms 100 bloom-lookup --nr_entries 200000 --nr_hash_funcs 2
[ "$RC" -eq 0 ] && grep -q '^Summary: hits .*, drops .*, total operations ' <<<"$OUT"
ok $? "bloom-lookup: a measured run with no false negative, the kernel bench's summary"

run -w0 -d0.2 --period-ms 100 bloom-update --nr_entries 30000 --count 70000
counts_are "bloom-update: 70000 pushes, all succeed" ops=70000 found=70000 errors=0
grep -q '^Summary: hits .*, drops .*, total operations ' <<<"$OUT"
ok $? "bloom-update: the kernel bench's summary"

# --- false positive rate within tolerance of theory ---
# Theory: the kernel's bitmap m = roundup_pow2(n*k/5*7) (>= 64), p = (1 - e^(-kn/m))^k.
# Tolerance: N distinct absent values are N Bernoulli(p) trials given the
# filter (sigma_b = sqrt(p(1-p)/N)); the filter itself varies: kn throws into
# m bits leave Z empty bits with Var Z = m e^-l (1 - (1+l) e^-l), l = kn/m,
# and p = f^k moves by k f^(k-1) sd(f), f = 1 - Z/m.  We allow 5 sigma of
# both combined, plus 1% of p for the model (hash functions that are not
# perfectly independent, two hashes of one value on one bit).
fpr_check() {	# fpr_check FOUND N n k: FOUND of N distinct absent values passed the filter
	python3 - "$@" <<'PY'
import math, sys
found = float(sys.argv[1])
N, n, k = map(int, sys.argv[2:])
bits = n * k // 5 * 7
m = 64 if bits <= 64 else 1 << (bits - 1).bit_length()
l = k * n / m
f = 1 - math.exp(-l)
p = f ** k
sd_b = math.sqrt(p * (1 - p) / N)
sd_f = k * f ** (k - 1) * math.sqrt(m * math.exp(-l) * (1 - (1 + l) * math.exp(-l))) / m
tol = 5 * math.hypot(sd_b, sd_f) + 0.01 * p
got = found / N
print(f"# k={k} n={n} m={m}: measured {got:.5f}, theory {p:.5f}, tolerance {tol:.5f}")
sys.exit(0 if abs(got - p) <= tol else 1)
PY
}

N=1000000
for k in 1 3 5; do
	n=100000
	run -w0 -d0.2 --period-ms 100 bloom-false-positive --nr_entries $n --nr_hash_funcs $k \
		--nr_probes $N --count $N
	found=$(field found)
	if [ "$RC" -eq 0 ] && [ "$(field ops)" = $N ] && [ "$(field errors)" = 0 ]; then
		msg=$(fpr_check "$found" $N $n $k)
		ok $? "bloom-false-positive k=$k: $found false positives in $N within tolerance"
		diag "${msg#\# }"
	else
		fail "bloom-false-positive k=$k: counts" "rc=$RC $ERR"
	fi
done

# the printed theory is the kernel's bitmap and (1 - e^(-kn/m))^k; the kernel
# bench's convention f/(1+f) reproduces the seed's 24.15 % for k=1, 50k entries
run -w0 -d0.2 --period-ms 100 bloom-false-positive --nr_entries 50000 --nr_hash_funcs 1 --nr_probes 200000 \
	--json "$TMPD/fp.json"
grep -q '^Note: theory 31.714 % is a 131072-bit bitmap' <<<"$OUT"
ok $? "bloom-false-positive: theory for k=1, n=50000 is 31.714 % with 131072 bits"
json_check "$TMPD/fp.json" '
r = d["runs"][0]; m = r["metrics"]["false_positive_rate"]
th = abs(r["metrics"]["theory"]["mean"] - 31.714) < 0.001
th and m["n"] >= 1 and abs(m["mean"] - 31.714) < 1.0 and len(r["samples"]) == m["n"]'
ok $? "bloom-false-positive: JSON has the rate per pass near theory, and theory"

# --- hash map: the filter changes the speed, never the answers ---
# window: 100000 values, 50000 of them present; 3 laps give exactly 150000 hits
for b in hashmap-without-bloom hashmap-with-bloom; do
	run -w0 -d0.2 --period-ms 100 $b --nr_entries 100000 --nr_probes 100000 --hit_percent 50 --count 300000
	counts_are "$b: 300000 lookups over a 50%-present window find 150000" \
		ops=300000 found=150000 missed=150000 errors=0 window=100000 present=50000
	eval "filtered_${b//-/_}=$(field filtered)"
done
[ "$filtered_hashmap_without_bloom" = 0 ] && [ "$filtered_hashmap_with_bloom" -gt 100000 ]
ok $? "hashmap-with-bloom: the filter answers most of the 150000 misses itself" \
	|| diag "filtered: without $filtered_hashmap_without_bloom, with $filtered_hashmap_with_bloom"
# default: random absent values, as the kernel bench looks up
for b in hashmap-without-bloom hashmap-with-bloom; do
	run -w0 -d0.2 --period-ms 100 $b --nr_entries 20000 --value_size 16 --count 50000
	counts_are "$b: absent values are never found" ops=50000 found=0 missed=50000 errors=0
	grep -Eq '^Stats: found n [0-9]+, (0\.000 M ops/s|median 0\.000, min 0\.000, max 0\.000)' <<<"$OUT"
	ok $? "$b: what the hash map found, among our figures" || diag "$(grep '^Stats: found' <<<"$OUT")"
done

# --- the kernel bench's classes: a key the filter rejects is a hit ---
# n=100000, k=3, 8-byte keys: the default key slots (2 MiB / 8) once each.
# Random keys are absent, so every hit is a rejection and every drop a key
# that passed the filter: drops / lookups is the false positive rate.
S=$((2097152 / 8))
run -w0 -d0.2 --period-ms 100 hashmap-with-bloom --nr_entries 100000 --nr_hash_funcs 3 --count $S
ops=$(field ops) hits=$(field hits) drops=$(field drops) filtered=$(field filtered)
[ "$RC" -eq 0 ] && [ "$ops" = $S ] && [ $((hits + drops)) = "$ops" ] &&
	[ "$(field found)" = 0 ] && [ "$filtered" = "$hits" ] && [ "$(field errors)" = 0 ]
ok $? "hashmap-with-bloom: hits + drops = lookups ($hits + $drops = $ops), every hit a rejection" \
	|| diag "rc=$RC $(totals)"
msg=$(fpr_check "$drops" $S 100000 3)
ok $? "hashmap-with-bloom: the share that passes the filter is its false positive rate" \
	|| diag "${msg#\# }"
diag "${msg#\# }"

# The same over a measured run: keys cycle over the S slots, so the share
# is a binomial of S trials, whatever the number of lookups.
run -w0 -d0.4 --period-ms 100 -q hashmap-with-bloom --nr_entries 100000 --nr_hash_funcs 3 --json "$TMPD/hb.json"
share=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["samples"]
print(sum(s["drop_ops"] for s in r) / sum(s["ops"] for s in r) * int(sys.argv[2]))' \
	"$TMPD/hb.json" $S)
msg=$(fpr_check "$share" $S 100000 3)
ok $? "hashmap-with-bloom: measured drops / lookups is the false positive rate" \
	|| diag "${msg#\# }"

# The kernel bench's keys are random bytes: 2-byte ones hit nr_entries / 65536
# of the time (here a half), a binomial over the 2^20 key slots.
N=$((2097152 / 2))
run -w0 -d0.2 --period-ms 100 hashmap-without-bloom --value_size 2 --nr_entries 32768 --count $N
found=$(field found)
[ "$RC" -eq 0 ] && [ $(($(field hits) + $(field drops))) = $N ] && python3 -c '
import math, sys
f, n = int(sys.argv[1]), int(sys.argv[2])
sys.exit(abs(f / n - 0.5) > 5 * math.sqrt(0.25 / n))' "$found" $N
ok $? "hashmap-without-bloom: random 2-byte keys are found half the time ($found of $N)" \
	|| diag "rc=$RC $(totals)"

# --- definitions: each figure is what the programs counted ---
# Per sample: rate x elapsed = the count of that sample, hits + drops =
# operations.  In all: the programs' own counters read after they stopped
# (-v) hold what the samples add up to, plus the runs outside the samples:
#  - calibrating test_run_repeat = R: one run alone, then 1 + 2 + ... + R
#    runs (up to 2R when a noisy last step is halved), 4R runs at most;
#  - what the producer did between the last sample and the stop: on a busy
#    machine the sampling thread can wait for a CPU there, so this is no
#    fixed number of calls but the fastest measured rate (the calibration's
#    call time, or the best sample) times the longest that gap can have
#    lasted: the time from the launch to the totals' line, less the
#    measured samples and the setup's own "ready in" time (all of it
#    before the clock started);
#  - the calls under way at the last sample and at the stop: 2R runs;
# each run 1024 (hash) or nr_entries (filter: a pass) operations at most.
# stamped_run OUT ERR ARGS...: run -v bpfbench; RC, and on stdout the seconds
# from the launch to the line with the programs' totals (read as it comes)
stamped_run() {
	python3 - "$@" <<'PY'
import subprocess, sys, time
out, err, args = sys.argv[1], sys.argv[2], sys.argv[3:]
t0 = time.monotonic()
p = subprocess.Popen(args, stdout=open(out, "w"), stderr=subprocess.PIPE, text=True)
seen = -1.0
with open(err, "w") as e:
    for line in p.stderr:
        if seen < 0 and "counted in all:" in line:
            seen = time.monotonic() - t0
        e.write(line)
print(p.wait(), seen)
PY
}
definition_check() {	# definition_check JSON BATCH ERR-TEXT SECONDS-TO-TOTALS
	python3 - "$@" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))["runs"][0]
batch, err, to_totals = int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
m = re.search(r"counted in all: (.*)", err)
tot = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", m.group(1) if m else ""))
ready = float(re.search(r"ready in ([0-9.]+) s", err).group(1))
cal = re.search(r"test-run: (\d+) program runs per syscall \(([0-9.]+) ms\)", err)
R = r.get("test_run_repeat") or 1
total = "lookups" if "lookups" in r["metrics"] else "updates"
pairs = [("hits", "hit_ops"), ("drops", "drop_ops"), (total, "ops")]
if "filtered" in r["metrics"]:
    pairs.append(("filtered", "filtered_ops"))
bad = []
for i, s in enumerate(r["samples"]):
    for rate, count in pairs:
        if abs(s[rate] * s["elapsed_ns"] / 1e3 - s[count]) > 1e-6 * max(s[count], 1):
            bad.append(f"sample {i}: {rate} {s[rate]} x {s['elapsed_ns']} ns != {count} {s[count]}")
    if s["hit_ops"] + s["drop_ops"] != s["ops"]:
        bad.append(f"sample {i}: hits + drops != ops")
    if "found" in s and abs((s["found"] + s["filtered"]) - s["hits"]) > 1e-9 * max(s["hits"], 1):
        bad.append(f"sample {i}: found + filtered != hits")
measured = sum(s["elapsed_ns"] for s in r["samples"]) / 1e9
if measured < r["options"]["duration"]:
    bad.append(f"the samples cover {measured} s, less than the run's -d")
# ops per second: the calibration's call, or the best sample
rate = max(([R * batch / (float(cal.group(2)) / 1e3)] if cal else []) +
           [s["ops"] / (s["elapsed_ns"] / 1e9) for s in r["samples"] if s["elapsed_ns"]])
gap = max(0.0, to_totals - ready - measured)
slack = int(4 * R * batch + rate * gap + 2 * R * batch)
for key, count in (("ops", "ops"), ("hits", "hit_ops"), ("drops", "drop_ops")):
    got = sum(s[count] for s in r["samples"])
    if key not in tot or not got <= tot[key] <= got + slack:
        bad.append(f"{key}: samples add up to {got}, the programs counted {tot.get(key)} "
                   f"(at most {slack} more: R {R}, {rate / 1e6:.3f} M ops/s over at most {gap:.3f} s "
                   f"between the last sample and the stop)")
if tot.get("hits", 0) + tot.get("drops", 0) != tot.get("ops") or tot.get("errors", 1):
    bad.append(f"programs' totals: {tot}")
print("\n".join(bad))
sys.exit(1 if bad or not r["samples"] else 0)
PY
}
for spec in "bloom-lookup 50000" "bloom-update 50000" "hashmap-without-bloom 1024" \
	"hashmap-with-bloom 1024"; do
	set -- $spec
	# test-run: its calibrated calls bound the runs outside the samples (raw-tp,
	# the hash maps' default, fires as often as the producer gets the CPU)
	read -r RC secs < <(stamped_run "$TMPD/def.out" "$TMPD/def.err" "$BPFBENCH" -v -w0 -d0.4 \
		--period-ms 100 --trigger test-run "$1" --nr_entries 50000 --json "$TMPD/def.json")
	ERR=$(grep -v '^libbpf: ' "$TMPD/def.err")
	[ "$RC" -eq 0 ] && schema_queue "$TMPD/def.json"
	msg=$(definition_check "$TMPD/def.json" "$2" "$ERR" "$secs")
	ok $? "$1: every sample's rates are its counts, and they add up to the programs' counters" \
		|| diag "rc=$RC $(grep 'counted in all' <<<"$ERR")" "$msg"
done

# --- the kernel's run_bench_bloom_filter_map.sh reads our summaries ---
# Its helpers (run_common.sh) join a run's output into one line and take
# the last "hits N ± NM/s", "drops ...", "total operations ..." or
# "Percentage = N"; the same patterns here, written anew.
kernel_field() {	# kernel_field hits|drops|total|percentage OUTPUT
	local line
	line=$(echo $2)
	case $1 in
	hits) sed -nE 's/.*hits\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/p' <<<"$line" ;;
	drops) sed -nE 's/.*drops\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/p' <<<"$line" ;;
	total) sed -nE 's/.*total operations\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/p' \
		<<<"$line" ;;
	percentage) sed -nE 's/.*Percentage\s=\s+([0-9]+\.[0-9]+).*/\1/p' <<<"$line" ;;
	esac
}
for b in bloom-lookup bloom-update hashmap-without-bloom hashmap-with-bloom; do
	run -w0 -d0.2 --period-ms 100 $b --nr_entries 20000 --json "$TMPD/k.json"
	h=$(kernel_field hits "$OUT") d=$(kernel_field drops "$OUT") t=$(kernel_field total "$OUT")
	[ -n "$h" ] && [ -n "$d" ] && [ -n "$t" ] && json_check "$TMPD/k.json" "
m = d['runs'][0]['metrics']
tot = m.get('lookups') or m['updates']
near = lambda text, st: abs(float(text.split()[0]) - st['mean']) < 6e-4
near('$h', m['hits']) and near('$d', m['drops']) and near('$t', tot)"
	ok $? "$b: summarize reads hits '$h', drops '$d', total operations '$t' as in the JSON" \
		|| diag "$(grep Summary <<<"$OUT")"
done
run -w0 -d0.2 --period-ms 100 bloom-false-positive --nr_entries 20000 --nr_probes 100000 --json "$TMPD/k.json"
p=$(kernel_field percentage "$OUT")
[ -n "$p" ] && json_check "$TMPD/k.json" "
s = d['runs'][0]['samples']
fh = sum(x['false_hits'] for x in s)
abs(100 * fh / (sum(x['ops'] for x in s) + fh) - float('$p')) < 6e-3"
ok $? "bloom-false-positive: summarize_percentage reads '$p', the kernel bench's false hits / all" \
	|| diag "$(grep Summary <<<"$OUT")"

# --- bad input: exit 2, naming the problem ---
bad() {	# bad WORD ARGS...: exit 2 and stderr's first line names WORD
	local word=$1
	shift
	run "$@"
	[ "$RC" -eq 2 ] && head -n1 <<<"$ERR" | grep -qF -- "$word"
	ok $? "rejects: $*" || diag "rc=$RC stderr=$ERR"
}
bad nr_hash_funcs bloom-lookup --nr_hash_funcs 0
bad nr_hash_funcs bloom-lookup --nr_hash_funcs 16
bad value_size bloom-update --value_size 1
bad nr_entries bloom-lookup --nr_entries 0
bad nr_entries hashmap-with-bloom --value_size 2 --nr_entries 70000
bad nr_entries bloom-false-positive --value_size 2 --nr_entries 65536
bad count bloom-false-positive --nr_probes 1000 --count 1001
bad hit_percent hashmap-with-bloom --hit_percent 101
bad hit_percent bloom-lookup --hit_percent 5
bad nr_probes hashmap-with-bloom --nr_probes 300000
bad consumers bloom-lookup -c 1

# --- a signal during a long fill: prompt, clean exit ---
# Prompt: the fill looks for a signal every 65536 values, then tears down;
# a whole run of a tenth of the filter does more than that, so the deadline
# (tests/lib.sh) is measured from such runs, now, before and after.
small=(-w0 -d0.01 --period-ms 10 -q bloom-lookup --nr_entries 500000 --value_size 64)
ref1=$(ref_ms "${small[@]}")
"$BPFBENCH" -w0 -d5 bloom-lookup --nr_entries 5000000 --value_size 64 \
	>"$TMPD/sig.out" 2>"$TMPD/sig.err" &
pid=$!
sleep 1
catching $pid
kill -INT $pid
t0=$(date +%s%N)
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
limit=$(deadline_ms "$ref1" "$(ref_ms "${small[@]}")")
[ "$rc" -eq 130 ] && [ "$ms" -le "$limit" ]
ok $? "SIGINT during setup: exits ($rc) within ${ms} ms (deadline $limit ms)"

AFTER=$(bloom_objects_settle "$BEFORE")
[ "$AFTER" = "$BEFORE" ]
ok $? "bloom programs and maps in the kernel back to '$BEFORE' (progs maps)"
[ "$AFTER" = "$BEFORE" ] || diag "now '$AFTER'"

done_testing
