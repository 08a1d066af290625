#!/usr/bin/env bash
# The attach and rename families' kernel side, where the kernel offers it
# (make check-kernel-ci boots Debian's 7.3, where every name runs): each
# attach type runs and counts --trig-batch-iters hits per driver run, the
# -all rows with an empty program on every other traceable function, and
# nothing of ours is left.  SKIPs where kprobes are missing (this host).
source "$(dirname "$0")/lib.sh"
need_bpf
before=$(kernel_objects_settle "0 0 0")
J="$TMPD/k.json"

run -w0 -d0.4 --period-ms 200 -q trig-kprobe --json "$J"
[ "$RC" -eq 4 ] && skip_all "$(head -1 <<<"$ERR")"

for b in kprobe kretprobe kprobe-multi kretprobe-multi kprobe-multi-all kretprobe-multi-all \
	 fentry fexit fmodret tp rawtp; do
	run -w0 -d0.4 --period-ms 200 -q trig-$b --trig-batch-iters 10 --json "$J"
	[ "$RC" -eq 0 ] && json_check "$J" "t = d['runs'][0]['totals']
t['driver_runs'] > 0 and t['hits'] == 10 * t['driver_runs']"
	ok $? "trig-$b runs: 10 hits per driver run" || diag "rc=$RC $(tail -3 <<<"$ERR")"
done

for b in kprobe kretprobe fentry fexit; do
	run -w0 -d0.4 --period-ms 200 -q rename-$b --json "$J"
	[ "$RC" -eq 0 ] && json_check "$J" "s = d['runs'][0]['samples']
all(x['hits_count'] > 0 for x in s)"
	ok $? "rename-$b runs" || diag "rc=$RC $(tail -3 <<<"$ERR")"
done

after=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel ($before -> $after)"
done_testing
