#!/usr/bin/env bash
# htab-mem end to end: every use case does its map operations without a
# failure, memory is measured in a memory cgroup of the run's own, which
# is gone after every kind of exit, and a non-preallocated map is charged
# more than a preallocated one where that must hold.
source "$(dirname "$0")/lib.sh"
need_bpf
command -v bpftool >/dev/null && command -v jq >/dev/null || skip_all "needs bpftool and jq"

# The memory hierarchy's mount ("v1 DIR", "v2 DIR" or "none"), as the benchmark chooses it.
memcg_mount() {
	local v1 v2
	v2=$(awk '$3 == "cgroup2" { print $2 }' /proc/mounts | while read -r d; do
		grep -qw memory "$d/cgroup.controllers" 2>/dev/null && { echo "$d"; break; }
	done)
	[ -n "$v2" ] && { echo "v2 $v2"; return; }
	v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
	[ -n "$v1" ] && { echo "v1 $v1"; return; }
	echo none
}
read -r MEMCG_KIND MEMCG_MNT <<<"$(memcg_mount)"

# The memory cgroup directory a live process is in.
cgroup_dir_of() {	# cgroup_dir_of PID
	local rel
	if [ "$MEMCG_KIND" = v2 ]; then
		rel=$(awk -F: '$1 == "0" { print $3 }' "/proc/$1/cgroup")
	else
		rel=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' "/proc/$1/cgroup")
	fi
	echo "$MEMCG_MNT${rel%/}"
}

json_mean() {	# json_mean FILE METRIC
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["metrics"][sys.argv[2]]["mean"])' "$1" "$2"
}

# Our own programs, maps and links (others' benchmarks may run meanwhile): "P M L".
own_objects() {	# bpfbench's own programs, maps and links only (tests/lib.sh's rule)
	kernel_objects
}
own_objects_settle() {	# own_objects_settle EXPECTED
	objects_settle "$1" own_objects
}

before=$(own_objects)
diag "htab_mem programs maps links before: $before" "memory cgroup: $MEMCG_KIND $MEMCG_MNT"

# --- each use case, both allocation modes: ops counted, none failed ---
# -v: at the end the run prints the ops its programs counted and the ops
# its producers triggered, each counted on its own side.
counted_line() {	# counted_line STDERR: "COUNTED TRIGGERED", or nothing
	sed -nE 's/.*ops counted by the programs ([0-9]+), triggered by the producers ([0-9]+)$/\1 \2/p' <<<"$1"
}

# What per-prod-op means (the kernel bench's htab_mem_measure and
# report): the period's ops over all producers / producers / seconds,
# in thousands; del-ops are the deleting runs among ops.
definition_check() {	# definition_check FILE USE-CASE
	json_check "$1" '
r = d["runs"][0]
P = r["options"]["producers"]
uc = sys_uc = "'"$2"'"
rate_ok = all(abs(x["per-prod-op"] * 1000 * P * x["elapsed_ns"] / 1e9 - x["ops"]) <= 1e-6 * max(x["ops"], 1) for x in r["samples"])
# a run counts its deletes before its ops, the reader reads ops first: at most one run per producer apart
dels = [x["ops"] - 2 * x["del-ops"] for x in r["samples"]]
if uc == "overwrite": dels_ok = all(x["del-ops"] == 0 for x in r["samples"])
else: dels_ok = all(abs(v) <= 2 * P for v in dels)
rate_ok and dels_ok and all(x["ops"] == int(x["ops"]) for x in r["samples"])'
}

for uc in overwrite batch_add_batch_del add_del_on_diff_cpu; do
	for pre in "" --preallocated; do
		J="$TMPD/$uc$pre.json"
		run -v -w0 -d0.4 -p2 --period-ms 200 htab-mem --use-case "$uc" $pre --json "$J"
		[ "$uc$pre" = overwrite ] && HUMAN=$OUT
		[ "$RC" -eq 0 ] && json_check "$J" '
