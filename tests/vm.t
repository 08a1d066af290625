#!/usr/bin/env bash
# scripts/vm/run.sh, the VM runner, on the host: its command line, its errors
# (no QEMU, no virtiofsd, no kernel, a hung VM), the command's output and exit
# status handed through, its work directory removed.  QEMU and virtiofsd are
# stand-ins here (tests/vm/fake-*): tests/vm_boot.t boots a real kernel.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VM=$ROOT/scripts/vm/run.sh
command -v cpio >/dev/null || skip_all "needs cpio"

export TMPDIR=$TMPD/work BPFBENCH_VM_CACHE=$TMPD/cache
mkdir -p "$TMPDIR"
IMAGE=$TMPD/vmlinuz
echo "not a kernel" >"$IMAGE"
fake() {
	BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
		bash "$VM" --kernel "$IMAGE" "$@" >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	OUT=$(cat "$TMPD/out")
	ERR=$(grep -v 'no KVM here' "$TMPD/err")
}
one_error() {	# one_error RC WANT PATTERN DESC
	[ "$RC" -eq "$1" ] && [ "$(wc -l <<<"$ERR")" -eq 1 ] && grep -qE "^bpfbench(-vm)?: error: " <<<"$ERR" && grep -qF -- "$2" <<<"$ERR"
	ok $? "$3" || diag "exit $RC: $ERR"
}

bash "$VM" --help >"$TMPD/out" 2>&1
ok $? "--help exits 0"
grep -q 'Usage: bpfbench-vm .*--kernel' "$TMPD/out"
ok $? "--help gives the usage"
fake
one_error 2 "give a command" "no command: exit 2, one line"
fake --timeout x true
one_error 2 "--timeout needs a positive integer" "--timeout x: exit 2"
fake --cpus 0 true
one_error 2 "--cpus needs a positive integer" "--cpus 0: exit 2"
fake --frobnicate true
one_error 2 "unknown option '--frobnicate'" "an unknown option: exit 2"
fake --kernel
one_error 2 "--kernel needs a value" "--kernel without a value: exit 2"
fake --kernel 4.4-nonesuch true
one_error 2 "unknown kernel '4.4-nonesuch'" "an unknown kernel name: exit 2, naming the known ones"
fake --kernel "$TMPD/no/vmlinuz" true
one_error 125 "no kernel image at" "a missing kernel image: exit 125"

BPFBENCH_QEMU=/nonexistent/qemu bash "$VM" --kernel "$IMAGE" true >"$TMPD/out" 2>"$TMPD/err"
RC=$? ERR=$(cat "$TMPD/err")
one_error 125 "QEMU (/nonexistent/qemu) is missing: apt-get install qemu-system-x86" \
	"no QEMU: exit 125 and how to install it"
BPFBENCH_QEMU=true BPFBENCH_VIRTIOFSD=/nonexistent/virtiofsd \
	bash "$VM" --kernel "$IMAGE" true >"$TMPD/out" 2>"$TMPD/err"
RC=$? ERR=$(cat "$TMPD/err")
one_error 125 "virtiofsd (/nonexistent/virtiofsd) is missing" "no virtiofsd: exit 125"

fake -- bash -c 'echo to-out; echo to-err >&2; exit 7'
[ "$RC" -eq 7 ] && [ "$OUT" = to-out ] && [ "$ERR" = to-err ]
ok $? "the command's stdout, stderr and exit status come through apart" || diag "$RC '$OUT' '$ERR'"
for st in 0 1 4; do
	fake -- bash -c "exit $st"
	[ "$RC" -eq "$st" ]
	ok $? "exit $st is handed through"
