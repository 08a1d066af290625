#!/usr/bin/env bash
# The end-to-end of doc/kernel-dev.md, as a script: builds two kernels from
# Debian's linux-source-6.12 with the fragment, B with the planted cost of
# doc/kernel-patch-example.diff, then runs ab --kernel A --kernel B on a
# benchmark that uses the patched op and on one that does not.
#
#   kernel-example.sh DIR [AB-OPTIONS...]     e.g. kernel-example.sh /work/kbuild -r 3
#
# DIR gets linux-source-6.12/ (unpacked from /usr/src, apt-get install
# linux-source-6.12), A/ and B/ (O= build trees), times (each step's wall
# time) and ab-*.txt.  A step already done (its output there) is skipped,
# so a stopped run goes on where it stopped.  Builds run at nice 19.
# Needs: flex bison bc libssl-dev libelf-dev dwarves (pahole, for BTF).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
BIN=${BPFBENCH_BIN:-$TOP/build/bpfbench}
[ $# -ge 1 ] || { sed -n '7s/^# \{0,3\}//p' "$0"; exit 2; }
DIR=$(realpath -m -- "$1")
shift
SRC=$DIR/linux-source-6.12
TAR=/usr/src/linux-source-6.12.tar.xz
JOBS=$(nproc)

# timed NAME CMD...: CMD, its wall time appended to DIR/times
timed() {
	local name=$1 s
	shift
	s=$(date +%s)
	"$@"
	echo "$name $(($(date +%s) - s)) s ($(date -u +%FT%TZ))" >>"$DIR/times"
}
kbuild() { nice -n 19 make -C "$SRC" O="$1" -j"$JOBS" bzImage >"$1.log" 2>&1; }
configure() {
	make -C "$SRC" O="$DIR/A" x86_64_defconfig kvm_guest.config >/dev/null
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$DIR/A" "$DIR/A/.config" "$HERE/bpfbench.config" >/dev/null
	# small: what a VM booted by the runner never uses, left out
	# shellcheck disable=SC2046,SC2086
	"$SRC/scripts/config" --file "$DIR/A/.config" $(printf -- '-d %s ' $TRIM)
	make -C "$SRC" O="$DIR/A" olddefconfig >/dev/null
}
TRIM="DRM SOUND WLAN WIRELESS CFG80211 USB_SUPPORT MODULES AGP FB INPUT_JOYSTICK INPUT_TABLET
	INPUT_TOUCHSCREEN NETFILTER RFKILL ETHERNET IPV6 SECURITY_SELINUX AUDIT NFS_FS HAMRADIO ATA
	SCSI MD EXT4_FS ISO9660_FS MSDOS_FS VFAT_FS FAT_FS QUOTA AUTOFS_FS HID INPUT_MOUSE
	INPUT_KEYBOARD PCCARD CPU_FREQ HIBERNATION SUSPEND NETWORK_FILESYSTEMS PPS PTP_1588_CLOCK
	WATCHDOG HWMON I2C EFI KEXEC CRASH_DUMP BT NFC MACINTOSH_DRIVERS MICROCODE VIRTUALIZATION
	HW_RANDOM LOGO MMC NEW_LEDS DMADEVICES STAGING CHROME_PLATFORMS X86_PLATFORM_DEVICES
	INTEL_IOMMU AMD_IOMMU NETLABEL XFRM_USER IP_MULTICAST IP_ADVANCED_ROUTER IP_PNP NET_IPIP
	NETDEVICES BLK_DEV_SR CDROM PCIEPORTBUS HOTPLUG_PCI THERMAL POWER_SUPPLY PM X86_MCE"

mkdir -p "$DIR"
if [ ! -d "$SRC" ]; then
	[ -f "$TAR" ] || { echo "no $TAR: apt-get install linux-source-6.12" >&2; exit 1; }
	timed unpack tar -C "$DIR" -xf "$TAR"
fi
[ -f "$DIR/A/.config" ] || timed configure configure
[ -f "$DIR/A/arch/x86/boot/bzImage" ] || timed build-A kbuild "$DIR/A"
if [ ! -f "$DIR/B/arch/x86/boot/bzImage" ]; then
	# B: the patched source, an incremental build of a copy of A's tree
	[ -d "$DIR/B" ] || cp -a "$DIR/A" "$DIR/B"
	patch -d "$SRC" -p1 -N --dry-run -s <"$TOP/doc/kernel-patch-example.diff" >/dev/null &&
		patch -d "$SRC" -p1 -N -s <"$TOP/doc/kernel-patch-example.diff"
	timed build-B-incremental kbuild "$DIR/B"
	# A's tree stays A's: the source goes back to it
	patch -d "$SRC" -p1 -R -s <"$TOP/doc/kernel-patch-example.diff"
fi
for k in A B; do
	[ -s "$DIR/probe-$k.txt" ] || "$BIN" --kernel "$DIR/$k" probe >"$DIR/probe-$k.txt"
done
for args in "lpm-trie-lookup -d5" "lpm-trie-baseline -d5" "map-lookup -d5"; do
	out=$DIR/ab-${args%% *}.txt
	[ -s "$out" ] ||
		timed "ab-${args%% *}" "$BIN" ab --kernel "$DIR/A" --kernel "$DIR/B" "$args" "$@" >"$out" 2>&1 || true
	cat "$out"
done
