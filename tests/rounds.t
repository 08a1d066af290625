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

done_testing
