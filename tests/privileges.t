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

unpriv --list >/dev/null 2>&1
ok $? "--list needs no privileges"
unpriv bpf-loop --nr_loops 0 >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "bad usage is still exit 2 without privileges"
done_testing
