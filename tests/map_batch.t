#!/usr/bin/env bash
# map-batch end to end on small real maps: every op and batch size moves
# exactly max_entries elements (the benchmark checks keys and values and
# exits 1 otherwise; -v names each check, JSON counts them), each figure
# is what its definition says (time of the syscall loop of one full pass,
# the syscalls that loop made, rate and speed-up derived from the times),
# the summary is one aligned table, a batch buffer smaller than a hash
# bucket is grown and the call retried, an op the map type lacks is a
# SKIP line, and the kernel is left as it was.
source "$(dirname "$0")/lib.sh"
need_bpf
command -v bpftool >/dev/null && command -v jq >/dev/null || skip_all "needs bpftool and jq"

# Our own objects: tests/lib.sh's rule (new since this file started, named
# as bpfbench names them, not held only by others), so another map-batch run
# on the machine meanwhile does not count; a process's own by its fds.
BEFORE=$(kernel_objects)
ours_gone() {	# polls: maps are freed a little after the last fd closes
	now=$(kernel_objects_settle "$BEFORE")
	[ "$now" = "$BEFORE" ]
}
# held_ids PID map|prog NAME: the ids of PID's objects of that kind and name
held_ids() {
	local id
	for id in $(sed -n "s/^$2_id:[[:space:]]*//p" /proc/"$1"/fdinfo/* 2>/dev/null | sort -u); do
		[ "$(bpftool "$2" show id "$id" -j 2>/dev/null | jq -r .name)" = "$3" ] && echo "$id"
	done
}
[ "$BEFORE" = "0 0 0" ]
ok $? "before: none of our objects in the kernel ($BEFORE)"

N=1000
OPS="update lookup lookup_and_delete delete"

# A figure's identity in JSON: parameter-free name, op and batch size (or one-by-one) its key.
K="(lambda n, o, b: '%s{op=%s,batch=%s}' % (n, o, b))"

# py FILE EXPR: like json_check, with the run bound to r, its metrics to m and K to K.
py() {
	json_check "$1" "(lambda r, K: (lambda m, s: $2)(r['metrics'], r['samples']))(d['runs'][0], $K)"
}

# calls_ok FILE N "B1 B2 ...": every sample's syscall counts are what each loop must make.
calls_ok() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
n, batches = int(sys.argv[2]), [int(b) for b in sys.argv[3].split()]
one = {"update": n, "lookup": 2 * n + 1, "lookup_and_delete": 3 * n + 1, "delete": 2 * n + 1}
K = lambda o, b: "calls{op=%s,batch=%s}" % (o, b)
for x in r["samples"]:
    for op in one:
        if K(op, "one-by-one") not in x:
            continue
        assert x[K(op, "one-by-one")] == one[op], (op, x[K(op, "one-by-one")])
        for b in batches:
            c, least = x[K(op, b)], -(-n // b)
            if op in ("update", "delete"):
                assert c == least, (op, b, c)
            else:
                # an ENOSPC grows the window for the rest of the pass (doubled per retry)
                grown = min(n, b << int(x.get("enospc_retries", 0)))
                assert c >= -(-n // grown) and (b <= n or c == 1), (op, b, c)
PY
	local rc=$?
	[ "$rc" -eq 0 ] || diag "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]; print({k: v for k, v in r["samples"][-1].items() if k.startswith(("calls", "enospc"))})' "$1")"
	return "$rc"
}

# The summary table: from its header ("op  batch ...") to the first line that is not a table row.
summary_table() {
	awk '/^op +batch / { on = 1 } on && /^(op|update|lookup|lookup_and_delete|delete) / { print; next } on { exit }'
}
# cells FILE: each row's cells, a figure's "± sd" kept with it
cells() { sed 's/ ± /±/g' "$1"; }

# aligned FILE: every line as wide as the header (<= 120), each figure ending where its header ends.
aligned() {
	python3 - "$1" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
head, rows = lines[0], lines[1:]
assert rows and len(head) <= 120 and all(len(l) == len(head) for l in rows), [len(l) for l in lines]
heads = ("time [ms]", "rate [M ops/s]", "speedup [x one-by-one]", "calls [calls/pass]")
ends = [head.index(n) + len(n) for n in heads]
for l in rows:
    assert [m.end() for m in re.finditer(r"\S+(?: ± \S+)?", l)][2:] == ends, (l, ends)
PY
}

# One run per map type, all ops, three batch sizes incl. a partial last batch (7) and
# one larger than the map (a single call that ends with ENOENT).
for type in hash percpu_hash lru_hash; do
	J="$TMPD/$type.json"
	run -w0 -d1 -v map-batch --map-type "$type" --max_entries $N --batch 7,100,5000 --json "$J"
	ok "$RC" "$type: all ops, batch 7,100,5000 on $N elements (exit $RC)" || diag "$(grep -v ^libbpf <<<"$ERR" | tail -3)"
	missing=""
	for op in $OPS; do
		for how in "batch 7" "batch 100" "batch 5000" "one-by-one"; do
			grep -q "map-batch: $op $how: $N elements checked" <<<"$ERR" || missing+=" $op/$how"
		done
	done
	[ -z "$missing" ]
	ok $? "$type: -v shows the check of every op and batch size${missing:+ (missing:$missing)}"
	py "$J" "all(x['elements_checked'] == 16 * $N for x in s) and len(s) >= 1"
	ok $? "$type: JSON: every pass checked 4 ops x 4 ways x $N elements"
	py "$J" "all(x[K('time', o, b)] > 0 and abs(x[K('rate', o, b)] * x[K('time', o, b)] - $N / 1000) < 1e-6 and abs(x[K('speedup', o, b)] * x[K('time', o, b)] - x[K('time', o, 'one-by-one')]) < 1e-6 for x in s for o in '$OPS'.split() for b in (7, 100, 5000))"
	ok $? "$type: per sample, rate = N / time and speed-up = one-by-one time / batch time"
	py "$J" "all(sum(v for k, v in x.items() if k.startswith('time{')) <= x['elapsed_ns'] / 1e6 for x in s)"
	ok $? "$type: per sample, the timed loops (sum of every time) lie within the pass's elapsed time"
	calls_ok "$J" $N "7 100 5000"
	ok $? "$type: calls per pass: batched update/delete ceil(N/b), lookups >= ceil(N/window) (1 if b > N), one-by-one N, 2N+1, 3N+1"
	summary_table <<<"$OUT" >"$TMPD/table"
	F='[0-9]+(\.[0-9]+)?(±[0-9]+(\.[0-9]+)?)?'	# mean ± sd by the digits rule: 175±13, 2.1435
	[ "$(cells "$TMPD/table" | grep -cE "^(update|lookup|lookup_and_delete|delete) +(7|100|5000|one-by-one) +$F +$F +($F|-) +[0-9]+(±[0-9]+)?\$")" -eq 16 ]
	ok $? "$type: summary: one table row per op and batch size, then one-by-one (16 rows)" || diag "$(head -4 "$TMPD/table")"
	aligned "$TMPD/table"
	ok $? "$type: summary table: header and rows of one width, columns aligned, <= 120 characters" || diag "$(cat "$TMPD/table")"
done

# The lru_hash run's table against its JSON: each cell the metric's mean (and sd where
# there is a spread) to the column's decimals; rate the inverse of the mean time.
python3 - "$TMPD/lru_hash.json" "$TMPD/table" $N <<'PY'
import json, math, sys
m = json.load(open(sys.argv[1]))["runs"][0]["metrics"]
n = int(sys.argv[3])
rows = {tuple(l.split()[:2]): l.replace(" ± ", "±").split() for l in open(sys.argv[2])
        if not l.startswith("op ")}
K = lambda n, o, b: m["%s{op=%s,batch=%s}" % (n, o, b)]

def near(cell, mean, sd=None):
    """cell is mean (± sd) written to its decimals, or with a ± to the sd's second digit"""
    parts = cell.split("±")
    tol = 0.51 * 10 ** -len(parts[0].partition(".")[2])
    if len(parts) == 2 and float(parts[1]) > 0:
        tol = max(tol, 0.51 * 10 ** (math.floor(math.log10(float(parts[1]))) - 1))
    ok = abs(float(parts[0]) - mean) <= tol + 1e-12
    if sd is not None and len(parts) == 2:
        ok = ok and abs(float(parts[1]) - sd) <= tol + 1e-12
    return ok

for op in ("update", "lookup", "lookup_and_delete", "delete"):
    for way in ("7", "100", "5000", "one-by-one"):
        r = rows[(op, way)]
        ms = K("time", op, way)
        assert near(r[2], ms["mean"], ms["stddev"]) and ("±" in r[2]) == (ms["n"] > 1), (op, way, r)
        assert near(r[3], n / 1000 / ms["mean"]) and near(r[3], K("rate", op, way)["of_mean_inverse"]), (op, way, r)
        if way == "one-by-one":
            assert r[4] == "-", (op, way, r)
        else:
            assert near(r[4], K("speedup", op, way)["mean"], K("speedup", op, way)["stddev"]), (op, way, r)
        assert near(r[5], K("calls", op, way)["mean"]), (op, way, r)
PY
ok $? "human table and JSON agree on every row (lru_hash)"

json_check "$TMPD/hash.json" '
m = d["runs"][0]["metrics"]
want = {"time": ("time", "lower", "ms"), "rate": ("inverse", "higher", "M ops/s"), "speedup": ("ratio", "higher", "x one-by-one"), "calls": ("count", "none", "calls/pass")}
keyed = [v for v in m.values() if "key" in v]
len(keyed) == 4 * 4 * 4 - 4 and all((v["kind"], v["better"], v["unit"]) == want[v["name"]] for v in keyed) and m["rate{op=lookup,batch=7}"]["of"] == "time{op=lookup,batch=7}" and m["rate{op=lookup,batch=7}"]["key"] == {"op": "lookup", "batch": 7} and m["time{op=delete,batch=one-by-one}"]["key"] == {"op": "delete", "batch": "one-by-one"} and all(k == "%s{op=%s,batch=%s}" % (v["name"], v["key"]["op"], v["key"]["batch"]) for k, v in m.items() if "key" in v) and (m["enospc_retries"]["kind"], m["enospc_retries"]["better"]) == ("count", "lower") and (m["elements_checked"]["kind"], m["elements_checked"]["better"]) == ("count", "none")'
ok $? "JSON: time, rate, speedup, calls keyed by op and batch (one-by-one), of kinds time, inverse, ratio, count; retries and elements checked counts (retries: lower is better)"

# The syscalls as the kernel saw them, counted by strace: the lookups' batch calls are the calls
# metrics' sum plus setup's one probe of each; the one-by-one walks' get_next_key, lookup and
# delete calls are theirs exactly; update_elem's add only libbpf's initialisation of our
# .rodata and .bss.
if command -v strace >/dev/null; then
	J="$TMPD/strace.json"
	# LeakSanitizer cannot work under ptrace: off for this run of a sanitizer build
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=bpf -o "$TMPD/strace" "$BPFBENCH" -w0 -d1 -q \
		map-batch --max_entries 3000 --batch 100,5000 --json "$J" >/dev/null 2>&1
	ok $? "hash, 3000 elements, under strace: runs"
	python3 - "$J" "$TMPD/strace" <<'PY'
import collections, json, re, sys
s = json.load(open(sys.argv[1]))["runs"][0]["samples"]
seen = collections.Counter(m.group(1) for m in map(re.compile(r"^\d+ +bpf\((\w+)").match, open(sys.argv[2])) if m)
tot = lambda *keys: sum(x[k] for x in s for k in keys)
batches = [k for k in s[0] if k.startswith("calls{") and "one-by-one" not in k]
assert seen["BPF_MAP_LOOKUP_BATCH"] == tot(*[k for k in batches if "op=lookup," in k]) + 1, seen
assert seen["BPF_MAP_LOOKUP_AND_DELETE_BATCH"] == tot(*[k for k in batches if "op=lookup_and_delete," in k]) + 1, seen
one = lambda o: "calls{op=%s,batch=one-by-one}" % o
walk = tot(one("lookup"), one("lookup_and_delete"), one("delete"))
assert seen["BPF_MAP_GET_NEXT_KEY"] + seen["BPF_MAP_LOOKUP_ELEM"] + seen["BPF_MAP_DELETE_ELEM"] == walk, (seen, walk)
assert 0 <= seen["BPF_MAP_UPDATE_ELEM"] - tot(one("update")) <= 4, seen
PY
	ok $? "the kernel got exactly the syscalls the calls metrics count (strace)"
else
	skip "strace not installed: syscall counts not cross-checked"
fi

# Other key and value sizes, per-CPU values, no preallocation.
J="$TMPD/sizes.json"
run -w0 -d1 -q map-batch --map-type percpu_hash --no-prealloc --key-size 12 --value-size 20 --max_entries 500 --batch 1,64 --json "$J"
[ "$RC" -eq 0 ] && py "$J" "all(x['elements_checked'] == 12 * 500 for x in s) and d['runs'][0]['options']['key_size'] == 12"
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
grep -q "^Note: ENOSPC: a bucket outgrew the batch buffer" <<<"$OUT"
ok $? "the summary says the buffer was grown"

# Arrays: update and lookup exist, deletes do not.
J="$TMPD/array.json"
run -w0 -d1 map-batch --map-type array --max_entries $N --batch 10,2000 --json "$J"
ok "$RC" "array with the default ops: exit 0 (exit $RC)" || diag "$ERR"
grep -qx "Note: delete skipped: array maps have none (the kernel answers ENOTSUPP batched, EINVAL one-by-one)" <<<"$OUT" &&
	grep -qx "Note: lookup_and_delete skipped: array maps have none (the kernel answers ENOTSUPP batched, EINVAL one-by-one)" <<<"$OUT"
ok $? "array: one note each for delete and lookup_and_delete skipped" || diag "$(grep skipped <<<"$OUT")"
py "$J" "all(x['elements_checked'] == 6 * $N for x in s) and not any(v.get('key', {}).get('op') in ('delete', 'lookup_and_delete') for v in m.values()) and K('time', 'lookup', 2000) in m"
ok $? "array: update and lookup measured and checked, no delete metrics"
summary_table <<<"$OUT" >"$TMPD/table"
grep -qE '^lookup +10 +[0-9.]+ ' "$TMPD/table" && ! grep -qE '^(lookup_and_)?delete ' "$TMPD/table" && aligned "$TMPD/table"
ok $? "array: the summary table has lookup rows, no delete rows" || diag "$OUT"
calls_ok "$J" $N "" && py "$J" "all(x[K('calls', 'lookup', 'one-by-one')] == 2 * $N + 1 and x[K('calls', 'update', 10)] == $N / 10 for x in s)"
ok $? "array: calls per pass: one-by-one lookup 2N+1, batched update N / 10"

run -w0 -d1 -q map-batch --map-type percpu_array --max_entries 300 --batch 16 --op lookup,update --json "$TMPD/pa.json"
[ "$RC" -eq 0 ] && py "$TMPD/pa.json" "all(x['elements_checked'] == 4 * 300 for x in s)"
ok $? "percpu_array: lookup and update checked per CPU" || diag "$ERR"

run -w0 -d1 map-batch --map-type array --max_entries 100 --op delete
[ "$RC" -eq 4 ] && grep -q "^Note: delete skipped: array maps have none" <<<"$OUT" && grep -q "no requested op exists for array maps" <<<"$ERR"
ok $? "array with only delete: a note, exit 4 (skip), not a failure (exit $RC)"

# A short count is a failure, not a figure: delete one element behind the
# benchmark's back (bpftool, from outside) while it keeps looking the map up.
"$BPFBENCH" -w0 -d20 -q map-batch --max_entries $N --batch 10 --op lookup >"$TMPD/short.out" 2>"$TMPD/short.err" &
pid=$!
deleted=no
for i in $(seq 1 100); do
	id=$(held_ids "$pid" map batch_map | head -1)	# its map, not another run's
	if [ -n "$id" ] && bpftool map delete id "$id" key 1 0 0 0 2>/dev/null; then
		deleted=yes
		break
	fi
	sleep 0.05
done
wait "$pid"
rc=$?
[ "$deleted" = yes ] && [ "$rc" -eq 1 ] && grep -q "lookup, .*: saw 999 elements, expected exactly $N" "$TMPD/short.err" &&
	! grep -qE '^(Summary|lookup) ' "$TMPD/short.out"
ok $? "an element deleted from outside: exit 1 naming the short count, no figures (deleted $deleted, exit $rc)" ||
	diag "$(cat "$TMPD/short.err")"

# The seed's suite, shrunk: one row per seed function, each with its own metrics.
J="$TMPD/suite.json"
run suite map-batch -w0 -d1 --max_entries $N --json "$J"
[ "$RC" -eq 0 ] && [ "$(grep -cE '^measure_(lookup|lookup_delete|delete|update) +--max_entries 1000 --op ' <<<"$OUT")" -eq 4 ] &&
	[ "$(grep -cE '^  op +batch +time \[ms\]' <<<"$OUT")" -eq 4 ]
ok $? "suite map-batch: one labelled row per test_maps function (exit $RC)" || diag "$OUT" "$ERR"
rows=$(grep -E '^  [a-z_]+ +[0-9a-z-]+ +[0-9]' <<<"$OUT" | awk '{ print $1 "/" $2 }' | tr '\n' ' ')
[ "$rows" = "lookup/10 lookup/1000 lookup/1000000 lookup/one-by-one lookup_and_delete/10 lookup_and_delete/1000 lookup_and_delete/1000000 lookup_and_delete/one-by-one delete/10 delete/1000 delete/1000000 delete/one-by-one update/10 update/1000 update/1000000 update/one-by-one " ]
ok $? "suite map-batch: under each, a table row per batch size and one-by-one" || diag "$rows"
awk 'length > 120 { bad = 1 } END { exit bad }' <<<"$OUT" && ! grep -qE 'no batching|not batch|one by one' <<<"$OUT"
ok $? "suite map-batch: every line <= 120 characters, the baseline always called one-by-one"
json_check "$J" '
r = d["runs"]
[x["label"] for x in r] == ["measure_lookup", "measure_lookup_delete", "measure_delete", "measure_update"] and all(x["metrics"]["elements_checked"]["mean"] == 4 * 1000 for x in r) and "time{op=lookup_and_delete,batch=1000000}" in r[1]["metrics"] and "time{op=delete,batch=one-by-one}" in r[2]["metrics"] and not any(v.get("key", {}).get("op") == "update" for v in r[0]["metrics"].values())'
ok $? "suite JSON: each row keeps its own op's metrics, all elements checked"

# The figures as rows keyed by op and batch size: CSV columns, compare's pairs, plot's x.
args=(-w0 -d1 -q map-batch --max_entries $N --batch 7,100 --op lookup,update)
run "${args[@]}" --json "$TMPD/ka.json" --csv "$TMPD/ka.csv"
ra=$RC
run "${args[@]}" --json "$TMPD/kb.json"
[ "$ra" -eq 0 ] && [ "$RC" -eq 0 ]
ok $? "two runs of lookup,update at batch 7,100 (exit $ra, $RC)"
python3 - "$TMPD/ka.csv" <<'PY'
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 1, rows
cols = [c for c in rows[0] if c.endswith("]") and " stddev " not in c]
got = sorted(re.match(r"^(\w+)\{op=(\w+),batch=([\w-]+)\} \[", c).groups() for c in cols if "{" in c)
want = sorted((m, o, b) for o in ("lookup", "update") for b in ("7", "100", "one-by-one")
              for m in ("time", "rate", "calls", "speedup") if m != "speedup" or b != "one-by-one")
assert got == want, got
assert {c.split(" [")[0] for c in cols if "{" not in c} == {"enospc_retries", "elements_checked"}
assert all(c.endswith("[M ops/s]") for c in cols if c.startswith("rate{"))
assert all(rows[0][c] for c in cols)
PY
ok $? "CSV: a column per figure, named by its identity name{op,batch} and unit, names without sizes"
run compare -v "$TMPD/ka.json" "$TMPD/kb.json"
python3 - "$OUT" <<'PY'
import re, sys
ids = re.findall(r"^map-batch(?: \[[^]]*\])?  +(\S+)  ", sys.argv[1], re.M)
want = ["%s{op=%s,batch=%s}" % (m, o, b) for o in ("lookup", "update") for b in ("7", "100", "one-by-one")
        for m in ("time", "rate", "speedup", "calls") if m != "speedup" or b != "one-by-one"]
assert sorted(ids) == sorted(want + ["enospc_retries", "elements_checked"]), ids
assert "only in" not in sys.argv[1].replace("0 only in", "")
PY
ok $? "compare of two map-batch files: one row per metric, op and batch size, named name{key} (exit $RC)" || diag "$OUT"
if command -v gnuplot >/dev/null; then
	run plot "$TMPD/ka.json" -o "$TMPD/k.svg" --script "$TMPD/k.gp" --x batch --metric rate
	[ "$RC" -eq 0 ] && [ "$(sed -n '/^plot /,$p' "$TMPD/k.gp" | grep -o "title '[^']*'" | tr '\n' ' ')" = "title 'map-batch op=lookup' title 'map-batch op=update' " ] &&
		[ "$(sed -n '/^\$c0 << EOD/,/^EOD/{/EOD/!p}' "$TMPD/k.gp" | cut -d' ' -f1 | tr '\n' ' ')" = "7 100 " ] &&
		[ "$(sed -n '/^\$c1 << EOD/,/^EOD/{/EOD/!p}' "$TMPD/k.gp" | cut -d' ' -f1 | tr '\n' ' ')" = "7 100 " ]
	ok $? "plot --x batch --metric rate: a curve per op, one point per batch size" || diag "$OUT" "$ERR"
else
	skip "plot: needs gnuplot"
fi

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
ok $? "after all runs (incl. failed and skipped setups): $now (before: $BEFORE)"

# SIGINT in the middle of a long pass: prompt stop, nothing left behind.
# Prompt is measured here, now: after the signal the benchmark finishes at
# most one unit of its loop (4096 one-by-one calls, or one batch call, the
# largest a whole-map one) and tears down.  A whole short run of the same
# map times both: its wall time less its syscall loops is the setup, checks
# and teardown; its loops give one call's time.  Measured before and after
# the signal (the larger), and doubled, for the load can change in between.
SIG_ARGS=(map-batch --max_entries 200000 --op lookup)
stop_bound_ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$BPFBENCH" -w0 -d0.01 -q "${SIG_ARGS[@]}" --json "$TMPD/ref.json" >/dev/null 2>&1 || return 1
	t1=$(date +%s%N)
	python3 - "$TMPD/ref.json" $(((t1 - t0) / 1000000)) <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["runs"][0]["samples"][0]
wall = float(sys.argv[2])
loops = {k[len("time"):]: v for k, v in s.items() if k.startswith("time{")}
unit = max(max(loops[k] / s["calls" + k] * (4096 if "one-by-one" in k else 1), loops[k] / s["calls" + k])
           for k in loops)
print(int(2 * (wall - sum(loops.values()) + unit)) + 1)
PY
}
bound_before=$(stop_bound_ms)
bg_start -w0 -d30 "${SIG_ARGS[@]}"
started=$?
during="$(held_ids "$PID" map batch_map | wc -l) maps $(held_ids "$PID" prog take_census | wc -l) programs"
kill -INT "$PID"
t0=$(date +%s%N)
wait "$PID"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
bound_after=$(stop_bound_ms)
bound=$((bound_before > bound_after ? bound_before : bound_after))
[ "$started" -eq 0 ] && [ "$rc" -eq 130 ] && [ -n "$bound_before" ] && [ -n "$bound_after" ] &&
	[ "$ms" -le "$bound" ] && [ "$during" = "1 maps 1 programs" ]
ok $? "SIGINT mid-pass stops promptly with 130 (exit $rc in $ms ms, bound ${bound_before:-?}/${bound_after:-?} ms; during the run: $during)" ||
	diag "$(cat "$TMPD/bg.err")"
ours_gone
ok $? "after SIGINT: $now"
done_testing