s = d["runs"][0]["samples"]
len(s) == 2 and all(x["per-prod-op"] > 0 and x["failed-ops"] == 0 and x["memory"] > 0 for x in s)'
		ok $? "$uc${pre:+ $pre}: ops counted every period, no map operation failed, memory > 0" ||
			diag "rc $RC" "$ERR" "$OUT"
		definition_check "$J" "$uc"
		ok $? "$uc${pre:+ $pre}: per-prod-op x producers x seconds = ops in every sample; del-ops fit the use case" ||
			diag "$(python3 -m json.tool "$J" | grep -A12 samples)"
		read -r counted fired <<<"$(counted_line "$ERR")"
		sum=$(python3 -c 'import json,sys; print(int(sum(x["ops"] for x in json.load(open(sys.argv[1]))["runs"][0]["samples"])))' "$J")
		[ -n "$counted" ] && [ "$counted" = "$fired" ] && [ "$sum" -le "$counted" ]
		ok $? "$uc${pre:+ $pre}: the programs counted the ops the producers triggered ($counted = $fired), the samples hold $sum of them" ||
			diag "$ERR"
	done
done

# test-run: a syscall is repeat program runs, every one of them counted
run -v -w0 -d0.4 -p2 --period-ms 200 --trigger test-run htab-mem --json "$TMPD/tr.json"
read -r counted fired <<<"$(counted_line "$ERR")"
[ "$RC" -eq 0 ] && [ -n "$counted" ] && [ "$counted" = "$fired" ] && definition_check "$TMPD/tr.json" overwrite
ok $? "test-run trigger: per-prod-op from the ops counted, which are the runs triggered ($counted)" ||
	diag "rc $RC" "$ERR"

# The pair waits as the kernel bench's barriers make it, or spins first: same definition either way.
run -v -w0 -d0.4 -a -p2 --period-ms 200 htab-mem --use-case add_del_on_diff_cpu --pair-wait spin --json "$TMPD/spin.json"
read -r counted fired <<<"$(counted_line "$ERR")"
[ "$RC" -eq 0 ] && [ "$counted" = "$fired" ] && definition_check "$TMPD/spin.json" add_del_on_diff_cpu &&
	json_check "$TMPD/spin.json" 'all(x["failed-ops"] == 0 for x in d["runs"][0]["samples"])'
ok $? "--pair-wait spin: pairs still alternate (del-ops half the ops), none failed" || diag "rc $RC" "$ERR"
run -w0 -d1 htab-mem --pair-wait spin
[ "$RC" -eq 2 ] && grep -q 'pair-wait spin applies to --use-case add_del_on_diff_cpu only' <<<"$ERR"
ok $? "--pair-wait spin without pairs: exit 2, says why" || diag "rc $RC" "$ERR"

J="$TMPD/overwrite.json"
json_check "$J" '
r = d["runs"][0]
r["options"]["use_case"] == "overwrite" and r["options"]["preallocated"] is False and r["trigger"] in ("raw-tp", "test-run") and r["options"]["value_size"] == 8'
ok $? "JSON names the use case, the allocation mode and the trigger"

if [ "$MEMCG_KIND" = none ]; then
	json_check "$J" 'd["runs"][0]["method"].startswith("fdinfo")'
	ok $? "no memory cgroup here: the method is the map's fdinfo memlock"
else
	json_check "$J" '
r = d["runs"][0]
r["method"].startswith("cgroup-'"$MEMCG_KIND"'") and all(x["peak-memory"] >= x["memory"] for x in r["samples"])'
	ok $? "method is cgroup-$MEMCG_KIND, named in JSON; peak >= usage in every sample"
fi

# The human line the seed's script parses, in its shape and agreeing with JSON.
line=$(grep '^Summary:' <<<"$HUMAN")
python3 - "$line" <<'PY'
import re, sys
line = sys.argv[1]
f = [float(x) for x in re.findall(r"[0-9]+\.[0-9]+", line)]
want = ("Summary: per-prod-op %7.2f \u00b1 %7.2fk/s, memory usage %7.2f \u00b1 %7.2fMiB,"
        " peak memory usage %7.2fMiB" % tuple(f))
