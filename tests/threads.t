#!/usr/bin/env bash
# The run's threads: a thread that cannot be created (ulimit -v, a pids
# cgroup) ends the run with one line and exit 1, never a crash, the threads
# that did start stopped before teardown; the clock starts when all run,
# so no sample counts the work done while a thousand threads were created;
# a signal while they start acts at once.
source "$(dirname "$0")/lib.sh"
need_bpf

before=$(kernel_objects_settle "0 0 0")	# ours only (lib.sh): none yet
ncpu=$(nproc)
asan=0
nm "$BPFBENCH" 2>/dev/null | grep -q __asan_init && asan=1

# one_line_exit1 WHAT: exit 1, one "bpfbench: error:" line naming the thread that failed
one_line_exit1() {
	[ "$RC" -eq 1 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] &&
		grep -q '^bpfbench: error: htab-mem: cannot start thread [0-9]* of 64' <<<"$ERR"
}

# --- a pids cgroup that allows 24 tasks: the 64 producers cannot all start ---
PIDS=/sys/fs/cgroup/pids
if [ -w "$PIDS" ] && [ -f "$PIDS/cgroup.procs" ]; then
	cg="$PIDS/bpfbench-threads-$$"
	mkdir "$cg" && echo 24 >"$cg/pids.max"
	# removed however the test ends (an interrupted one left its cgroup behind)
	trap 'rmdir "$cg" 2>/dev/null; rm -rf "$TMPD"' EXIT
	bad=0
	for i in 1 2 3 4 5; do
		(echo "$BASHPID" >"$cg/cgroup.procs" && exec "$BPFBENCH" -w0 -d0.5 --period-ms 100 \
			-p 64 htab-mem -q) >"$TMPD/out" 2>"$TMPD/err"
		RC=$?
		ERR=$(cat "$TMPD/err")
		one_line_exit1 || { bad=$((bad + 1)); diag "run $i: rc $RC: $(head -c 600 "$TMPD/err")"; }
	done
	ok "$bad" "pids.max 24, -p 64 htab-mem, 5 runs: each exit 1 with one line, never a crash ($bad bad)"
	# the maps family starts its own threads: it said only "Resource temporarily unavailable"
	(echo "$BASHPID" >"$cg/cgroup.procs" && exec "$BPFBENCH" -w0 -d0.5 --period-ms 100 \
		-p 64 map-lookup -q) >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	ERR=$(cat "$TMPD/err")
	[ "$RC" -eq 1 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] &&
		grep -q '^bpfbench: error: map-lookup: cannot start thread [0-9]* of 64: .*pids cgroup' <<<"$ERR"
	ok $? "pids.max 24, -p 64 map-lookup: exit 1, one line naming the thread and the limits" ||
		diag "rc $RC: $ERR"
	for i in $(seq 1 30); do rmdir "$cg" 2>/dev/null && break; sleep 0.1; done
	now=$(kernel_objects_settle "$before")
	ok $? "after the pids cgroup runs: kernel objects as before ($now)"
else
	skip "no writable cgroup v1 pids controller"
	skip "no writable cgroup v1 pids controller"
	skip "no writable cgroup v1 pids controller"
fi

# --- ulimit -v: thread stacks do not fit (ASan reserves more than the limit: plain builds) ---
if [ "$asan" -eq 0 ]; then
	bad=0
	for i in 1 2 3 4 5; do
		bash -c 'ulimit -v 200000; exec "$0" -w0 -d0.5 --period-ms 100 -p 64 htab-mem -q' \
			"$BPFBENCH" >"$TMPD/out" 2>"$TMPD/err"
		RC=$?
		ERR=$(cat "$TMPD/err")
		one_line_exit1 || { bad=$((bad + 1)); diag "run $i: rc $RC: $(head -c 600 "$TMPD/err")"; }
	done
	ok "$bad" "ulimit -v 200000, -p 64 htab-mem, 5 runs: each exit 1 with one line ($bad bad)"
	now=$(kernel_objects_settle "$before")
	ok $? "after the ulimit -v runs: kernel objects as before ($now)"
else
	skip "ASan build: its shadow memory exceeds any ulimit -v (the pids case covers it)"
	skip "ASan build"
fi

# --- -p 256 -w0: no sample faster than the CPUs could run the program ---
# The kernel's own accounting gives the time one empty program run takes
# inside the kernel; $ncpu CPUs cannot run more than $ncpu / that per second.
run -w0 -d0.5 --period-ms 250 -p 256 noop --kernel-stats --json "$TMPD/p256.json" -q
[ "$RC" -eq 0 ] && json_check "$TMPD/p256.json" "
r = d['runs'][0]
k = r['kernel_stats']
bound = $ncpu * 1e3 / k['ns_per_run'] * 1.25
rates = [s['throughput'] for s in r['samples']]
print('# bound %.1f M ops/s, samples %s' % (bound, ['%.1f' % x for x in rates]))
k['valid'] and max(rates) <= bound"
ok $? "-p 256 -w0 noop: every sample within what $ncpu CPUs can run (work before the clock not counted)" ||
	diag "rc $RC" "$ERR"

# --- SIGINT while 1024 threads start: acted on at once, nothing left ---
# (at once: within a deadline measured now, tests/lib.sh, from whole short
# -p 1024 runs, which start and join as many threads)
ref1=$(ref_ms -w0 -d0.01 --period-ms 10 -p 1024 noop -q)
"$BPFBENCH" -w0 -d30 -p 1024 noop -q >"$TMPD/sig.out" 2>"$TMPD/sig.err" &
pid=$!
sleep 0.3
catching $pid
t0=$(date +%s%N)
kill -INT $pid
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
limit=$(deadline_ms "$ref1" "$(ref_ms -w0 -d0.01 --period-ms 10 -p 1024 noop -q)")
[ "$rc" -eq 130 ] && [ "$ms" -le "$limit" ]
ok $? "SIGINT 0.3 s into a -p 1024 run: exit $rc within $ms ms (deadline $limit ms)" || diag "$(cat "$TMPD/sig.err")"
now=$(kernel_objects_settle "$before")
ok $? "after -p 1024 and SIGINT: kernel objects as before ($now)"
done_testing
