#!/usr/bin/env bash
# Without the privileges for bpf(): one line naming what is missing, exit 1.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip_all "needs root to drop privileges"
command -v setpriv >/dev/null || skip_all "needs setpriv"

# The binary must be reachable by the unprivileged user.
cp "$BPFBENCH" "$TMPD/bpfbench"
chmod 755 "$TMPD" "$TMPD/bpfbench"
unpriv() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	--bounding-set=-all "$TMPD/bpfbench" "$@"; }

unpriv bpf-loop -w0 -d1 >"$TMPD/out" 2>"$TMPD/err"
rc=$?
[ "$rc" -eq 1 ] && [ "$(grep -c . "$TMPD/err")" -eq 1 ] && grep -q 'CAP_BPF' "$TMPD/err"
ok $? "unprivileged run: exit 1, one line naming CAP_BPF (rc $rc)" || diag "$(cat "$TMPD/err")"

# The probes: a permission problem, never a feature the kernel lacks.
unpriv probe --json >"$TMPD/probe.json" 2>"$TMPD/err"
rc=$?
[ "$rc" -eq 0 ] && json_check "$TMPD/probe.json" '
f = d["features"]
maps = [k for k in f if k.startswith("map_")] + ["rb_overwrite"]
honest = all(f[k]["available"] is None and "no permission" in f[k]["detail"] for k in maps)
honest and not any("unknown to this kernel" in v["detail"] for v in f.values())'
ok $? "unprivileged probe: every map probe says 'no permission', available null, none 'unknown to the kernel'" ||
	diag "$(jq -c '.features | with_entries(select(.key | startswith("map_"))) | map_values(.detail)' "$TMPD/probe.json" 2>&1 | head -c 600)"
json_check "$TMPD/probe.json" '
f = d["features"]
f["bpf_syscall"]["available"] is False and f["privileges"]["available"] is False'
ok $? "unprivileged probe: bpf_syscall and privileges are plainly no"

unpriv suite bloom -w0 -d1 >"$TMPD/out" 2>"$TMPD/err"
rc=$?
[ "$rc" -eq 1 ] && grep -qi 'permission\|CAP_BPF' "$TMPD/err" && ! grep -q 'offers no' "$TMPD/err"
ok $? "unprivileged suite bloom: exit 1 naming the privilege, never 'offers no' (rc $rc)"

# --- CAP_BPF+CAP_PERFMON without root: what needs more is a privilege error (exit 1
# naming the capability), never a skip (exit 4) saying the kernel lacks something ---
capped() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+bpf,+perfmon \
	--ambient-caps=+bpf,+perfmon "$TMPD/bpfbench" "$@"; }
if capped --version >/dev/null 2>&1; then
	capped -w0 -d1 -q map-ops >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ "$rc" -eq 1 ] && [ "$(grep -c . "$TMPD/err")" -eq 1 ] &&
		grep -q '^bpfbench: error: map-ops: .*CAP_NET_ADMIN' "$TMPD/err"
	ok $? "CAP_BPF+CAP_PERFMON: map-ops (tc test-run) exits 1 naming CAP_NET_ADMIN (rc $rc)" ||
		diag "$(cat "$TMPD/err")"
	capped -w0 -d1 -q map-batch >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ "$rc" -eq 1 ] && [ "$(grep -c . "$TMPD/err")" -eq 1 ] && grep -q 'CAP_NET_ADMIN' "$TMPD/err"
	ok $? "CAP_BPF+CAP_PERFMON: map-batch (an XDP census) exits 1 naming CAP_NET_ADMIN (rc $rc)" ||
		diag "$(cat "$TMPD/err")"
	capped -w0 -d1 -q lpm-trie-free --free-method memcg >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ "$rc" -eq 1 ] && [ "$(grep -c . "$TMPD/err")" -eq 1 ] && grep -q 'no permission.*CAP_' "$TMPD/err"
	ok $? "CAP_BPF+CAP_PERFMON: lpm-trie-free that may not make its cgroup exits 1 naming the privilege (rc $rc)" ||
		diag "$(cat "$TMPD/err")"
	capped -w0 -d0.1 --period-ms 100 -q htab-mem >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ "$rc" -eq 0 ]
	ok $? "CAP_BPF+CAP_PERFMON: htab-mem runs (bpf_loop probed as CAP_BPF may use it, raw-tp trigger) (rc $rc)" ||
		diag "$(cat "$TMPD/err")"
	bad=0
	# (a run that starts is all each one needs: -d0.1)
	for b in $("$BPFBENCH" --list | awk '{ print $1 }'); do
		c=; [ "${b#rb-}" != "$b" ] || [ "${b#pb-}" != "$b" ] && c=-c1
		# shellcheck disable=SC2086
		capped -w0 -d0.1 --period-ms 100 -q $c "$b" --nr_entries 1000 >"$TMPD/out" 2>"$TMPD/err" ||
			capped -w0 -d0.1 --period-ms 100 -q $c "$b" >"$TMPD/out" 2>"$TMPD/err"
		rc=$?
		# (fentry refused by the kernel itself, root too, is the kernel's: trigger_fentry)
		if [ "$rc" -eq 4 ] && grep -qi 'EPERM\|EACCES\|permission' "$TMPD/err" &&
			! grep -q 'refused by the kernel' "$TMPD/err"; then
			bad=$((bad + 1))
			diag "$b: rc 4: $(cat "$TMPD/err")"
		fi
		if [ "$rc" -eq 1 ] && ! grep -q 'CAP_' "$TMPD/err"; then
			bad=$((bad + 1))
			diag "$b: rc 1 naming no capability: $(cat "$TMPD/err")"
		fi
	done
	ok "$bad" "CAP_BPF+CAP_PERFMON: no benchmark skips for a permission; each failure names a capability ($bad bad)"
	capped probe --json >"$TMPD/probe.json" 2>"$TMPD/err"
	json_check "$TMPD/probe.json" '
f = d["features"]
t = f["trigger_test_run"]
t["available"] is None and "CAP_NET_ADMIN" in t["detail"] and f["helper_bpf_loop"]["available"] is True'
	ok $? "CAP_BPF+CAP_PERFMON probe: test-run null naming CAP_NET_ADMIN, bpf_loop available" ||
		diag "$(jq -c '.features | map_values(.detail)' "$TMPD/probe.json" 2>&1 | head -c 800)"
else
	for i in 1 2 3 4 5 6; do skip "setpriv cannot grant ambient CAP_BPF+CAP_PERFMON"; done
fi

unpriv --list >/dev/null 2>&1
ok $? "--list needs no privileges"
unpriv bpf-loop --nr_loops 0 >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "bad usage is still exit 2 without privileges"
done_testing