assert len(f) == 5 and line == want, (line, want)
PY
ok $? "Summary line in the kernel bench's exact shape (%7.2lf figures)" || diag "$line"
mem=$(python3 -c 'import sys; print("%.2f" % float(sys.argv[1]))' "$(json_mean "$J" memory)")
grep -Eq "memory usage +$mem ±" <<<"$line" && grep -q '^Method: cgroup-v1\|^Method: cgroup-v2\|^Method: fdinfo' <<<"$HUMAN"
ok $? "human memory usage and JSON agree ($mem MiB), the method is printed" || diag "$HUMAN"

# run_bench_htab_mem.sh's summarize, done again here: the run's whole
# stdout joined into one line (the script echoes it unquoted), then one
# sed capture per figure; a pattern that does not match leaves the
# whole line, which the shape checks below reject.
seed_capture() {	# seed_capture OUTPUT: the row the script would print
	local s
	# shellcheck disable=SC2086
	s=$(echo $1 | tail -n1)
	printf 'per-prod-op: %s, avg mem: %s, peak mem: %s\n' \
		"$(sed -E 's/.* per-prod-op\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+k\/s).*/\1/' <<<"$s")" \
		"$(sed -E 's/.* memory usage\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+MiB).*/\1/' <<<"$s")" \
		"$(sed -E 's/.* peak memory usage\s+([0-9]+\.[0-9]+MiB).*/\1/' <<<"$s")"
}
row_shape='^per-prod-op: [0-9]+(\.[0-9]+)?( ± [0-9]+(\.[0-9]+)?)?k/s, avg mem: [0-9]+(\.[0-9]+)?( ± [0-9]+(\.[0-9]+)?)?MiB, peak mem: [0-9]+\.[0-9]+MiB$'
# a row without what follows its figures: "  [CI ±2.0%] [noisy] [-d 1]"
untagged() { sed -E 's/  \[[^]]*\]( \[[^]]*\])*$//'; }

# json_row FILE: the row the seed script prints, made from the JSON's figures of the first run
json_row() {
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["metrics"]
f = lambda m, k: "%.2f" % r[m][k]
print("per-prod-op: %s ± %sk/s, avg mem: %s ± %sMiB, peak mem: %sMiB" % (f("per-prod-op", "mean"),
      f("per-prod-op", "stddev"), f("memory", "mean"), f("memory", "stddev"), f("peak-memory", "max")))' "$1"
}

# Two periods, so the spread is a real one.
run -w0 -d0.4 -p2 --period-ms 200 htab-mem --json "$TMPD/sum.json"
SUM_OUT=$OUT
got=$(seed_capture "$OUT")
want=$(json_row "$TMPD/sum.json")
[ "$RC" -eq 0 ] && grep -Eq "$row_shape" <<<"$got" && [ "$got" = "$want" ]
ok $? "the seed script's summarize takes the run's figures from its output: $got" ||
	diag "want: $want" "$OUT"

# json_table_row FILE: the row a table prints, the same figures by the digits rule (src/output/figure.c)
json_table_row() {
	python3 -c '
import json, math, sys
r = json.load(open(sys.argv[1]))["runs"][0]["metrics"]
def fig(m):
    mean, sd = r[m]["mean"], r[m]["stddev"]
    if not sd or sd <= abs(mean) * 1e-9:
        return "%.2f" % mean
    # as round() in C: a tie away from zero (memory in MiB is often one: 0.125)
    cround = lambda x: math.copysign(math.floor(abs(x) + 0.5), x)
    d = 1 - math.floor(math.log10(sd))
    if cround(sd * 10 ** d) >= 100:
        d -= 1
    at = lambda v: "%.*f" % (max(d, 0), (cround(v * 10 ** d) / 10 ** d if d >= 0 else
                                         cround(v / 10 ** -d) * 10 ** -d) + 0.0)
    return "%s ± %s" % (at(mean), at(sd))
print("per-prod-op: %sk/s, avg mem: %sMiB, peak mem: %.2fMiB" % (fig("per-prod-op"), fig("memory"),
      r["peak-memory"]["max"]))' "$1"
}

