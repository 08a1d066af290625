#!/usr/bin/env bash
# Result files as root in directories others can write to: a planted link
# never redirects the write, a replaced file keeps its mode and owner, a
# device or fifo is written to and never replaced, a directory or a full
# device is an error, and a bad output is refused before anything runs.
source "$(dirname "$0")/lib.sh"
need_bpf

RUN=(bpf-loop -w0 -d0.2 --period-ms 100 -q)	# what is written matters here, not how long it ran
is_result() { json_check "$1" 'd["schema"] == "bpfbench-result/1"'; }

# --- the old temporary name <out>.tmp.<pid>, planted while the run goes ---
out="$TMPD/r.json"
printf 'secret\n' >"$TMPD/victim" && chmod 600 "$TMPD/victim"
"$BPFBENCH" bpf-loop -w0 -d1 -q --json "$out" >/dev/null 2>"$TMPD/err" &
pid=$!
ln -s "$TMPD/victim" "$out.tmp.$pid"
wait $pid
rc=$?
[ "$rc" -eq 0 ] && is_result "$out"
ok $? "a link planted at the old temporary name: the run succeeds (rc $rc)" || diag "$(cat "$TMPD/err")"
[ "$(cat "$TMPD/victim")" = secret ] && [ "$(stat -c %a "$TMPD/victim")" = 600 ] &&
	[ -L "$out.tmp.$pid" ] && [ "$(readlink "$out.tmp.$pid")" = "$TMPD/victim" ]
ok $? "the link and its target are untouched"
rm -f "$out.tmp.$pid"
[ -z "$(find "$TMPD" -name 'r.json.tmp.*')" ]
ok $? "no temporary left beside the result"

# --- a replaced file keeps its mode and owner; a new one is 0644 ---
printf 'old\n' >"$TMPD/keep.json" && chmod 600 "$TMPD/keep.json" && chown 65534:65534 "$TMPD/keep.json"
run "${RUN[@]}" --json "$TMPD/keep.json"
[ "$RC" -eq 0 ] && is_result "$TMPD/keep.json" &&
	[ "$(stat -c '%a %u %g' "$TMPD/keep.json")" = "600 65534 65534" ]
ok $? "an existing 0600 file of another owner: replaced, still 0600 and theirs ($(stat -c '%a %u:%g' "$TMPD/keep.json"))"
(umask 077 && "$BPFBENCH" "${RUN[@]}" --json "$TMPD/new.json" >/dev/null 2>&1)
[ "$(stat -c %a "$TMPD/new.json")" = 644 ]
ok $? "a new file is 0644 under umask 077"

# --- a link planted by another user in a sticky shared directory ---
command -v setpriv >/dev/null && as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if declare -F as_nobody >/dev/null; then
	mkdir -m 1777 "$TMPD/shared" && chmod 755 "$TMPD"
	as_nobody ln -s "$TMPD/victim" "$TMPD/shared/r.json"
	run "${RUN[@]}" --json "$TMPD/shared/r.json"
	[ "$RC" -eq 0 ] && [ ! -L "$TMPD/shared/r.json" ] && is_result "$TMPD/shared/r.json" &&
		[ "$(cat "$TMPD/victim")" = secret ]
	ok $? "another user's link as the target: the link is replaced, its target untouched (rc $RC)" ||
		diag "$ERR"
else
	skip "needs setpriv to plant a link as another user"
fi

# --- a directory link planted by another user on the way: never followed ---
if declare -F as_nobody >/dev/null; then
	mkdir -m 700 "$TMPD/rootonly"
	as_nobody ln -s "$TMPD/rootonly" "$TMPD/shared/results"
	run bpf-loop -w0 -d5 -q --json "$TMPD/shared/results/out.json"
	[ "$RC" -eq 1 ] && [ -z "$(ls -A "$TMPD/rootonly")" ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] &&
		grep -q "cannot write $TMPD/shared/results/out.json: $TMPD/shared/results is a symbolic link another user could have planted" <<<"$ERR"
	ok $? "another user's directory link on the way: refused before the run, nothing written behind it (rc $RC)" ||
		diag "$ERR" "$(ls -A "$TMPD/rootonly")"
	# deeper, and through a link of ours first: every component is checked
	ln -s shared "$TMPD/ours"
	run bpf-loop -w0 -d5 -q --csv "$TMPD/ours/results/./x.csv"
	[ "$RC" -eq 1 ] && [ -z "$(ls -A "$TMPD/rootonly")" ]
	ok $? "the same behind a link of ours and a '.': refused (rc $RC)" || diag "$ERR"
	# a link of root's in the sticky directory is ours to trust
	mkdir "$TMPD/mine" && ln -s "$TMPD/mine" "$TMPD/shared/mine"
	run "${RUN[@]}" --json "$TMPD/shared/mine/out.json"
	[ "$RC" -eq 0 ] && is_result "$TMPD/mine/out.json"
	ok $? "our own directory link in the sticky directory: followed (rc $RC)" || diag "$ERR"
