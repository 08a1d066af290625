#!/usr/bin/env bash
# Runs the C unit tests (tests/unit/*_test.c); each prints its own TAP plan.
source "$(dirname "$0")/lib.sh"

bins=("$(dirname "$BPFBENCH")"/tests/*_test)
[ -x "${bins[0]}" ] || skip_all "unit tests not built (make all)"
for b in "${bins[@]}"; do
	name=$(basename "$b")
	# stats and the core (through its BPF-free test double) need no privileges
	if [ "$name" != stats_test ] && [ "$name" != core_test ] && [ "$(id -u)" -ne 0 ]; then
		skip "$name needs root"
		continue
	fi
	out=$("$b" 2>&1)
	rc=$?
	nfail=$(grep -c '^not ok' <<<"$out")
	nok=$(grep -c '^ok' <<<"$out")
	[ "$rc" -eq 0 ] && [ "$nfail" -eq 0 ] && [ "$nok" -gt 0 ]
	ok $? "$name: $nok passed, $nfail failed"
	[ "$rc" -eq 0 ] || diag "$(grep '^not ok' <<<"$out")"
done
done_testing
