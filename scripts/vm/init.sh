#!/bin/busybox sh
# The guest's first stage (busybox, in the initramfs of scripts/vm/kernel.sh):
# the host's root, shared read-only by virtiofs, becomes the lower layer of an
# overlay whose upper layer is a tmpfs, so the guest runs the host's userland
# unchanged and its writes stay in the guest.  Then bash runs the second stage
# (guest.sh, copied with the run's job into /run/bpfbench-vm).

# kconfig_missing ROOT: what this kernel lacks of what the runner needs
# (run.sh's RUNNER_NEEDS), as far as ROOT/proc, /sys and /dev show it.
# NEEDS: filesystem or file, then the option that gives it.
kconfig_missing() {
	local r="$1" m='' fs w
	[ -r "$r/proc/filesystems" ] || { echo " CONFIG_PROC_FS"; return; }
	fs=$(cat "$r/proc/filesystems")
	for w in virtiofs:VIRTIO_FS devtmpfs:DEVTMPFS devpts:UNIX98_PTYS cgroup2:CGROUPS \
		bpf:BPF_SYSCALL sysfs:SYSFS; do
		echo "$fs" | grep -qw "${w%%:*}" || m="$m CONFIG_${w#*:}"
	done
	[ -e "$r/proc/sysrq-trigger" ] || m="$m CONFIG_MAGIC_SYSRQ"
	# no virtio device at all: virtiofs' and the consoles' transport is missing
	set -- "$r"/sys/bus/virtio/devices/*
	[ -e "$1" ] || m="$m CONFIG_VIRTIO_PCI"
	# the consoles' ports come up a little after the driver: wait a while
	w=0
	while [ ! -e "$r/dev/hvc2" ] && [ $w -lt 20 ]; do
		sleep 0.1
		w=$((w + 1))
	done
	[ -e "$r/dev/hvc2" ] || m="$m CONFIG_VIRTIO_CONSOLE"
	echo "$m"
}
# the runner's marker, on the serial console (ttyS0: the virtconsoles may
# be what is missing); run.sh makes it an error naming the options
lacks() { echo "bpfbench-vm: the kernel lacks:$1"; }
if [ "${1:-}" = --kconfig-missing ]; then	# tests/vm_kernel.t's stand-in for a boot
	m=$(kconfig_missing "$2")
	[ -z "$m" ] || lacks "$m"
	exit 0
fi

/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
# a kernel with the virtio drivers as modules (Debian's 6.1): kernel.sh put
# them here in load order; one already built in refuses, which is fine
for k in /mods/*.ko; do
	[ ! -e "$k" ] || insmod "$k" 2>/dev/null || true
done

off() {
	echo o >/proc/sysrq-trigger 2>/dev/null || poweroff -f
	sleep 10
	exit 1	# init gone: a panic, and QEMU (-no-reboot, panic=-1) ends
}
fail() {
	echo "bpfbench-vm: error: guest: $*" >/dev/hvc1
	echo 125 >/dev/hvc2
	off
}
m=$(kconfig_missing "")
if [ -n "$m" ]; then
	lacks "$m"
	echo 125 >/dev/hvc2 2>/dev/null
	off
fi

mount -t virtiofs -o ro hostroot /lower || fail "cannot mount the host's root by virtiofs"
if insmod /overlay.ko 2>/dev/null || grep -qw overlay /proc/filesystems; then
	mount -t tmpfs -o mode=0755 tmpfs /upper && mkdir /upper/u /upper/w &&
	mount -t overlay overlay -o lowerdir=/lower,upperdir=/upper/u,workdir=/upper/w /newroot ||
		fail "cannot mount the overlay on the host's root"
else
	# no overlay module: a read-only root; guest.sh puts tmpfs on the places written
	mount --move /lower /newroot
fi
mount -t tmpfs -o mode=0755 tmpfs /newroot/run || fail "cannot mount /run"
cp -a /vm /newroot/run/bpfbench-vm
mount --move /dev /newroot/dev
umount /sys /proc
exec switch_root /newroot /bin/bash /run/bpfbench-vm/guest.sh