done
mkdir -p "$TMPD/here dir"
pushd "$TMPD/here dir" >/dev/null
fake -- bash -c 'pwd; printf "[%s]" "$@"' x 'a b' "c'd" '$HOME'
popd >/dev/null
[ "$OUT" = "$TMPD/here dir"$'\n''[a b][c'"'"'d][$HOME]' ]
ok $? "the command runs in the current directory, its words as given" || diag "$OUT"
BPFBENCH_BUILD=build-x CI=yes FOO=bar fake -- bash -c 'echo "$BPFBENCH_BUILD ${CI:-} ${FOO:-unset}"'
[ "$OUT" = "build-x yes unset" ]
ok $? "CI and BPFBENCH_* reach the guest, nothing else" || diag "$OUT"
BPFBENCH_VM_ACCEL=tcg FAKE_QEMU_ARGS=$TMPD/args fake -- true
grep -qx 'tcg,thread=multi' "$TMPD/args" && grep -q 'emulated (TCG)' "$TMPD/err"
ok $? "BPFBENCH_VM_ACCEL=tcg (or no /dev/kvm): TCG, said on stderr"

FAKE_QEMU=crash fake -- true
[ "$RC" -eq 125 ] && grep -q "stopped without the command's exit status" <<<"$ERR"
ok $? "QEMU failing: exit 125, its last words shown" || diag "$ERR"
start=$SECONDS
FAKE_QEMU=sleep fake --timeout 2 -- true
[ "$RC" -eq 124 ] && grep -q "did not finish within 2 s" <<<"$ERR" && [ $((SECONDS - start)) -lt 20 ]
ok $? "a hung VM: killed after --timeout, exit 124" || diag "$RC $ERR"

# ab --kernel: the thin layer over run.sh (scripts/vm/ab.sh, through the binary)
"$BPFBENCH" ab --kernel "$IMAGE" "noop" >"$TMPD/out" 2>"$TMPD/err"
RC=$? ERR=$(cat "$TMPD/err")
one_error 2 "give two kernels" "ab with one --kernel: exit 2"
"$BPFBENCH" ab --kernel "$IMAGE" --kernel "$IMAGE" "noop --json=x" >"$TMPD/out" 2>"$TMPD/err"
RC=$? ERR=$(cat "$TMPD/err")
one_error 2 "outputs go after the command line" "ab --kernel: an output inside the command line: exit 2"
BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
	"$BPFBENCH" ab --kernel "$IMAGE" --kernel "$IMAGE" -r 3 --seed 7 --json "$TMPD/ab.json" \
	"noop -w0 -d0.2 --period-ms 100" >"$TMPD/out" 2>"$TMPD/err"
RC=$?
[ "$RC" -eq 0 ] && grep -q 'WARNING: no KVM here: both kernels run on an emulated CPU' "$TMPD/err" &&
	grep -qE '^noop: ab: .*throughput' "$TMPD/out" && json_check "$TMPD/ab.json" 'r = d["runs"]
reps = [len({s["repeat"] for s in x["samples"]}) for x in r]
[x["label"] for x in r] == ["A", "B"] and all(x["env"]["vm"]["accel"] == "tcg" for x in r) and set(d["env"]["kernels"]) == {"A", "B"} and reps == [3, 3]'
ok $? "ab --kernel A --kernel B -r 3: six VM runs, the emulation warned, an answer on throughput, 3 runs a side, both sides' env in the JSON" ||
	diag "rc=$RC" "$(grep -c WARNING "$TMPD/err")" "$(grep "^noop" "$TMPD/out")"

[ -z "$(ls -A "$TMPDIR")" ]
ok $? "every run removed its work directory" || diag "$(ls "$TMPDIR")"
FAKE_QEMU=sleep BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
	bash "$VM" --kernel "$IMAGE" true 2>/dev/null &
pid=$!
for _ in $(seq 50); do [ -n "$(ls -A "$TMPDIR")" ] && break; sleep 0.1; done
sleep 1
kill -TERM $pid
wait $pid
RC=$?
sleep 0.5
[ "$RC" -eq 143 ] && [ -z "$(ls -A "$TMPDIR")" ] && ! pgrep -f "fake-virtiofsd --socket-path=$TMPDIR" >/dev/null
ok $? "SIGTERM: exit 143, work directory and helpers gone" || diag "$RC $(ls "$TMPDIR")"
done_testing
