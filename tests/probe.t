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
done_testing
