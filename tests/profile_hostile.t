#!/usr/bin/env bash
# `bpfbench profile` and the profile outputs against hostile input (issue
# 42): folded files too large for a quadratic diff, counts that wrap,
# commands that misbehave under the profiler, names that carry markup into
# the SVG, planted links where the outputs go, and the outputs of a
# --kernel run.  No figure is held to a speed: the bounds guard hangs.
source "$(dirname "$0")/lib.sh"

# --- --diff: a million distinct stacks, linear, and a stop signal honoured ---
awk 'BEGIN { for (i = 0; i < 1000000; i++) print "f" i ";g" i " 1" }' >"$TMPD/big-a.folded"
awk 'BEGIN { for (i = 0; i < 1000000; i++) print "f" i ";g" i " " (i == 7 ? 1000001 : 1) }' \
	>"$TMPD/big-b.folded"
start=$SECONDS
timeout -s KILL 120 "$BPFBENCH" profile --diff "$TMPD/big-a.folded" "$TMPD/big-b.folded" \
	>"$TMPD/out" 2>"$TMPD/err"
RC=$?
# (a hang guard, not a speed: a scan of B for each of A's functions took hours)
[ "$RC" -eq 0 ] && [ $((SECONDS - start)) -lt 120 ] &&
	grep -q '^ *0\.0% *50\.0% *+50\.0pp  g7$' "$TMPD/out"
ok $? "--diff of 1M distinct stacks a side completes, g7's jump from 0 to half first (rc $RC, $((SECONDS - start)) s)" ||
	diag "$(head -4 "$TMPD/out")" "$(cat "$TMPD/err")"

# SIGTERM mid-run: B is a fifo that never ends, so the signal is sure to
# come while bpfbench is at work (its read, after A's million lines)
mkfifo "$TMPD/never.folded"
exec 7<>"$TMPD/never.folded"
echo "x;y 1" >&7
"$BPFBENCH" profile --diff "$TMPD/big-a.folded" "$TMPD/never.folded" >"$TMPD/out" 2>"$TMPD/err" &
pid=$!
catching "$pid" 15
sleep 0.5
kill -TERM "$pid"
for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid"; diag "still running 60 s after SIGTERM"; }
wait "$pid"
RC=$?
exec 7>&-
[ "$RC" -eq 143 ] && [ ! -s "$TMPD/out" ]
ok $? "SIGTERM during --diff: exit 143, no half a diff printed (rc $RC)" || diag "$(head -3 "$TMPD/out")"
"$BPFBENCH" profile --diff "$TMPD/big-a.folded" "$TMPD/big-b.folded" >"$TMPD/out" 2>"$TMPD/err" &
pid=$!
catching "$pid" 2
kill -INT "$pid"
wait "$pid"
RC=$?
[ "$RC" -eq 130 ]
ok $? "SIGINT during --diff: exit 130 (rc $RC)"
rm -f "$TMPD/big-a.folded" "$TMPD/big-b.folded"

# --- counts: whole numbers that fit, nothing else ---
printf 'a;b 5\n' >"$TMPD/A.folded"
bad_count() {	# bad_count LINES WANT DESC: B holds LINES; refused, exit 2, its file:line and WANT said
	printf "$1" >"$TMPD/bad.folded"
	run profile --diff "$TMPD/A.folded" "$TMPD/bad.folded"
	[ "$RC" -eq 2 ] && [ -z "$OUT" ] && grep -q "^bpfbench: error: profile: $TMPD/bad.folded:$2" <<<"$ERR" &&
		[ "$(wc -l <<<"$ERR")" -eq 1 ]
	ok $? "$3: refused, exit 2, file:line named (rc $RC)" || diag "$ERR" "$OUT"
}
bad_count 'a;b 1\na;c -5\n' '2: a negative count' "a negative count (was 2^64 - 5 samples)"
bad_count '# ours=x\na;c -0\n' '2: a negative count' "a count of -0"
bad_count 'a;b 18446744073709551615\na;c 1\n' '2: the counts add up beyond 2^64' \
	"counts whose sum overflows 64 bits"
bad_count 'a;b 18446744073709551616\n' '1: a count beyond 2^64' "a count beyond 64 bits"
bad_count 'a;b +5\n' '1: not a folded stack line' "a count with a sign"
bad_count 'a;b 0x10\n' '1: not a folded stack line' "a hexadecimal count"
bad_count 'a;b nan\n' '1: not a folded stack line' "a count of NaN"
bad_count 'a;b\n' '1: not a folded stack line' "a missing count"
bad_count 'a;b 5 \n' '1: not a folded stack line' "a trailing blank after the count"
printf 'a;b 18446744073709551614\na;c 1\n' >"$TMPD/max.folded"
run profile --diff "$TMPD/A.folded" "$TMPD/max.folded"
[ "$RC" -eq 0 ] && grep -q '18446744073709551615 samples' <<<"$OUT"
ok $? "counts that sum to 2^64 - 1 exactly: taken (rc $RC)" || diag "$ERR"
run profile --diff "$TMPD/A.folded" "$TMPD/nonexistent.folded"
[ "$RC" -eq 1 ] && grep -q "cannot read $TMPD/nonexistent.folded" <<<"$ERR"
ok $? "a file that cannot be read: exit 1 (rc $RC)" || diag "$ERR"

done_testing