else
	skip "needs setpriv to plant a link as another user"
	skip "needs setpriv to plant a link as another user"
	skip "needs setpriv to plant a link as another user"
fi

# --- temporaries of a killed run are swept by the next; others' and live ones are not ---
sleep 0 & dead=$!
wait $dead
sleep 60 & live=$!
printf 'half' >"$TMPD/s.json.tmp.$dead.AbC123"
printf 'half' >"$TMPD/s.json.tmp.$live.AbC123"
printf 'half' >"$TMPD/s.json.tmp.$dead.XyZ789" && chown 65534 "$TMPD/s.json.tmp.$dead.XyZ789"
printf 'half' >"$TMPD/s.json.tmp.$dead.nope"
run "${RUN[@]}" --json "$TMPD/s.json"
kill $live
[ "$RC" -eq 0 ] && is_result "$TMPD/s.json" && [ ! -e "$TMPD/s.json.tmp.$dead.AbC123" ] &&
	[ -e "$TMPD/s.json.tmp.$live.AbC123" ] && [ -e "$TMPD/s.json.tmp.$dead.XyZ789" ] &&
	[ -e "$TMPD/s.json.tmp.$dead.nope" ]
ok $? "a killed run's <out>.tmp.<pid>.* swept; a live one's, another user's, another name kept" ||
	diag "$(ls "$TMPD")"
rm -f "$TMPD"/s.json.tmp.*

# --- our own link in our own directory is followed, the file behind it replaced ---
printf 'old\n' >"$TMPD/real.json"
ln -s real.json "$TMPD/link.json"
run "${RUN[@]}" --json "$TMPD/link.json"
[ "$RC" -eq 0 ] && [ -L "$TMPD/link.json" ] && is_result "$TMPD/real.json"
ok $? "our own link: kept, the file it names gets the result (rc $RC)"

# --- devices and fifos are written to, never replaced (/dev's only once ours proved it) ---
mknod "$TMPD/null" c 1 3
run "${RUN[@]}" --json "$TMPD/null"
[ "$RC" -eq 0 ] && [ -c "$TMPD/null" ]
ok $? "a character device (null) stays a character device (rc $RC)"
dev_ok=$?
if [ "$dev_ok" -eq 0 ] && [ -c /dev/null ] && [ "$(stat -c %t:%T /dev/null)" = 1:3 ]; then
	# only once the private node proved it: never risk /dev/null itself
	run "${RUN[@]}" --json /dev/null
	[ "$RC" -eq 0 ] && [ -c /dev/null ] && [ "$(stat -c %t:%T /dev/null)" = 1:3 ]
	ok $? "--json /dev/null: exit 0, /dev/null still the null device"
else
	skip "the private device was replaced, or /dev/null is not the null device: not risked"
fi
# /dev/full, always through a node of our own (tests run old code too: never risk /dev's)
FULL="$TMPD/full-dev"
mknod -m 666 "$FULL" c 1 7
run "${RUN[@]}" --json "$FULL"
[ "$RC" -eq 1 ] && grep -q "cannot write $FULL: No space left on device" <<<"$ERR" && [ -c "$FULL" ]
ok $? "--json onto the full device: exit 1 naming the error, still a device (rc $RC)" || diag "$ERR"
mkfifo "$TMPD/fifo"
fifo_reader() {	# fifo_reader FIFO OUT: a reader in open() on FIFO (bounded: a replaced fifo has no writer)
	local i c
	timeout 30 cat "$1" >"$2" &
	reader=$!
	for i in $(seq 100); do
		c=$(pgrep -P $reader) && [ "$(cat /proc/$c/wchan 2>/dev/null)" = wait_for_partner ] &&
			return
		sleep 0.05
	done
}
fifo_reader "$TMPD/fifo" "$TMPD/from-fifo"
run "${RUN[@]}" --json "$TMPD/fifo"
wait $reader
[ "$RC" -eq 0 ] && [ -p "$TMPD/fifo" ] && is_result "$TMPD/from-fifo"
ok $? "a fifo: the reader gets the document, the fifo stays a fifo (rc $RC)"
# without a reader: refused before the run, never a wait in open() after it (old: blocked forever);
# before the run: sooner than a whole short run takes now (tests/lib.sh's deadline)
ref1=$(ref_ms bpf-loop -w0 -d0.01 --period-ms 10 -q)
t0=$(date +%s%N)
OUT=$(timeout -s INT 30 "$BPFBENCH" bpf-loop -w0 -d20 -q --json "$TMPD/fifo" 2>"$TMPD/err")
RC=$?
t1=$(date +%s%N)
[ "$RC" -eq 1 ] && [ "$(grep -c . "$TMPD/err")" -eq 1 ] &&
	grep -q "cannot write $TMPD/fifo: a fifo with no reader" "$TMPD/err" && [ -z "$OUT" ] &&
	[ $(((t1 - t0) / 1000000)) -le "$(deadline_ms "$ref1" "$(ref_ms bpf-loop -w0 -d0.01 --period-ms 10 -q)")" ] && [ -p "$TMPD/fifo" ]
