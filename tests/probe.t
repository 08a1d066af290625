#!/usr/bin/env bash
# bpfbench probe lists which benchmarks this kernel can run, from their requires.
source "$(dirname "$0")/lib.sh"
need_bpf

run probe
names=$("$BPFBENCH" --list | awk '{ print $1 }')
missing=""
for n in $names; do
	grep -qE "^$n +(yes|no) " <<<"$OUT" || missing="$missing $n"
done
[ "$RC" -eq 0 ] && [ -z "$missing" ]
ok $? "probe lists every benchmark of --list with yes or no${missing:+ (missing:$missing)}"
grep -qE '^noop +yes' <<<"$OUT"
ok $? "noop runs here (it needs nothing but a trigger)"

"$BPFBENCH" probe --json >"$TMPD/p.json"
python3 - "$TMPD/p.json" "$names" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["benchmarks"]
names = sys.argv[2].split()
assert sorted(b) == sorted(names), (sorted(b), names)
assert all(isinstance(v["runs"], bool) and (v["runs"] or v["lacks"]) for v in b.values())
PY
ok $? "probe --json: every benchmark, runs true or false with what it lacks"

# The C test of the probes themselves (tests/kernel/probe_test.c): facts
# that hold wherever bpf() works, and no object left behind.
out=$("$(dirname "$BPFBENCH")"/tests/kernel/probe_test 2>&1)
rc=$?
nfail=$(grep -c '^not ok' <<<"$out")
nok=$(grep -c '^ok' <<<"$out")
[ "$rc" -eq 0 ] && [ "$nfail" -eq 0 ] && [ "$nok" -gt 0 ]
ok $? "probe_test: $nok passed, $nfail failed" || diag "$(grep '^not ok' <<<"$out")"
done_testing
