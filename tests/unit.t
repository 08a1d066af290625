#!/usr/bin/env bash
# Runs the C unit tests (tests/unit/*_test.c), each without privileges:
# none of them uses bpf() (those that do are tests/kernel/'s, run by the
# kernel tests).  As root each runs as nobody; each prints its own TAP plan.
source "$(dirname "$0")/lib.sh"

bins=("$(dirname "$BPFBENCH")"/tests/*_test)
[ -x "${bins[0]}" ] || skip_all "unit tests not built (make all)"
unpriv=()
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null || skip_all "setpriv (util-linux) missing"
	unpriv=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
for b in "${bins[@]}"; do
	name=$(basename "$b")
	out=$(cd / && "${unpriv[@]}" "$b" 2>&1)
	rc=$?
	nfail=$(grep -c '^not ok' <<<"$out")
	nok=$(grep -c '^ok' <<<"$out")
	[ "$rc" -eq 0 ] && [ "$nfail" -eq 0 ] && [ "$nok" -gt 0 ]
	ok $? "$name, unprivileged: $nok passed, $nfail failed"
	[ "$rc" -eq 0 ] || diag "$(grep '^not ok' <<<"$out")"
done
done_testing
