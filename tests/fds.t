#!/usr/bin/env bash
# File descriptors running out (ulimit -n): whatever the family and however
# few descriptors, a run that cannot go on says why in one
# "bpfbench: error:" line (libbpf's cause where libbpf gives only an errno),
# exits 1, never silently, and leaves the kernel as it was.
source "$(dirname "$0")/lib.sh"
# Under the sanitizers, fewer limits: the error paths are the same ones,
# each limit a start of an ASan binary (the plain pass tries every one).
# The run that gets enough is short (two samples): the errors are the point.
LIMITS="5 6 7 8 9 10 11 12 14 16"
ldd "$BPFBENCH" 2>/dev/null | grep -q libasan && LIMITS="5 8 11 14 16"
need_bpf

before=$(kernel_objects_settle "0 0 0")	# ours only (lib.sh): none yet
for spec in "noop" "bpf-loop" "bpf-for" "bloom-lookup --nr_entries 1000" \
	"lpm-trie-lookup --nr_entries 1000" "lpm-trie-free --nr_entries 1000 --free-method wq-tracepoint" \
	"lpm-trie-free" \
	"map-batch --max-entries 1000" "htab-mem" "rb-libbpf -c1" "pb-custom -c1" "map-lookup"; do
	name=${spec%% *}
	bad=0 tried=0 ran=0
	for n in $LIMITS; do
		# shellcheck disable=SC2086
		(ulimit -n $n; exec "$BPFBENCH" -w0 -d0.2 --period-ms 100 -q $spec) >"$TMPD/out" 2>"$TMPD/err"
		rc=$?
		tried=$((tried + 1))
		[ "$rc" -eq 0 ] && { ran=$n; break; }
		if [ "$rc" -ne 1 ] || [ "$(grep -c . "$TMPD/err")" -ne 1 ] ||
			! grep -q '^bpfbench: error: ' "$TMPD/err"; then
			bad=$((bad + 1))
			diag "$name, ulimit -n $n: rc $rc: $(head -c 300 "$TMPD/err")"
		fi
	done
	ok "$bad" "$name: each of $((tried - 1)) runs short of fds exits 1 with one error line (ran at ulimit -n ${ran:-never})"
done
(ulimit -n 6; exec "$BPFBENCH" -w0 -d1 -q noop) >"$TMPD/out" 2>"$TMPD/err"
grep -q 'file descriptors' "$TMPD/err"
ok $? "noop at ulimit -n 6: the line names the file descriptors" || diag "$(cat "$TMPD/err")"
# lpm-trie-free's own choice of method: short of descriptors, the tracepoint
# way failed and its memcg fallback skipped (exit 4, "the trie's charge is
# too small"), hiding the cause
bad=
for n in 5 8 10 13; do
	(ulimit -n $n; exec "$BPFBENCH" -w0 -d1 -q lpm-trie-free) >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ "$rc" -eq 1 ] && grep -q '^bpfbench: error: .*file descriptors' "$TMPD/err" || bad+=" $n:rc$rc"
done
[ -z "$bad" ]
ok $? "lpm-trie-free at ulimit -n 5, 8, 10, 13: exit 1 naming the file descriptors, never a skip" ||
	diag "$bad" "$(cat "$TMPD/err")"
# a suite whose every step failed wrote its failed rows over the file, silently
printf 'old\n' >"$TMPD/s.json"
(ulimit -n 6; exec "$BPFBENCH" suite bpf-loop -w0 -d1 --json "$TMPD/s.json") >"$TMPD/out" 2>"$TMPD/err"
rc=$?
[ "$rc" -eq 1 ] && [ "$(cat "$TMPD/s.json")" = old ] &&
	grep -q '^bpfbench: error: suite bpf-loop: all [0-9]* steps failed, nothing written' "$TMPD/err" &&
	grep -q '^bpfbench: error: bpf-loop: setup failed: .*file descriptors.* ([0-9]* steps)$' "$TMPD/err"
ok $? "a suite whose every step failed (ulimit -n 6): exit 1, the old file kept, why on stderr" ||
	diag "rc $rc" "$(cat "$TMPD/err")" "$(head -c 200 "$TMPD/s.json")"
now=$(kernel_objects_settle "$before")
ok $? "after every run short of fds: kernel objects as before ($now)"
done_testing
