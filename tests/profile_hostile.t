#!/usr/bin/env bash
# `bpfbench profile` and the profile outputs against hostile input (issue
# 42): folded files too large for a quadratic diff, counts that wrap,
# commands that misbehave under the profiler, names that carry markup into
# the SVG, planted links where the outputs go, and the outputs of a
# --kernel run.  No figure is held to a speed: the bounds guard hangs.
source "$(dirname "$0")/lib.sh"

# --- --diff: a million distinct stacks, linear, and a stop signal honoured ---
# (under the sanitizers 300,000: the same code, and still hours if quadratic)
N=1000000
ldd "$BPFBENCH" 2>/dev/null | grep -q libasan && N=300000
awk -v n=$N 'BEGIN { for (i = 0; i < n; i++) print "f" i ";g" i " 1" }' >"$TMPD/big-a.folded"
awk -v n=$N 'BEGIN { for (i = 0; i < n; i++) print "f" i ";g" i " " (i == 7 ? n + 1 : 1) }' \
	>"$TMPD/big-b.folded"
start=$SECONDS
timeout -s KILL 120 "$BPFBENCH" profile --diff "$TMPD/big-a.folded" "$TMPD/big-b.folded" \
	>"$TMPD/out" 2>"$TMPD/err"
RC=$?
# (a hang guard, not a speed: a scan of B for each of A's functions took hours)
[ "$RC" -eq 0 ] && [ $((SECONDS - start)) -lt 120 ] &&
	grep -q '^ *0\.0% *50\.0% *+50\.0pp  g7$' "$TMPD/out"
ok $? "--diff of $N distinct stacks a side completes, g7's jump from 0 to half first (rc $RC, $((SECONDS - start)) s)" ||
	diag "$(head -4 "$TMPD/out")" "$(cat "$TMPD/err")"

# signal_rc PID SIG: sends SIG once PID catches it; RC its exit status, or
# 999 if it still ran 60 s later (then killed: a hang guard, not a speed)
signal_rc() {
	local i
	catching "$1" "$2"
	sleep 0.3
	kill -"$2" "$1"
	for i in $(seq 600); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
	RC=999
	kill -0 "$1" 2>/dev/null && { kill -KILL "$1"; wait "$1"; return; }
	wait "$1"
	RC=$?
}
# SIGTERM mid-run: B is a fifo that never ends, so the signal is sure to
# come while bpfbench is at work (its read, after A's million lines)
mkfifo "$TMPD/never.folded"
exec 7<>"$TMPD/never.folded"
echo "x;y 1" >&7
"$BPFBENCH" profile --diff "$TMPD/big-a.folded" "$TMPD/never.folded" >"$TMPD/out" 2>"$TMPD/err" &
signal_rc $! 15
exec 7>&-
[ "$RC" -eq 143 ] && [ ! -s "$TMPD/out" ]
ok $? "SIGTERM during --diff: exit 143, no half a diff printed (rc $RC)" || diag "$(head -3 "$TMPD/out")"
"$BPFBENCH" profile --diff "$TMPD/big-a.folded" "$TMPD/big-b.folded" >"$TMPD/out" 2>"$TMPD/err" &
signal_rc $! 2
[ "$RC" -eq 130 ] && [ ! -s "$TMPD/out" ]
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

# --- profile -- CMD: commands that misbehave (root: perf events on every CPU) ---
[ "$(id -u)" -eq 0 ] || { done_testing; exit; }
mark="h42_$$"
# mine: the pids still running whose argv[0] carries the mark (bash's exec -a)
mine() { pgrep -f "^$mark" | paste -sd' '; }
reap_mine() { local p; p=$(mine); [ -z "$p" ] || kill -KILL $p 2>/dev/null; }
run profile -d 1 -- bash -c "for i in \$(seq 100); do (exec -a ${mark}_c sleep 300) & done; wait"
left=$(mine)
[ "$RC" -eq 0 ] && [ -z "$left" ]
ok $? "a command that forked 100 children, stopped after -d: none of them left (rc $RC)" ||
	diag "left: $(wc -w <<<"$left")"
reap_mine
run profile -- bash -c "for i in \$(seq 20); do (trap '' TERM INT; exec -a ${mark}_t sleep 300) & done; exit 0"
left=$(mine)
[ "$RC" -eq 0 ] && [ -z "$left" ]
ok $? "a command that exits at once, leaving 20 children that ignore SIGTERM: none left (rc $RC)" ||
	diag "left: $(wc -w <<<"$left")"
reap_mine
run profile -- true
[ "$RC" -eq 0 ] && grep -q '^Profile: .* samples' <<<"$OUT"
ok $? "a command that exits at once: its (empty) profile, exit 0 (rc $RC)" || diag "$ERR"
"$BPFBENCH" profile -- bash -c "trap '' TERM INT; exec -a ${mark}_s bash -c 'while :; do :; done'" \
	>"$TMPD/out" 2>"$TMPD/err" &
signal_rc $! 2
left=$(mine)
[ "$RC" -eq 130 ] && [ -z "$left" ]
ok $? "SIGINT to bpfbench while its command ignores SIGTERM and SIGINT: exit 130, the command killed (rc $RC)" ||
	diag "left: $left"
