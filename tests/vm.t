#!/usr/bin/env bash
# scripts/vm/run.sh, the VM runner, on the host: its command line, its errors
# (no QEMU, no virtiofsd, no kernel, a hung VM), the command's output and exit
# status handed through, its work directory removed.  QEMU and virtiofsd are
# stand-ins here (tests/vm/fake-*): tests/vm_boot.t boots a real kernel.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VM=$ROOT/scripts/vm/run.sh
command -v cpio >/dev/null || skip_all "needs cpio"
# virtiofsd's read-only view of / is a mount namespace (as the real one needs root)
[ "$(id -u)" -eq 0 ] || skip_all "needs root (unshare --mount)"

# a mirror of the tests' own (apt is a stand-in): the machine's apt sources may name none (kernel.sh)
export TMPDIR=$TMPD/work BPFBENCH_VM_CACHE=$TMPD/cache BPFBENCH_VM_MIRROR=http://mirror.example/debian
mkdir -p "$TMPDIR"
IMAGE=$TMPD/vmlinuz
echo "not a kernel" >"$IMAGE"
fake() {
	BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
		bash "$VM" --kernel "$IMAGE" "$@" >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	OUT=$(cat "$TMPD/out")
	ERR=$(grep -v 'no KVM here' "$TMPD/err")
	nulls
}
# nulls: a "(null)" in the last run's output is kept for the check at the end (glibc's NULL "%s")
nulls() { grep -H '(null)' "$TMPD/out" "$TMPD/err" >>"$TMPD/nulls" 2>/dev/null; }
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

# a guest kernel that panics while booting, before the command: booted once more
rm -f "$TMPD/panicked"
FAKE_QEMU=panic-once FAKE_QEMU_STATE=$TMPD/panicked fake -- bash -c 'echo ran; exit 3'
[ "$RC" -eq 3 ] && [ "$OUT" = ran ] && grep -q "panicked while booting, before the command ran: booting once more" <<<"$ERR"
ok $? "a guest kernel panic before the command: said, booted again, the command's output and status" ||
	diag "exit $RC: $OUT / $ERR"
FAKE_QEMU=panic fake -- true
[ "$RC" -eq 125 ] && [ "$(grep -c 'booting once more' <<<"$ERR")" -eq 1 ] &&
	grep -q "stopped without the command's exit status" <<<"$ERR"
ok $? "... once only: a second panic is exit 125, its console's end shown" || diag "exit $RC: $ERR"
FAKE_QEMU=panic-after fake -- true
[ "$RC" -eq 125 ] && ! grep -q 'booting once more' <<<"$ERR"
ok $? "a panic after the command started: never run twice, exit 125" || diag "exit $RC: $ERR"

FAKE_QEMU=crash fake -- true
[ "$RC" -eq 125 ] && grep -q "stopped without the command's exit status" <<<"$ERR"
ok $? "QEMU failing: exit 125, its last words shown" || diag "$ERR"
start=$SECONDS
FAKE_QEMU=sleep fake --timeout 2 -- true
# (the bound is for a hang, not a speed: a loaded machine takes a while to set the VM up)
[ "$RC" -eq 124 ] && grep -q "did not finish within 2 s" <<<"$ERR" && [ $((SECONDS - start)) -lt 60 ] &&
	! grep -q 'No such file\|cannot open' <<<"$ERR"
ok $? "a hung VM: killed after --timeout, exit 124, no stray shell errors" ||
	diag "$RC after $((SECONDS - start)) s: $ERR"

# ab --kernel: the thin layer over run.sh (scripts/vm/ab.sh, through the binary)
"$BPFBENCH" ab --kernel "$IMAGE" "noop" >"$TMPD/out" 2>"$TMPD/err"
RC=$? ERR=$(cat "$TMPD/err")
one_error 2 "give two kernels" "ab with one --kernel: exit 2"
"$BPFBENCH" ab --kernel "$IMAGE" --kernel "$IMAGE" "noop --json=x" >"$TMPD/out" 2>"$TMPD/err"
RC=$? ERR=$(cat "$TMPD/err")
one_error 2 "outputs go after the command line" "ab --kernel: an output inside the command line: exit 2"
BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
	"$BPFBENCH" ab --kernel "$IMAGE" --kernel "$IMAGE" -r 2 --seed 7 --json "$TMPD/ab.json" \
	"noop -w0 -d0.2 --period-ms 100" >"$TMPD/out" 2>"$TMPD/err"
RC=$?
[ "$RC" -eq 0 ] && grep -q 'WARNING: no KVM here: both kernels run on an emulated CPU' "$TMPD/err" &&
	grep -qE '^noop: .*throughput' "$TMPD/out" && json_check "$TMPD/ab.json" 'r = d["runs"]
