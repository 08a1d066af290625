#!/usr/bin/env bash
# The Debian mirror scripts/vm/kernel.sh fetches kernels through: no host is
# written in the tree, so it is BPFBENCH_VM_MIRROR or the first Debian
# archive the machine's apt sources name (a stand-in etc/apt here,
# BPFBENCH_VM_APT_ETC), and without either a fetch stops with one line
# naming BPFBENCH_VM_MIRROR, exit 2, before apt is asked for anything.
# apt, QEMU and virtiofsd are stand-ins (tests/vm/); the hosts are .example.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KSH=$ROOT/scripts/vm/kernel.sh

export TMPDIR=$TMPD/work
mkdir -p "$TMPDIR" "$TMPD/bin"
ln -s "$ROOT/tests/vm/fake-apt" "$TMPD/bin/apt-get"
ln -s "$ROOT/tests/vm/fake-apt" "$TMPD/bin/apt-cache"
PIN="linux-binary-7.3.4+deb13-cloud-amd64=7.3.4-1~bpo13+1 linux-modules-7.3.4+deb13-cloud-amd64=7.3.4-1~bpo13+1"
# no mirror from the environment the tests run in: each check sets its own
unset BPFBENCH_VM_MIRROR

# etc NAME: a fresh stand-in etc/apt, $TMPD/NAME, with its sources.list.d
etc() { rm -rf "${TMPD:?}/$1"; mkdir -p "$TMPD/$1/sources.list.d"; ETC=$TMPD/$1; }
# fetch [VAR=VALUE...] -- ARGS...: kernel.sh with the stand-in apt, a cache
# of its own ($TMPD/cache-N) unless BPFBENCH_VM_CACHE is given; apt's calls
# in $TMPD/apt.log
N=0
fetch() {
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	N=$((N + 1))
	: >"$TMPD/apt.log"
	env BPFBENCH_VM_CACHE="$TMPD/cache-$N" BPFBENCH_VM_APT_ETC="$ETC" PATH="$TMPD/bin:$PATH" \
		FAKE_APT_LOG="$TMPD/apt.log" FAKE_APT_PKGS="$PIN" "${envs[@]}" \
		bash "$KSH" fetch "$@" >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	OUT=$(cat "$TMPD/out")
	ERR=$(cat "$TMPD/err")
}
# uses URI: the fetch went to URI: said so, and every suite of the private
# sources.list is on it
uses() {
	local src=$TMPD/cache-$N/apt/etc/sources.list
	grep -q "^bpfbench-vm: updating the package lists of .* from $1 (" <<<"$ERR" && [ -s "$src" ] &&
		! awk -v u="$1" '$3 != u { bad = 1 } END { exit !bad }' "$src"
}
NONE="^bpfbench-vm: error: no Debian archive to fetch the kernel from: BPFBENCH_VM_MIRROR is unset"
one_line() {	# one_line RC PATTERN DESC
	[ "$RC" -eq "$1" ] && [ "$(wc -l <<<"$ERR")" -eq 1 ] && grep -q -- "$2" <<<"$ERR" &&
		grep -q BPFBENCH_VM_MIRROR <<<"$ERR"
	ok $? "$3" || diag "exit $RC: $ERR"
}

# --- no Debian source: one line, exit 2, apt never asked ---
etc none
cat >"$ETC/sources.list" <<'EOF'
# deb http://old.example/debian bookworm main
deb http://mirror.example/ubuntu noble main
deb-src http://src.example/debian bookworm main
EOF
cat >"$ETC/sources.list.d/other.sources" <<'EOF'
Types: deb
URIs: http://packages.example/repo
Suites: stable
Components: main

Types: deb
URIs: http://off.example/debian
Suites: bookworm
Components: main
Enabled: no

Types: deb-src
URIs: http://src.example/debian
Suites: bookworm
Components: main
EOF
echo "deb http://disabled.example/debian bookworm main" >"$ETC/sources.list.d/x.list.disabled"
fetch -- 7.3
one_line 2 "$NONE" "sources naming no Debian archive (another distribution's, a disabled stanza, deb-src, a comment): one line naming BPFBENCH_VM_MIRROR, exit 2" &&
	grep -qF "in $ETC name none" <<<"$ERR"
ok $? "... which names where the sources were looked for" || diag "$ERR"
[ ! -s "$TMPD/apt.log" ] && [ -z "$OUT" ]
ok $? "... before apt is asked for anything, and no kernel directory printed" || diag "$(cat "$TMPD/apt.log")"
etc empty
fetch -- linux-image-6.12.57+deb13-cloud-amd64
one_line 2 "$NONE" "an etc/apt with no sources at all, a package name: the same line, exit 2"
etc none2
cp "$TMPD/none/sources.list" "$ETC/"
fetch BPFBENCH_VM_MIRROR= -- 7.3
one_line 2 "$NONE" "BPFBENCH_VM_MIRROR set but empty: the same"

