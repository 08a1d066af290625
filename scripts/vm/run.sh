#!/usr/bin/env bash
# bpfbench-vm: runs one command inside a Debian kernel booted by QEMU, on the
# host's own userland (shared read-only by virtiofs), in the current directory.
#
#   run.sh [--kernel NAME|PACKAGE|VMLINUZ] [--timeout SEC] [--memory MB]
#          [--cpus N] [--keep] [--] COMMAND [ARG...]
#
# The command's stdout and stderr come out as its own; its exit status is the
# runner's.  The runner's own failures: 2 bad usage, 124 the VM outlived
# --timeout (killed), 125 no QEMU, no kernel, or the guest gave no status.
# KVM where /dev/kvm works, else TCG (emulated: slow, figures not real).
# Environment: CI, TERM and BPFBENCH_* are handed to the guest;
# BPFBENCH_QEMU, BPFBENCH_VIRTIOFSD name the programs, BPFBENCH_VM_ACCEL=tcg
# refuses KVM, BPFBENCH_VM_CACHE the cache (default ~/.cache/bpfbench-vm).
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
QEMU=${BPFBENCH_QEMU:-qemu-system-x86_64}
VIRTIOFSD=${BPFBENCH_VIRTIOFSD:-/usr/lib/qemu/virtiofsd}
KERNEL=${BPFBENCH_VM_KERNEL:-7.3}
TIMEOUT=600
MEMORY=2048
CPUS=$(nproc 2>/dev/null || echo 2)
KEEP=
WORK=
PIDS=()

die() { echo "bpfbench-vm: error: $1" >&2; exit "${2:-125}"; }
usage() {
	sed -n '4,6s/^# \{0,3\}//p' "$0" | sed 's/^run.sh/Usage: bpfbench-vm/'
	exit "${1:-0}"
}
num() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 needs a positive integer, not '$2'" 2; }

while [ $# -gt 0 ]; do
	case $1 in
	-h|--help)	usage 0 ;;
	--kernel)	[ $# -ge 2 ] || die "--kernel needs a value" 2; KERNEL=$2; shift 2 ;;
	--timeout)	[ $# -ge 2 ] || die "--timeout needs a value" 2; num "$1" "$2"; TIMEOUT=$2; shift 2 ;;
	--memory)	[ $# -ge 2 ] || die "--memory needs a value" 2; num "$1" "$2"; MEMORY=$2; shift 2 ;;
	--cpus)		[ $# -ge 2 ] || die "--cpus needs a value" 2; num "$1" "$2"; CPUS=$2; shift 2 ;;
	--keep)		KEEP=1; shift ;;
	--)		shift; break ;;
	-*)		die "unknown option '$1' (see --help)" 2 ;;
	*)		break ;;
	esac