reps = [len({s["repeat"] for s in x["samples"]}) for x in r]
[x["label"] for x in r] == ["A", "B"] and all(x["env"]["vm"]["accel"] == "tcg" for x in r) and set(d["env"]["kernels"]) == {"A", "B"} and reps == [2, 2]'
ok $? "ab --kernel A --kernel B -r 2: four VM runs, the emulation warned, an answer on throughput, 2 runs a side, both sides' env in the JSON" ||
	diag "rc=$RC" "$(grep -c WARNING "$TMPD/err")" "$(grep "^noop" "$TMPD/out")"

# --kernel is a global option: anywhere on the line; ab's options for both
# sides after the command line, as plain ab takes them.  One pair under a
# gate is no verdict: exit 5, not a pass, and the result recorded all the same.
BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
	BPFBENCH_DB="$TMPD/abk.db" "$BPFBENCH" ab --kernel "$IMAGE" -r 1 --seed 7 --json "$TMPD/ab2.json" "noop" \
	--kernel="$IMAGE" -w0 -d0.2 --period-ms 100 --fail-on-regression 5 --record >"$TMPD/out" 2>"$TMPD/err"
RC=$?
[ "$RC" -eq 5 ] && json_check "$TMPD/ab2.json" '
o = [x["options"] for x in d["runs"]]
len(o) == 2 and all(x["warmup"] == 0 and x["period_ms"] == 100 for x in o)'
ok $? "ab --kernel A \"ARGS\" --kernel=B -w0 -d0.2 --period-ms 100: both sides ran with those options" ||
	diag "exit $RC: $(tail -3 "$TMPD/err")"
grep -q 'gate: [1-9][0-9]* rows\? not judged' "$TMPD/err" &&
	"$BPFBENCH" db show noop --db "$TMPD/abk.db" 2>/dev/null | grep -q .
ok $? "ab --kernel -r 1 --fail-on-regression 5 --record: not judged, exit 5, recorded all the same" ||
	diag "exit $RC: $(tail -3 "$TMPD/err")"
for line in "-w0 -d0.2 --period-ms 100 --kernel $IMAGE noop" "noop -w0 --kernel=$IMAGE -d0.2 --period-ms 100"; do
	# shellcheck disable=SC2086
	BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
		FAKE_QEMU_ARGS=$TMPD/qargs "$BPFBENCH" $line --json "$TMPD/anywhere.json" >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	[ "$RC" -eq 0 ] && grep -qx -- "$IMAGE" "$TMPD/qargs" &&
		json_check "$TMPD/anywhere.json" 'd["runs"][0]["bench"] == "noop" and d["runs"][0]["options"]["period_ms"] == 100'
	ok $? "bpfbench $line: the run goes to the VM, its options with it" || diag "exit $RC: $(tail -3 "$TMPD/err")"
done

# the guest's stderr is a console, a tty whatever ours is: progress lines
# follow the host's stderr (a terminal here: script(1)), never the guest's
if command -v script >/dev/null; then
	script -qec "env BPFBENCH_QEMU='$ROOT/tests/vm/fake-qemu' BPFBENCH_VIRTIOFSD='$ROOT/tests/vm/fake-virtiofsd' \
		'$BPFBENCH' --kernel '$IMAGE' -w0 -d0.1 --period-ms 50 suite lpm-trie >/dev/null" \
		"$TMPD/typescript" >/dev/null 2>&1
	grep -q $'\033\[K\[1/' "$TMPD/typescript"
	ok $? "--kernel on a terminal: the guest's suite shows its progress line" || diag "$(tail -c 300 "$TMPD/typescript")"
	BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
		script -qec "BPFBENCH_STDERR_TTY=0 '$BPFBENCH' -w0 -d0.1 --period-ms 50 suite lpm-trie >/dev/null" \
		"$TMPD/typescript" >/dev/null 2>&1
	! grep -q $'\033\[K' "$TMPD/typescript"
	ok $? "BPFBENCH_STDERR_TTY=0 (what --kernel hands a guest when our stderr is a file): no escape codes on a tty"
fi

