#!/bin/busybox sh
# The guest's first stage (busybox, in the initramfs of scripts/vm/kernel.sh):
# the host's root, shared read-only by virtiofs, becomes the lower layer of an
# overlay whose upper layer is a tmpfs, so the guest runs the host's userland
# unchanged and its writes stay in the guest.  Then bash runs the second stage
# (guest.sh, copied with the run's job into /run/bpfbench-vm).
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

fail() {
	echo "bpfbench-vm: error: guest: $*" >/dev/hvc1
	echo 125 >/dev/hvc2
	echo o >/proc/sysrq-trigger
	sleep 10
}

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
