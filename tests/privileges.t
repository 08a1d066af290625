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

unpriv --list >/dev/null 2>&1
ok $? "--list needs no privileges"
unpriv bpf-loop --nr_loops 0 >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "bad usage is still exit 2 without privileges"
done_testing