# --- issue 31: the VM path holds to the host's rules ---
FAKES=(BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd")
mkdir -p "$TMPD/bin"
ln -s "$ROOT/tests/vm/fake-apt" "$TMPD/bin/apt-get"
ln -s "$ROOT/tests/vm/fake-apt" "$TMPD/bin/apt-cache"
PIN="linux-binary-7.3.4+deb13-cloud-amd64=7.3.4-1~bpo13+1 linux-modules-7.3.4+deb13-cloud-amd64=7.3.4-1~bpo13+1"
# vmrun ARGS...: bpfbench through the runner, with the stand-ins for QEMU, virtiofsd and apt
vmrun() {
	env "${FAKES[@]}" PATH="$TMPD/bin:$PATH" FAKE_APT_LOG="$TMPD/apt.log" \
		"$BPFBENCH" "$@" >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	OUT=$(cat "$TMPD/out")
	ERR=$(grep -v 'no KVM here' "$TMPD/err")
	nulls
	# the JSON written: null where a value is missing, never the text "(null)"
	grep -l '(null)' "$TMPD"/*.json >>"$TMPD/nulls" 2>/dev/null
}
# a directory anyone may write to, as /tmp, and in it nobody's link to a directory of ours
mkdir -m 1777 "$TMPD/pub"
mkdir "$TMPD/victim"
ln -s "$TMPD/victim" "$TMPD/pub/x"
chown -h nobody "$TMPD/pub/x"

# 1: ab.sh's check wrote to ${TMPDIR:-/tmp}/.bpfbench-ab-check.<pid>: a link
# planted there truncated its target, a FIFO hung it
echo keep >"$TMPD/victim/file"
# (one process plants them all: the next pids are bpfbench's and ab.sh's)
python3 - "$TMPDIR" "$TMPD/victim/file" <<'PY'
import os, sys
first = os.getpid()
for pid in range(first + 1, first + 2000):
    at = f"{sys.argv[1]}/.bpfbench-ab-check.{pid}"
    os.symlink(sys.argv[2], at) if pid % 2 else os.mkfifo(at)
PY
BPFBENCH_QEMU=false timeout 60 "$BPFBENCH" ab --kernel "$IMAGE" --kernel "$IMAGE" noop >/dev/null 2>&1
RC=$?
[ "$RC" -ne 124 ] && [ "$(cat "$TMPD/victim/file")" = keep ]
ok $? "ab --kernel: links and FIFOs planted at every name the old check file could take are neither followed nor opened" ||
	diag "exit $RC, victim: $(cat "$TMPD/victim/file")"
rm -f "$TMPDIR"/.bpfbench-ab-check.*

# 2: ab --kernel --json went through planted links (python's open(out, "w"))
rm -f "$TMPD/qargs"
FAKE_QEMU_ARGS=$TMPD/qargs vmrun ab --kernel "$IMAGE" --kernel "$IMAGE" -r 1 \
	--json "$TMPD/pub/x/o.json" "noop -w0 -d0.2 --period-ms 100"
one_error 1 "symbolic link another user could have planted" \
	"ab --kernel --json through another user's link: refused, as on the host, exit 1"
[ ! -e "$TMPD/victim/o.json" ] && [ ! -e "$TMPD/qargs" ]
ok $? "... nothing written there, and no VM booted" || diag "$(ls "$TMPD/victim")"

# 6: --kernel ... --json F wrote F inside the guest's overlay: lost, exit 0
vmrun --kernel "$IMAGE" -w0 -d0.3 --period-ms 100 --csv="$TMPD/k.csv" noop --md "$TMPD/k.md" --js "$TMPD/k.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/k.json" 'd["runs"][0]["bench"] == "noop" and d["runs"][0]["status"] == 0'
ok $? "--kernel noop --js F (abbreviated): F is written on the host" || diag "exit $RC: $ERR"
[ "$RC" -eq 0 ] && head -1 "$TMPD/k.csv" | grep -q , && grep -q '^|' "$TMPD/k.md"
ok $? "... and --csv=F and --md F, before and after the benchmark" || diag "exit $RC: $ERR"
# issue 42: --folded and --flame were left in the guest's overlay (its write failed there)
vmrun --kernel "$IMAGE" -w0 -d0.3 --period-ms 100 --folded "$TMPD/k.folded" --flame="$TMPD/k.svg" bpf-loop
[ "$RC" -eq 0 ] && grep -q '^# ns_per_op=' "$TMPD/k.folded" && grep -qE '^[^#].* [0-9]+$' "$TMPD/k.folded" &&
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$TMPD/k.svg"
ok $? "--kernel ... --folded F --flame=G: both written on the host" || diag "exit $RC: $ERR"
vmrun --kernel "$IMAGE" -w0 -d0.3 --flame "$TMPD/pub/x/k.svg" bpf-loop
one_error 1 "symbolic link another user could have planted" "--kernel --flame through another user's link: refused before the boot"
# --record: the history is the host's; in the guest it would be its overlay's
FAKES+=(BPFBENCH_DB="$TMPD/hist.db")
vmrun --kernel "$IMAGE" noop -w0 -d0.3 --period-ms 100 --json "$TMPD/r.json" --rec
RC1=$RC ERR1=$ERR
vmrun db show noop
[ "$RC1" -eq 0 ] && ! grep -q error <<<"$ERR1" && [ "$RC" -eq 0 ] && [ "$(grep -c ' throughput ' <<<"$OUT")" -eq 1 ]
ok $? "--kernel noop --json F --rec (abbreviated): F recorded into the host's history" ||
	diag "exit $RC1: $ERR1; show: $RC $OUT $ERR"
vmrun --kernel "$IMAGE" noop -w0 -d0.3 --record
one_error 2 "give --json FILE" "--kernel --record without --json: exit 2 before a boot"
# --record --db F: F on the host (the guest is handed neither), not $BPFBENCH_DB
vmrun --kernel "$IMAGE" noop -w0 -d0.3 --period-ms 100 --json "$TMPD/rdb.json" --record --db "$TMPD/k-opt.db"
RC1=$RC ERR1=$ERR
vmrun db show noop --db "$TMPD/k-opt.db"
[ "$RC1" -eq 0 ] && ! grep -q error <<<"$ERR1" && [ "$RC" -eq 0 ] && [ "$(grep -c ' throughput ' <<<"$OUT")" -eq 1 ] &&
	[ "$(jq '.runs[0].options | has("db")' "$TMPD/rdb.json")" = false ]
ok $? "--kernel noop --json F --record --db DB: F recorded into DB on the host" ||
	diag "exit $RC1: $ERR1; show: $RC $OUT $ERR"
vmrun --kernel "$IMAGE" noop -w0 -d0.3 --json "$TMPD/rdb2.json" --db "$TMPD/k-opt.db"
one_error 2 "give --record" "--kernel --db without --record: exit 2 before a boot"
vmrun ab --kernel "$IMAGE" --kernel "$IMAGE" -r 1 --record \
	--json "$TMPD/abr.json" "noop -w0 -d0.2 --period-ms 100"
RC1=$RC ERR1=$ERR
vmrun db show noop
[ "$RC1" -eq 0 ] && [ "$RC" -eq 0 ] && [ "$(grep -c ' throughput ' <<<"$OUT")" -eq 3 ]
ok $? "ab --kernel A --kernel B --record: both sides recorded on the host" ||
	diag "exit $RC1: $ERR1; show: $RC $OUT $ERR"
vmrun --kernel "$IMAGE" -w0 -d0.2 --period-ms 100 suite bpf-loop --md "$TMPD/s.md"
[ "$RC" -eq 0 ] && grep -q '^# bpfbench: suite bpf-loop' "$TMPD/s.md"
ok $? "--kernel ... suite NAME --md F: F written on the host" || diag "exit $RC: $ERR"
# every format comes back: compare's --json and the verdicts' (src/bench/out_formats.h)
python3 "$ROOT/tests/gen_results.py" "$TMPD/co.json" --seed 7 --runs 3 --samples 5 >/dev/null
python3 "$ROOT/tests/gen_results.py" "$TMPD/cn.json" --seed 8 --runs 3 --samples 5 >/dev/null
vmrun --kernel "$IMAGE" compare "$TMPD/co.json" "$TMPD/cn.json" --junit "$TMPD/c.xml" \
	--ktap="$TMPD/c.ktap" --json "$TMPD/c.json"
[ "$RC" -eq 0 ] && grep -q '<testsuite name="bpfbench compare"' "$TMPD/c.xml" &&
	[ "$(head -1 "$TMPD/c.ktap")" = "KTAP version 1" ] && json_check "$TMPD/c.json" 'len(d["rows"]) > 0'
ok $? "--kernel ... compare --junit F --ktap=G --json H: all three written on the host" ||
	diag "exit $RC: $ERR"
vmrun ab --kernel "$IMAGE" --kernel "$IMAGE" -r 1 --ktap - --junit "$TMPD/ab.xml" \
	"noop -w0 -d0.2 --period-ms 100"
# (ab.sh's verdicts are compare's, run on the host: the suite is named so)
[ "$RC" -eq 0 ] && grep -q '<testcase name="throughput" classname="noop"' "$TMPD/ab.xml" &&
	[ "$(head -1 <<<"$OUT")" = "KTAP version 1" ] &&
	! grep -qvE '^(KTAP version 1|1\.\.[0-9]+|(not )?ok [0-9]+ .*|# .*)$' <<<"$OUT" &&
	grep -q '^VM: QEMU TCG' <<<"$ERR"
ok $? "ab --kernel --ktap - --junit F: F written on the host; stdout the KTAP alone, ab.sh's lines on stderr" ||
	diag "exit $RC: $OUT" "$ERR"
vmrun --kernel "$IMAGE" --version
[ "$RC" -eq 0 ] && grep -q '^bpfbench ' <<<"$OUT"
ok $? "--kernel ... --version still runs there" || diag "exit $RC: $ERR"
vmrun --kernel "$IMAGE" noop -w0 -d0.3 --json "$TMPD/pub/x/k.json"
one_error 1 "symbolic link another user could have planted" "--kernel --json through another user's link: refused before the boot"
[ ! -e "$TMPD/victim/k.json" ]
ok $? "... and not written there"
rm -f "$TMPD/k.json"
FAKE_QEMU=noreturn vmrun --kernel "$IMAGE" noop -w0 -d0.3 --period-ms 100 --json "$TMPD/k.json"
[ "$RC" -eq 125 ] && [ ! -e "$TMPD/k.json" ] &&
	[ "$(tail -1 <<<"$ERR")" = "bpfbench: error: --kernel: the VM gave back no json for $TMPD/k.json: not written" ]
ok $? "a run whose file never comes back: exit 125, said (never exit 0 without it)" || diag "exit $RC: $ERR"
vmrun --kernel "$IMAGE" plot "$TMPD/k.json" -o "$TMPD/k.svg"
one_error 2 "plot runs on this machine" "--kernel plot: refused (its file would stay in the guest)"

# 4: a name is a name, a path is a path
mkdir -p "$TMPD/plant"
echo "planted" >"$TMPD/plant/7.3"
pushd "$TMPD/plant" >/dev/null
FAKE_APT_PKGS=$PIN BPFBENCH_VM_CACHE=$TMPD/cache7 FAKE_QEMU_ARGS=$TMPD/qargs vmrun --kernel 7.3 probe
popd >/dev/null
[ "$RC" -eq 0 ] && grep -qx "$TMPD/cache7/kernels/7.3.4+deb13-cloud-amd64/vmlinuz" "$TMPD/qargs" &&
	! grep -q '^7.3$' "$TMPD/qargs"
ok $? "--kernel 7.3 with a file ./7.3 here: the pinned 7.3 is booted, never the file" ||
	diag "exit $RC: $ERR" "$(grep -A1 -- -kernel "$TMPD/qargs")"
pushd "$TMPD/plant" >/dev/null
FAKE_QEMU_ARGS=$TMPD/qargs vmrun --kernel ./7.3 probe
popd >/dev/null
[ "$RC" -eq 0 ] && grep -qx "./7.3" "$TMPD/qargs"
ok $? "--kernel ./7.3: the file" || diag "exit $RC: $ERR"
mkdir "$TMPD/cache-nobody"
chown nobody "$TMPD/cache-nobody"
FAKE_APT_PKGS=$PIN BPFBENCH_VM_CACHE=$TMPD/cache-nobody vmrun --kernel 7.3 probe
one_error 125 "is not a directory of ours that only we can write (owner uid $(id -u nobody)" \
	"a cache owned by another user: refused, exit 125"
mkdir -m 0775 "$TMPD/cache-gw"
FAKE_APT_PKGS=$PIN BPFBENCH_VM_CACHE=$TMPD/cache-gw vmrun --kernel 7.3 probe
one_error 125 "mode 775" "a group-writable cache: refused"
chown nobody "$TMPD/cache7/kernels/7.3.4+deb13-cloud-amd64/vmlinuz"
FAKE_APT_PKGS=$PIN BPFBENCH_VM_CACHE=$TMPD/cache7 vmrun --kernel 7.3 probe
one_error 125 "holds $TMPD/cache7/kernels/7.3.4+deb13-cloud-amd64/vmlinuz, which another user owns" \
	"a kernel in our cache that another user owns: refused, named"
rm -f "$TMPD/probe" "$TMPD/probe.said"
FAKE_VIRTIOFSD_PROBE=$TMPD/probe vmrun --kernel "$IMAGE" probe
[ "$RC" -eq 0 ] && [ ! -e "$TMPD/probe" ] && grep -qx "Read-only file system" "$TMPD/probe.said"
ok $? "virtiofsd's export of / is read-only on the host's side" || diag "exit $RC: $(cat "$TMPD/probe.said")"

# 5: downloads: exact names, bounded, killed with us
: >"$TMPD/apt.log"
vmrun --kernel 'linux-image-6.1[0-9].*-amd64' probe
one_error 2 "no patterns" "--kernel with a pattern: refused, exit 2"
! grep -q download "$TMPD/apt.log"
ok $? "... before apt is asked for anything"
FAKE_APT_PKGS="linux-image-6.12.98+deb13-cloud-amd64=6.12.98-1" FAKE_APT_SIZE=900000000 \
	BPFBENCH_VM_CACHE=$TMPD/cache5 vmrun --kernel linux-image-6.12.98+deb13-cloud-amd64 probe
[ "$RC" -eq 125 ] && grep -q "^bpfbench-vm: error: .* 858 MB, over the 400 MB" <<<"$ERR" && ! grep -q download "$TMPD/apt.log"
ok $? "a package larger than a kernel's: refused before the download, exit 125" || diag "exit $RC: $ERR"
tag=$$.$RANDOM
left() { pgrep -f "fake-apt-method-$tag|$TMPD/bin/apt-get" >/dev/null; }
start=$SECONDS
FAKE_APT=hang FAKE_APT_TAG=$tag FAKE_APT_PKGS="linux-image-6.12.98+deb13-cloud-amd64=6.12.98-1" \
	BPFBENCH_VM_CACHE=$TMPD/cache5 timeout 5 env "${FAKES[@]}" PATH="$TMPD/bin:$PATH" \
	"$BPFBENCH" --kernel linux-image-6.12.98+deb13-cloud-amd64 probe >/dev/null 2>&1
RC=$?
sleep 1
[ "$RC" -eq 124 ] && ! left
ok $? "timeout 5 bpfbench --kernel PKG: no apt-get and no download left behind" || { diag "exit $RC"; pkill -f "fake-apt-method-$tag"; }
FAKE_APT=hang FAKE_APT_TAG=$tag FAKE_APT_PKGS="linux-image-6.12.98+deb13-cloud-amd64=6.12.98-1" \
	BPFBENCH_VM_CACHE=$TMPD/cache5 env "${FAKES[@]}" PATH="$TMPD/bin:$PATH" \
	"$BPFBENCH" --kernel linux-image-6.12.98+deb13-cloud-amd64 probe >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do pgrep -f "fake-apt-method-$tag" >/dev/null && break; sleep 0.1; done
start=$SECONDS
kill -TERM $pid
wait $pid
RC=$?
sleep 1
[ "$RC" -eq 143 ] && [ $((SECONDS - start)) -lt 10 ] && ! left
ok $? "SIGTERM to bpfbench alone mid-download: exit 143 at once, the download killed" || { diag "exit $RC"; pkill -f "fake-apt-method-$tag"; }

# 13: messages
FAKE_APT_PKGS="linux-image-6.12.98+deb13-cloud-amd64=6.12.98-1" BPFBENCH_VM_CACHE=$TMPD/cache5 \
	vmrun --kernel linux-image-nonexistent-zzz probe
one_error 125 "no package linux-image-nonexistent-zzz" "a package the archive lacks: exit 125, said"
: >"$TMPD/afile"
BPFBENCH_VM_CACHE=$TMPD/afile/cache vmrun --kernel 7.3 probe
one_error 125 "cannot make or write the cache $TMPD/afile/cache" "an unusable cache: one line, exit 125"

# Debian's 6.1 builds the virtio drivers as modules: they go into the
# initramfs in dependency order (read from each module), and a kernel cached
# before they were put in gets its initramfs made again
K61=$TMPD/cache61/kernels/6.1.0-50-cloud-amd64
mods61() { cpio -it --quiet <"$K61/initramfs.cpio" | grep '^mods/' | sort | sed 's|mods/[0-9]*-||; s|\.ko$||' | paste -sd' '; }
WANT61="virtio_pci_modern_dev virtio virtio_ring virtio_pci fuse virtiofs virtio_console"
FAKE_APT_MODS=1 FAKE_APT_PKGS="linux-image-6.1.0-50-cloud-amd64=6.1.176-1" \
	BPFBENCH_VM_CACHE=$TMPD/cache61 vmrun --kernel 6.1 probe
[ "$RC" -eq 0 ] && [ "$(mods61)" = "$WANT61" ]
ok $? "--kernel 6.1: its virtio modules in the initramfs, each after what it depends on" ||
	diag "exit $RC: $ERR" "$(mods61)"
rm "$K61/initramfs.format"
(cd "$TMPD" && echo . | cpio -o -H newc --quiet >"$K61/initramfs.cpio")
FAKE_APT_PKGS="linux-image-6.1.0-50-cloud-amd64=6.1.176-1" BPFBENCH_VM_CACHE=$TMPD/cache61 vmrun --kernel 6.1 probe
[ "$RC" -eq 0 ] && [ "$(mods61)" = "$WANT61" ]
ok $? "a cached 6.1 whose initramfs predates the modules: made again, the modules in it" ||
	diag "exit $RC: $ERR" "$(mods61)"

# --- --kernel as a first-class option ---
# a: a download says what it fetches and its size; on a terminal its progress, else one line when done
PKG73="linux-binary-7.3.4+deb13-cloud-amd64 7.3.4-1~bpo13+1"
FAKE_APT_PKGS=$PIN BPFBENCH_VM_CACHE=$TMPD/cacheA BPFBENCH_STDERR_TTY=0 vmrun --kernel 7.3 probe
[ "$RC" -eq 0 ] && grep -qx -- "--kernel 7.3: downloading $PKG73 (1 kB) from Debian's archive" <<<"$ERR" &&
	grep -qE -- "^--kernel 7.3: downloaded ${PKG73//+/\\+} \(1 kB\) in [0-9]+ s$" <<<"$ERR" &&
	[ "$(grep -c -- '^--kernel 7.3: download' <<<"$ERR")" -eq 4 ] && ! grep -q $'[\r\033]' "$TMPD/err"
ok $? "--kernel 7.3 without a terminal: each package said with its size, then a line when downloaded" || diag "exit $RC: $ERR"
FAKE_APT=slow FAKE_APT_SIZE=2000000 FAKE_APT_PKGS=$PIN BPFBENCH_VM_CACHE=$TMPD/cacheB BPFBENCH_STDERR_TTY=1 \
	vmrun --kernel 7.3 probe
[ "$RC" -eq 0 ] && grep -qF $'\r\033[K'"--kernel 7.3: downloading $PKG73: 977 kB of 1.9 MB (50%)" "$TMPD/err" &&
	grep -qE -- "--kernel 7.3: downloaded ${PKG73//+/\\+} \(1.9 MB\) in [0-9]+ s$" "$TMPD/err" &&
	! grep -qx -- "--kernel 7.3: downloading .*archive" "$TMPD/err"
ok $? "... on a terminal: its progress in place (bytes, %), then the line when downloaded" ||
	diag "exit $RC" "$(cat -v "$TMPD/err" | head -c 800)"

# b: the VM, the kernel and the accelerator on stdout, once, before the results; the same in the guest's env
BPFBENCH_VM_ACCEL=tcg vmrun --kernel "$IMAGE" noop -q -w0 -d0.2 --period-ms 100
want1="VM: QEMU TCG, emulated CPU: figures are not comparable with the host's ("
want2="VM kernel: $(uname -r) (image $IMAGE)"
[ "$RC" -eq 0 ] && [[ $(sed -n 1p <<<"$OUT") == "$want1"*" vCPUs, 2048 MB)" ]] &&
	[ "$(sed -n 2p <<<"$OUT")" = "$want2" ] && [ -z "$(sed -n 3p <<<"$OUT")" ] &&
	[ "$(grep -c '^VM' <<<"$OUT")" -eq 2 ] && grep -q 'throughput' <<<"$(sed -n '4,$p' <<<"$OUT")"
ok $? "--kernel IMAGE noop: stdout starts with the VM (TCG, emulated), its kernel, then the results" || diag "$OUT"
BPFBENCH_VM_ACCEL=tcg vmrun --kernel "$IMAGE" noop -q -w0 -d0.2 --period-ms 100 --json -
[ "$RC" -eq 0 ] && ! grep -q '^VM' <<<"$OUT" && python3 -c 'import json, sys; json.load(sys.stdin)' <<<"$OUT"
ok $? "... not when stdout is the JSON" || diag "$OUT"
FAKE_APT_PKGS=$PIN BPFBENCH_VM_CACHE=$TMPD/cacheA BPFBENCH_VM_ACCEL=tcg vmrun --kernel 7.3 probe
[ "$RC" -eq 0 ] && grep -qx "VM kernel: $(uname -r) (Debian $PKG73)" <<<"$OUT"
ok $? "--kernel 7.3 probe: the Debian package and its version" || diag "$OUT"
BPFBENCH_VM_ACCEL=tcg fake --cpus 3 -- bash -c 'echo "$BPFBENCH_VM_INFO"'
[ "$RC" -eq 0 ] && [ "$OUT" = "QEMU TCG (emulated CPU), 3 vCPUs, 2048 MB, kernel $(uname -r) (image $IMAGE)" ]
ok $? "the guest's environment: BPFBENCH_VM_INFO, one line" || diag "$OUT"

# f: --kernel anywhere, for a run and for ab; -q/-v before ab
for line in "--kernel $IMAGE noop -w0 -d0.2 --period-ms 100" "noop -w0 -d0.2 --period-ms 100 --kernel $IMAGE" \
	"-q --kernel=$IMAGE noop -w0 -d0.2 --period-ms 100" "noop --kernel=$IMAGE -q -w0 -d0.2 --period-ms 100"; do
	# shellcheck disable=SC2086
	FAKE_QEMU_ARGS=$TMPD/qargs vmrun $line --json "$TMPD/pos.json"
	[ "$RC" -eq 0 ] && grep -qx -- "$IMAGE" "$TMPD/qargs" &&
		json_check "$TMPD/pos.json" 'd["runs"][0]["bench"] == "noop" and d["runs"][0]["options"]["period_ms"] == 100'
	ok $? "bpfbench ${line//$TMPD\//}: run in the VM, its options with it" || diag "exit $RC: $ERR"
done
abline() { rm -f "$TMPD/ab.json"; vmrun "$@"; }	# abline WORDS...: bpfbench WORDS, a fresh ab.json
IMAGE2=$TMPD/vmlinuz2
cp "$IMAGE" "$IMAGE2"
for line in "-q ab --kernel $IMAGE --kernel $IMAGE2" "-v ab --kernel=$IMAGE --kernel $IMAGE2" \
	"--kernel $IMAGE ab --kernel $IMAGE2" "-w0 -d0.2 --period-ms 100 ab --kernel $IMAGE --kernel $IMAGE2"; do
	# shellcheck disable=SC2086
	abline $line "noop -w0 -d0.2 --period-ms 100" -r 1 --json "$TMPD/ab.json"
	[ "$RC" -eq 0 ] && grep -q "^  A: kernel $IMAGE: " <<<"$OUT" && grep -q "^  B: kernel $IMAGE2: " <<<"$OUT" &&
		grep -q '^VM: QEMU TCG, emulated CPU' <<<"$OUT" && ! grep -qw 'OLD\|NEW' <<<"$OUT" &&
		json_check "$TMPD/ab.json" 'all(r["options"]["period_ms"] == 100 for r in d["runs"])'
	ok $? "bpfbench ${line//$TMPD\//} \"noop ...\": A and B on their kernels, named A and B throughout" || diag "exit $RC: $ERR" "$OUT"
done
abline ab "noop -w0 -d0.2" --kernel "$IMAGE" -q --kernel "$IMAGE2" -r 1 --period-ms 100 --json "$TMPD/ab.json"
[ "$RC" -eq 0 ] && grep -q "^  B: kernel $IMAGE2: " <<<"$OUT" && ! grep -q '^  metric' <<<"$OUT"
ok $? "ab \"ARGS\" --kernel A -q --kernel B -r 1 --period-ms 100: kernels and options after the command line" ||
	diag "exit $RC: $ERR" "$OUT"
# (one pair: a line for it would be a line per pair)
BPFBENCH_STDERR_TTY=0 vmrun ab --kernel "$IMAGE" --kernel "$IMAGE2" "noop -w0 -d0.2 --period-ms 100" -r 1
ERR=$(grep -v WARNING <<<"$ERR")
[ "$RC" -eq 0 ] && [ -z "$ERR" ]
ok $? "ab --kernel without a terminal or -v: nothing per pair on stderr" || diag "$ERR"
BPFBENCH_STDERR_TTY=0 vmrun ab --kernel "$IMAGE" --kernel "$IMAGE2" "noop -w0 -d0.2 --period-ms 100" -r 2 -v
ERR=$(grep -v WARNING <<<"$ERR")
[ "$RC" -eq 0 ] && [ "$(grep -c . <<<"$ERR")" -eq 2 ] && grep -qE '^\[pair 2/2, [0-9]+ s\]$' <<<"$ERR"
ok $? "... -v: a line per pair" || diag "$ERR"
BPFBENCH_STDERR_TTY=1 vmrun ab --kernel "$IMAGE" --kernel "$IMAGE2" "noop -w0 -d0.2 --period-ms 100" -r 2
ERR=$(grep -v WARNING <<<"$ERR")
[ "$RC" -eq 0 ] && grep -qF $'\r\033[K[pair 2/2, ' "$TMPD/err" && [ "$(grep -c . <<<"$ERR")" -eq 1 ]
ok $? "... on a terminal: one line rewritten in place" || diag "$(cat -v "$TMPD/err")"

[ ! -s "$TMPD/nulls" ]
ok $? "no '(null)' in any output or JSON file of the runs above" || diag "$(head -5 "$TMPD/nulls")"
[ -z "$(ls -A "$TMPDIR")" ]
ok $? "every run removed its work directory" || diag "$(ls "$TMPDIR")"
FAKE_QEMU=sleep BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
	bash "$VM" --kernel "$IMAGE" true 2>/dev/null &
pid=$!
# the signal once the VM is up (its helpers running), however slow the machine is
for _ in $(seq 300); do
	pgrep -f "fake-virtiofsd --socket-path=$TMPDIR" >/dev/null && break
	sleep 0.1
done
kill -TERM $pid
wait $pid
RC=$?
# what the trap killed may take a moment to be reaped by init on a loaded machine
for _ in $(seq 50); do
	[ -z "$(ls -A "$TMPDIR")" ] && ! pgrep -f "fake-virtiofsd --socket-path=$TMPDIR" >/dev/null && break
	sleep 0.1
done
[ "$RC" -eq 143 ] && [ -z "$(ls -A "$TMPDIR")" ] && ! pgrep -f "fake-virtiofsd --socket-path=$TMPDIR" >/dev/null
ok $? "SIGTERM: exit 143, work directory and helpers gone" ||
	diag "$RC $(ls "$TMPDIR") $(pgrep -af "fake-virtiofsd --socket-path=$TMPDIR")"
done_testing
