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

# reset trusts its state file no more than an output file: root writes what it lists
rm -f "$TMPD/state"
gov0=$fake/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor
printf '%s\tpowersave\n' "$gov0" >"$TMPD/real-state"
ln -s "$TMPD/real-state" "$TMPD/state"
echo performance >"$gov0"
run host reset
[ "$RC" -eq 1 ] && [ "$(cat "$gov0")" = performance ] && [ -e "$TMPD/real-state" ] &&
	grep -q "^bpfbench: error: host reset: $TMPD/state: a symbolic link: refused" <<<"$ERR" && ! grep -q 'nothing to reset' <<<"$OUT"
ok $? "reset never reads its state through a link: exit 1, said, nothing written (rc=$RC)" || diag "$OUT" "$ERR"
rm -f "$TMPD/state"
cp "$TMPD/real-state" "$TMPD/state"
chmod 0666 "$TMPD/state"
run host reset
[ "$RC" -eq 1 ] && [ "$(cat "$gov0")" = performance ] && [ -e "$TMPD/state" ] &&
	grep -q "^bpfbench: error: host reset: $TMPD/state: writable by others (owner uid [0-9]*, mode 0666): refused" <<<"$ERR"
ok $? "reset refuses a state file others can write (rc=$RC)" || diag "$OUT" "$ERR"
chmod 0600 "$TMPD/state"
if [ "$(id -u)" -eq 0 ]; then
	chown 65534 "$TMPD/state"
	run host reset
	[ "$RC" -eq 1 ] && [ "$(cat "$gov0")" = performance ] &&
		grep -q "^bpfbench: error: host reset: $TMPD/state: another user's (owner uid 65534, mode 0600): refused" <<<"$ERR"
	ok $? "reset refuses another user's state file (rc=$RC)" || diag "$OUT" "$ERR"
	chown 0 "$TMPD/state"
fi
mkdir -p "$TMPD/etc"
echo keep >"$TMPD/etc/victim"
echo performance >"$fake/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"
echo 0 >"$fake/sys/devices/system/cpu/cpufreq/boost"
{
	printf '%s\tpowersave\n' "$gov0"
	printf '%s\tx\n' "$TMPD/etc/victim"
	printf '%s\t0\n' "$fake/sys/devices/system/cpu/cpu1/cpufreq/../../../../../../../etc/victim"
	printf '%s\tevil value\n' "$fake/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"
	printf '%s\t7\n' "$fake/sys/devices/system/cpu/cpufreq/boost"
} >"$TMPD/state"
run host reset
[ "$RC" -eq 1 ] && [ "$(cat "$TMPD/etc/victim")" = keep ] && [ "$(cat "$gov0")" = powersave ] &&
	[ "$(cat "$fake/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor")" = performance ] &&
	[ "$(cat "$fake/sys/devices/system/cpu/cpufreq/boost")" = 0 ] && [ -e "$TMPD/state" ] &&
	[ "$(grep -c 'not a knob host tune turns' <<<"$ERR")" -eq 2 ] && [ "$(grep -c 'not a value host tune saves' <<<"$ERR")" -eq 2 ] &&
	grep -q "^bpfbench: error: host reset: $TMPD/etc/victim: not a knob host tune turns" <<<"$ERR" &&
	grep -q "^bpfbench: error: host reset: 1 of 5 values written back; the state stays in $TMPD/state$" <<<"$ERR"
ok $? "reset writes only the knobs tune turns, under the sysfs root, values of their kind; the rest named, exit 1 (rc=$RC)" ||
	diag "$OUT" "$ERR"

# a write-back that fails (a CPU gone offline) or a garbage line: exit 1, each named, the state kept
printf '%s\tpowersave\n%s\tpowersave\ngarbage\n' "$gov0" "$fake/sys/devices/system/cpu/cpu7/cpufreq/scaling_governor" >"$TMPD/state"
echo performance >"$gov0"
run host reset
[ "$RC" -eq 1 ] && [ "$(cat "$gov0")" = powersave ] && [ -e "$TMPD/state" ] && ! grep -q 'nothing to reset' <<<"$OUT$ERR" &&
	grep -q "^bpfbench: error: host reset: $fake/sys/devices/system/cpu/cpu7/cpufreq/scaling_governor: No such file or directory$" <<<"$ERR" &&
	grep -q "^bpfbench: error: host reset: $TMPD/state line 3: not path<TAB>value$" <<<"$ERR" &&
	grep -q "^bpfbench: error: host reset: 1 of 3 values written back; the state stays in $TMPD/state$" <<<"$ERR"
ok $? "a failed write-back: exit 1, each path that failed named, the state kept; not 'nothing to reset' (rc=$RC)" ||
	diag "$OUT" "$ERR"
rm -f "$TMPD/state"
unset BPFBENCH_SYSFS_ROOT BPFBENCH_HOST_STATE

run host frobnicate
[ "$RC" -eq 2 ] && grep -q "unknown action" <<<"$ERR"
ok $? "an unknown action is a usage error (rc=$RC)"
run host show --bogus
[ "$RC" -eq 2 ]
ok $? "an unknown option is a usage error (rc=$RC)"
done_testing
