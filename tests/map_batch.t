#!/usr/bin/env bash
# map-batch end to end on small real maps: every op and batch size moves
# exactly max_entries elements (the benchmark checks keys and values and
# exits 1 otherwise; -v names each check, JSON counts them), a batch
# buffer smaller than a hash bucket is grown and the call retried, an op
# the map type lacks is a SKIP line, and the kernel is left as it was.
source "$(dirname "$0")/lib.sh"
need_bpf
command -v bpftool >/dev/null && command -v jq >/dev/null || skip_all "needs bpftool and jq"

# Our own objects, by name: the map under test and the census program.  (The
# system-wide counts of tests/state.t move when other tools load BPF meanwhile.)
ours() {
	local m p
	m=$(bpftool map show -j 2>/dev/null | jq '[.[] | select(.name == "batch_map")] | length')
	p=$(bpftool prog show -j 2>/dev/null | jq '[.[] | select(.name == "take_census")] | length')
	echo "${m:-?} maps ${p:-?} programs"
}
ours_gone() {	# polls: maps are freed a little after the last fd closes
	local i
	for i in $(seq 1 50); do
		now=$(ours)
		[ "$now" = "0 maps 0 programs" ] && return 0
		sleep 0.1
	done
	return 1
}
ours_gone
ok $? "before: no map-batch objects in the kernel ($now)"

N=1000
OPS="update lookup lookup_and_delete delete"

# py FILE EXPR: like json_check, with the run bound to r and its metrics to m.
py() {
	json_check "$1" "(lambda r: (lambda m, s: $2)(r['metrics'], r['samples']))(d['runs'][0])"
}

# One run per map type, all ops, three batch sizes incl. a partial last batch (7) and
# one larger than the map (a single call that ends with ENOENT).
for type in hash percpu_hash lru_hash; do
	J="$TMPD/$type.json"
	run -w0 -d1 -v map-batch --map-type "$type" --max_entries $N --batch 7,100,5000 --json "$J"
	ok "$RC" "$type: all ops, batch 7,100,5000 on $N elements (exit $RC)" || diag "$(grep -v ^libbpf <<<"$ERR" | tail -3)"
	missing=""
	for op in $OPS; do
		for how in "batch 7" "batch 100" "batch 5000" "one by one"; do
			grep -q "map-batch: $op $how: $N elements checked" <<<"$ERR" || missing+=" $op/$how"
		done
	done
	[ -z "$missing" ]
	ok $? "$type: -v shows the check of every op and batch size${missing:+ (missing:$missing)}"
	py "$J" "all(x['elements_checked'] == 16 * $N for x in s) and len(s) >= 1"
	ok $? "$type: JSON: every pass checked 4 ops x 4 ways x $N elements"
	py "$J" "all(x[o + '_batch_%d_ms' % b] > 0 and abs(x[o + '_batch_%d_rate' % b] * x[o + '_batch_%d_ms' % b] - $N / 1000) < 1e-6 and abs(x[o + '_batch_%d_speedup' % b] * x[o + '_batch_%d_ms' % b] - x[o + '_one_by_one_ms']) < 1e-6 for x in s for o in '$OPS'.split() for b in (7, 100, 5000))"
	ok $? "$type: per sample, rate = N / time and speed-up = one-by-one time / batch time"
	[ "$(grep -cE "^measure_(update|lookup|lookup_delete|delete): max_entries $N, (batch [0-9]+|no batching|not batch), time [0-9.]+ \(± [0-9.]+ ms, [0-9.]+ M elem/s(, [0-9.]+x one-by-one)?, n [0-9]+\)$" <<<"$OUT")" -eq 16 ]
	ok $? "$type: 16 summary lines in the seed's shape" || diag "$(grep ^measure <<<"$OUT" | head -3)"
done

