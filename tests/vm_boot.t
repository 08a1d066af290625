#!/usr/bin/env bash
# Real boots of a newer kernel (scripts/vm/kernels' default, 7.3) under QEMU:
# bpfbench probe there, then one benchmark run by bpfbench --kernel whose
# --json file must come back to the host, on the host's own build.
# Needs QEMU and Debian's archive (or the runner's cache); CI must have both.
source "$(dirname "$0")/lib.sh"
need_bpf
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KERNEL=${BPFBENCH_VM_KERNEL:-7.3}
if ! command -v qemu-system-x86_64 >/dev/null || [ ! -x /usr/lib/qemu/virtiofsd ]; then
	[ -n "${CI:-}" ] && { echo "Bail out! CI must have QEMU (make vm-deps)"; exit 1; }
	skip_all "needs qemu-system-x86 (make vm-deps)"
fi
if ! kdir=$(bash "$ROOT/scripts/vm/kernel.sh" fetch "$KERNEL" 2>"$TMPD/fetch"); then
	[ -n "${CI:-}" ] && { echo "Bail out! cannot fetch kernel $KERNEL: $(cat "$TMPD/fetch")"; exit 1; }
	skip_all "cannot fetch kernel $KERNEL: $(tail -1 "$TMPD/fetch")"
fi
release=$(cat "$kdir/release")

# boot CMD...: CMD's output in out and err, its exit in RC.  A guest kernel
# that panics while booting (TCG, now and then), before the command, is
# booted once more by the runner itself (vm.t tests that): said here.
boot() {
	"$@" >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	! grep -q 'booting once more' "$TMPD/err" || diag "$(grep -A1 'booting once more' "$TMPD/err")"
}

start=$SECONDS
boot bash "$ROOT/scripts/vm/run.sh" --kernel "$KERNEL" --timeout 600 -- bash -c '
	uname -r
	"$1" probe --json' - "$BPFBENCH"
diag "boot, probe and power-off: $((SECONDS - start)) s"
[ "$RC" -eq 0 ] && [ "$(head -1 "$TMPD/out")" = "$release" ]
ok $? "the VM runs kernel $release and the commands exit 0" || diag "exit $RC" "$(head -3 "$TMPD/out")" "$(tail -5 "$TMPD/err")"
sed 1d "$TMPD/out" >"$TMPD/probe.json"
python3 - "$TMPD/probe.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["features"]
avail = {k: v["available"] for k, v in f.items()}
want = ["trigger_fentry", "rb_overwrite", "memcg", "tracefs"]
missing = [w for w in want if avail.get(w) is not True]
assert not missing, missing
PY
ok $? "probe there: fentry, ring buffer overwrite mode, a memory cgroup, tracefs"

# bpfbench --kernel: the --json file is written on the host, from what the
# guest hands back (issue 31: it was written in the guest's overlay and lost)
start=$SECONDS
boot "$BPFBENCH" --kernel "$KERNEL" -w0.5 -d1 --trigger fentry noop --json "$TMPD/noop.json"
diag "bpfbench --kernel $KERNEL noop --json F: $((SECONDS - start)) s"
[ "$RC" -eq 0 ] && [ -s "$TMPD/noop.json" ]
ok $? "bpfbench --kernel $KERNEL noop --json F: exit 0 and F on the host" || diag "exit $RC" "$(tail -5 "$TMPD/err")"
python3 - "$TMPD/noop.json" "$release" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["env"]["kernel"] == sys.argv[2], d["env"]["kernel"]
assert d["runs"][0]["trigger"] == "fentry", d["runs"][0].get("trigger")
PY
ok $? "noop --trigger fentry ran there, its JSON naming the guest's kernel" || diag "$(head -c 600 "$TMPD/noop.json")"
done_testing