reap_mine

# --- --flame: names that carry markup (a module is named by its file) ---
evil='<script>alert(1)&"q'"'"']]><x y="1">'
mkdir -p "$TMPD/bin"
cp "$(command -v bash)" "$TMPD/bin/$evil"
cp "$(command -v bash)" "$TMPD/bin/$(printf 'bad\xff\xfeutf8;split')"
cp "$(command -v bash)" "$TMPD/bin/$(printf 'a%.0s\xc3\xa9' $(seq 80))"
# three modules in one process: each spins a while, then execs the next
cat >"$TMPD/chain.sh" <<'EOF'
i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done
[ $# -gt 0 ] || exit 0
n=$1; shift
exec "$n" "$0" "$@"
EOF
(cd "$TMPD/bin" && "$BPFBENCH" profile --folded "$TMPD/e.folded" --flame "$TMPD/e.svg" -- \
	"./$evil" "$TMPD/chain.sh" ./bad* ./a?* >"$TMPD/out" 2>"$TMPD/err")
RC=$?
python3 - "$TMPD/e.svg" <<'PY'
import sys, xml.etree.ElementTree as E
t = E.parse(sys.argv[1])
ns = "{http://www.w3.org/2000/svg}"
allowed = {ns + n for n in ("svg", "title", "rect", "text", "g")}
bad = {e.tag for e in t.iter()} - allowed
texts = " ".join(e.text or "" for e in t.iter())
ok = not bad and "<script>alert(1)&\"q']]><x" in texts and "\ufffd" in texts
sys.exit(0 if ok else "tags %s" % bad)
PY
ok $? "--flame with names holding <script>, quotes, &, ]]> and bytes no UTF-8: XML, no element injected, the names as text (rc $RC)" ||
	diag "$ERR"
! grep -aq '^bad' "$TMPD/e.folded" && grep -aq 'utf8_split\]' "$TMPD/e.folded"
ok $? "a file called 'a;b' is one frame in the folded stacks, not two" ||
	diag "$(grep -a utf8 "$TMPD/e.folded" | head -2)"

# --- a command's arguments in the folded header (issue 50.7): escaped, one line ---
run profile --folded "$TMPD/inj.folded" -- true $'x\nfake_main;evil_function 999999\n#'
# (true may take a sample or two on a loaded machine: the header is what is checked)
[ "$RC" -eq 0 ] && ! grep -q '^fake_main' "$TMPD/inj.folded" &&
	head -1 "$TMPD/inj.folded" | grep -qF 'true x\nfake_main;evil_function 999999\n#: cpu-clock'
ok $? "an argument with newlines stays in the header's one line, escaped" || diag "$(cat "$TMPD/inj.folded")"
echo "main 1" >"$TMPD/main.folded"
run profile --diff "$TMPD/inj.folded" "$TMPD/main.folded"
[ "$RC" -eq 0 ] && ! grep -q 'A .*(999999 samples)' <<<"$OUT" && ! grep -q evil_function <<<"$OUT"
ok $? "... --diff reads it back, and no function came from the argument" || diag "rc $RC" "$OUT" "$ERR"
run profile --folded "$TMPD/nl.folded" -- true $'a\nb\x1b[31m'
run profile --diff "$TMPD/nl.folded" "$TMPD/nl.folded"
[ "$RC" -eq 0 ] && grep -qF 'true a\nb\x1b[31m: ' "$TMPD/nl.folded"
ok $? "bpfbench reads back its own file of an argument with a newline and an escape" || diag "rc $RC" "$ERR"

# --- --folded/--flame through links planted in a directory anyone can write ---
mkdir -m 1777 "$TMPD/pub"
mkdir "$TMPD/victim"
echo keep >"$TMPD/victim/file"
ln -s "$TMPD/victim" "$TMPD/pub/dir"
ln -s "$TMPD/victim/file" "$TMPD/pub/f.svg"
chown -h nobody "$TMPD/pub/dir" "$TMPD/pub/f.svg"
run profile --folded "$TMPD/pub/dir/f.folded" -- true
[ "$RC" -eq 1 ] && grep -q 'symbolic link another user could have planted' <<<"$ERR" &&
	[ ! -e "$TMPD/victim/f.folded" ]
ok $? "profile --folded through another user's link on the way: refused, before the command (rc $RC)" || diag "$ERR"
run -w0 -d0.3 --period-ms 100 --flame "$TMPD/pub/dir/r.svg" noop
[ "$RC" -eq 1 ] && [ ! -e "$TMPD/victim/r.svg" ]
ok $? "a run's --flame through it: refused (rc $RC)" || diag "$ERR"
run profile --flame "$TMPD/pub/f.svg" -- true
[ "$RC" -eq 0 ] && [ "$(cat "$TMPD/victim/file")" = keep ] && [ ! -L "$TMPD/pub/f.svg" ] &&
	grep -q '^<svg' "$TMPD/pub/f.svg"
ok $? "another user's link as the --flame name: replaced by the SVG, its target untouched (rc $RC)" || diag "$ERR"

done_testing
