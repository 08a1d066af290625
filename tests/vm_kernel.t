#!/usr/bin/env bash
# scripts/vm/run.sh --kernel: a path is a built kernel tree (a directory) or
# an image file, anything else a name; a tree's .config lacking what the
# runner needs, and a booted kernel lacking it (init.sh's check, run by a
# stand-in QEMU on a fake guest's /proc, /sys, /dev), are errors naming the
# option, never a hang.  QEMU, virtiofsd and apt are stand-ins (tests/vm/).
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VM=$ROOT/scripts/vm/run.sh
command -v cpio >/dev/null || skip_all "needs cpio"
[ -x /bin/busybox ] || skip_all "needs busybox-static"
[ "$(id -u)" -eq 0 ] || skip_all "needs root (unshare --mount)"

# a mirror of the tests' own (apt is a stand-in): the machine's apt sources may name none (kernel.sh)
export TMPDIR=$TMPD/work BPFBENCH_VM_CACHE=$TMPD/cache BPFBENCH_VM_MIRROR=http://mirror.example/debian
mkdir -p "$TMPDIR" "$TMPD/bin"
ln -s "$ROOT/tests/vm/fake-apt" "$TMPD/bin/apt-get"
ln -s "$ROOT/tests/vm/fake-apt" "$TMPD/bin/apt-cache"
PIN="linux-binary-7.3.4+deb13-cloud-amd64=7.3.4-1~bpo13+1 linux-modules-7.3.4+deb13-cloud-amd64=7.3.4-1~bpo13+1"
# vm [QEMU] ARGS...: the runner with the stand-ins; QEMU's arguments in $TMPD/qargs
vm() {
	local q=fake-qemu
	[ "$1" = kcheck ] && { q=fake-qemu-kcheck; shift; }
	rm -f "$TMPD/qargs"
	BPFBENCH_QEMU="$ROOT/tests/vm/$q" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
		FAKE_QEMU_ARGS=$TMPD/qargs PATH="$TMPD/bin:$PATH" FAKE_APT_PKGS=$PIN \
		bash "$VM" "$@" >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	OUT=$(cat "$TMPD/out")
	ERR=$(grep -v 'no KVM here' "$TMPD/err")
}
booted() { grep -A1 -x -- -kernel "$TMPD/qargs" 2>/dev/null | tail -1; }
one_error() {	# one_error RC WANT DESC
	[ "$RC" -eq "$1" ] && [ "$(wc -l <<<"$ERR")" -eq 1 ] && grep -q "^bpfbench-vm: error: " <<<"$ERR" &&
		grep -qF -- "$2" <<<"$ERR"
	ok $? "$3" || diag "exit $RC: $ERR"
}
# tree DIR [OPTION=VALUE...]: a built tree whose .config has what the runner
# needs (run.sh's RUNNER_NEEDS) =y, but for the options given
tree() {
	local d=$1 o
	shift
	mkdir -p "$d/arch/x86/boot"
	# no kernel, but with the boot header's magic where run.sh looks (0x202)
	{ head -c 514 /dev/zero; printf HdrS; echo " not a kernel"; } >"$d/arch/x86/boot/bzImage"
	for o in $(sed -n '/^RUNNER_NEEDS="/,/"$/p' "$VM" | grep -o '[A-Z][A-Z0-9_]*' | grep -vx RUNNER_NEEDS); do
		echo "CONFIG_$o=y"
	done >"$d/.config"
	for o in "$@"; do
		sed -i "/^CONFIG_${o%%=*}=/d" "$d/.config"
		[ -z "${o#*=}" ] || echo "CONFIG_$o" >>"$d/.config"
	done
}

tree "$TMPD/linux"
vm --kernel "$TMPD/linux" -- true
[ "$RC" -eq 0 ] && [ "$(booted)" = "$TMPD/linux/arch/x86/boot/bzImage" ]
ok $? "--kernel TREE: the tree's arch/x86/boot/bzImage is booted" || diag "exit $RC: $ERR" "$(booted)"
vm --kernel "$TMPD/linux/" -- true
[ "$RC" -eq 0 ] && [ "$(booted)" = "$TMPD/linux/arch/x86/boot/bzImage" ]
ok $? "--kernel TREE/: the same" || diag "exit $RC: $ERR"
vm --kernel "$TMPD/linux/arch/x86/boot/bzImage" -- true
[ "$RC" -eq 0 ] && [ "$(booted)" = "$TMPD/linux/arch/x86/boot/bzImage" ]
ok $? "--kernel FILE: the image itself" || diag "exit $RC: $ERR"

