#!/usr/bin/env bash
# The count family, the harness's ceiling: every producer's increments are
# counted, global sharing one counter, local one each; no BPF, so it runs
# without privileges.
source "$(dirname "$0")/lib.sh"
J="$TMPD/c.json"

for b in count-global count-local; do
	run -w0 -d0.3 --period-ms 100 -q -p2 $b --json "$J"
	[ "$RC" -eq 0 ] && json_check "$J" "
s = d['runs'][0]['samples']
def agrees(x): return abs(x['hits'] * x['elapsed_ns'] - x['hits_count'] * 1e3) <= 1e-6 * x['hits_count'] * 1e3
len(s) == 3 and all(x['hits_count'] > 0 and agrees(x) for x in s)"
	ok $? "$b -p2: hits are the increments over the period" || diag "rc=$RC $ERR"
done

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	out=$(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$BPFBENCH" -w0 -d0.2 --period-ms 100 -q count-local 2>&1)
	grep -q '^Summary: hits' <<<"$out"
	ok $? "count-local runs unprivileged: no BPF" || diag "$out"
else
	skip "unprivileged run: needs root and setpriv to drop to nobody"
fi
done_testing
