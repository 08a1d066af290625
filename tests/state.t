#!/usr/bin/env bash
# Kernel state: our programs, maps and links (tests/lib.sh) are the same
# before and after a run, a failing run, and SIGINT/SIGTERM mid-run.
source "$(dirname "$0")/lib.sh"
need_bpf
command -v bpftool >/dev/null && command -v jq >/dev/null || skip_all "needs bpftool and jq"

before=$(kernel_objects_settle "0 0 0")	# ours only (lib.sh): none yet
diag "programs maps links before: $before"

run bpf-loop -w0 -d0.2 --period-ms 100 -q
ok "$RC" "a normal run succeeds"
now=$(kernel_objects_settle "$before")
ok $? "after a normal run: $now"

# a setup the kernel refuses: fentry where it is refused, else a map too big
if "$BPFBENCH" probe | grep -q '^trigger_fentry *no'; then
	run bpf-loop -w0 -d1 -q --trigger fentry
else
	run htab-mem --preallocated --max-entries 16777216 --value-size 4096 -w0 -d1 -q
fi
[ "$RC" -ne 0 ]
ok $? "a run whose setup fails exits non-zero ($RC)"
now=$(kernel_objects_settle "$before")
ok $? "after a failing setup: $now"

run bpf-loop -w0 -d1 -q --json /nonexistent-dir/x.json
[ "$RC" -eq 1 ] && grep -q 'cannot write /nonexistent-dir/x.json' <<<"$ERR"
ok $? "an unwritable --json file: exit 1 naming it"
now=$(kernel_objects_settle "$before")
ok $? "after a failed write: $now"

# sig_test SIGNAL EXPECTED-EXIT: mid-run, once the benchmark started; the
# stop within a deadline measured now (tests/lib.sh: a whole short run of
# the same benchmark, before and after, doubled), not a fixed 5 s
sig_test() {
	local rc during started t0 ms ref1 ref2 limit
	ref1=$(ref_ms bpf-loop -w0 -d0.01 --period-ms 10 -q)
	bg_start bpf-loop -w0 -d30
	started=$?
	during=$(kernel_objects)
	t0=$(date +%s%N)
	kill -"$1" "$PID"
	wait "$PID"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	ref2=$(ref_ms bpf-loop -w0 -d0.01 --period-ms 10 -q)
	limit=$(deadline_ms "$ref1" "$ref2")
	[ "$started" -eq 0 ] && [ "$during" != "$before" ]
	ok $? "mid-run the benchmark's objects exist ($during)"
	[ "$rc" -eq "$2" ] && [ "$ms" -le "$limit" ]
	ok $? "SIG$1 stops the run promptly, exit $rc (want $2) in $ms ms (deadline $limit ms: whole runs took $ref1, $ref2 ms)"
	now=$(kernel_objects_settle "$before")
	ok $? "after SIG$1: $now"
}
sig_test INT 130
sig_test TERM 143

# A signal during a long setup (a 50M-entry bloom filter being filled) is
# reported as the signal, whether setup noticed it or had just finished.
"$BPFBENCH" bloom-lookup --nr_entries 50000000 -w0 -d5 -q >/dev/null 2>"$TMPD/setup.err" &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] && grep -q 'interrupted by signal 15' "$TMPD/setup.err" &&
	[ "$(grep -c . "$TMPD/setup.err")" -eq 1 ]
ok $? "SIGTERM in setup: exit 143, one line naming the signal (rc $rc)" || diag "$(cat "$TMPD/setup.err")"
now=$(kernel_objects_settle "$before")
ok $? "after SIGTERM in setup: $now"
done_testing