# A table row (a one-value sweep prints one) holds the figures of its JSON, in the same shape.
run -q -w0 -d0.4 -p2 --period-ms 200 htab-mem --sweep use_case=overwrite --json "$TMPD/row.json"
row=$(sed -nE 's/^use-case=overwrite +//p' <<<"$OUT" | untagged)
want=$(json_table_row "$TMPD/row.json")
[ "$RC" -eq 0 ] && grep -Eq "$row_shape" <<<"$row" && [ "$row" = "$want" ]
ok $? "a suite row is in the seed script's shape, with the figures of its run: $row" ||
	diag "want: $want" "$OUT"

# --- metric kinds, and what setup leaves in the figures ---
json_check "$TMPD/overwrite--preallocated.json" '
m = d["runs"][0]["metrics"]
k = {n: (v["kind"], v["better"]) for n, v in m.items()}
k["per-prod-op"] == ("rate", "higher") and k["memory"] == ("level", "lower") and k["peak-memory"] == ("peak", "lower") and k["setup-peak-memory"] == ("level", "lower") and k["failed-ops"] == ("count", "lower") and k["ops"] == ("count", "none") and k["del-ops"] == ("count", "none")'
ok $? "metric kinds: per-prod-op a rate, memory and setup's peak levels, the peak a running maximum, counts"

# setup's peak is fixed before the producers start; the run's peak starts there
json_check "$TMPD/overwrite--preallocated.json" '
s = d["runs"][0]["samples"]
len(set(x["setup-peak-memory"] for x in s)) == 1 and s[0]["setup-peak-memory"] > 0 and all(x["peak-memory"] >= x["memory"] for x in s) and all(b["peak-memory"] >= a["peak-memory"] for a, b in zip(s, s[1:]))'
ok $? "setup-peak-memory is one value for the run; peak-memory never falls and is never below usage"
setup=$(python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["runs"][0]["metrics"]["setup-peak-memory"]["max"])' "$TMPD/sum.json")
grep -Eq "^Stats: setup-peak-memory n [0-9]+, (median $setup|$setup MiB)" <<<"$SUM_OUT"
ok $? "our Stats give setup's peak ($setup MiB), apart from the Summary's" || diag "$SUM_OUT"

if [ "$MEMCG_KIND" = v1 ]; then
	# usage carries the per-CPU charge batches left from setup, which differ run to run;
	# the kernel memory counter is charged page by page
	run -q -w0 -d1 -p2 --period-ms 500 htab-mem --preallocated --json "$TMPD/k1.json"
	r1=$RC
	run -q -w0 -d1 -p2 --period-ms 500 htab-mem --preallocated --json "$TMPD/k2.json"
	slack=$((8192 * $(nproc)))
	[ "$r1" -eq 0 ] && [ "$RC" -eq 0 ] && python3 - "$TMPD/k1.json" "$TMPD/k2.json" "$slack" <<'PY'
import json, sys
k = [[x["kernel-memory"] * 1048576 for x in json.load(open(f))["runs"][0]["samples"]] for f in sys.argv[1:3]]
slack = int(sys.argv[3])
flat = [v for run in k for v in run]
sys.exit(0 if min(flat) > 0 and max(flat) - min(flat) <= slack else 1)
PY
	ok $? "cgroup v1 --preallocated: kernel-memory is the same (within $slack bytes) in every sample of two runs" ||
		diag "$(grep -h kernel-memory "$TMPD/k1.json" "$TMPD/k2.json" | head)"
else
	json_check "$TMPD/overwrite.json" '"kernel-memory" not in d["runs"][0]["metrics"]'
	ok $? "no cgroup v1: no kernel-memory figure"
fi