# the VM commands stop with that line: the runner and bpfbench --kernel
ETC=$TMPD/none
: >"$TMPD/apt.log"
env BPFBENCH_VM_CACHE="$TMPD/cache-run" BPFBENCH_VM_APT_ETC="$ETC" PATH="$TMPD/bin:$PATH" \
	FAKE_APT_LOG="$TMPD/apt.log" BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" \
	BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
	bash "$ROOT/scripts/vm/run.sh" --kernel 7.3 -- true >"$TMPD/out" 2>"$TMPD/err"
RC=$? ERR=$(cat "$TMPD/err")
one_line 2 "$NONE" "scripts/vm/run.sh --kernel 7.3: that line, exit 2"
if [ -x "$BPFBENCH" ]; then
	env BPFBENCH_VM_CACHE="$TMPD/cache-bin" BPFBENCH_VM_APT_ETC="$ETC" PATH="$TMPD/bin:$PATH" \
		FAKE_APT_LOG="$TMPD/apt.log" BPFBENCH_QEMU="$ROOT/tests/vm/fake-qemu" \
		BPFBENCH_VIRTIOFSD="$ROOT/tests/vm/fake-virtiofsd" \
		"$BPFBENCH" --kernel 7.3 probe >"$TMPD/out" 2>"$TMPD/err"
	RC=$? ERR=$(cat "$TMPD/err")
	one_line 2 "$NONE" "bpfbench --kernel 7.3 probe: that line, exit 2"
	[ ! -s "$TMPD/apt.log" ]
	ok $? "... and apt never asked, by the runner nor by bpfbench" || diag "$(cat "$TMPD/apt.log")"
else
	skip "bpfbench --kernel: no build at $BPFBENCH"
	skip "bpfbench --kernel: no build"
fi

# --- a deb822 source: its URI ---
etc deb822
cp "$TMPD/none/sources.list" "$ETC/"
cat >"$ETC/sources.list.d/debian.sources" <<'EOF'
Types: deb-src
URIs: http://src.example/debian
Suites: bookworm
Components: main

Types: deb deb-src
# http://comment.example/debian
URIs: http://mirror.example/debian/ http://second.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main
EOF
fetch -- linux-image-0.0-none
uses http://mirror.example/debian
ok $? "a deb822 source (URIs: in a .sources stanza of type deb): its first URI, the archive fetched through it" ||
	diag "exit $RC: $ERR" "$(cat "$TMPD/cache-$N/apt/etc/sources.list" 2>/dev/null)"

# --- a one-line source: its URI ---
etc oneline
cat >"$ETC/sources.list" <<'EOF'
# deb http://comment.example/debian bookworm main
deb-src http://src.example/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] https://local.example:3142/debian bookworm main
EOF
echo "deb http://later.example/debian bookworm main" >"$ETC/sources.list.d/later.list"
fetch -- linux-image-0.0-none
uses https://local.example:3142/debian
ok $? "a one-line source (deb [OPTIONS] URI SUITE COMPONENT in sources.list): its URI" ||
	diag "exit $RC: $ERR" "$(cat "$TMPD/cache-$N/apt/etc/sources.list" 2>/dev/null)"
rm "$ETC/sources.list"
fetch -- linux-image-0.0-none
uses http://later.example/debian
ok $? "... in sources.list.d/*.list: the same" || diag "exit $RC: $ERR"

# --- BPFBENCH_VM_MIRROR first ---
etc deb822b
cp "$TMPD/deb822/sources.list.d/debian.sources" "$ETC/sources.list.d/"
fetch BPFBENCH_VM_MIRROR=http://private.example/debian/ -- linux-image-0.0-none
uses http://private.example/debian
ok $? "BPFBENCH_VM_MIRROR over the apt sources (its trailing / dropped)" || diag "exit $RC: $ERR"

# --- a kernel cached needs no mirror ---
if command -v cpio >/dev/null && [ -x /bin/busybox ]; then
	fetch BPFBENCH_VM_CACHE="$TMPD/cached" -- 7.3
	kdir=$OUT
	[ "$RC" -eq 0 ] && [ -s "$kdir/vmlinuz" ]
	ok $? "7.3 fetched through the deb822 source's mirror" || diag "exit $RC: $ERR"
	etc none3
	fetch BPFBENCH_VM_CACHE="$TMPD/cached" -- 7.3
	[ "$RC" -eq 0 ] && [ "$OUT" = "$kdir" ] && [ ! -s "$TMPD/apt.log" ]
	ok $? "... then, with no source, its cached .debs: the same kernel, apt never asked" || diag "exit $RC: $ERR"
else
	skip "a cached kernel: needs cpio and busybox-static"
	skip "... (the same)"
fi

done_testing