pushd "$TMPD/linux/.." >/dev/null
vm --kernel linux -- true
popd >/dev/null
one_error 2 "unknown kernel 'linux'" "--kernel linux with a tree ./linux here: a name, refused as unknown (a path needs a /)"
[ ! -e "$TMPD/qargs" ]
ok $? "... and nothing booted"
tree "$TMPD/plant/7.3"
pushd "$TMPD/plant" >/dev/null
vm --kernel 7.3 -- true
popd >/dev/null
[ "$RC" -eq 0 ] && [ "$(booted)" = "$TMPD/cache/kernels/7.3.4+deb13-cloud-amd64/vmlinuz" ]
ok $? "--kernel 7.3 with a tree ./7.3 here: the pinned 7.3 is booted, never the tree" ||
	diag "exit $RC: $ERR" "$(booted)"
pushd "$TMPD/plant" >/dev/null
vm --kernel ./7.3 -- true
popd >/dev/null
[ "$RC" -eq 0 ] && [ "$(booted)" = "./7.3/arch/x86/boot/bzImage" ]
ok $? "--kernel ./7.3: the tree" || diag "exit $RC: $ERR" "$(booted)"

# ab --kernel with two trees (through the binary, as a developer runs it)
tree "$TMPD/linux-b"
BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
	"$BPFBENCH" ab --kernel "$TMPD/linux" --kernel "$TMPD/linux-b/" -r 1 --seed 1 \
	"noop -w0 -d0.2 --period-ms 100" >"$TMPD/out" 2>"$TMPD/err"
RC=$?
[ "$RC" -eq 0 ] && grep -qF "  A: kernel $TMPD/linux: " "$TMPD/out" &&
	grep -qF "  B: kernel $TMPD/linux-b/: " "$TMPD/out" && grep -qE '^noop: ' "$TMPD/out"
ok $? "ab --kernel TREE --kernel TREE/: both trees run, an answer" || diag "exit $RC" "$(cat "$TMPD/err")" "$(cat "$TMPD/out")"

# a tree that cannot run: said before any boot
tree "$TMPD/novfs" VIRTIO_FS= DEVTMPFS=
vm --kernel "$TMPD/novfs" -- true
one_error 125 "the kernel tree $TMPD/novfs lacks CONFIG_DEVTMPFS, CONFIG_VIRTIO_FS: merge $ROOT/scripts/vm/bpfbench.config" \
	"a tree whose .config lacks virtiofs and devtmpfs: exit 125 naming both and the fragment"
[ ! -e "$TMPD/qargs" ]
ok $? "... before the boot"
tree "$TMPD/modvfs" VIRTIO_FS=m
vm --kernel "$TMPD/modvfs" -- true
one_error 125 "has CONFIG_VIRTIO_FS as a module: the runner loads none; build it in (=y)" \
	"a tree with virtiofs as a module: refused, naming it"
mkdir -p "$TMPD/notree"
vm --kernel "$TMPD/notree" -- true
one_error 125 "no built kernel tree: no arch/x86/boot/bzImage" "a directory with no bzImage: refused"
tree "$TMPD/linked"
ln -sf /etc/hostname "$TMPD/linked/arch/x86/boot/bzImage"
vm --kernel "$TMPD/linked" -- true
one_error 125 "its arch/x86/boot/bzImage is a link or no file of the tree's own" "a tree whose bzImage is a link: refused, not followed"
tree "$TMPD/ovl" OVERLAY_FS=m
mkdir -p "$TMPD/ovl/fs/overlayfs"
echo "overlay module" >"$TMPD/ovl/fs/overlayfs/overlay.ko"
vm --kernel "$TMPD/ovl" --keep -- true
kept=$(sed -n 's/^bpfbench-vm: kept //p' "$TMPD/err")
[ "$RC" -eq 0 ] && [ -n "$kept" ] && cmp -s "$kept/ir/overlay.ko" "$TMPD/ovl/fs/overlayfs/overlay.ko"
ok $? "a tree with overlayfs a module: its overlay.ko goes into the initramfs" || diag "exit $RC: $ERR"
[ -z "$kept" ] || rm -rf "$kept"

