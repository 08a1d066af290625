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
