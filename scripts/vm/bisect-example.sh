#!/usr/bin/env bash
# The real run of doc/kernel-dev.md's "From a change point to the commit":
# Debian's linux-source-6.12 imported as a git tree of 8 commits, the
# planted lookup cost of doc/kernel-patch-example.diff at the 5th (the
# others touch comments, docs and the selftests' README), then
#   bpfbench bisect --tree DIR/linux --work DIR/work --good C1 --bad C8 -- lpm-trie-lookup -d5
# which builds each step incrementally in DIR/work and boots it beside the
# good kernel under QEMU.
#
#   bisect-example.sh DIR [BISECT-OPTIONS...]     e.g. bisect-example.sh /var/tmp/bisect
#
# DIR gets linux/ (the tree), work/ (bisect's clone, build and images; its
# first build, at the good commit, is done here with kernel-example.sh's
# trimmed configuration: a step already done is skipped), times (each
# step's wall time) and bisect.txt, bisect.json (the report).
# Needs: linux-source-6.12 flex bison bc libssl-dev libelf-dev dwarves git.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
BIN=${BPFBENCH_BIN:-$TOP/build/bpfbench}
[ $# -ge 1 ] || { sed -n '10s/^# \{0,3\}//p' "$0"; exit 2; }
DIR=$(realpath -m -- "$1")
shift
TAR=/usr/src/linux-source-6.12.tar.xz
TREE=$DIR/linux
SRC=$DIR/work/src
BUILD=$DIR/work/build
# shellcheck source=scripts/vm/example-lib.sh
. "$HERE/example-lib.sh"

# commit AUTHOR EMAIL SUBJECT [BODY]: everything changed, as that author
commit() {
	git -C "$TREE" -c user.name="$1" -c user.email="$2" commit -qam "$3${4:+

$4}"
}
# above FILE TEXT: a comment line above the file's first comment
above() { sed -i "0,/^\/\*/s//\/* $2 *\/\n\/*/" "$TREE/$1"; }
import() {
	mkdir -p "$DIR"
	[ -f "$TAR" ] || { echo "no $TAR: apt-get install linux-source-6.12" >&2; exit 1; }
	tar -C "$DIR" -xf "$TAR"
	mv "$DIR/linux-source-6.12" "$TREE"
	git -C "$TREE" init -q -b master
	# Debian's .gitignore ignores the whole top level: the import adds it all
	git -C "$TREE" add -A -f
	commit "Debian Import" import@example.org "linux-source-6.12 as Debian ships it"
	printf '\nA lookup walks the trie once from the root; see trie_lookup_elem().\n' \
		>>"$TREE/Documentation/bpf/map_lpm_trie.rst"
	commit "Ada Doc" ada@example.org "bpf, docs: say how an LPM trie lookup walks"
	above kernel/bpf/hashtab.c "Hash table maps: buckets of hlist_nulls, one lock each."
	commit "Hal Hash" hal@example.org "bpf: htab: a comment on the bucket layout"
	printf '\n# bisect demo: nothing to build here\n' >>"$TREE/tools/testing/selftests/bpf/README.rst"
	commit "Tess Tools" tess@example.org "selftests/bpf: a note in the README"
	patch -d "$TREE" -p1 -s <"$TOP/doc/kernel-patch-example.diff"
	commit "Pat Planted" pat@example.org "bpf: lpm_trie: walk the trie twice per lookup" \
		"The planted cost of bpfbench's doc/kernel-patch-example.diff: the op's
own cost doubles, nothing else changes."
	above kernel/bpf/arraymap.c "Array maps: one contiguous region, indexed by key."
	commit "Arr Ay" arr@example.org "bpf: arraymap: a comment on the layout"
	printf '\nSee also the bloom filter map.\n' >>"$TREE/Documentation/bpf/map_array.rst"
	commit "Ada Doc" ada@example.org "bpf, docs: point the array map at the bloom filter"
	above kernel/bpf/bloom_filter.c "Bloom filter maps: nr_hash_funcs bits per value."
	commit "Bea Bloom" bea@example.org "bpf: bloom_filter: a comment on the hashes"
}
[ -d "$TREE/.git" ] || timed import import
GOOD=$(git -C "$TREE" rev-list --max-parents=0 HEAD)
BAD=$(git -C "$TREE" rev-parse HEAD)
if [ ! -d "$SRC" ]; then
	# bisect's own clone, where it will look for it (--work), at the good commit
	git clone -q --local --no-checkout "$TREE" "$SRC"
	git -C "$SRC" checkout -q "$GOOD"
fi
[ -f "$BUILD/.config" ] || timed configure configure_small "$SRC" "$BUILD"
[ -f "$BUILD/arch/x86/boot/bzImage" ] ||
	timed build-good nice -n 19 make -C "$SRC" O="$BUILD" -j"$(nproc)" bzImage >"$DIR/build-good.log" 2>&1
timed bisect "$BIN" bisect --tree "$TREE" --work "$DIR/work" --good "$GOOD" --bad "$BAD" \
	--json "$DIR/bisect.json" "$@" -- lpm-trie-lookup -d5 | tee "$DIR/bisect.txt"
