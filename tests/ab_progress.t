#!/usr/bin/env bash
# ab's progress on stderr: on a terminal one line rewritten in place with
# the pair, the time so far and the CI of B/A reached against the target;
# without a terminal nothing per pair, or under -v one line per pair; and
# never a message on the progress line's line (messages erase it first).
source "$(dirname "$0")/lib.sh"
need_bpf

SIDE="noop -w0 -d0.2 --period-ms 100"
# visible STDERR-FILE: each line as a terminal leaves it (the text after its last erase)
visible() { python3 -c '
import sys
for l in open(sys.argv[1], encoding="utf-8", newline="").read().split("\n"):
    print(l.split("\r\033[K")[-1])' "$1"; }

BPFBENCH_STDERR_TTY=1 "$BPFBENCH" ab "$SIDE" "$SIDE" --precision 30 --max-duration 3 --seed 3 \
	>"$TMPD/out" 2>"$TMPD/err"
RC=$?
[ "$RC" -eq 0 ] && grep -qE $'\r\033\\[K\\[pair 1, [0-9]+ s\\] CI of B/A after 2 pairs, target ±30%; [AB]: noop' "$TMPD/err" &&
	grep -qE $'\r\033\\[K\\[pair [3-9][0-9]*(/[0-9]+)?, [0-9]+ s\\] CI of B/A ±[0-9.]+%, target ±30%; ' "$TMPD/err"
ok $? "on a terminal: the pair, the time, the CI of B/A reached against --precision's target" ||
	diag "exit $RC" "$(cat -v "$TMPD/err" | tail -c 600)"
[ "$(tail -c 4 "$TMPD/err" | od -An -c | tr -d ' ')" = '\r033[K' ] && [ "$(grep -c . "$TMPD/err")" -eq 1 ]
ok $? "... rewritten in place, one line, erased at the end" || diag "$(cat -v "$TMPD/err" | tail -c 300)"
BPFBENCH_STDERR_TTY=1 "$BPFBENCH" ab "$SIDE" "$SIDE" -r 3 --seed 3 >"$TMPD/out" 2>"$TMPD/err"
grep -qE '\[pair 3/3, [0-9]+ s\] CI of B/A ±[0-9.]+%; ' "$TMPD/err" && ! grep -q target "$TMPD/err"
ok $? "-r 3: the pair of 3, no target" || diag "$(cat -v "$TMPD/err" | tail -c 300)"

BPFBENCH_STDERR_TTY=0 "$BPFBENCH" ab "$SIDE" "$SIDE" -r 3 --seed 3 >"$TMPD/out" 2>"$TMPD/err"
RC=$?
[ "$RC" -eq 0 ] && [ ! -s "$TMPD/err" ] && grep -q '^3 pairs in random order' "$TMPD/out"
ok $? "no terminal, no -v: nothing on stderr" || diag "exit $RC" "$(cat -v "$TMPD/err")"
BPFBENCH_STDERR_TTY=0 "$BPFBENCH" ab "$SIDE" "$SIDE" -r 3 --seed 3 -v >"$TMPD/out" 2>"$TMPD/err"
RC=$?
[ "$RC" -eq 0 ] && [ "$(grep -c . "$TMPD/err")" -eq 3 ] && ! grep -q $'[\r\033]' "$TMPD/err" &&
	grep -qx '\[pair 1/3, [0-9]* s\] CI of B/A after 2 pairs' "$TMPD/err" &&
	grep -qE '^\[pair 3/3, [0-9]+ s\] CI of B/A ±[0-9.]+%$' "$TMPD/err"
ok $? "no terminal, -v: one full line per pair, no escapes" || diag "exit $RC" "$(cat -v "$TMPD/err")"
BPFBENCH_STDERR_TTY=0 "$BPFBENCH" -v ab "$SIDE" "$SIDE" -r 3 --seed 3 --precision 50 --max-duration 1 \
	>"$TMPD/out" 2>"$TMPD/err"
[ "$(grep -c . "$TMPD/err")" -ge 3 ] && [ "$(grep -vcE '^\[pair [0-9]+(/[0-9]+)?, [0-9]+ s\] CI of B/A .*, target ±50%$' "$TMPD/err")" -eq 0 ]
ok $? "bpfbench -v ab --precision 50: a line per pair, each with the target" || diag "$(cat -v "$TMPD/err")"

# messages during the runs (a side's -v: libbpf's lines) never share the progress line's line
BPFBENCH_STDERR_TTY=1 "$BPFBENCH" ab "$SIDE -v" "$SIDE -v" -r 2 --seed 3 >"$TMPD/out" 2>"$TMPD/err"
RC=$?
vis=$(visible "$TMPD/err")
[ "$RC" -eq 0 ] && grep -q "^libbpf: " <<<"$vis" && ! grep -q "\[pair .*libbpf" <<<"$vis" &&
	! grep -q "libbpf.*\[pair " <<<"$vis" &&
	[ "$(grep -c $'libbpf: loading object' "$TMPD/err")" -eq "$(grep -c $'\r\033\\[Klibbpf: loading object' "$TMPD/err")" ]
ok $? "on a terminal: every message erases the progress line first, none follows it on its line" ||
	diag "exit $RC" "$(grep -m3 'pair' <<<"$vis")"
python3 -c 'import sys; t = open(sys.argv[1], newline="").read(); sys.exit(0 if "\n\r\033[K[pair" in t else 1)' "$TMPD/err"
ok $? "... and draws it again after the message"
# a side that fails (too few file descriptors to load its programs): the error lines on lines of their own
MB="map-batch --max-entries 1000 -w0 -d0.2 --period-ms 100"
(ulimit -n 5; BPFBENCH_STDERR_TTY=1 exec "$BPFBENCH" ab "$MB" "$MB" -r 2 --seed 3) >"$TMPD/out" 2>"$TMPD/err"
RC=$?
vis=$(visible "$TMPD/err")
if [ "$RC" -eq 0 ] || ! grep -q 'ab: run 1 of' "$TMPD/err"; then
	skip "ulimit -n 5 did not make a side's run fail here (exit $RC)"
else
	grep -q "^bpfbench: error: ab: run 1 of [AB] failed" <<<"$vis" && grep -q "^bpfbench: error: map-batch: " <<<"$vis" &&
		! grep -q "\[pair .*bpfbench: " <<<"$vis"
	ok $? "a side that fails: its error lines each on a line of their own" || diag "exit $RC" "$(cat -v "$TMPD/err")"
fi

done_testing
