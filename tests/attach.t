#!/usr/bin/env bash
# The attach family (trig-*): hits are what the kernel ran, so they agree
# exactly with what the producers did: batch_iters hits per driver run on
# the kernel side, one hit per call (per return for uretprobes) on the
# user side, multi forms as the plain ones; an attach type this kernel
# refuses exits 4 saying why and where it runs; --trigger is refused, -p
# and -a place the threads, --kernel-stats reads the measured program; the
# kernel's run_bench_trigger.sh and run_bench_uprobes.sh, unmodified, read
# our lines; nothing is left after any exit (signals too).
source "$(dirname "$0")/lib.sh"
need_bpf
before=$(kernel_objects)
J="$TMPD/a.json"
short=(-w0 -d0.4 --period-ms 100)

# totals NAME EXPR: the run's totals bound to t, EXPR true
totals() {
	json_check "$J" "t = d['runs'][0]['totals']; s = d['runs'][0]['samples']
$2"
}

for b in trig-kernel-count trig-rawtp; do
	run "${short[@]}" -q $b --trig-batch-iters 7 --json "$J"
	[ "$RC" -eq 0 ] && totals $b "t['driver_runs'] > 0 and t['hits'] == 7 * t['driver_runs']"
	ok $? "$b: every driver run hits 7 times (--trig-batch-iters 7)" || diag "rc=$RC $ERR"
done

for b in trig-uprobe-nop trig-uretprobe-nop trig-uprobe-multi-nop trig-uretprobe-multi-push \
	 trig-uprobe-ret trig-uprobe-nop5 trig-usdt-nop trig-usdt-nop10; do
	run "${short[@]}" -q $b --json "$J"
	if [ "$RC" -eq 4 ]; then
		grep -q -- '--kernel 7.3' <<<"$ERR"
		ok $? "$b: refused by this kernel, exit 4 with where it runs" || diag "$ERR"
		continue
	fi
	[ "$RC" -eq 0 ] && totals $b "t['calls'] > 0 and t['hits'] == t['calls'] and sum(x['hits_count'] for x in s) <= t['hits']"
	ok $? "$b: one hit per call of the probed function" || diag "rc=$RC $ERR"
done

for b in trig-usermode-count trig-syscall-count; do
	run "${short[@]}" -q $b --json "$J"
	[ "$RC" -eq 0 ] && totals $b "0 < sum(x['hits_count'] for x in s) <= t['calls']"
	ok $? "$b: its hits are its producer's own calls, no BPF" || diag "rc=$RC $ERR"
done

run "${short[@]}" -q -p2 -a trig-uprobe-nop --json "$J"
[ "$RC" -eq 0 ] && totals p2 "t['hits'] == t['calls'] and d['runs'][0]['options']['producers'] == 2"
ok $? "-p2 -a: two producers' calls, every one a hit" || diag "rc=$RC $ERR"

run "${short[@]}" --kernel-stats trig-rawtp
grep -q '^Kernel: program attach_rawtp ran [0-9]* times' <<<"$OUT"
ok $? "--kernel-stats reads the measured program" || diag "rc=$RC $OUT $ERR"
run "${short[@]}" --trigger raw-tp trig-rawtp
[ "$RC" -eq 2 ] && grep -q 'does not apply' <<<"$ERR"
ok $? "--trigger is refused: the family drives its programs itself" || diag "rc=$RC $ERR"
run "${short[@]}" --trig-batch-iters 1001 trig-rawtp
[ "$RC" -eq 2 ]
ok $? "--trig-batch-iters past 1000 is refused, as upstream's" || diag "rc=$RC $ERR"

# what this kernel refuses is said, with the remedy; what it offers runs
probe=$("$BPFBENCH" probe --json)
for b in trig-kprobe trig-kretprobe-multi trig-fentry trig-fmodret trig-tp trig-kprobe-multi-all; do
	can=$(python3 -c "import json,sys; print(json.load(sys.stdin)['benchmarks']['$b']['runs'])" <<<"$probe")
	run "${short[@]}" -q $b --json "$J"
	if [ "$can" = True ]; then
		[ "$RC" -eq 0 ] && totals $b "t['hits'] == 100 * t['driver_runs'] > 0"
		ok $? "$b: runs here, 100 hits a driver run" || diag "rc=$RC $ERR"
	else
		[ "$RC" -eq 4 ] && grep -q -- "--kernel 7.3 $b" <<<"$ERR"
		ok $? "$b: refused here, exit 4 with the reason and --kernel 7.3" || diag "rc=$RC $ERR"
	fi
done

# a signal mid-run: the links go with the process's exit path
for sig in INT TERM; do
	"$BPFBENCH" -w0 -d5 trig-uprobe-multi-nop >/dev/null 2>&1 &
	pid=$!
	sleep 0.7
	kill -$sig $pid
	wait $pid
	now=$(kernel_objects_settle "$before")
	ok $? "SIG$sig mid-run: nothing of ours left ($now)"
done

# the kernel's own scripts, unmodified, with bpfbench as ./bench (lib.sh)
if kernel_scripts run_bench_trigger.sh run_bench_uprobes.sh run_bench_rename.sh; then
	out=$(kernel_script run_bench_uprobes.sh)
	[ $? -eq 0 ] && [ "$(grep -cE '^[a-z-]+ *: +[0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M/s *$' <<<"$out")" -eq 8 ]
	ok $? "run_bench_uprobes.sh, unmodified: its 8 rows" || diag "$out"
	out=$(kernel_script run_bench_trigger.sh usermode-count kernel-count syscall-count rawtp)
	[ $? -eq 0 ] && [ "$(grep -cE '^[a-z-]+ *: +[0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M/s *$' <<<"$out")" -eq 4 ]
	ok $? "run_bench_trigger.sh, unmodified, on the rows this kernel runs" || diag "$out"
	out=$(kernel_script run_bench_rename.sh)
	grep -qE '^base *: +[0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M/s *$' <<<"$out"
	ok $? "run_bench_rename.sh, unmodified, reads rename-base (the next row may be refused here)" ||
		diag "$out"
else
	skip "the kernel's scripts: no $KSRC (apt-get install linux-source-6.12)"
fi

after=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel ($before -> $after)"
done_testing
