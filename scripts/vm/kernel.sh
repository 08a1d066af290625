#!/usr/bin/env bash
# Fetches a Debian kernel by package name into a cache of our own and prints
# the directory holding its vmlinuz, modules and our initramfs.
#
#   kernel.sh fetch NAME|PACKAGE    NAME from scripts/vm/kernels (7.3, 6.12, 6.1)
#   kernel.sh list                  the names known
#
# apt runs with a private configuration (sources, lists, cache, status) under
# the cache directory: the system's own apt state is never read or written.
# The archive is reached through a Debian mirror: BPFBENCH_VM_MIRROR
# (http://HOST/debian), else the first Debian archive the machine's apt
# sources name (BPFBENCH_VM_APT_ETC, default /etc/apt: sources.list and
# sources.list.d/*.list, *.sources).  No mirror is written in here: a
# machine behind a private mirror, or with none, must get its own or a
# clear answer, not a fetch from a host it may not reach.  Without either,
# a fetch that needs the archive stops before it asks apt for anything
# (exit 2); a kernel whose .debs are cached needs no mirror.
# A PACKAGE is an exact name (no pattern), looked up before anything is
# fetched; a package over BPFBENCH_VM_MAX_MB (400) is refused.  apt runs in
# our process group under a time limit, and our trap ends it: a download
# never outlives us.  The cache must be ours as ssh wants ~/.ssh: owned by
# us, writable by nobody else, in directories only we or root can change.
# A download says on stderr what it fetches and its size; on a terminal
# (BPFBENCH_STDERR_TTY, else stderr's own) its progress, rewritten in place,
# then one line when done.  The kernel's directory holds "package", the
# Debian package booted and its version (the VM's line, run.sh).
# Exit: 0 ok, 2 bad usage, 125 the cache, the download or the unpacking failed.
set -euo pipefail
umask 077

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/vm/lib.sh
. "$HERE/lib.sh"
CACHE=${BPFBENCH_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bpfbench-vm}
APTD=$CACHE/apt
MAX_MB=${BPFBENCH_VM_MAX_MB:-400}
CHILD=
UNPACK=
KO_SEEN=
UPDATED=
DEB=
KSPEC=
# the suites our private apt state knows (scripts/vm/kernels names them)
SUITES="trixie-backports trixie sid bookworm"

die() { progress_end; echo "bpfbench-vm: error: $1" >&2; exit "${2:-125}"; }
say() { progress_end; echo "bpfbench-vm: $*" >&2; }
[[ $MAX_MB =~ ^[1-9][0-9]{0,5}$ ]] || die "BPFBENCH_VM_MAX_MB: '$MAX_MB' is not a number of MB" 2

# The download under way (timeout, apt-get and apt's methods: its whole tree).
tree() { local c; echo "$1"; for c in $(pgrep -P "$1"); do tree "$c"; done; }
stop() {
	progress_end
	# shellcheck disable=SC2046
	[ -z "$CHILD" ] || { kill $(tree "$CHILD") 2>/dev/null; wait "$CHILD" 2>/dev/null; }
	[ -z "$UNPACK" ] || rm -rf "$UNPACK"
	CHILD=
	UNPACK=
}
trap stop EXIT
for s in INT TERM HUP; do
	trap "trap '' INT TERM HUP; trap - EXIT; stop; trap - $s; kill -$s \$\$" "$s"
done

# bg SECONDS LOG CMD...: CMD with apt's configuration, bounded, in the
# background (a signal to us runs the trap at once, not after CMD); its status.
bg() {
	local secs=$1 log=$2 st=0
	shift 2
	timeout --foreground -k 10 "$secs" env APT_CONFIG="$APTD/apt.conf" "$@" >>"$log" 2>&1 &
	CHILD=$!
	wait "$CHILD" || st=$?
	CHILD=
	return "$st"
}

