#!/usr/bin/env bash
# Kernel state: our programs, maps and links (tests/lib.sh) are the same
# before and after a run, a failing run, and SIGINT/SIGTERM mid-run.
source "$(dirname "$0")/lib.sh"
need_bpf
command -v bpftool >/dev/null && command -v jq >/dev/null || skip_all "needs bpftool and jq"

before=$(kernel_objects_settle "0 0 0")	# ours only (lib.sh): none yet
diag "programs maps links before: $before"

run bpf-loop -w0 -d1 -q
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

# sig_test SIGNAL EXPECTED-EXIT
sig_test() {
	local pid rc during t0 t1
	"$BPFBENCH" bpf-loop -w0 -d30 -q >/dev/null 2>&1 &
	pid=$!
	sleep 1.5
	during=$(kernel_objects)
	t0=$(date +%s)
	kill -"$1" "$pid"
	wait "$pid"
	rc=$?
	t1=$(date +%s)
	[ "$during" != "$before" ]
	ok $? "mid-run the benchmark's objects exist ($during)"
	[ "$rc" -eq "$2" ] && [ $((t1 - t0)) -lt 5 ]
	ok $? "SIG$1 stops the run promptly, exit $rc (want $2)"
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