done
[ $# -gt 0 ] || die "give a command to run in the VM (see --help)" 2
[ "$MEMORY" -ge 256 ] || die "--memory: at least 256 (MB)" 2

command -v "$QEMU" >/dev/null 2>&1 ||
	die "QEMU ($QEMU) is missing: apt-get install qemu-system-x86 (or make vm-deps)"
[ -x "$VIRTIOFSD" ] ||
	die "virtiofsd ($VIRTIOFSD) is missing: apt-get install qemu-system-x86 (or make vm-deps)"

cleanup() {
	local p
	[ -n "${QPID:-}" ] && kill "$QPID" 2>/dev/null && wait "$QPID" 2>/dev/null
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	PIDS=()
	if [ -n "$WORK" ] && [ -z "$KEEP" ]; then
		rm -rf "$WORK"
	elif [ -n "$WORK" ]; then
		echo "bpfbench-vm: kept $WORK" >&2
	fi
}
trap cleanup EXIT
for s in INT TERM HUP; do
	trap "trap - EXIT; cleanup; trap - $s; kill -$s \$\$" "$s"
done

# The kernel: a file, else a name or package fetched into a directory of ours.
case $KERNEL in
*/*) [ -f "$KERNEL" ] || die "no kernel image at $KERNEL" ;;
esac
if [ -f "$KERNEL" ]; then
	KDIR=
	IMAGE=$KERNEL
else
	KDIR=$(bash "$HERE/kernel.sh" fetch "$KERNEL") || exit $?
	IMAGE=$KDIR/vmlinuz
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bpfbench-vm.XXXXXX") || die "cannot make a work directory"
mkdir -p "$WORK/vm/vm"
# This run's files, appended to the kernel's initramfs as a second cpio.
cp "$HERE/guest.sh" "$WORK/vm/vm/guest.sh"
pwd > "$WORK/vm/vm/cwd"
{
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} > "$WORK/vm/vm/job"
env | grep -E '^(CI|TERM|BPFBENCH_[A-Z0-9_]*)=' | sed -E 's/^([^=]*)=(.*)$/\1=\2/' |
	while IFS='=' read -r k v; do printf 'export %s=%q\n' "$k" "$v"; done > "$WORK/vm/vm/env"
if [ -n "$KDIR" ]; then
	cp "$KDIR/initramfs.cpio" "$WORK/initramfs"
else
	# a bare image: the first stage from busybox, no overlay module (read-only root)
	command -v cpio >/dev/null && [ -x /bin/busybox ] ||
		die "a bare kernel image needs cpio and busybox-static (apt-get install cpio busybox-static)"
	mkdir -p "$WORK/ir"/{bin,dev,proc,sys,lower,upper,newroot}
	cp /bin/busybox "$WORK/ir/bin/"
	install -m 0755 "$HERE/init.sh" "$WORK/ir/init"
	(cd "$WORK/ir" && find . | cpio -o -H newc --quiet) > "$WORK/initramfs"
fi
(cd "$WORK/vm" && find . | cpio -o -H newc --quiet) >> "$WORK/initramfs" ||
	die "cannot write the initramfs"

"$VIRTIOFSD" --socket-path="$WORK/vfs.sock" -o source=/ -o cache=auto -o sandbox=chroot \
	>"$WORK/virtiofsd.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -S "$WORK/vfs.sock" ] && break; sleep 0.1; done
[ -S "$WORK/vfs.sock" ] || die "virtiofsd did not start: $(tail -3 "$WORK/virtiofsd.log")"

if [ -z "${BPFBENCH_VM_ACCEL:-}" ] && [ -w /dev/kvm ] &&
	"$QEMU" -accel help 2>/dev/null | grep -qx kvm; then
	ACCEL=(-accel kvm -cpu host)
else
	ACCEL=(-accel tcg,thread=multi -cpu max)
	echo "bpfbench-vm: no KVM here: the guest's CPU is emulated (TCG), slow; its figures are not real" >&2
fi

# The command's stdout and stderr: two FIFOs read by cat onto ours.  We hold
# a writer of each, so that the readers end when we close them, whether QEMU
# opened the FIFOs or not.
mkfifo "$WORK/out" "$WORK/err"
cat "$WORK/out" &
PIDS+=($!)
cat "$WORK/err" >&2 &
PIDS+=($!)
exec 5>"$WORK/out" 6>"$WORK/err"

timeout -k 5 "$TIMEOUT" "$QEMU" -nodefaults -no-user-config -display none -no-reboot \
	-machine q35 "${ACCEL[@]}" -smp "$CPUS" -m "$MEMORY" \
	-object memory-backend-memfd,id=mem,size="${MEMORY}M",share=on -numa node,memdev=mem \
	-chardev socket,id=vfs,path="$WORK/vfs.sock" \
	-device vhost-user-fs-pci,chardev=vfs,tag=hostroot \
	-kernel "$IMAGE" -initrd "$WORK/initramfs" \
	-append "console=ttyS0 panic=-1 quiet loglevel=4 rdinit=/init" \
	-serial file:"$WORK/console.log" \
	-device virtio-serial-pci \
	-chardev file,id=o,path="$WORK/out" -device virtconsole,chardev=o,nr=0 \
	-chardev file,id=e,path="$WORK/err" -device virtconsole,chardev=e,nr=1 \
	-chardev file,id=s,path="$WORK/status" -device virtconsole,chardev=s,nr=2 \
	</dev/null >"$WORK/qemu.log" 2>&1 &
QPID=$!
# waited for in the background: a signal to us is handled at once
wait $QPID
QRC=$?
exec 5>&- 6>&-
for p in "${PIDS[@]:1}"; do wait "$p" 2>/dev/null; done
PIDS=("${PIDS[0]}")

st=$(tr -dc '0-9' < "$WORK/status" 2>/dev/null)
if [ "$QRC" -eq 124 ] || [ "$QRC" -eq 137 ]; then
	echo "bpfbench-vm: error: the VM did not finish within $TIMEOUT s (--timeout); its console's end:" >&2
	tail -5 "$WORK/console.log" | sed 's/^/  /' >&2
	exit 124
fi
if [ -z "$st" ]; then
	echo "bpfbench-vm: error: the VM stopped without the command's exit status (QEMU exit $QRC):" >&2
	{ tail -3 "$WORK/qemu.log"; tail -8 "$WORK/console.log"; } | sed 's/^/  /' >&2
	exit 125
fi
exit "$st"