# a booted kernel that lacks what the runner needs (init.sh's check)
guest() {	# guest DIR FILESYSTEM...: a guest's /proc, /sys and /dev
	mkdir -p "$1"/{proc,sys/bus/virtio/devices/virtio0,dev}
	printf 'nodev\t%s\n' "${@:2}" >"$1/proc/filesystems"
	: >"$1/proc/sysrq-trigger"
	: >"$1/dev/hvc2"
}
guest "$TMPD/g-full" sysfs proc tmpfs devtmpfs devpts cgroup2 bpf virtiofs fuse overlay
/bin/busybox sh "$ROOT/scripts/vm/init.sh" --kconfig-missing "$TMPD/g-full" >"$TMPD/out"
[ ! -s "$TMPD/out" ]
ok $? "init.sh's check: a guest with all the runner needs lacks nothing" || diag "$(cat "$TMPD/out")"
guest "$TMPD/g-novfs" sysfs proc tmpfs devtmpfs devpts cgroup2 bpf fuse overlay
start=$SECONDS
FAKE_GUEST_ROOT=$TMPD/g-novfs vm kcheck --kernel "$TMPD/linux" --timeout 60 -- true
one_error 125 "the kernel $TMPD/linux lacks CONFIG_VIRTIO_FS: merge $ROOT/scripts/vm/bpfbench.config" \
	"a booted kernel without virtiofs: exit 125, one line naming CONFIG_VIRTIO_FS and the fragment"
[ $((SECONDS - start)) -lt 30 ]
ok $? "... at once, not at --timeout"
guest "$TMPD/g-bare" sysfs proc tmpfs devtmpfs devpts cgroup2 bpf virtiofs
rm -r "$TMPD/g-bare/dev/hvc2" "$TMPD/g-bare/sys/bus/virtio" "$TMPD/g-bare/proc/sysrq-trigger"
echo "not a kernel" >"$TMPD/vmlinuz"
FAKE_GUEST_ROOT=$TMPD/g-bare vm kcheck --kernel "$TMPD/vmlinuz" -- true
one_error 125 "lacks CONFIG_MAGIC_SYSRQ, CONFIG_VIRTIO_PCI, CONFIG_VIRTIO_CONSOLE:" \
	"an image without virtio-pci, its consoles or sysrq: each named (on the serial console, as the virtconsoles are missing)"
[ -z "$(ls -A "$TMPDIR")" ]
ok $? "no work directory left behind" || diag "$(ls -A "$TMPDIR")"
# issue 42: a tree's files are its own, its image an image; the user's
# input is checked before the machine's tools
tree "$TMPD/links"
echo "outside" >"$TMPD/outside.config"
mv "$TMPD/links/.config" "$TMPD/real.config"
ln -s "$TMPD/real.config" "$TMPD/links/.config"
vm --kernel "$TMPD/links" -- true
one_error 125 "its .config is a link or no file of the tree's own" "a tree whose .config is a link: refused"
rm "$TMPD/links/.config" && mv "$TMPD/real.config" "$TMPD/links/.config"
mv "$TMPD/links/arch/x86/boot" "$TMPD/boot-elsewhere"
ln -s "$TMPD/boot-elsewhere" "$TMPD/links/arch/x86/boot"
vm --kernel "$TMPD/links" -- true
one_error 125 "its arch/x86/boot/bzImage is a link or no file of the tree's own" \
	"a tree whose arch/x86/boot is a link out of it: refused"
[ ! -e "$TMPD/qargs" ]
ok $? "... nothing booted"
rm "$TMPD/links/arch/x86/boot" && mv "$TMPD/boot-elsewhere" "$TMPD/links/arch/x86/boot"
printf '#!/bin/sh\necho pwned\n' >"$TMPD/links/arch/x86/boot/bzImage"
vm --kernel "$TMPD/links" -- true
one_error 125 "is no bzImage (no HdrS boot header)" "a tree whose bzImage is a script: refused by its header"
mkdir -p "$TMPD/empty"
BPFBENCH_VIRTIOFSD=/nonexistent/virtiofsd bash "$VM" --kernel "$TMPD/empty" -- true >"$TMPD/out" 2>"$TMPD/err"
RC=$? ERR=$(cat "$TMPD/err")
one_error 125 "no arch/x86/boot/bzImage" "a tree without a bzImage, no virtiofsd either: the tree is said first"
done_testing
