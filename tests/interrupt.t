#!/usr/bin/env bash
# Ctrl-C keeps what was measured: a run stopped by SIGINT prints the summary
# of its whole samples and writes them (marked interrupted); a suite keeps
# the rows it completed; with nothing measured, nothing is written and an
# older file stays as it was.  Exit 130 and a clean kernel every time.
source "$(dirname "$0")/lib.sh"
need_bpf
before=$(kernel_objects_settle "0 0 0")	# ours only (lib.sh): none yet

# wait_lines FILE PATTERN N: until FILE has N lines matching PATTERN (false after 20 s)
wait_lines() {
	local i
	for i in $(seq 1 400); do
		[ "$(grep -cE "$2" "$1" 2>/dev/null)" -ge "$3" ] && return 0
		kill -0 "$PID" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# --- a run: SIGINT after three samples ---
bg_start -w0 -d30 --period-ms 200 bpf-loop --json "$TMPD/run.json" --md "$TMPD/run.md"
started=$?
wait_lines "$TMPD/bg.out" '^Iter' 3
kill -INT "$PID"
wait "$PID"
rc=$?
n=$(grep -c '^Iter' "$TMPD/bg.out")
last=$(tail -n1 "$TMPD/bg.out")
[ "$started" -eq 0 ] && [ "$rc" -eq 130 ] && [ "$n" -ge 3 ] &&
	grep -qE "^Interrupted by signal 2 after $n samples \([0-9.]+ of 30 s measured\): the figures below are of those samples$" "$TMPD/bg.out" &&
	[[ $last == "Summary: throughput "* ]] &&
	grep -qx "bpfbench: error: interrupted by signal 2 after $n samples ([0-9.]* of 30 s measured)" "$TMPD/bg.err"
ok $? "SIGINT mid-run: exit $rc, the summary of the $n samples measured, last on stdout, said to be partial" ||
	diag "$(cat "$TMPD/bg.out" "$TMPD/bg.err")"
json_check "$TMPD/run.json" "
r = d['runs'][0]
d['interrupted'] is True and r['interrupted'] is True and r['status'] == 130 and len(r['samples']) == $n and r['metrics']['throughput']['n'] == $n and r['runs'] == 1"
ok $? "its JSON: every sample measured ($n), the run and the document marked interrupted, status 130"
python3 "$(dirname "$0")/md_tables.py" "$TMPD/run.md" >"$TMPD/run.tables" &&
	grep -q 'throughput \[M ops/s\]' "$TMPD/run.tables" && grep -q '^\*\*Interrupted\*\*' "$TMPD/run.md"
ok $? "its Markdown: a table with the figures, marked interrupted" || diag "$(cat "$TMPD/run.md")"
now=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel ($now)"

# --- interrupted in the warm-up: no sample, no summary, the old file kept ---
echo '{"old": true}' >"$TMPD/old.json"
cp "$TMPD/old.json" "$TMPD/old.copy"
bg_start -w30 -d30 --period-ms 200 bpf-loop --json "$TMPD/old.json"
started=$?
sleep 0.3
kill -INT "$PID"
wait "$PID"
rc=$?
[ "$started" -eq 0 ] && [ "$rc" -eq 130 ] && cmp -s "$TMPD/old.json" "$TMPD/old.copy" &&
	! grep -q '^Summary' "$TMPD/bg.out" &&
	grep -qx 'bpfbench: error: interrupted by signal 2 before any sample was measured; nothing written' "$TMPD/bg.err"
ok $? "SIGINT in the warm-up: exit $rc, no summary of nothing, old.json untouched" ||
	diag "$(cat "$TMPD/bg.out" "$TMPD/bg.err")"

# --- a suite stopped at 0.3 s (issue 27.4): the old results stay ---
"$BPFBENCH" suite bpf-loop --json "$TMPD/old.json" >"$TMPD/s.out" 2>"$TMPD/s.err" &
PID=$!
sleep 0.3
catching "$PID"
kill -INT "$PID"
wait "$PID"
rc=$?
[ "$rc" -eq 130 ] && cmp -s "$TMPD/old.json" "$TMPD/old.copy" &&
	grep -qx 'bpfbench: error: interrupted by signal 2 before the first of [0-9]* steps completed: nothing written' "$TMPD/s.err"
ok $? "suite bpf-loop --json old.json stopped at 0.3 s: exit $rc, old.json as it was" ||
	diag "$(cat "$TMPD/s.err")" "$(head -c 300 "$TMPD/old.json")"

# --- a suite stopped in its second section: the rows completed, in every export ---
"$BPFBENCH" suite ringbufs -w0 -d0.2 --period-ms 100 --json "$TMPD/rb.json" --md "$TMPD/rb.md" \
	--csv "$TMPD/rb.csv" >"$TMPD/rb.out" 2>"$TMPD/rb.err" &
PID=$!
wait_lines "$TMPD/rb.out" '^(rb|pb)-' 5
kill -INT "$PID"
wait "$PID"
rc=$?
rows=$(grep -cE '^(rb|pb)-' "$TMPD/rb.out")
[ "$rc" -eq 130 ] && [ "$rows" -ge 5 ] &&
	grep -qx "bpfbench: error: interrupted by signal 2 after $rows of [0-9]* steps: the files hold those, marked interrupted" "$TMPD/rb.err"
ok $? "suite ringbufs stopped after $rows rows: exit $rc, the rows printed, one line saying so" ||
	diag "$(cat "$TMPD/rb.out" "$TMPD/rb.err")"
json_check "$TMPD/rb.json" "
r = d['runs']
d['interrupted'] is True and len(r) == $rows and all(x['status'] == 0 and x['suite'] == 'ringbufs' and x['samples'] and 'interrupted' not in x for x in r)"
ok $? "its JSON: the $rows completed rows, whole, the document marked interrupted"
python3 - "$(dirname "$0")/md_tables.py" "$TMPD/rb.md" "$TMPD/rb.json" <<'PY'
import json, subprocess, sys
t = json.loads(subprocess.check_output([sys.executable, sys.argv[1], "--merged", sys.argv[2]]))
runs = json.load(open(sys.argv[3]))["runs"]
assert len(t) >= 2, t                                  # a table per section (a wide one continued)
assert sum(len(x["rows"]) for x in t) == len(runs)     # a row per step
for x in t:
    for r in x["rows"]:
        run = next(u for u in runs if u["label"] == r["Step"] and u["section"] == x["section"])
        for mid, m in run["metrics"].items():          # a column per figure, its unit in the header
            head = mid if mid == m["unit"] else "%s [%s]" % (mid, m["unit"])
            if m["kind"] == "count" and head not in r:  # the raw counts: JSON's and CSV's
                continue
            cell = r[head]
            assert cell and m["unit"] not in cell, (mid, cell)
PY
ok $? "its Markdown: a table per section, a row per step, a column per metric with its unit"
python3 - "$TMPD/rb.csv" "$rows" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len({(r["section"], r["label"]) for r in rows}) == int(sys.argv[2]), rows
assert all(r["status"] == "0" for r in rows)
PY
ok $? "its CSV: the $rows completed rows"
now=$(kernel_objects_settle "$before")
ok $? "after the suites: nothing of ours left in the kernel ($now)"
done_testing