ok $? "a fifo without a reader: one line, exit 1, nothing measured ($(((t1 - t0) / 1000000)) ms, rc $RC)" ||
	diag "$(cat "$TMPD/err")"
# an interrupted run writes what it measured, marked so, and its reader sees the end: nothing hangs
fifo_reader "$TMPD/fifo" "$TMPD/from-fifo"
# (the signal once a sample was measured, not after a fixed second: a busy
# machine, or ASan, may not have measured one by then)
bg_start bpf-loop -w0 -d20 --period-ms 100 --json "$TMPD/fifo"
pid=$PID
for i in $(seq 1200); do grep -q '^Iter' "$TMPD/bg.out" && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
kill -INT $pid
wait $pid
RC=$?
wait $reader
rrc=$?
[ "$RC" -eq 130 ] && [ "$rrc" -eq 0 ] && is_result "$TMPD/from-fifo" &&
	json_check "$TMPD/from-fifo" 'd["interrupted"] is True'
ok $? "a fifo and SIGINT: exit 130, the reader gets the measured samples marked interrupted, and ends (rc $RC, reader $rrc)" || diag "$(cat "$TMPD/bg.err")"
for t in "block device:b 7 0" "socket:"; do
	rm -f "$TMPD/node"
	if [ "${t#*:}" ]; then mknod "$TMPD/node" ${t#*:}; else python3 -c '
import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TMPD/node"; fi
	run bpf-loop -w0 -d5 -q --json "$TMPD/node"
	[ "$RC" -eq 1 ] && grep -q "cannot write $TMPD/node: a ${t%%:*}, not a file" <<<"$ERR"
	ok $? "a ${t%%:*}: refused before the run (rc $RC)" || diag "$ERR"
done
rm -f "$TMPD/node"
# a link of our own to our stdout first: /dev/stdout itself only once that proved safe
# (the document from its "{" on: the report before it, a Noise line included, may wrap)
ln -s /proc/self/fd/1 "$TMPD/stdout"
"$BPFBENCH" "${RUN[@]}" --json "$TMPD/stdout" 2>/dev/null | sed -n '/^{/,$p' >"$TMPD/piped.json"
is_result "$TMPD/piped.json" && [ -L "$TMPD/stdout" ]
ok $? "--json LINK-TO-/proc/self/fd/1 into a pipe: the document on the pipe, the link kept"
link_ok=$?
if [ "$dev_ok" -eq 0 ] && [ "$link_ok" -eq 0 ] && [ -L /dev/stdout ]; then
	"$BPFBENCH" "${RUN[@]}" --json /dev/stdout 2>/dev/null | sed -n '/^{/,$p' >"$TMPD/piped.json"
	is_result "$TMPD/piped.json" && [ -L /dev/stdout ]
	ok $? "--json /dev/stdout into a pipe: the document on the pipe, /dev/stdout still a link"
else
	skip "a device or our own link was replaced, or /dev/stdout is no link: /dev/stdout not risked"
fi

# --- refused before anything runs (sooner than a whole short run: tests/lib.sh) ---
ref1=$(ref_ms bpf-loop -w0 -d0.01 --period-ms 10 -q)
t0=$(date +%s%N)
run bpf-loop -w0 -d5 --json "$TMPD"
t1=$(date +%s%N)
limit=$(deadline_ms "$ref1" "$(ref_ms bpf-loop -w0 -d0.01 --period-ms 10 -q)")
[ "$RC" -eq 1 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -q "cannot write $TMPD: Is a directory" <<<"$ERR" &&
	[ -z "$OUT" ] && [ $(((t1 - t0) / 1000000)) -le "$limit" ]
ok $? "--json onto a directory: one line, exit 1, nothing run (rc $RC, $(((t1 - t0) / 1000000)) ms, deadline $limit ms)" || diag "$ERR"
run bpf-loop -w0 -d5 --csv /nonexistent-dir/x.csv
[ "$RC" -eq 1 ] && [ "$ERR" = "bpfbench: error: cannot write /nonexistent-dir/x.csv: No such file or directory" ]
ok $? "--csv into a missing directory: one line, exit 1, before the run" || diag "$ERR"

# --- stdout checked on close, as coreutils does ---
out_fails() {	# out_fails DESC WORDS REDIR ARGS...: exit 1, one message (with --json - the summary is on stderr too)
	local desc=$1 words=$2 redir=$3 rc
	shift 3
	case $redir in
	full) "$BPFBENCH" "$@" >"$FULL" 2>"$TMPD/err" ;;
	closed) "$BPFBENCH" "$@" >&- 2>"$TMPD/err" ;;
	esac
	rc=$?
	[ "$rc" -eq 1 ] && [ "$(grep -c '^bpfbench: ' "$TMPD/err")" -eq 1 ] && grep -q "$words" "$TMPD/err"
	ok $? "$desc: exit 1, one message ($rc: $(grep '^bpfbench: ' "$TMPD/err"))"
}
out_fails "--json - into /dev/full" "cannot write -: No space left" full "${RUN[@]}" --json -
out_fails "probe --json into /dev/full" "error: write error: No space left" full probe --json
out_fails "--csv - with stdout closed" "cannot write -: Bad file descriptor" closed "${RUN[@]}" --csv -
out_fails "a run's summary into /dev/full" "error: write error: No space left" full "${RUN[@]}"
out_fails "--list with stdout closed" "error: write error: Bad file descriptor" closed --list
"$BPFBENCH" bpf-loop --nr_loops 0 2>/dev/null >&-
[ $? -eq 2 ]
ok $? "a usage error with stdout closed is still exit 2"

