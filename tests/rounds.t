#!/usr/bin/env bash
# A table's rows under -r N take turns (src/orchestrate/rounds.c): every
# row's first repetition runs before any row's second, each row still holds
# N repetitions (JSON repeats, each with when it started) and -r N as given.
source "$(dirname "$0")/lib.sh"

# starts FILE: per run, its label and its repetitions' start times
starts() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    print(r.get("label") or r["bench"], r["options"]["runs"], r["runs"],
          " ".join("%.3f" % x["started"] for x in r.get("repeats", [])))
PY
}

run suite lpm-trie -w0 -d0.25 --period-ms 250 -r 2 --json "$TMPD/s.json"
[ "$RC" -eq 0 ] && starts "$TMPD/s.json" >"$TMPD/starts"
ok $? "suite lpm-trie -r 2: runs" || diag "$RC $ERR"

awk 'NF != 5 || $2 != 2 || $3 != 2 { bad = 1 } END { exit bad || NR != 6 }' "$TMPD/starts"
ok $? "every row holds 2 repetitions, each with its start, and says -r 2" || diag "$(cat "$TMPD/starts")"

# round by round: the latest first repetition started before the earliest second one
awk '{ if ($4 > last1) last1 = $4; if (first2 == "" || $5 < first2) first2 = $5 }
     END { exit !(last1 < first2) }' "$TMPD/starts"
ok $? "the rows took turns: every first repetition before any second" || diag "$(cat "$TMPD/starts")"

# and in table order within a round
awk 'NR > 1 && $4 <= prev { bad = 1 } { prev = $4 } END { exit bad }' "$TMPD/starts"
ok $? "... in the table's order" || diag "$(cat "$TMPD/starts")"

run bpf-loop -w0 -d0.25 --period-ms 250 -r 2 --sweep nr_loops=1,10 --json "$TMPD/w.json"
[ "$RC" -eq 0 ] && starts "$TMPD/w.json" >"$TMPD/wstarts" &&
	awk 'NR == 1 { a = $5 } NR == 2 { b = $4 } END { exit !(NR == 2 && b < a) }' "$TMPD/wstarts"
ok $? "a sweep's points take turns too" || diag "$RC $ERR $(cat "$TMPD/wstarts")"

# --- a signal in round 2 (issue 50.5): every row keeps its finished repetitions ---
# prog_ids PID: the BPF programs PID holds; a new set is a new repetition's setup
prog_ids() { sed -n 's/^prog_id:[[:space:]]*//p' /proc/"$1"/fdinfo/* 2>/dev/null | sort -u | paste -sd,; }
# after_reps PID K: waits until PID has loaded its programs K + 1 times (K repetitions done)
after_reps() {
	local seen=0 last="" now i
	for i in $(seq 1 3000); do
		kill -0 "$1" 2>/dev/null || return 1
		now=$(prog_ids "$1")
		if [ -n "$now" ] && [ "$now" != "$last" ]; then
			seen=$((seen + 1)) last=$now
			[ "$seen" -gt "$2" ] && return 0
		fi
		sleep 0.01
	done
	return 1
}
for sig in INT HUP; do
	"$BPFBENCH" -w0 -d0.3 --period-ms 100 -r 3 noop --sweep batch=1,10 --json "$TMPD/i.json" \
		--csv "$TMPD/i.csv" --md "$TMPD/i.md" >"$TMPD/i.out" 2>"$TMPD/i.err" &
	PID=$!
	after_reps "$PID" 3	# both rows' first repetition and the first row's second
	kill -"$sig" "$PID"
	wait "$PID"
	rc=$? want=$((128 + $(kill -l "$sig")))
	[ "$rc" -eq "$want" ] && grep -qE "^bpfbench: error: interrupted by signal $((want - 128)) in round [23] of 3, after 2 of 2 steps: the files hold each one's finished repetitions, marked interrupted$" "$TMPD/i.err" &&
		[ "$(grep -c '\[interrupted: [12] of 3 repetitions\]' "$TMPD/i.out")" -eq 2 ]
	ok $? "SIG$sig in round 2 of -r 3: exit $want, both rows in the table, each saying so" ||
		diag "rc $rc" "$(cat "$TMPD/i.out" "$TMPD/i.err")"
	json_check "$TMPD/i.json" "
r = d['runs']
d['interrupted'] is True and len(r) == 2 and all(x['status'] == $want and x['interrupted'] is True and x['options']['runs'] == 3 and 'of 3 repetitions' in x['error'] and x['samples'] for x in r)"
	ok $? "... its JSON: both rows, their samples, marked interrupted" || diag "$(head -c 600 "$TMPD/i.json")"
	[ "$(grep -c "^,noop: batch sweep,batch=[0-9]*,noop,$want,.*of 3 repetitions" "$TMPD/i.csv")" -eq 2 ] &&
		[ "$(grep -c '^| batch=.*interrupted by signal .* of 3 repetitions' "$TMPD/i.md")" -eq 2 ]
	ok $? "... its CSV and Markdown: both rows, each saying so" || diag "$(cat "$TMPD/i.csv" "$TMPD/i.md")"
done

done_testing
