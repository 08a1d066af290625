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
timeout 30 cat "$TMPD/fifo" >"$TMPD/from-fifo" &	# bounded: a replaced fifo has no writer
reader=$!
run "${RUN[@]}" --json "$TMPD/fifo"
wait $reader
[ "$RC" -eq 0 ] && [ -p "$TMPD/fifo" ] && is_result "$TMPD/from-fifo"
ok $? "a fifo: the reader gets the document, the fifo stays a fifo (rc $RC)"
# a link of our own to our stdout first: /dev/stdout itself only once that proved safe
ln -s /proc/self/fd/1 "$TMPD/stdout"
"$BPFBENCH" "${RUN[@]}" --json "$TMPD/stdout" 2>/dev/null | grep -v '^[A-Z][a-z]*:' >"$TMPD/piped.json"
is_result "$TMPD/piped.json" && [ -L "$TMPD/stdout" ]
ok $? "--json LINK-TO-/proc/self/fd/1 into a pipe: the document on the pipe, the link kept"
link_ok=$?
if [ "$dev_ok" -eq 0 ] && [ "$link_ok" -eq 0 ] && [ -L /dev/stdout ]; then
	"$BPFBENCH" "${RUN[@]}" --json /dev/stdout 2>/dev/null | grep -v '^[A-Z][a-z]*:' >"$TMPD/piped.json"
	is_result "$TMPD/piped.json" && [ -L /dev/stdout ]
	ok $? "--json /dev/stdout into a pipe: the document on the pipe, /dev/stdout still a link"
else
	skip "a device or our own link was replaced, or /dev/stdout is no link: /dev/stdout not risked"
fi

# --- refused before anything runs ---
t0=$(date +%s%N)
run bpf-loop -w0 -d5 --json "$TMPD"
t1=$(date +%s%N)
[ "$RC" -eq 1 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -q "cannot write $TMPD: Is a directory" <<<"$ERR" &&
	[ -z "$OUT" ] && [ $(((t1 - t0) / 1000000)) -lt 1000 ]
ok $? "--json onto a directory: one line, exit 1, nothing run (rc $RC)" || diag "$ERR"
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

[ -z "$(find "$TMPD" -name '*.tmp.*')" ]
ok $? "no temporary left anywhere"
done_testing