# --- names of 240-255 bytes: legal, and the temporary must not need more ---
bad=
for len in 240 247 250 255; do
	name=$(printf 'n%.0s' $(seq "$len"))
	run "${RUN[@]}" --json "$TMPD/$name"
	[ "$RC" -eq 0 ] && is_result "$TMPD/$name" || bad+=" $len:rc$RC"
	rm -f "$TMPD/$name"
done
run "${RUN[@]}" --json "$TMPD/$(printf 'n%.0s' $(seq 256))"
[ -z "$bad" ] && [ "$RC" -eq 1 ] && grep -q '^bpfbench: error: cannot write ' <<<"$ERR"
ok $? "names of 240, 247, 250, 255 bytes written; 256 refused as too long" || diag "$bad" "$ERR"
dead=$(sh -c 'echo $$')
printf 'half' >"$TMPD/.bpfbench.tmp.$dead.AbC123"
run "${RUN[@]}" --json "$TMPD/$(printf 'n%.0s' $(seq 250))"
[ "$RC" -eq 0 ] && [ ! -e "$TMPD/.bpfbench.tmp.$dead.AbC123" ]
ok $? "a killed run's short temporary (.bpfbench.tmp.<pid>.*) swept by the next" || diag "$ERR"
rm -f "$TMPD"/nnnnnnnn*

# --- two outputs naming one file: the later write replaced the first ---
mkdir -p "$TMPD/one" && ln -sfn one "$TMPD/onelink" && printf 'old\n' >"$TMPD/one/x"
ln -sf x "$TMPD/one/xlink"
bad=
for pair in "--json $TMPD/one/x --csv $TMPD/one/x" "--json $TMPD/one/x --md $TMPD/one/xlink" \
	"--csv $TMPD/one/x --md $TMPD/onelink/x" "--json $TMPD/one/new --csv $TMPD/one/../one/new" \
	"--json - --csv /dev/stdout"; do
	# shellcheck disable=SC2086
	run "${RUN[@]}" $pair
	[ "$RC" -eq 2 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -q 'name one file' <<<"$ERR" &&
		[ "$(cat "$TMPD/one/x")" = old ] && [ ! -e "$TMPD/one/new" ] || bad+=" [$pair]:rc$RC"
done
run suite bpf-loop -w0 -d0.2 --json "$TMPD/one/x" --md "$TMPD/onelink/xlink"
[ "$RC" -eq 2 ] && grep -q 'name one file' <<<"$ERR" || bad+=" suite:rc$RC"
run "${RUN[@]}" --json /dev/null --csv /dev/null
[ "$RC" -eq 0 ] || bad+=" /dev/null:rc$RC"
[ -z "$bad" ]
ok $? "two outputs naming one file (the same path, a link, a linked directory, -): usage error before the run; /dev/null twice is fine" ||
	diag "$bad" "$ERR"
rm -rf "$TMPD/one" "$TMPD/onelink"

[ -z "$(find "$TMPD" -name '*.tmp.*')" ]
ok $? "no temporary left anywhere"
done_testing