# --- non-preallocated above preallocated, two runs compared ---
# 8 producers x 64 keys in a map of exactly 512 entries, 4 KiB values: the
# preallocated map is one array of 512 elements; the allocator serves each
# element from a kmalloc size class twice its size and keeps per-CPU spares.
# The margin (about 2 MiB) is well above usage_in_bytes' per-CPU charge
# batching (256 KiB a CPU).
big="-w0 -d1 -q -p8 htab-mem --use-case overwrite --value-size 4096 --max-entries 512"
run $big --json "$TMPD/normal.json"
rc1=$RC
run $big --preallocated --json "$TMPD/prealloc.json"
if [ "$rc1" -eq 0 ] && [ "$RC" -eq 0 ]; then
	normal=$(json_mean "$TMPD/normal.json" memory)
	prealloc=$(json_mean "$TMPD/prealloc.json" memory)
	python3 -c 'import sys; n, p = map(float, sys.argv[1:]); sys.exit(0 if n > 0 and n > p else 1)' \
		"$normal" "$prealloc"
	ok $? "non-preallocated overwrite: $normal MiB > 0 and > preallocated $prealloc MiB"
else
	fail "non-preallocated vs preallocated runs (rc $rc1, $RC)" "$ERR"
fi

# --- the suite: the seed script's table, no internal words ---
run suite htab-mem -w0 -d0.4 --period-ms 200 --md "$TMPD/suite.md" --json "$TMPD/suite.json"
rows=$(grep -cE "^(overwrite|batch_add_batch_del|add_del_on_diff_cpu) +per-prod-op: " <<<"$OUT")
bad=$(grep -E "^(overwrite|batch_add_batch_del|add_del_on_diff_cpu) " <<<"$OUT" | sed -E 's/^[a-z_]+ +//' | untagged | grep -Evc "$row_shape")
[ "$RC" -eq 0 ] && [ "$rows" -eq 6 ] && [ "$bad" -eq 0 ] && grep -qx "BPF memory allocator" <<<"$OUT" &&
	! grep -qiE "seed|normal bpf ma" <<<"$OUT"
ok $? "suite htab-mem: six rows in the seed script's shape, sections preallocated and BPF memory allocator" ||
	diag "rc $RC" "$OUT" "$ERR"
# --md: hyperfine's shape, a pipe table per section, a column per metric with its unit
python3 - "$(dirname "$0")/md_tables.py" "$TMPD/suite.md" "$TMPD/suite.json" <<'PY'
import json, re, subprocess, sys
t = json.loads(subprocess.check_output([sys.executable, sys.argv[1], "--merged", sys.argv[2]]))
runs = json.load(open(sys.argv[3]))["runs"]
assert [x["section"] for x in t] == ["preallocated", "BPF memory allocator"], t
assert [len(x["rows"]) for x in t] == [3, 3]
fig = re.compile(r"^-?[0-9.]+( ± [0-9.]+)?$")
for x in t:
    for r in x["rows"]:
        run = next(u for u in runs if u["label"] == r["Step"] and u["section"] == x["section"])
        shown = 0
        for mid, m in run["metrics"].items():
            head = mid if mid == m["unit"] else "%s [%s]" % (mid, m["unit"])
            if head not in r:	# the counts are JSON's and CSV's
                assert m["kind"] == "count", (mid, r)
                continue
            shown += 1
            assert fig.match(r[head]), (mid, r[head])
        assert shown >= 3, r
        assert "see below" not in " ".join(r.values())
PY
ok $? "suite htab-mem --md: two tables, a row per step, a column per metric with its unit, figures in cells"

# --- bad input ---
run -w0 -d1 -p3 htab-mem --use-case add_del_on_diff_cpu
[ "$RC" -eq 2 ] && head -1 <<<"$ERR" | grep -q 'add_del_on_diff_cpu pairs producers.*-p must be even, got 3'
ok $? "add_del_on_diff_cpu with 3 producers: exit 2, the first line names the problem" ||
	diag "rc $RC" "$ERR"

run -w0 -d1 -p2 htab-mem --max-entries 64
[ "$RC" -eq 2 ] && grep -q 'max-entries 64' <<<"$ERR"
ok $? "a map too small for 64 keys per producer: exit 2" || diag "rc $RC" "$ERR"