# trusted PATH: only we or root can change it (a directory writable by others
# only when sticky, as /tmp: then only an entry's owner may replace it)
trusted() {
	local u m
	read -r u m < <(stat -c '%u %a' -- "$1") || return 1
	[ "$u" = "$(id -u)" ] || [ "$u" = 0 ] || return 1
	[ -L "$1" ] || (( (8#$m & 8#022) == 0 || (8#$m & 8#1000) ))
}

# The cache, made if missing, refused if another user could have put
# anything in it: a planted .deb or kernel directory would be booted as ours.
cache_prepare() {
	local d=$CACHE bad u
	u=$(id -u)
	[[ $d == /* ]] || d=$PWD/$d
	[ ! -L "$d" ] || trusted "$d" ||
		die "the cache $CACHE is a link another user owns (uid $(stat -c %u "$d")): refused (BPFBENCH_VM_CACHE names another)"
	while [ "$d" != / ]; do
		d=$(dirname "$d")
		{ [ -e "$d" ] || [ -L "$d" ]; } || continue
		trusted "$d" ||
			die "the cache $CACHE is under $d, which another user can change (owner uid $(stat -c %u "$d"), mode $(stat -c %a "$d")): refused (BPFBENCH_VM_CACHE names another)"
	done
	d=$(realpath -m -- "$CACHE")
	while [ "$d" != / ]; do
		d=$(dirname "$d")
		[ ! -e "$d" ] || trusted "$d" ||
			die "the cache $CACHE is under $d, which another user can change: refused (BPFBENCH_VM_CACHE names another)"
	done
	if [ -e "$CACHE" ] || [ -L "$CACHE" ]; then
		[ -d "$CACHE" ] && [ "$(stat -Lc %u "$CACHE")" = "$u" ] &&
			(( (8#$(stat -Lc %a "$CACHE") & 8#022) == 0 )) ||
			die "the cache $CACHE is not a directory of ours that only we can write (owner uid $(stat -Lc %u "$CACHE"), mode $(stat -Lc %a "$CACHE")): refused (BPFBENCH_VM_CACHE names another)"
		bad=$(find "$CACHE/" \( ! -user "$u" -o \( ! -type l -perm /022 \) \) -print -quit 2>/dev/null)
		[ -z "$bad" ] ||
			die "the cache $CACHE holds $bad, which another user owns or can write: refused (remove it)"
	fi
	mkdir -p -- "$CACHE/debs" "$CACHE/kernels" \
		"$APTD"/{lists/partial,cache/archives/partial,state,etc/sources.list.d,etc/preferences.d} \
		2>/dev/null && [ -w "$CACHE" ] ||
		die "cannot make or write the cache $CACHE (BPFBENCH_VM_CACHE names another)"
}

# The Debian mirror: BPFBENCH_VM_MIRROR, else the first URI ending in
# /debian of an enabled "deb" source of the machine's apt (one-line
# "deb [OPTIONS] URI SUITE COMPONENT..." or deb822 "URIs:" stanzas); none
# is exit 2 with one line, before apt is asked for anything.
APT_ETC=${BPFBENCH_VM_APT_ETC:-/etc/apt}
MIRROR=
mirror() {
	local m f lists=() stanzas=()
	[ -z "$MIRROR" ] || return 0
	m=${BPFBENCH_VM_MIRROR:-}
	if [ -z "$m" ]; then
		# the files there are (mawk stops at the first it cannot open)
		for f in "$APT_ETC/sources.list" "$APT_ETC"/sources.list.d/*.list; do
			[ ! -f "$f" ] || lists+=("$f")
		done
		for f in "$APT_ETC"/sources.list.d/*.sources; do
			[ ! -f "$f" ] || stanzas+=("$f")
		done
		m=$({
			[ ${#lists[@]} -eq 0 ] || awk '$1 == "deb" { print }' "${lists[@]}"
			# deb822: a stanza's URIs, unless it is disabled or has no "deb" type
			[ ${#stanzas[@]} -eq 0 ] || awk -v RS= -F '\n' '{
				uris = ""; deb = 0; off = 0
				for (i = 1; i <= NF; i++) {	# field names in any case, as apt reads them
					l = tolower($i)
					if (l ~ /^types:/ && l ~ /[:[:space:]]deb([[:space:]]|$)/) deb = 1
					if (l ~ /^enabled:[[:space:]]*no[[:space:]]*$/) off = 1
					if (l ~ /^uris:/) uris = uris " " substr($i, 6)
				}
				if (deb && !off) print uris
			}' "${stanzas[@]}"
		} 2>/dev/null | grep -oE 'https?://[^] []+/debian/?( |$)' | head -1 | tr -d ' ')
	fi
	[ -n "$m" ] ||
		die "no Debian archive to fetch the kernel from: BPFBENCH_VM_MIRROR is unset and the apt sources in $APT_ETC name none (set BPFBENCH_VM_MIRROR=http://HOST/debian, a Debian mirror)" 2
	MIRROR=${m%/}
}

apt_setup() {
	local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	: > "$APTD/status"
	{
		for s in $SUITES; do
			echo "deb [signed-by=$keyring] $MIRROR $s main"
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

# The private apt state, set up the first time the archive is needed (a
# kernel whose .debs are cached needs neither apt nor a mirror).  Lists
# older than a day, or a suite without its list (one added to SUITES
# since), are refreshed; a failed refresh with lists at hand goes on with
# them.
apt_update() {
	local s stale=
	[ -z "$UPDATED" ] || return 0
	mirror
	apt_setup
	UPDATED=1
	for s in $SUITES; do
		[ -n "$(find "$APTD/lists" -maxdepth 1 -name "*_dists_${s}_main_binary-amd64_Packages*" \
			-mmin -1440 2>/dev/null)" ] || stale=1
	done
	[ -n "$stale" ] || return 0
	say "updating the package lists of ${SUITES// /, } from $MIRROR (private apt state in $APTD)"
	: >"$APTD/update.log"
	bg 300 "$APTD/update.log" apt-get -q update ||
		[ -n "$(ls "$APTD"/lists/*Packages* 2>/dev/null)" ] ||
		die "apt-get update of Debian's archive failed (see $APTD/update.log)"
}

# The newest package of the same series: linux-binary-7.3.4+deb13-cloud-amd64
# -> linux-binary-7.3.*-cloud-amd64.
newest_like() {
	local pat=$1
	pat=$(sed -E 's/-([0-9]+\.[0-9]+)\.[0-9]+\+deb[0-9]+-/-\1.[0-9.]*+deb[0-9]*-/' <<<"$pat")
	papt apt-cache pkgnames 2>/dev/null | grep -xE "${pat//+/\\+}" | sort -V | tail -1
}

# The .deb of PKG (VERSION, else the archive's candidate) in $CACHE/debs,
# kept there (pins outlive the archive).  PKG must be a package name exactly:
# apt-get would take a name it does not know for a regular expression or a
# glob (linux-image-6.1[0-9].* fetched every kernel of a series), so the
# name is looked up as a fixed string first and the download names the
# version.  The file in DEB; 1 when the archive has no such package or version.
download() {
	local pkg=$1 ver=${2:-} f size st=0
	f=$(ls "$CACHE/debs/${pkg}_"*.deb 2>/dev/null | sort -V | tail -1 || true)
	if [ -n "$f" ] && { [ -z "$ver" ] || [[ $f == *"_${ver//:/%3a}_"* ]]; }; then
		DEB=$f
		return 0
	fi
	apt_update
	papt apt-cache pkgnames "${pkg%%-*}-" 2>/dev/null | grep -xF -- "$pkg" >/dev/null || return 1
	if [ -z "$ver" ]; then
		ver=$(papt apt-cache show --no-all-versions "$pkg" 2>/dev/null |
			awk '/^Version: / { print $2; exit }') || true
		[ -n "$ver" ] || return 1
	fi
	size=$(papt apt-cache show "$pkg=$ver" 2>/dev/null | awk '/^Size: / { print $2; exit }') || true
	[ -n "$size" ] || return 1
	[ "$size" -le $((MAX_MB << 20)) ] ||
		die "$pkg $ver is $((size >> 20)) MB, over the $MAX_MB MB a kernel package may be (BPFBENCH_VM_MAX_MB)"
	cd "$CACHE/debs"
	fetch_deb "$pkg" "$ver" "$size" || st=$?
	cd - >/dev/null
	[ "$st" -eq 0 ] || die "cannot download $pkg $ver from Debian's archive (exit $st, see $APTD/download.log)"
	DEB=$(ls "$CACHE/debs/${pkg}_"*.deb 2>/dev/null | sort -V | tail -1 || true)
	[ -n "$DEB" ] || die "apt-get download of $pkg $ver left no .deb (see $APTD/download.log)"
}

# human SIZE: bytes as "34.7 MB" (or "980 kB")
human() { awk -v s="$1" 'BEGIN { if (s >= 1048576) printf "%.1f MB", s / 1048576; else printf "%.0f kB", s / 1024 }'; }

# fetch_deb PKG VER SIZE: apt-get download, here, bounded, in the
# background; said first, its progress on a terminal (the bytes apt's
# partial file holds), then how long it took.  Its status.
fetch_deb() {
	local pkg=$1 ver=$2 size=$3 what got st=0 start=$SECONDS tty=
	what="--kernel $KSPEC: downloading $pkg $ver ($(human "$size")) from Debian's archive"
	if [ "${BPFBENCH_STDERR_TTY:-}" = 1 ] || { [ -z "${BPFBENCH_STDERR_TTY:-}" ] && [ -t 2 ]; }; then
		tty=1
	else
		echo "$what" >&2
	fi
	timeout --foreground -k 10 600 env APT_CONFIG="$APTD/apt.conf" \
		apt-get -q -o Acquire::Retries=1 download "$pkg=$ver" >>"$APTD/download.log" 2>&1 &
	CHILD=$!
	while [ -n "$tty" ] && kill -0 "$CHILD" 2>/dev/null; do
		got=$(stat -c %s "$APTD/cache/archives/partial/${pkg}_"*.deb 2>/dev/null | sort -n | tail -1 || true)
		got=${got:-0}
		BPFBENCH_STDERR_TTY=1 progress "--kernel $KSPEC: downloading $pkg $ver: $(human "$got") of $(human "$size") ($((got * 100 / (size ? size : 1)))%)"
		sleep 0.5
	done
	wait "$CHILD" || st=$?
	CHILD=
	progress_end
	[ "$st" -ne 0 ] ||
		echo "--kernel $KSPEC: downloaded $pkg $ver ($(human "$size")) in $((SECONDS - start)) s" >&2
	return "$st"
}

# The modules the first stage needs where the kernel has them as modules
# (Debian's 6.1 builds virtio-pci, virtiofs and the consoles as modules;
# 6.12 and later build them in): their file names, with dependencies.
FIRST_STAGE_MODULES="virtio_pci virtiofs virtio_console"

# ko_cat FILE: a module's bytes (busybox insmod reads no compressed module)
ko_cat() {
	case $1 in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -dqc "$1" ;;
	*) cat "$1" ;;
	esac
}

# ko_order DIR NAME...: the modules NAME need, dependencies first, one path a
# line; a module the tree lacks is built in (or absent: init.sh says which
# option is missing).  Dependencies are read from the module's .modinfo.
ko_order() {
	local dir=$1 name f d
	shift
	for name in "$@"; do
		f=$(find "$dir" -name '*.ko*' | awk -v n="$name" '{
			b = $0; sub(/.*\//, "", b); sub(/\.ko.*/, "", b); gsub(/-/, "_", b)
			if (b == n && !f) { print; f = 1 } }')
		[ -n "$f" ] || continue
		grep -qxF -- "$f" "$KO_SEEN" && continue
		for d in $(ko_cat "$f" | tr '\0' '\n' | sed -n '/^depends=/{s///;s/,/ /g;p;q}'); do
			ko_order "$dir" "$d"
		done
		grep -qxF -- "$f" "$KO_SEEN" || echo "$f" >>"$KO_SEEN"
	done
}

# Busybox, the guest's first-stage init, overlay.ko and the modules above in
# load order (/mods/NN-name.ko) in a cpio; the runner appends each run's own
# files.  initramfs.format tells a cache made before the modules were put in.
INITRAMFS_FORMAT=2
make_initramfs() {
	local kdir=$1 kver=$2 root ko i=10
	command -v cpio >/dev/null || die "cpio is missing (apt-get install cpio)"
	[ -x /bin/busybox ] || die "busybox is missing (apt-get install busybox-static)"
	root=$(mktemp -d "$UNPACK/initramfs.XXXXXX")
	mkdir -p "$root"/{bin,dev,proc,sys,lower,upper,newroot,mods}
	cp /bin/busybox "$root/bin/busybox"
	install -m 0755 "$HERE/init.sh" "$root/init"
	ko=$(find "$kdir/lib/modules/$kver" -name 'overlay.ko*' | head -1)
	[ -z "$ko" ] || ko_cat "$ko" > "$root/overlay.ko"
	KO_SEEN=$root/ko.list
	: >"$KO_SEEN"
	# shellcheck disable=SC2086
	ko_order "$kdir/lib/modules/$kver" $FIRST_STAGE_MODULES
	while read -r ko; do
		ko_cat "$ko" > "$root/mods/$i-$(basename "${ko%%.ko*}").ko"
		i=$((i + 1))
	done <"$KO_SEEN"
	rm -f "$KO_SEEN"
	(cd "$root" && find . | cpio -o -H newc --quiet) > "$kdir/initramfs.cpio"
	echo "$INITRAMFS_FORMAT" > "$kdir/initramfs.format"
	rm -rf "$root"
}

fetch() {
	local spec=$1 suite= ver= pkgs_s= pkgs=() p n f kdir kver tmp got=() pinned= names
	names=$(awk '!/^#/ && NF { printf "%s%s", s, $1; s = ", " }' "$HERE/kernels")
	[[ $spec =~ ^[A-Za-z0-9][A-Za-z0-9.+~_-]*$ ]] ||
		die "kernel '$spec' is neither a name ($names) nor a Debian package name (exact: no patterns); a file or a built tree is given as a path (./FILE, /DIR)" 2
	read -r suite ver pkgs_s < <(awk -v n="$spec" '$1 == n { $1 = ""; print; exit }' \
		"$HERE/kernels" || true) || true
	if [ -n "${suite:-}" ]; then
		read -ra pkgs <<<"$pkgs_s"
		pinned=1
	elif [[ $spec == linux-* ]]; then
		pkgs=("$spec"); ver=
	else
		die "unknown kernel '$spec': give a name from scripts/vm/kernels ($names), a Debian package name, a vmlinuz path or a built tree (./FILE, /DIR)" 2
	fi
	KSPEC=$spec
	cache_prepare
	for p in "${pkgs[@]}"; do
		if download "$p" "$ver"; then
			got+=("$DEB")
			continue
		fi
		if [ -z "$pinned" ]; then
			n=$(papt apt-cache pkgnames "${p%"${p#linux-*-}"}" 2>/dev/null | sort -V | tail -3 | paste -sd' ' || true)
			die "Debian's ${SUITES// /, } have no package $p${n:+ (the newest like it: $n)}"
		fi
		n=$(newest_like "$p" || true)
		[ -n "$n" ] || die "$p $ver is neither in the cache nor in Debian's archive, nor any of its series"
		say "$p${ver:+ $ver} is no longer in the archive: using $n"
		download "$n" || die "cannot download $n from Debian's archive (see $APTD/download.log)"
		got+=("$DEB")
	done
	kver=$(dpkg-deb -c "${got[0]}" | grep -oE 'lib/modules/[^/]+/vmlinuz' | head -1 | cut -d/ -f3 || true)
	[ -n "$kver" ] || kver=$(dpkg-deb -c "${got[0]}" | grep -oE 'boot/vmlinuz-[^ ]+' | head -1 | sed 's|boot/vmlinuz-||' || true)
	[ -n "$kver" ] || die "${got[0]} holds no vmlinuz"
	[[ $kver =~ ^[A-Za-z0-9][A-Za-z0-9.+~_-]*$ ]] || die "${got[0]}: '$kver' is not a kernel release"
	kdir=$CACHE/kernels/$kver
	if [ -s "$kdir/vmlinuz" ] && [ -s "$kdir/initramfs.cpio" ] &&
		[ "$(cat "$kdir/initramfs.format" 2>/dev/null)" != "$INITRAMFS_FORMAT" ]; then
		UNPACK=$(mktemp -d "$CACHE/unpack.XXXXXX")
		make_initramfs "$kdir" "$kver"
		rm -rf "$UNPACK"
		UNPACK=
	fi
	if [ ! -s "$kdir/initramfs.cpio" ] || [ ! -s "$kdir/vmlinuz" ]; then
		UNPACK=$(mktemp -d "$CACHE/unpack.XXXXXX")
		tmp=$UNPACK
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
		UNPACK=
	fi
	# the package booted, for the VM's line (a kernel cached before has none yet)
	p="$(dpkg-deb -f "${got[0]}" Package) $(dpkg-deb -f "${got[0]}" Version)"
	[ "$(cat "$kdir/package" 2>/dev/null)" = "$p" ] || echo "$p" >"$kdir/package"
	echo "$kdir"
}

case ${1:-} in
fetch)	[ $# -eq 2 ] || die "usage: kernel.sh fetch NAME|PACKAGE" 2; fetch "$2" ;;
list)	awk '!/^#/ && NF { print $1 "\t" $3 "\t" $2 }' "$HERE/kernels" ;;
*)	die "usage: kernel.sh fetch NAME|PACKAGE | list" 2 ;;
esac