mean=$(python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["runs"][0]["metrics"]["lookup_batch_100_ms"]["stddev"])' "$TMPD/lru_hash.json")
grep -q "^measure_lookup: max_entries $N, batch 100, time [0-9.]* (± $mean ms" <<<"$OUT"
ok $? "human summary and JSON agree (lookup batch 100 ± $mean ms)"

# Other key and value sizes, per-CPU values, no preallocation.
J="$TMPD/sizes.json"
run -w0 -d1 -q map-batch --map-type percpu_hash --no-prealloc --key-size 12 --value-size 20 --max_entries 500 --batch 1,64 --json "$J"
[ "$RC" -eq 0 ] && py "$J" "all(x['elements_checked'] == 12 * 500 for x in s) and d['runs'][0]['options']['key-size'] == 12"
ok $? "percpu_hash, no prealloc, 12-byte keys, 20-byte values: all checked" || diag "$ERR"

# ENOSPC: with a 1-element buffer, any hash bucket holding two of the 1000
# keys (certain with 1024 buckets) makes the kernel refuse; the buffer grows.
J="$TMPD/enospc.json"
run -w0 -d1 -v map-batch --max_entries $N --batch 1 --op lookup,lookup_and_delete --json "$J"
ok "$RC" "hash, batch 1: runs (exit $RC)" || diag "$(grep -v ^libbpf <<<"$ERR" | tail -3)"
grep -q "lookup batch 1: a bucket holds more than 1 elements (ENOSPC), batch buffer grown to 2, retrying" <<<"$ERR" &&
	grep -q "lookup_and_delete batch 1: a bucket holds more than 1 elements (ENOSPC)" <<<"$ERR"
ok $? "-v shows ENOSPC and the grown buffer, for lookup and lookup_and_delete"
py "$J" "all(x['enospc_retries'] >= 2 and x['elements_checked'] == 4 * $N for x in s)"
ok $? "JSON: every pass retried after ENOSPC and still checked every element"
grep -q "^ENOSPC: a bucket outgrew the batch buffer" <<<"$OUT"
ok $? "the summary says the buffer was grown"

# Arrays: update and lookup exist, deletes do not.
J="$TMPD/array.json"
run -w0 -d1 map-batch --map-type array --max_entries $N --batch 10,2000 --json "$J"
ok "$RC" "array with the default ops: exit 0 (exit $RC)" || diag "$ERR"
grep -qx "SKIP delete: array maps have no delete (the kernel answers ENOTSUPP batched, EINVAL one by one)" <<<"$OUT" &&
	grep -qx "SKIP lookup_and_delete: array maps have no lookup_and_delete (the kernel answers ENOTSUPP batched, EINVAL one by one)" <<<"$OUT"
ok $? "array: one SKIP line each for delete and lookup_and_delete" || diag "$(grep SKIP <<<"$OUT")"
py "$J" "all(x['elements_checked'] == 6 * $N for x in s) and not any(k.startswith('delete') or k.startswith('lookup_and') for k in m) and 'lookup_batch_2000_ms' in m"
ok $? "array: update and lookup measured and checked, no delete metrics"
grep -q '^measure_lookup: max_entries 1000, batch 10, time' <<<"$OUT" && ! grep -q '^measure_delete' <<<"$OUT"
ok $? "array: summary has lookup lines, no delete lines"

run -w0 -d1 -q map-batch --map-type percpu_array --max_entries 300 --batch 16 --op lookup,update --json "$TMPD/pa.json"
[ "$RC" -eq 0 ] && py "$TMPD/pa.json" "all(x['elements_checked'] == 4 * 300 for x in s)"
ok $? "percpu_array: lookup and update checked per CPU" || diag "$ERR"

run -w0 -d1 -q map-batch --map-type array --max_entries 100 --op delete
[ "$RC" -eq 4 ] && grep -q "^SKIP delete: array maps have no delete" <<<"$OUT" && grep -q "no requested op exists for array maps" <<<"$ERR"
ok $? "array with only delete: SKIP line, exit 4 (skip), not a failure (exit $RC)"

