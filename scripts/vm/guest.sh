#!/bin/bash
# The guest's second stage, on the host's userland (see init.sh): mounts what
# bpfbench and its tests use (proc, sysfs, cgroup v2 alone, bpffs, tracefs,
# debugfs, tmpfs where they write), runs the job with its stdout on hvc0, its
# stderr on hvc1 and its exit status on hvc2, the files it wrote in
# /run/bpfbench-vm/out that the host asked back each on its console (the
# list "N NAME" in /run/bpfbench-vm/returns: hvcN), then powers off.
V=/run/bpfbench-vm
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mkdir -p /dev/pts /dev/shm
# what udev or systemd would make: bash's <(...) needs /dev/fd
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mount -t bpf bpf /sys/fs/bpf
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
cwd=$(cat "$V/cwd")
for d in /tmp /var/tmp; do
	case $cwd/ in
	"$d"/*)	# the tree was run from under $d: keep it in sight
		[ -w / ] && continue	# the overlay's upper layer takes the writes
		mkdir -p /run/keep && mount --bind "$d" /run/keep
		mount -t tmpfs tmpfs "$d" 2>/dev/null
		mkdir -p "$cwd" && mount --bind "/run/keep${cwd#"$d"}" "$cwd"
		continue ;;
	esac
	mount -t tmpfs tmpfs "$d" 2>/dev/null
done
# on a read-only root (no overlay), where the tests write beside the tree
[ -w / ] || mount -t tmpfs tmpfs /mnt 2>/dev/null
hostname bpfbench-vm 2>/dev/null
ip link set lo up 2>/dev/null
export HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# The consoles are ttys: held open (a tty's settings end with its last
# close), raw so that no \r is added to the command's newlines.
exec 7<>/dev/hvc0 8<>/dev/hvc1 9<>/dev/hvc2
for fd in 7 8 9; do stty raw -echo <&$fd 2>/dev/null; done
. "$V/env"
cd "$cwd" || { echo "bpfbench-vm: error: guest: no $cwd" >/dev/hvc1; echo 125 >/dev/hvc2; echo o >/proc/sysrq-trigger; }
mkdir -p "$V/out"
# run.sh boots again after a guest kernel panic only if this never came
echo "bpfbench-vm: the command starts" >/dev/ttyS0 2>/dev/null
bash "$V/job" </dev/null >&7 2>&8 7>&- 8>&- 9>&-
st=$?
# A file not written is sent as nothing: the host's copy stays empty and
# bpfbench leaves the user's file as it was (as a run that measured nothing).
if [ -f "$V/returns" ]; then
	while read -r n name; do
		[ -f "$V/out/$name" ] || continue
		exec 3<>"/dev/hvc$n"
		stty raw -echo <&3 2>/dev/null
		cat "$V/out/$name" >&3
		exec 3>&-
	done < "$V/returns"
fi
echo $st >&9
exec 7>&- 8>&- 9>&-	# a tty's last close waits until its output is sent
sync
echo o >/proc/sysrq-trigger
sleep 10
