#!/usr/bin/env bash
# The rename family: writes to /proc/self/comm per second, one producer,
# with one program on the rename path; what this kernel refuses exits 4
# with the reason and where it runs; nothing is left in the kernel.
source "$(dirname "$0")/lib.sh"
need_bpf
before=$(kernel_objects)
J="$TMPD/r.json"

probe=$("$BPFBENCH" probe --json)
for b in rename-base rename-rawtp rename-kprobe rename-kretprobe rename-fentry rename-fexit; do
	can=$(python3 -c "import json,sys; print(json.load(sys.stdin)['benchmarks']['$b']['runs'])" <<<"$probe")
	run -w0 -d0.3 --period-ms 100 -q $b --json "$J"
	if [ "$can" = True ]; then
		[ "$RC" -eq 0 ] && json_check "$J" "
s = d['runs'][0]['samples']
len(s) == 3 and all(x['hits_count'] > 0 for x in s)"
		ok $? "$b: every sample counted writes" || diag "rc=$RC $ERR"
	else
		[ "$RC" -eq 4 ] && grep -q -- "--kernel 7.3 $b" <<<"$ERR"
		ok $? "$b: refused here, exit 4 with the reason and --kernel 7.3" || diag "rc=$RC $ERR"
	fi
done

run -w0 -d0.3 --period-ms 100 -p2 rename-base
[ "$RC" -eq 2 ]
ok $? "-p2 is refused: one producer, as upstream" || diag "rc=$RC $ERR"

after=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel ($before -> $after)"
done_testing
