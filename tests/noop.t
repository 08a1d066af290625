#!/usr/bin/env bash
# noop, the harness floor: its throughput is the program's own count of
# empty ops over the period (--batch N ops a program run), for each
# trigger this kernel offers; nothing is left in the kernel.
source "$(dirname "$0")/lib.sh"
need_bpf
before=$(kernel_objects)

for batch in 1 64; do
	run -w0 -d0.4 --period-ms 100 -q noop --batch $batch --json "$TMPD/n$batch.json"
	[ "$RC" -eq 0 ] && json_check "$TMPD/n$batch.json" "
s = d['runs'][0]['samples']
len(s) == 4 and all(x['throughput'] > 0 for x in s)"
	ok $? "--batch $batch: every sample counted ops" || diag "rc=$RC $ERR"
done

run -w0 -d0.4 --period-ms 100 -q --trigger raw-tp noop --json "$TMPD/rt.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/rt.json" '
r = d["runs"][0]
r["trigger"] == "raw-tp" and r["family"] == "noop" and r["metrics"]["throughput"]["mean"] > 0'
ok $? "the raw-tp trigger counts our getpgid() calls" || diag "rc=$RC $ERR"

after=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel ($before -> $after)"
done_testing
