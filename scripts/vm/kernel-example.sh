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
# shellcheck source=scripts/vm/example-lib.sh
. "$HERE/example-lib.sh"

kbuild() { nice -n 19 make -C "$SRC" O="$1" -j"$JOBS" bzImage >"$1.log" 2>&1; }
mkdir -p "$DIR"
if [ ! -d "$SRC" ]; then
	[ -f "$TAR" ] || { echo "no $TAR: apt-get install linux-source-6.12" >&2; exit 1; }
	timed unpack tar -C "$DIR" -xf "$TAR"
fi
[ -f "$DIR/A/.config" ] || timed configure configure_small "$SRC" "$DIR/A"
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
