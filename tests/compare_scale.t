#!/usr/bin/env bash
# compare on inputs shaped to find superlinear work and memory: runs with
# tens of thousands of options (the matching compared every option with
# every other: 12.5k/25k/50k options took 2.8/11.4/43.8 s), and many
# small runs (memory ~5.7 times the file).  Bounds are ratios of a 1x
# and a 4x input, in CPU time, and wide: a loaded machine passes, a
# quadratic cost does not.  Nothing here loads BPF.
source "$(dirname "$0")/lib.sh"

asan=0
ldd "$BPFBENCH" 2>/dev/null | grep -q libasan && asan=1

# opts FILE N [MOD]: one run with N options o0..oN-1 (MOD: every third changed, and two spellings)
opts() {
	python3 - "$@" <<'PY'
import json, sys
path, n, mod = sys.argv[1], int(sys.argv[2]), len(sys.argv) > 3
o = {"warmup": 0, "duration": 1}
o.update(("o%d" % i, -1 if mod and i % 3 == 0 else i) for i in range(n))
if mod:
    o["o_x-y"], o["o-x_y"] = 3, 4
run = {"bench": "bpf-loop", "label": "row", "status": 0, "options": o,
       "metrics": {"throughput": {"unit": "M ops/s", "kind": "rate", "n": 2, "mean": 1.0}},
       "samples": [{"throughput": 1.0}, {"throughput": 1.0}]}
json.dump({"schema": "bpfbench-result/1", "env": {}, "runs": [run]}, open(path, "w"))
PY
}

# cpu OLD NEW: "rc user+sys-seconds max-rss-KiB" of a compare (output in $TMPD/out)
cpu() {
	/usr/bin/time -f '%x %U %S %M' -o "$TMPD/time" timeout -k 5 120 "$BPFBENCH" compare "$1" "$2" \
		>"$TMPD/out" 2>&1
	tail -1 "$TMPD/time" | awk '{ printf "%d %.2f %d\n", $1, $2 + $3, $4 }'
}

# ---- options per run: linear, a run matched to itself and to one that differs ----
if [ "$asan" -eq 1 ]; then
	skip "time of large compares: not under ASan"
	skip "time of large compares: not under ASan"
else
	for n in 12500 50000; do
		opts "$TMPD/o$n.json" $n
		opts "$TMPD/m$n.json" $n mod
	done
	read -r rc1 t1 _ <<<"$(cpu "$TMPD/o12500.json" "$TMPD/o12500.json")"
	read -r rc4 t4 _ <<<"$(cpu "$TMPD/o50000.json" "$TMPD/o50000.json")"
	python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(not b <= 8 * a + 1)' "$t1" "$t4" &&
		[ "$rc1" -eq 0 ] && [ "$rc4" -eq 0 ]
	ok $? "a run of 12,500 and of 50,000 options matched: ${t1} s, ${t4} s of CPU (at most 8x + 1 s)" ||
		diag "rc $rc1 $rc4" "$(tail -3 "$TMPD/out")"
	read -r rc1 t1 _ <<<"$(cpu "$TMPD/o12500.json" "$TMPD/m12500.json")"
	read -r rc4 t4 _ <<<"$(cpu "$TMPD/o50000.json" "$TMPD/m50000.json")"
	python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(not b <= 8 * a + 1)' "$t1" "$t4" &&
		grep -q '^bpf-loop: row  only in NEW; the closest run of OLD differs in o-x_y (NEW 4, OLD default), o_x-y (NEW 3, OLD default), o0 (NEW -1, OLD 0), ' "$TMPD/out"
	ok $? "12,500 and 50,000 options, a third of them changed: ${t1} s, ${t4} s of CPU, the differences named" ||
		diag "rc $rc1 $rc4" "$(head -c 600 "$TMPD/out")"
	rm -f "$TMPD"/[om]*.json
fi

# ---- many small runs: memory about the file, not 3-6 times it ----
# A run's share of a file is small (~2.5 KB here): the parse tree of the
# whole document and json-c's objects for its options cost more than the
# file itself (a 50 MB file: 150 MB).  Now runs are read one at a time and
# the text already read handed back: at most 1.5 times the file (16 MiB
# more for the program itself).
GEN="$(dirname "$0")/gen_results.py"
python3 "$GEN" "$TMPD/many.json" --rows 24000 --samples 1
python3 "$GEN" "$TMPD/few.json" --rows 3 --samples 1
size=$(stat -c %s "$TMPD/many.json")
if [ "$asan" -eq 1 ]; then
	skip "memory of a large compare: ASan's shadow memory is not the reader's"
else
	read -r rc t rss <<<"$(cpu "$TMPD/many.json" "$TMPD/few.json")"
	[ "$rc" -eq 0 ] && [ $((rss * 1024)) -le $((size * 3 / 2 + (16 << 20))) ] &&
		grep -q ' 23997 only in OLD, 0 only in NEW' "$TMPD/out"
	ok $? "$((size >> 20)) MiB of 24,000 runs against 3: max RSS $((rss >> 10)) MiB (at most 1.5x + 16 MiB), rc $rc" ||
		diag "$(tail -3 "$TMPD/out")"
fi
# the same numbers as a file read whole would give: the runs' figures, all of them
run compare "$TMPD/many.json" "$TMPD/many.json" -q
[ "$RC" -eq 0 ] && [ "$(grep -c 'no difference\|no verdict' <<<"$OUT")" -ge 1 ]
ok $? "24,000 runs against themselves: rc $RC" || diag "$(tail -3 <<<"$OUT")" "$ERR"

done_testing
