#!/usr/bin/env bash
# bpfbench-vm: runs one command inside a Debian kernel booted by QEMU, on the
# host's own userland (shared read-only by virtiofs), in the current directory.
#
#   run.sh [--kernel NAME|PACKAGE|PATH] [--timeout SEC] [--memory MB]
#          [--cpus N] [--keep] [--announce] [--return DIR --return-file NAME]...
#          [--] COMMAND [ARG...]
#
# The command's stdout and stderr come out as its own; its exit status is the
# runner's.  The runner's own failures: 2 bad usage, 124 the VM outlived
# --timeout (killed), 125 no QEMU, no kernel, or the guest gave no status.
# A kernel is a name of scripts/vm/kernels or an exact Debian package name
# (kernel.sh); a path (with a /: ./vmlinuz, /boot/vmlinuz-..., ~/linux/) is
# an image file or a built kernel tree (its arch/x86/boot/bzImage, its
# .config checked first): a file or directory that happens to be called 7.3
# in the current directory is never booted.  A kernel that lacks an option
# the runner needs is named (scripts/vm/bpfbench.config, doc/kernel-dev.md).
# --return-file NAME: the file the guest's command writes at
# /run/bpfbench-vm/out/NAME comes back as DIR/NAME (a directory of the
# caller's, private: bpfbench then writes the user's output from it, on the
# host, src/orchestrate/vm.c); nothing else the guest writes reaches the host.
# KVM where /dev/kvm works, else TCG (emulated: slow, figures not real).
# The guest's environment has BPFBENCH_VM_INFO, one line: the accelerator,
# the vCPUs and memory, the guest's kernel release and what it came from
# ("QEMU TCG (emulated CPU), 2 vCPUs, 2048 MB, kernel 7.3.4+deb13-cloud-amd64
# (Debian linux-binary-7.3.4+deb13-cloud-amd64 7.3.4-1~bpo13+1)"); with
# --announce the command's stdout starts with the same, in words, and a
# blank line (bpfbench asks for it where its stdout is no JSON or CSV).
# Environment: CI, TERM and BPFBENCH_* are handed to the guest;
# BPFBENCH_QEMU, BPFBENCH_VIRTIOFSD name the programs, BPFBENCH_VM_ACCEL=tcg
# refuses KVM, BPFBENCH_VM_CACHE the cache (default ~/.cache/bpfbench-vm),
# BPFBENCH_VM_MIRROR the Debian mirror a kernel is fetched through (else the
# one the machine's apt sources name: kernel.sh).
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
QEMU=${BPFBENCH_QEMU:-qemu-system-x86_64}
VIRTIOFSD=${BPFBENCH_VIRTIOFSD:-/usr/lib/qemu/virtiofsd}
KERNEL=${BPFBENCH_VM_KERNEL:-7.3}
TIMEOUT=600
MEMORY=2048
CPUS=$(nproc 2>/dev/null || echo 2)
KEEP=
ANNOUNCE=
WORK=
PIDS=()
KPID=
RETDIR=
RETURNS=()
# shellcheck source=scripts/vm/lib.sh
. "$HERE/lib.sh"

die() { echo "bpfbench-vm: error: $1" >&2; exit "${2:-125}"; }

# What the runner needs built into a kernel (=y: the bare image's initramfs
# loads no modules but overlay.ko): the QEMU command line below (virtio-pci,
# the virtconsoles, ttyS0, an initrd) and the mounts of init.sh and guest.sh.
# A tree's .config is checked against it before the boot; init.sh checks
# what it can see of it after (its NEEDS); scripts/vm/bpfbench.config holds
# it all (tests/vm_kernel_config.t).
RUNNER_NEEDS="VIRTIO_PCI VIRTIO_CONSOLE SERIAL_8250_CONSOLE BLK_DEV_INITRD BINFMT_ELF
	BINFMT_SCRIPT PROC_FS SYSFS DEVTMPFS TMPFS UNIX98_PTYS FUSE_FS VIRTIO_FS CGROUPS
	BPF_SYSCALL MAGIC_SYSRQ"
FRAGMENT_HINT="merge $HERE/bpfbench.config into the kernel's .config (doc/kernel-dev.md)"
# options: "CONFIG_A CONFIG_B" as "CONFIG_A, CONFIG_B"
options() { local w; read -ra w <<<"$*"; (IFS=,; echo "${w[*]}") | sed 's/,/, /g'; }

