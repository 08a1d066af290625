# Shared by the end-to-end examples kernel-example.sh and bisect-example.sh
# (sourced, not run): their timing and the small kernel configuration.
# shellcheck shell=bash

# timed NAME CMD...: CMD, its wall time appended to $DIR/times
timed() {
	local name=$1 s
	shift
	s=$(date +%s)
	"$@"
	echo "$name $(($(date +%s) - s)) s ($(date -u +%FT%TZ))" >>"$DIR/times"
}

# small: what a VM booted by the runner never uses, left out
TRIM="DRM SOUND WLAN WIRELESS CFG80211 USB_SUPPORT MODULES AGP FB INPUT_JOYSTICK INPUT_TABLET
	INPUT_TOUCHSCREEN NETFILTER RFKILL ETHERNET IPV6 SECURITY_SELINUX AUDIT NFS_FS HAMRADIO ATA
	SCSI MD EXT4_FS ISO9660_FS MSDOS_FS VFAT_FS FAT_FS QUOTA AUTOFS_FS HID INPUT_MOUSE
	INPUT_KEYBOARD PCCARD CPU_FREQ HIBERNATION SUSPEND NETWORK_FILESYSTEMS PPS PTP_1588_CLOCK
	WATCHDOG HWMON I2C EFI KEXEC CRASH_DUMP BT NFC MACINTOSH_DRIVERS MICROCODE VIRTUALIZATION
	HW_RANDOM LOGO MMC NEW_LEDS DMADEVICES STAGING CHROME_PLATFORMS X86_PLATFORM_DEVICES
	INTEL_IOMMU AMD_IOMMU NETLABEL XFRM_USER IP_MULTICAST IP_ADVANCED_ROUTER IP_PNP NET_IPIP
	NETDEVICES BLK_DEV_SR CDROM PCIEPORTBUS HOTPLUG_PCI THERMAL POWER_SUPPLY PM X86_MCE"

# configure_small SRC O: x86_64_defconfig + kvm_guest.config + the runner's
# fragment (bpfbench.config, beside this file), trimmed of TRIM, in O=
configure_small() {
	local src=$1 o=$2 here
	here=$(dirname "${BASH_SOURCE[0]}")
	make -C "$src" O="$o" x86_64_defconfig kvm_guest.config >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" "$here/bpfbench.config" >/dev/null
	# shellcheck disable=SC2046,SC2086
	"$src/scripts/config" --file "$o/.config" $(printf -- '-d %s ' $TRIM)
	make -C "$src" O="$o" olddefconfig >/dev/null
}
