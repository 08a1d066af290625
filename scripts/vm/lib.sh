# Shared by the VM runner's scripts (sourced, not run).
# shellcheck shell=bash

# private_dir PREFIX: a new directory ${TMPDIR:-/tmp}/PREFIX<pid>.XXXXXX,
# mode 0700 (mktemp -d: a random name, created exclusively, so nothing
# another user planted in a shared /tmp is ever followed), its name in
# PRIVATE_DIR and an exclusive flock on it held on fd PRIVATE_LOCK while we
# (and the children that inherit the descriptor) live.  As the host's
# outpath_private_dir(): the ones a killed run left are removed first.
private_dir() {
	local prefix=$1 base=${TMPDIR:-/tmp} d pid
	for d in "$base/$prefix"[0-9]*.??????; do
		# ours, a real directory, private, its process gone, nobody holding its lock
		[ -d "$d" ] && [ ! -L "$d" ] && [ -O "$d" ] || continue
		[ "$(stat -c %a "$d")" = 700 ] || continue
		pid=${d##*/"$prefix"}
		pid=${pid%%.*}
		[[ $pid =~ ^[0-9]+$ ]] && [ "$pid" != $$ ] || continue
		kill -0 "$pid" 2>/dev/null && continue
		flock -n "$d" true 2>/dev/null || continue
		rm -rf -- "$d"
	done
	PRIVATE_DIR=$(mktemp -d "$base/$prefix$$.XXXXXX") || return 1
	exec {PRIVATE_LOCK}<"$PRIVATE_DIR" && flock -x "$PRIVATE_LOCK"
}

# vm_accel QEMU: ACCEL_KIND (kvm where /dev/kvm works and BPFBENCH_VM_ACCEL
# does not refuse it, else tcg) and ACCEL_TEXT, as run.sh boots and says it.
# shellcheck disable=SC2034	# set for the caller
# KVM only where a paused VM of it stays up for a second: a /dev/kvm that
# QEMU cannot set a vCPU up on (nested KVM refusing an MSR: QEMU aborts at
# once) is no KVM, and the run takes TCG instead of failing.
kvm_works() {
	local rc
	# a subshell, so that bash's own "Aborted" line goes where QEMU's do
	rc=$( (timeout 1 "$1" -accel kvm -cpu host -machine q35 -nodefaults -no-user-config \
		-display none -monitor none -serial none -S </dev/null >/dev/null 2>&1; echo $?) 2>/dev/null)
	[ "$rc" = 124 ]
}

vm_accel() {
	if [ -z "${BPFBENCH_VM_ACCEL:-}" ] && [ -w /dev/kvm ] &&
		"$1" -accel help 2>/dev/null | grep -qx kvm && kvm_works "$1"; then
		ACCEL_KIND=kvm
		ACCEL_TEXT="QEMU with KVM"
	else
		ACCEL_KIND=tcg
		ACCEL_TEXT="QEMU TCG, emulated CPU: figures are not comparable with the host's"
	fi
}

# kernel_desc SPEC KDIR: what the kernel booted is, for the VM's line: the
# Debian package and its version (kernel.sh's KDIR/package), a built tree
# or an image file (SPEC, a path).
kernel_desc() {
	local spec=$1 kdir=${2:-}
	if [ -n "$kdir" ] && [ -s "$kdir/package" ]; then
		echo "Debian $(head -1 "$kdir/package")"
	elif [ -n "$kdir" ]; then
		echo "Debian $spec"
	elif [ -d "$spec" ]; then
		echo "built tree ${spec%/}"
	else
		echo "image $spec"
	fi
}

# progress TEXT: ab's and the download's progress on stderr: on a terminal
# (BPFBENCH_STDERR_TTY, which bpfbench sets from its stderr) one line
# rewritten in place; otherwise a line only when PROGRESS_LINES is set
# (-v).  progress_end erases the line before anything else is written.
progress() {
	local cols
	if [ "${BPFBENCH_STDERR_TTY:-0}" = 1 ]; then
		# within the terminal's width (a line that wraps is no longer rewritten in place)
		cols=$({ stty size <&2 2>/dev/null || true; } | awk '{ print $2 }')
		[[ ${cols:-} =~ ^[1-9][0-9]*$ ]] || cols=120
		printf '\r\033[K%s ' "${1:0:cols - 2}" >&2
		PROGRESS_SHOWN=1
	elif [ -n "${PROGRESS_LINES:-}" ]; then
		printf '%s\n' "$1" >&2
	fi
}
progress_end() {
	[ -z "${PROGRESS_SHOWN:-}" ] || printf '\r\033[K' >&2
	PROGRESS_SHOWN=
}
