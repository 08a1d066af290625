#!/usr/bin/env bash
# The fentry trigger (upstream bench's own), where the kernel loads it (make
# check-kernel-ci boots such a kernel): every benchmark that has it runs with
# it and counts what it triggered; the others say they have none.  SKIPs
# (exit 4) where fentry is refused.
source "$(dirname "$0")/lib.sh"
need_bpf
before=$(kernel_objects_settle "0 0 0")

run -w0 -d1 -q noop --trigger fentry --json "$TMPD/n.json"
[ "$RC" -eq 4 ] && skip_all "$(head -1 <<<"$ERR")"
json_check "$TMPD/n.json" 'r = d["runs"][0]
r["trigger"] == "fentry" and r["metrics"]["throughput"]["mean"] > 0'
ok $? "noop --trigger fentry: runs, the JSON says fentry (rc=$RC)" || diag "$ERR"

# The families with a trigger of their choice (core, bpf-loop, bloom) have
# fentry (one benchmark of each program: bloom's four share theirs); the
# others say in one line that they have none (exit 4) or that it does not
# apply (exit 2: timed inside test-run programs).
for b in bpf-loop bpf-for bloom-lookup hashmap-with-bloom; do
	run -w0 -d1 -q $b --trigger fentry --json "$TMPD/f.json"
	[ "$RC" -eq 0 ] && json_check "$TMPD/f.json" 'd["runs"][0]["trigger"] == "fentry"'
	ok $? "$b --trigger fentry runs and says so (rc=$RC)" || diag "$ERR"
done
for b in htab-mem lpm-trie-lookup map-lookup; do
	run -w0 -d1 -q $b --trigger fentry
	[[ $RC =~ ^(2|4)$ ]] && [ "$(wc -l <<<"$ERR")" -eq 1 ] &&
		grep -qE 'has no fentry trigger|does not apply' <<<"$ERR"
	ok $? "$b --trigger fentry: exit $RC, one line: $ERR"
done

# bpf-loop's ops are runs x 1000 calls x nr_loops (a run under way at a
# sample's edge counted on one side only), whichever trigger ran them (the definition, never the speed: the VM's CPU may be emulated)
for tr in fentry raw-tp; do
	run -w0 -d1 -q bpf-loop --nr_loops 100 --trigger $tr --json "$TMPD/l-$tr.json"
	json_check "$TMPD/l-$tr.json" 's = d["runs"][0]["samples"]
all(abs(x["ops"] - x["runs"] * 100000) <= 100000 and x["runs"] > 0 for x in s)'
	ok $? "bpf-loop --trigger $tr: every sample's ops == runs x 1000 x 100 (one run in flight at its edge)"
	diag "bpf-loop --nr_loops 100 --trigger $tr: $(grep '^Summary' <<<"$OUT$ERR")"
done

now=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel: $now"
done_testing