run -w0 -d1 htab-mem --value-size 4097
[ "$RC" -eq 2 ]
ok $? "--value-size above 4096: exit 2"

# --- the cgroup: inside while running, gone after every exit ---

# in_own_cgroup PID: prints its cgroup dir; true if it is bpfbench-PID holding PID
in_own_cgroup() {
	local dir
	dir=$(cgroup_dir_of "$1")
	echo "$dir"
	[ "$(basename "$dir")" = "bpfbench-$1" ] && [ -d "$dir" ] && grep -qx "$1" "$dir/cgroup.procs"
}

if [ "$MEMCG_KIND" = none ]; then
	skip "no memory cgroup hierarchy: cgroup life cycle"
else
	# a cgroup left by a dead run (SIGKILL) in our parent: removed at the next start
	parent=$(cgroup_dir_of $$)
	sh -c 'exit 0' &
	dead=$!
	wait "$dead"
	stale="$parent/bpfbench-$dead"
	mkdir "$stale" 2>/dev/null
	[ -d "$stale" ]
	ok $? "a stale cgroup bpfbench-$dead (dead pid) is planted in $parent"

	bg_start -w0 -d2 -p2 htab-mem
	dir=$(in_own_cgroup "$PID")
	ok $? "mid-run: the process is in its own cgroup $(basename "$dir")"
	[ ! -e "$stale" ]
	ok $? "the stale bpfbench-$dead was removed at start"
	wait "$PID"
	rc=$?
	[ "$rc" -eq 0 ] && [ ! -e "$dir" ] && [ "$(basename "$(cgroup_dir_of $$)")" = "$(basename "$parent")" ]
	ok $? "normal exit (rc $rc): $(basename "$dir") is removed" || cat "$TMPD/bg.err"

	for sig in INT TERM; do
		want=$([ "$sig" = INT ] && echo 130 || echo 143)
		bg_start -w0 -d30 -p2 htab-mem --use-case add_del_on_diff_cpu
		dir=$(in_own_cgroup "$PID")
		ok $? "mid-run before SIG$sig: in its own cgroup $(basename "$dir")"
		kill -"$sig" "$PID"
		wait "$PID"
		rc=$?
		[ "$rc" -eq "$want" ] && [ ! -e "$dir" ]
		ok $? "SIG$sig mid-run: exit $rc (want $want), $(basename "$dir") is removed" ||
			cat "$TMPD/bg.err"
	done

	# two runs at once: each its own cgroup, both measured by it
	"$BPFBENCH" -w0 -d0.4 --period-ms 200 -q htab-mem --json "$TMPD/c1.json" >/dev/null 2>"$TMPD/c1.err" &
	p1=$!
	"$BPFBENCH" -w0 -d0.4 --period-ms 200 -q htab-mem --preallocated --json "$TMPD/c2.json" >/dev/null 2>"$TMPD/c2.err" &
	p2=$!
	wait "$p1"; r1=$?
	wait "$p2"; r2=$?
	[ "$r1" -eq 0 ] && [ "$r2" -eq 0 ] &&
		json_check "$TMPD/c1.json" 'd["runs"][0]["method"].startswith("cgroup")' &&
		json_check "$TMPD/c2.json" 'd["runs"][0]["method"].startswith("cgroup")' &&
		[ ! -e "$parent/bpfbench-$p1" ] && [ ! -e "$parent/bpfbench-$p2" ]
	ok $? "two concurrent runs: both exit 0, both measured by a cgroup, none left" ||
		cat "$TMPD/c1.err" "$TMPD/c2.err"
fi

run -w0 -d0.4 -q -p2 --period-ms 200 htab-mem --memory-method fdinfo --json "$TMPD/fd.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/fd.json" '
r = d["runs"][0]
r["method"].startswith("fdinfo") and all(x["memory"] > 0 for x in r["samples"])'
ok $? "--memory-method fdinfo: the map's memlock, above zero" || diag "$ERR"

