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
own_objects() {
	local p m l ids
	p=$(bpftool prog show -j 2>/dev/null | jq '[.[] | select(.name // "" | startswith("htab_mem"))] | length')
	ids=$(bpftool prog show -j 2>/dev/null | jq -c '[.[] | select(.name // "" | startswith("htab_mem")) | .id]')
	m=$(bpftool map show -j 2>/dev/null | jq '[.[] | select(.name // "" | startswith("htab_mem"))] | length')
	l=$(bpftool link show -j 2>/dev/null | jq --argjson ids "${ids:-[]}" '[.[] | select(.prog_id as $p | $ids | index($p))] | length')
	echo "${p:-?} ${m:-?} ${l:-?}"
}
own_objects_settle() {	# own_objects_settle EXPECTED
	objects_settle "$1" own_objects
}

before=$(own_objects)
diag "htab_mem programs maps links before: $before" "memory cgroup: $MEMCG_KIND $MEMCG_MNT"

# --- each use case, both allocation modes: ops counted, none failed ---
for uc in overwrite batch_add_batch_del add_del_on_diff_cpu; do
	for pre in "" --preallocated; do
		J="$TMPD/$uc$pre.json"
		run -w0 -d1 -p2 --period-ms 500 htab-mem --use-case "$uc" $pre --json "$J"
		[ "$uc$pre" = overwrite ] && HUMAN=$OUT
		[ "$RC" -eq 0 ] && json_check "$J" '
s = d["runs"][0]["samples"]
len(s) == 2 and all(x["per-prod-op"] > 0 and x["failed-ops"] == 0 and x["memory"] > 0 for x in s)'
		ok $? "$uc${pre:+ $pre}: ops counted every period, no map operation failed, memory > 0" ||
			diag "rc $RC" "$ERR" "$OUT"
	done
done

J="$TMPD/overwrite.json"
json_check "$J" '
r = d["runs"][0]
r["options"]["use-case"] == "overwrite" and r["options"]["preallocated"] is False and r["trigger"] in ("raw-tp", "test-run") and r["options"]["value-size"] == 8'
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
grep -Eq '^Summary: per-prod-op [0-9]+\.[0-9]{2} ± [0-9]+\.[0-9]{2}k/s, memory usage [0-9]+\.[0-9]{2} ± [0-9]+\.[0-9]{2}MiB, peak memory usage [0-9]+\.[0-9]{2}MiB$' <<<"$line"
ok $? "Summary line in the seed's shape" || diag "$line"
mem=$(python3 -c 'import sys; print("%.2f" % float(sys.argv[1]))' "$(json_mean "$J" memory)")
grep -q "memory usage $mem ±" <<<"$line" && grep -q '^Memory: cgroup-v1\|^Memory: cgroup-v2\|^Memory: fdinfo' <<<"$HUMAN"
ok $? "human memory usage and JSON agree ($mem MiB), the method is printed" || diag "$HUMAN"

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
# bg_start ARGS...: a run in the background; PID, once its producers started
bg_start() {
	local i
	# the previous run's "started" line must not be taken for this one's
	rm -f "$TMPD/bg.out" "$TMPD/bg.err"
	"$BPFBENCH" "$@" >"$TMPD/bg.out" 2>"$TMPD/bg.err" &
	PID=$!
	for i in $(seq 1 200); do
		grep -q "^Benchmark 'htab-mem' started" "$TMPD/bg.err" 2>/dev/null && return 0
		kill -0 "$PID" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

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
	"$BPFBENCH" -w0 -d1 -q htab-mem --json "$TMPD/c1.json" >/dev/null 2>"$TMPD/c1.err" &
	p1=$!
	"$BPFBENCH" -w0 -d1 -q htab-mem --preallocated --json "$TMPD/c2.json" >/dev/null 2>"$TMPD/c2.err" &
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

run -w0 -d1 -q -p2 htab-mem --memory-method fdinfo --json "$TMPD/fd.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/fd.json" '
r = d["runs"][0]
r["method"].startswith("fdinfo") and all(x["memory"] > 0 for x in r["samples"])'
ok $? "--memory-method fdinfo: the map's memlock, above zero" || diag "$ERR"

left=$(find "${MEMCG_MNT:-/nonexistent}" -maxdepth 8 -type d -name 'bpfbench-*' 2>/dev/null |
	while read -r d; do pid=${d##*-}; kill -0 "$pid" 2>/dev/null || echo "$d"; done)
[ -z "$left" ]
ok $? "no cgroup of a finished run remains anywhere" || diag "$left"

now=$(own_objects_settle "$before")
ok $? "htab_mem programs, maps, links as before: $now"
done_testing
