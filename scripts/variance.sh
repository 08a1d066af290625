#!/usr/bin/env bash
# Where a seed row's run-to-run spread comes from (doc/variance.md): each
# row -r RUNS -w0 -d1 (five 200 ms samples a run) under each placement
# condition, the conditions interleaved round by round so that every one
# of them sees the same phases of the host; then scripts/variance.py
# splits the spread.  Run it on an idle machine (uptime); a CPU hog beside
# it: HOG=1 (one busy loop on the last CPU for the whole experiment).
# usage: [ROWS=regex] [CONDS=regex] [ROUNDS=2] [RUNS=5] [HOG=0] scripts/variance.sh BPFBENCH OUTDIR
set -euo pipefail
B=$(readlink -f "${1:?bpfbench binary}")
OUT=${2:?output dir}
ROUNDS=${ROUNDS:-2}
RUNS=${RUNS:-5}
mkdir -p "$OUT"
# name|threads|args: 1 = one producer (t: and a raw-tp trigger); pc = a producer and a
# consumer; pp = two producers
rows=(
"bpf-loop-1000|t|bpf-loop --nr_loops 1000"
"bloom-lookup|1|bloom-lookup --nr_entries 100000 --nr_hash_funcs 3 --value_size 8"
"hashmap-without-bloom-100k|1|hashmap-without-bloom --nr_entries 100000 --nr_hash_funcs 5 --value_size 8"
"htab-mem-overwrite|1|htab-mem --use-case overwrite -p1"
"htab-mem-overwrite-prealloc|1|htab-mem --use-case overwrite --preallocated -p1"
"htab-mem-diff-cpu|pp|htab-mem --use-case add_del_on_diff_cpu -p2"
"rb-libbpf-c1|pc|rb-libbpf -c1"
"rb-custom-c1-b2b|pc|rb-custom -c1 --rb-b2b"
"pb-custom-c1|pc|pb-custom -c1"
"lpm-trie-lookup|1|lpm-trie-lookup --prefix_len=32 --nr_entries=10000"
"lpm-trie-update|1|lpm-trie-update --prefix_len=32 --nr_entries=10000"
)
# condition|options: as today; every thread on one CPU, or each on its own, both ways; --normalize
conds_1=("plain|" "cpu0|--prod-affinity 0" "cpu1|--prod-affinity 1" "norm|--normalize")
# the trigger: the rows whose program a raw tracepoint can run as well as test-run
conds_t=("${conds_1[@]}" "rawtp|--trigger raw-tp")
conds_pc=("plain|" "cpu0|--prod-affinity 0 --cons-affinity 0" "split01|--prod-affinity 0 --cons-affinity 1"
	  "split10|--prod-affinity 1 --cons-affinity 0" "norm|--normalize")
conds_pp=("plain|" "cpu0|--prod-affinity 0" "split01|--prod-affinity 0,1" "split10|--prod-affinity 1,0"
	  "norm|--normalize")
hog=
if [ "${HOG:-0}" = 1 ]; then
	taskset -c "$(( $(nproc) - 1 ))" sh -c 'while :; do :; done' & hog=$!
	trap 'kill $hog 2>/dev/null' EXIT
fi
for round in $(seq "$ROUNDS"); do
	for row in "${rows[@]}"; do
		IFS='|' read -r name threads args <<<"$row"
		[[ "$name" =~ ${ROWS:-.} ]] || continue
		declare -n conds=conds_$threads
		for c in "${conds[@]}"; do
			IFS='|' read -r cname copts <<<"$c"
			[[ "$cname" =~ ${CONDS:-.} ]] || continue
			echo "round $round: $name $cname (load $(cut -d' ' -f1 /proc/loadavg))" >&2
			# shellcheck disable=SC2086
			"$B" -q -w0 -d1 --period-ms 200 -r "$RUNS" $args $copts \
				--json "$OUT/$name.$cname.$round.json" >/dev/null 2>"$OUT/$name.$cname.$round.err" ||
				echo "  failed: $(tail -n1 "$OUT/$name.$cname.$round.err")" >&2
		done
		unset -n conds
	done
done
python3 "$(dirname "$0")/variance.py" "$OUT"