# --latency: a run's ops (one walk of 64, batch_add_batch_del's two) timed
# inside the program, one run in 16 per CPU by default; latency is 1e6 /
# per-prod-op, ns per op of one producer, the histogram's mean beside it
source "$(dirname "$0")/hist.sh"
NCPU=$(nproc)
J="$TMPD/lat.json"
run -w0 -d1 -p2 --period-ms 250 htab-mem --latency --json "$J"
[ "$RC" -eq 0 ] && grep -qE '^Latency: p50 [0-9.]+ ns, .*mean [0-9.]+ ns vs [0-9.]+ ns from throughput.* [0-9]+ ops sampled; clock' <<<"$(latency_lines "$OUT")" &&
	hist_ok "$J" op sampled_ops "$NCPU * 2" latency && json_check "$J" '
r = d["runs"][0]; h = r["histograms"]["op"]; s = r["samples"]
ops = sum(x["ops"] for x in s)
ok = all(abs(x["latency"] * x["per-prod-op"] - 1e6) <= 1e-6 * 1e6 for x in s)
ok and h["half_batches"] == 0 and h["count"] == h["batches"] and 0 < h["count"] < ops and all(x["failed-ops"] == 0 for x in s)'
ok $? "overwrite --latency: Latency line, histogram = the ops timed (1 a run), latency = 1e6 / per-prod-op" ||
	diag "rc=$RC $(grep '^Latency' <<<"$OUT") $ERR" "$(hist_diag "$J")"
awk 'length > 120 { wide = 1 } END { exit wide }' <<<"$OUT"
ok $? "htab-mem --latency, default output (Iter, Latency, Summary): no line over 120 columns" ||
	diag "$(awk 'length > 120' <<<"$OUT")"

run -w0 -d1 -q -p2 --period-ms 250 htab-mem --use-case batch_add_batch_del --latency --latency-every 1 --json "$J"
[ "$RC" -eq 0 ] && hist_ok "$J" op sampled_ops "$NCPU * 2" latency && json_check "$J" '
r = d["runs"][0]; h = r["histograms"]["op"]; ops = sum(x["ops"] for x in r["samples"])
# every run timed: the histogram holds every op counted (and its tail) but for runs at the
# edges, up to 4 a producer (2 ops each): those each producer ends after the last sample is
# read, before it sees the stop (on 2 CPUs shared with the sampler, a few)
h["count"] == 2 * h["batches"] and h["half_batches"] == 0 and abs(h["count"] - h["tail_ops"] - ops) <= 2 * 4 * 2'
ok $? "batch_add_batch_del --latency-every 1: every run timed as its 2 ops, never halved" ||
	diag "rc=$RC $ERR" "$(hist_diag "$J")"

run -w0 -d1 -q -p2 --period-ms 250 htab-mem --use-case add_del_on_diff_cpu --latency --json "$J"
[ "$RC" -eq 0 ] && hist_ok "$J" op sampled_ops "$NCPU" latency
ok $? "add_del_on_diff_cpu --latency: adders' and deleters' runs timed alike" ||
	diag "rc=$RC $ERR" "$(hist_diag "$J")"

run -w0 -d1 -q -p2 --period-ms 250 htab-mem --json "$J"
[ "$RC" -eq 0 ] && ! grep -q '^Latency' <<<"$OUT" && latency_off "$J" &&
	json_check "$J" '"latency" not in d["runs"][0]["metrics"]'
ok $? "without --latency: no Latency line, histogram, sampled_ops or latency"

left=$(find "${MEMCG_MNT:-/nonexistent}" -maxdepth 8 -type d -name 'bpfbench-*' 2>/dev/null |
	while read -r d; do pid=${d##*-}; kill -0 "$pid" 2>/dev/null || echo "$d"; done)
[ -z "$left" ]
ok $? "no cgroup of a finished run remains anywhere" || diag "$left"

now=$(own_objects_settle "$before")
ok $? "htab_mem programs, maps, links as before: $now"
done_testing
