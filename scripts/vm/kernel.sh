#!/usr/bin/env bash
# Fetches a Debian kernel by package name into a cache of our own and prints
# the directory holding its vmlinuz, modules and our initramfs.
#
#   kernel.sh fetch NAME|PACKAGE    NAME from scripts/vm/kernels (7.3, 6.12)
#   kernel.sh list                  the names known
#
# apt runs with a private configuration (sources, lists, cache, status) under
# the cache directory: the system's own apt state is never read or written.
# The archive is reached through the host's configured Debian mirror.
# Exit: 0 ok, 2 bad usage, 125 the download or the unpacking failed.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${BPFBENCH_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bpfbench-vm}
APTD=$CACHE/apt

die() { echo "bpfbench-vm: error: $1" >&2; exit "${2:-125}"; }
say() { echo "bpfbench-vm: $*" >&2; }

# The Debian mirror the host's apt uses (deb822 or one-line sources).
mirror() {
	local m
	m=$(grep -hsE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -oE 'https?://[^ ]+/debian/?( |$)' | head -1 | tr -d ' ')
	echo "${BPFBENCH_VM_MIRROR:-${m:-http://deb.debian.org/debian}}"
}

apt_setup() {
	local m keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	m=$(mirror)
	mkdir -p "$APTD"/{lists/partial,cache/archives/partial,state,etc/sources.list.d,etc/preferences.d}
	: > "$APTD/status"
	{
		for s in trixie-backports trixie sid; do
			echo "deb [signed-by=$keyring] ${m%/} $s main"
		done
	} > "$APTD/etc/sources.list"
	cat > "$APTD/apt.conf" <<CONF
Dir::State "$APTD/state";
Dir::State::Lists "$APTD/lists";
Dir::State::status "$APTD/status";
Dir::Cache "$APTD/cache";
Dir::Etc::SourceList "$APTD/etc/sources.list";
Dir::Etc::SourceParts "$APTD/etc/sources.list.d";
Dir::Etc::Preferences "$APTD/etc/preferences";
Dir::Etc::PreferencesParts "$APTD/etc/preferences.d";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Acquire::Languages "none";
APT::Sandbox::User "root";
CONF
}

papt() { APT_CONFIG="$APTD/apt.conf" "$@"; }

# Lists older than a day are refreshed; a failed refresh with lists at hand
# goes on with them.
apt_update() {
	if [ -z "$(find "$APTD/lists" -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null)" ]; then
		say "updating the package lists of trixie, trixie-backports and sid (private apt state in $APTD)"
		timeout 300 env APT_CONFIG="$APTD/apt.conf" apt-get -q update >"$APTD/update.log" 2>&1 ||
			[ -n "$(ls "$APTD"/lists/*Packages* 2>/dev/null)" ] ||
			die "apt-get update of Debian's archive failed (see $APTD/update.log)"
	fi
}

# The newest package of the same series: linux-binary-7.3.4+deb13-cloud-amd64
# -> linux-binary-7.3.*-cloud-amd64.
newest_like() {
	local pat=$1
	pat=$(sed -E 's/-([0-9]+\.[0-9]+)\.[0-9]+\+deb[0-9]+-/-\1.[0-9.]*+deb[0-9]*-/' <<<"$pat")
	papt apt-cache pkgnames 2>/dev/null | grep -xE "${pat//+/\\+}" | sort -V | tail -1
}

# download PKG [VERSION]: the .deb into $CACHE/debs (kept: pins outlive the archive)
download() {
	local pkg=$1 ver=${2:-} f
	f=$(ls "$CACHE/debs/${pkg}_"*.deb 2>/dev/null | sort -V | tail -1 || true)
	if [ -n "$f" ] && { [ -z "$ver" ] || [[ $f == *"_${ver//:/%3a}_"* ]]; }; then
		echo "$f"; return
	fi
	mkdir -p "$CACHE/debs"
	(cd "$CACHE/debs" && timeout 600 env APT_CONFIG="$APTD/apt.conf" \
		apt-get -q download "$pkg${ver:+=$ver}" >>"$APTD/download.log" 2>&1) || return 1
	ls "$CACHE/debs/${pkg}_"*.deb | sort -V | tail -1
}

