#!/usr/bin/env bash
# `bpfbench host`: show reads this host (with or without cpufreq, here and
# inside the VM runner: make check-kernel-ci runs this file in a guest
# kernel too), and tune/reset turn a fake sysfs tree's knobs and turn them
# back exactly (BPFBENCH_SYSFS_ROOT, BPFBENCH_HOST_STATE).
source "$(dirname "$0")/lib.sh"
need_bpf

run host show --quick --json
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["nr_cpus"] >= 1 and len(d["cpus"]) == d["nr_cpus"]
assert all(c["irqs_per_s"] >= 0 and 0 <= c["steal_pct"] <= 100 for c in d["cpus"])' "$TMPD/out"
ok $? "host show --quick --json: a JSON object with every CPU (rc=$RC)" || diag "$OUT" "$ERR"
gov=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo "")
python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["cpus"][0]["governor"] != sys.argv[2])' \
	"$TMPD/out" "$gov"
ok $? "the governor is this host's cpufreq one, or empty without cpufreq ('$gov')"

run host show
grep -q '^speed cpu0 .*user loop [0-9.]* us' <<<"$OUT" && grep -q '^noop spread .*sd of 5 noop runs' <<<"$OUT" &&
	grep -q '^What each is worth:' <<<"$OUT"
ok $? "host show measures each CPU's speed and a noop spread, then says what each is worth (rc=$RC)" ||
	diag "$OUT" "$ERR"

# a fake tree: two CPUs with cpufreq at powersave, boost on
fake=$TMPD/sys
for c in 0 1; do
	mkdir -p "$fake/sys/devices/system/cpu/cpu$c/cpufreq"
	echo powersave >"$fake/sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor"
done
mkdir -p "$fake/sys/devices/system/cpu/cpufreq"
echo 1 >"$fake/sys/devices/system/cpu/cpufreq/boost"
export BPFBENCH_SYSFS_ROOT=$fake BPFBENCH_HOST_STATE=$TMPD/state
run host show --quick --json
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["nr_cpus"] == 2 and d["cpus"][1]["governor"] == "powersave" and d["boost"] == "on"' "$TMPD/out"
ok $? "host show reads a tree with cpufreq: governors and boost (rc=$RC)" || diag "$OUT" "$ERR"
run host tune
[ "$RC" -eq 0 ] && [ "$(cat "$fake/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor")" = performance ] &&
	[ "$(cat "$fake/sys/devices/system/cpu/cpufreq/boost")" = 0 ] && [ -s "$TMPD/state" ]
ok $? "host tune: governors to performance, boost off, the old values kept (rc=$RC)" || diag "$OUT" "$ERR"
run host tune
grep -q 'nothing to change' <<<"$OUT"
ok $? "a second tune changes nothing and keeps the first one's old values: $OUT"
run host reset
[ "$RC" -eq 0 ] && [ "$(cat "$fake/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")" = powersave ] &&
	[ "$(cat "$fake/sys/devices/system/cpu/cpufreq/boost")" = 1 ] && [ ! -e "$TMPD/state" ]
ok $? "host reset writes back what tune changed and forgets it (rc=$RC): $OUT" || diag "$ERR"
run host reset
[ "$RC" -eq 0 ] && grep -q 'nothing to reset' <<<"$OUT"
ok $? "reset with nothing tuned says so (rc=$RC)"
ln -s "$TMPD/elsewhere" "$TMPD/state"
run host tune
[ "$RC" -ne 0 ] && [ ! -e "$TMPD/elsewhere" ]
ok $? "tune never writes its state through a link (rc=$RC)" || diag "$ERR"
unset BPFBENCH_SYSFS_ROOT BPFBENCH_HOST_STATE

run host frobnicate
[ "$RC" -eq 2 ] && grep -q "unknown action" <<<"$ERR"
ok $? "an unknown action is a usage error (rc=$RC)"
run host show --bogus
[ "$RC" -eq 2 ]
ok $? "an unknown option is a usage error (rc=$RC)"
done_testing