# tree_check TREE: a built tree (make bzImage, in place or O=TREE) whose
# .config has what the runner needs; its overlay.ko goes into the
# initramfs if overlayfs is a module.  The tree's own files only: a link
# there could point anywhere.
# in_tree TREE FILE: FILE is a file of TREE's own, not reached through a
# link (its own or a directory's on the way) that leads out of the tree
in_tree() {
	local root file
	root=$(realpath -e -- "$1" 2>/dev/null) && file=$(realpath -e -- "$2" 2>/dev/null) || return 1
	[ ! -L "$2" ] && [[ $file == "$root"/* ]]
}
tree_check() {
	local t=$1 o v lacks='' mods=
	[ -e "$t/arch/x86/boot/bzImage" ] || [ -L "$t/arch/x86/boot/bzImage" ] ||
		die "$t is a directory but no built kernel tree: no arch/x86/boot/bzImage (make bzImage there)"
	[ -f "$t/arch/x86/boot/bzImage" ] && in_tree "$t" "$t/arch/x86/boot/bzImage" ||
		die "the kernel tree $t: its arch/x86/boot/bzImage is a link or no file of the tree's own: refused"
	# the boot protocol's "HdrS" at 0x202: anything else is no x86 kernel image
	[ "$(od -An -c -j 514 -N 4 "$t/arch/x86/boot/bzImage" 2>/dev/null | tr -d ' ')" = HdrS ] ||
		die "the kernel tree $t: its arch/x86/boot/bzImage is no bzImage (no HdrS boot header)"
	[ -e "$t/.config" ] || [ -L "$t/.config" ] ||
		die "the kernel tree $t has no .config: not a tree built by make"
	[ -f "$t/.config" ] && in_tree "$t" "$t/.config" ||
		die "the kernel tree $t: its .config is a link or no file of the tree's own: refused"
	for o in $RUNNER_NEEDS; do
		v=$(sed -n "s/^CONFIG_$o=//p" "$t/.config")
		case $v in
		y)	;;
		m)	mods="$mods CONFIG_$o" ;;
		*)	lacks="$lacks CONFIG_$o" ;;
		esac
	done
	[ -z "$lacks" ] || die "the kernel tree $t lacks $(options "$lacks"): $FRAGMENT_HINT"
	[ -z "$mods" ] ||
		die "the kernel tree $t has $(options "$mods") as a module: the runner loads none; build it in (=y): $FRAGMENT_HINT"
	OVERLAY_KO=
	if grep -qx 'CONFIG_OVERLAY_FS=m' "$t/.config" && [ -f "$t/fs/overlayfs/overlay.ko" ] &&
		in_tree "$t" "$t/fs/overlayfs/overlay.ko"; then
		OVERLAY_KO=$t/fs/overlayfs/overlay.ko
	fi
}
usage() {
	sed -n '4,8s/^# \{0,3\}//p' "$0" | sed 's/^run.sh/Usage: bpfbench-vm/'
	exit "${1:-0}"
}
num() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 needs a positive integer, not '$2'" 2; }

ORIG_ARGS=("$@")	# a boot whose kernel panicked is tried again with them
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help)	usage 0 ;;
	--kernel)	[ $# -ge 2 ] || die "--kernel needs a value" 2; KERNEL=$2; shift 2 ;;
	--timeout)	[ $# -ge 2 ] || die "--timeout needs a value" 2; num "$1" "$2"; TIMEOUT=$2; shift 2 ;;
	--memory)	[ $# -ge 2 ] || die "--memory needs a value" 2; num "$1" "$2"; MEMORY=$2; shift 2 ;;
	--cpus)		[ $# -ge 2 ] || die "--cpus needs a value" 2; num "$1" "$2"; CPUS=$2; shift 2 ;;
	--keep)		KEEP=1; shift ;;
	--announce)	ANNOUNCE=1; shift ;;
	--return)	[ $# -ge 2 ] || die "--return needs a directory" 2; RETDIR=$2; shift 2 ;;
	--return-file)	[ $# -ge 2 ] && [[ $2 =~ ^[a-z]+$ ]] || die "--return-file needs a name (a-z)" 2
			RETURNS+=("$2"); shift 2 ;;
	--)		shift; break ;;
	-*)		die "unknown option '$1' (see --help)" 2 ;;
	*)		break ;;
	esac
done
[ $# -gt 0 ] || die "give a command to run in the VM (see --help)" 2
[ "$MEMORY" -ge 256 ] || die "--memory: at least 256 (MB)" 2
[ ${#RETURNS[@]} -eq 0 ] || [ -d "$RETDIR" ] || die "--return-file needs --return DIR, a directory" 2

# the user's input first: a path to a kernel is checked before the machine's tools
case $KERNEL in
*/*)	if [ -d "$KERNEL" ]; then
		tree_check "${KERNEL%/}"
	else
		[ -f "$KERNEL" ] || die "no kernel image at $KERNEL (nor a built kernel tree)"
	fi ;;
esac
command -v "$QEMU" >/dev/null 2>&1 ||
	die "QEMU ($QEMU) is missing: apt-get install qemu-system-x86 (or make vm-deps)"
[ -x "$VIRTIOFSD" ] ||
	die "virtiofsd ($VIRTIOFSD) is missing: apt-get install qemu-system-x86 (or make vm-deps)"

cleanup() {
	local p
	# kernel.sh's own trap ends a download under way
	[ -n "$KPID" ] && kill "$KPID" 2>/dev/null && wait "$KPID" 2>/dev/null
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
# a second signal (bpfbench hands on one the group got as well) is ignored
for s in INT TERM HUP; do
	trap "trap '' INT TERM HUP; trap - EXIT; cleanup; trap - $s; kill -$s \$\$" "$s"
done

private_dir bpfbench-vm. || die "cannot make a work directory in ${TMPDIR:-/tmp}"
WORK=$PRIVATE_DIR
mkdir -p "$WORK/vm/vm"
# The kernel: a path names a built tree (a directory) or an image file;
# anything else is a name or a package, fetched into a cache of ours
# (kernel.sh, in the background: a signal to us is handled at once and its
# trap ends the download).
case $KERNEL in
*/*)	KDIR=
	if [ -d "$KERNEL" ]; then
		IMAGE=${KERNEL%/}/arch/x86/boot/bzImage
	else
		IMAGE=$KERNEL
	fi ;;
*)	bash "$HERE/kernel.sh" fetch "$KERNEL" >"$WORK/kdir" &
	KPID=$!
	wait "$KPID" || exit $?
	KPID=
	KDIR=$(cat "$WORK/kdir")
	IMAGE=$KDIR/vmlinuz ;;
esac
vm_accel "$QEMU"
# This run's files, appended to the kernel's initramfs as a second cpio;
# its /init replaces the one a cache made with an older init.sh.
cp "$HERE/guest.sh" "$WORK/vm/vm/guest.sh"
install -m 0755 "$HERE/init.sh" "$WORK/vm/init"
pwd > "$WORK/vm/vm/cwd"
# the files to return, each on a console of its own: hvc3, hvc4, ...
RETARGS=()
for i in "${!RETURNS[@]}"; do
	echo "$((i + 3)) ${RETURNS[$i]}" >> "$WORK/vm/vm/returns"
	RETARGS+=(-chardev "file,id=r$i,path=$RETDIR/${RETURNS[$i]}"
		-device "virtconsole,chardev=r$i,nr=$((i + 3))")
done
# the VM in one line, the guest's own release in it (uname -r, run there)
KDESC=$(kernel_desc "$KERNEL" "$KDIR")
if [ "$ACCEL_KIND" = kvm ]; then INFO="QEMU KVM"; else INFO="QEMU TCG (emulated CPU)"; fi
{
	# shellcheck disable=SC2016
	[ -z "$ANNOUNCE" ] || printf 'printf "%%s\\n" %q %q"$(uname -r)"%q ""\n' \
		"VM: $ACCEL_TEXT ($CPUS vCPUs, $MEMORY MB)" "VM kernel: " " ($KDESC)"
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} > "$WORK/vm/vm/job"
{
	env | grep -E '^(CI|TERM|BPFBENCH_[A-Z0-9_]*)=' | sed -E 's/^([^=]*)=(.*)$/\1=\2/' |
		while IFS='=' read -r k v; do printf 'export %s=%q\n' "$k" "$v"; done
	# shellcheck disable=SC2016
	printf 'export BPFBENCH_VM_INFO=%q"$(uname -r)"%q\n' "$INFO, $CPUS vCPUs, $MEMORY MB, kernel " " ($KDESC)"
} > "$WORK/vm/vm/env"
if [ -n "$KDIR" ]; then
	cp "$KDIR/initramfs.cpio" "$WORK/initramfs"
else
	# a bare image: the first stage from busybox, no overlay module (read-only root)
	command -v cpio >/dev/null && [ -x /bin/busybox ] ||
		die "a bare kernel image needs cpio and busybox-static (apt-get install cpio busybox-static)"
	mkdir -p "$WORK/ir"/{bin,dev,proc,sys,lower,upper,newroot}
	cp /bin/busybox "$WORK/ir/bin/"
	[ -z "${OVERLAY_KO:-}" ] || cp "$OVERLAY_KO" "$WORK/ir/overlay.ko"
	(cd "$WORK/ir" && find . | cpio -o -H newc --quiet) > "$WORK/initramfs"
fi
(cd "$WORK/vm" && find . | cpio -o -H newc --quiet) >> "$WORK/initramfs" ||
	die "cannot write the initramfs"

# The guest only reads the host: C virtiofsd has no read-only switch, so it
# exports a read-only view of / (every mount under it remounted ro, in a
# mount namespace of its own that ends with it): the guest's ro mount is
# then not the only thing between it and the host's files.  The host's
# /proc, /sys and /dev are left out of the view (one umount, where each
# mount under them would be a mount(8) of its own): the guest mounts its
# own there (init.sh, guest.sh); one that stays is remounted ro as the rest.
mkdir "$WORK/root"
unshare --mount --propagation private -- bash -c '
	set -e
	mount --rbind / "$1"
	umount -R "$1/proc" "$1/sys" "$1/dev" 2>/dev/null || true
	findmnt -R -n -r -o TARGET "$1" | while read -r m; do
		printf -v m "%b" "$m"	# findmnt -r writes a space as \x20
		# the root must be read-only; a special mount that refuses is logged
		mount -o remount,bind,ro "$m" 2>/dev/null ||
			{ [ "$m" != "$1" ] && echo "left writable: $m" >&2; } ||
			{ echo "cannot make $1 read-only" >&2; exit 1; }
	done
	shift
	exec "$@"' - "$WORK/root" \
	"$VIRTIOFSD" --socket-path="$WORK/vfs.sock" -o source="$WORK/root" -o cache=auto \
	-o sandbox=chroot >"$WORK/virtiofsd.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do
	[ -S "$WORK/vfs.sock" ] && break
	kill -0 "${PIDS[0]}" 2>/dev/null || break
	sleep 0.1
done
[ -S "$WORK/vfs.sock" ] ||
	die "virtiofsd did not start (it needs root: a mount namespace, chroot): $(tail -3 "$WORK/virtiofsd.log")"

if [ "$ACCEL_KIND" = kvm ]; then
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

# --foreground: QEMU stays in our process group, so a signal to the group
# (timeout(1) around bpfbench, Ctrl-C) reaches it even if we are gone
timeout --foreground -k 5 "$TIMEOUT" "$QEMU" -nodefaults -no-user-config -display none -no-reboot \
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
	"${RETARGS[@]}" \
	</dev/null >"$WORK/qemu.log" 2>&1 5>&- 6>&- &
QPID=$!
# waited for in the background: a signal to us is handled at once
wait $QPID
QRC=$?
exec 5>&- 6>&-
for p in "${PIDS[@]:1}"; do wait "$p" 2>/dev/null; done
PIDS=("${PIDS[0]}")

# (QEMU killed before it opened its files leaves none: said as such, not as bash's error)
st=$(tr -dc '0-9' 2>/dev/null < "$WORK/status")
# init.sh's word on a kernel that lacks what the runner needs (on the serial
# console: the virtconsoles may be what it lacks); only where the command
# never ran (no status, or the guest's own 125)
lacks=
[ -n "$st" ] && [ "$st" != 125 ] ||
	lacks=$(sed -n 's/^bpfbench-vm: the kernel lacks: *\(CONFIG_[A-Z0-9_ ]*\).*/\1/p' \
		"$WORK/console.log" 2>/dev/null | head -1)
[ -z "$lacks" ] ||
	die "the kernel $KERNEL lacks $(options "$lacks"): $FRAGMENT_HINT"
if [ "$QRC" -eq 124 ] || [ "$QRC" -eq 137 ]; then
	echo "bpfbench-vm: error: the VM did not finish within $TIMEOUT s (--timeout); its console's end:" >&2
	tail -5 "$WORK/console.log" 2>/dev/null | sed 's/^/  /' >&2
	[ -s "$WORK/console.log" ] || echo "  (nothing: the VM had not started)" >&2
	exit 124
fi
# An emulated guest kernel now and then panics while it boots (about one
# boot in 50 under TCG here, in interrupt context, before init runs): when
# the command never started, nothing of it ran, and one more boot is safe.
if [ -z "$st" ] && [ -z "${BPFBENCH_VM_REBOOTED:-}" ] &&
	grep -q 'Kernel panic' "$WORK/console.log" 2>/dev/null &&
	! grep -q '^bpfbench-vm: the command starts' "$WORK/console.log"; then
	echo "bpfbench-vm: the guest kernel panicked while booting, before the command ran: booting once more" >&2
	grep -m1 'Kernel panic' "$WORK/console.log" | sed 's/^/  /' >&2
	trap - EXIT
	cleanup
	BPFBENCH_VM_REBOOTED=1 exec bash "$0" "${ORIG_ARGS[@]}"
fi
if [ -z "$st" ]; then
	echo "bpfbench-vm: error: the VM stopped without the command's exit status (QEMU exit $QRC):" >&2
	{ tail -3 "$WORK/qemu.log"; tail -8 "$WORK/console.log"; } 2>/dev/null | sed 's/^/  /' >&2
	exit 125
fi
exit "$st"