# A short count is a failure, not a figure: delete one element behind the
# benchmark's back (bpftool, from outside) while it keeps looking the map up.
"$BPFBENCH" -w0 -d20 -q map-batch --max_entries $N --batch 10 --op lookup >"$TMPD/short.out" 2>"$TMPD/short.err" &
pid=$!
deleted=no
for i in $(seq 1 100); do
	id=$(bpftool map show -j 2>/dev/null | jq '.[] | select(.name == "batch_map") | .id' | head -1)
	if [ -n "$id" ] && bpftool map delete id "$id" key 1 0 0 0 2>/dev/null; then
		deleted=yes
		break
	fi
	sleep 0.05
done
wait "$pid"
rc=$?
[ "$deleted" = yes ] && [ "$rc" -eq 1 ] && grep -q "lookup, .*: saw 999 elements, expected exactly $N" "$TMPD/short.err" &&
	! grep -q '^measure_lookup' "$TMPD/short.out"
ok $? "an element deleted from outside: exit 1 naming the short count, no figures (deleted $deleted, exit $rc)" ||
	diag "$(cat "$TMPD/short.err")"

# The seed's suite, shrunk: one row per seed function, each with its own metrics.
J="$TMPD/suite.json"
run suite map-batch -w0 -d1 --max_entries $N --json "$J"
[ "$RC" -eq 0 ] && [ "$(grep -cE '^measure_(lookup|lookup_delete|delete|update) +max_entries 1000; batch 10, time [0-9.]+ \(± .*; no batching|not batch' <<<"$OUT")" -eq 4 ]
ok $? "suite map-batch: four rows in the seed's words (exit $RC)" || diag "$OUT" "$ERR"
json_check "$J" '
r = d["runs"]
[x["label"] for x in r] == ["measure_lookup", "measure_lookup_delete", "measure_delete", "measure_update"] and all(x["metrics"]["elements_checked"]["mean"] == 4 * 1000 for x in r) and "lookup_and_delete_batch_1000000_ms" in r[1]["metrics"] and "delete_one_by_one_ms" in r[2]["metrics"] and not any(k.startswith("update") for k in r[0]["metrics"])'
ok $? "suite JSON: each row keeps its own op's metrics, all elements checked"

# Bad input: exit 2 and a line naming the problem.
bad() {	# bad WORD ARGS...
	local word=$1
	shift
	run -w0 -d1 map-batch "$@"
	[ "$RC" -eq 2 ] && grep -qF -- "$word" <<<"$ERR"
	ok $? "rejects $* (exit $RC)" || diag "$ERR"
}
bad "--map-type" --map-type stack
bad "'insert' is not one of" --op lookup,insert
bad "'lookup' is given twice" --op lookup,lookup
bad "has an empty element" --batch 10,,20
bad "batch" --batch 0
bad "--batch: 10 is given twice" --batch 10,10
bad "at most 8" --batch 1,2,3,4,5,6,7,8,9
bad "max_entries" --max_entries 0
bad "value-size" --value-size 2
bad "key-size" --key-size 1000
bad "--key-size: array maps have 4-byte keys" --map-type array --key-size 8
bad "--no-prealloc: lru_hash maps are always preallocated" --map-type lru_hash --no-prealloc

ours_gone
ok $? "after all runs (incl. failed and skipped setups): $now"

# SIGINT in the middle of a long pass: prompt stop, nothing left behind.
"$BPFBENCH" -w0 -d30 -q map-batch --max_entries 200000 --op lookup >/dev/null 2>&1 &
pid=$!
sleep 2
during=$(ours)
kill -INT "$pid"
t0=$(date +%s)
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] && [ $(($(date +%s) - t0)) -lt 5 ] && [ "$during" = "1 maps 1 programs" ]
ok $? "SIGINT mid-pass stops promptly with 130 (exit $rc; during the run: $during)"
ours_gone
ok $? "after SIGINT: $now"
done_testing