# Busybox, the guest's first-stage init and overlay.ko (decompressed: busybox
# insmod reads no .xz) in a cpio; the runner appends each run's own files.
make_initramfs() {
	local kdir=$1 kver=$2 root ko
	command -v cpio >/dev/null || die "cpio is missing (apt-get install cpio)"
	[ -x /bin/busybox ] || die "busybox is missing (apt-get install busybox-static)"
	root=$(mktemp -d "$CACHE/initramfs.XXXXXX")
	mkdir -p "$root"/{bin,dev,proc,sys,lower,upper,newroot}
	cp /bin/busybox "$root/bin/busybox"
	install -m 0755 "$HERE/init.sh" "$root/init"
	ko=$(find "$kdir/lib/modules/$kver" -name 'overlay.ko*' | head -1)
	case $ko in
	*.xz) xz -dc "$ko" > "$root/overlay.ko" ;;
	*.zst) zstd -dqc "$ko" > "$root/overlay.ko" ;;
	?*) cp "$ko" "$root/overlay.ko" ;;
	esac
	(cd "$root" && find . | cpio -o -H newc --quiet) > "$kdir/initramfs.cpio"
	rm -rf "$root"
}

fetch() {
	local spec=$1 suite ver pkgs=() p f kdir kver tmp got
	read -r suite ver pkgs_s < <(awk -v n="$spec" '$1 == n { $1 = ""; print; exit }' \
		"$HERE/kernels" || true) || true
	if [ -n "${suite:-}" ]; then
		read -ra pkgs <<<"$pkgs_s"
	elif [[ $spec == linux-* ]]; then
		pkgs=("$spec"); ver=
	else
		die "unknown kernel '$spec': give a name from scripts/vm/kernels ($(awk '!/^#/ && NF { printf "%s ", $1 }' "$HERE/kernels")), a Debian package name or a vmlinuz path" 2
	fi
	apt_setup
	kdir=
	got=()
	for p in "${pkgs[@]}"; do
		f=$(download "$p" "$ver" 2>/dev/null) || f=
		if [ -z "$f" ]; then
			apt_update
			f=$(download "$p" "$ver") || f=
		fi
		if [ -z "$f" ]; then
			local n
			n=$(newest_like "$p")
			[ -n "$n" ] || die "cannot download $p${ver:+ $ver} from Debian's archive (see $APTD/download.log)"
			say "$p${ver:+ $ver} is no longer in the archive: using $n"
			f=$(download "$n") || die "cannot download $n from Debian's archive (see $APTD/download.log)"
		fi
		got+=("$f")
	done
	kver=$(dpkg-deb -c "${got[0]}" | grep -oE 'lib/modules/[^/]+/vmlinuz' | head -1 | cut -d/ -f3 || true)
	[ -n "$kver" ] || kver=$(dpkg-deb -c "${got[0]}" | grep -oE 'boot/vmlinuz-[^ ]+' | head -1 | sed 's|boot/vmlinuz-||' || true)
	[ -n "$kver" ] || die "${got[0]} holds no vmlinuz"
	kdir=$CACHE/kernels/$kver
	if [ ! -s "$kdir/initramfs.cpio" ] || [ ! -s "$kdir/vmlinuz" ]; then
		tmp=$(mktemp -d "$CACHE/unpack.XXXXXX")
		for f in "${got[@]}"; do dpkg-deb -x "$f" "$tmp/x" || die "cannot unpack $f"; done
		mkdir -p "$tmp/k/lib/modules"
		if [ -d "$tmp/x/usr/lib/modules/$kver" ]; then
			mv "$tmp/x/usr/lib/modules/$kver" "$tmp/k/lib/modules/"
		else
			mv "$tmp/x/lib/modules/$kver" "$tmp/k/lib/modules/"
		fi
		f=$(ls "$tmp/k/lib/modules/$kver/vmlinuz" "$tmp/x/boot/vmlinuz-$kver" 2>/dev/null | head -1 || true)
		mv "$f" "$tmp/k/vmlinuz"
		echo "$kver" > "$tmp/k/release"
		make_initramfs "$tmp/k" "$kver"
		rm -rf "$kdir"
		mkdir -p "$CACHE/kernels"
		mv "$tmp/k" "$kdir"
		rm -rf "$tmp"
	fi
	echo "$kdir"
}

case ${1:-} in
fetch)	[ $# -eq 2 ] || die "usage: kernel.sh fetch NAME|PACKAGE" 2; fetch "$2" ;;
list)	awk '!/^#/ && NF { print $1 "\t" $3 "\t" $2 }' "$HERE/kernels" ;;
*)	die "usage: kernel.sh fetch NAME|PACKAGE | list" 2 ;;
esac
