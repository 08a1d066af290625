# Shared by the TAP tests (tests/*.t, run by `prove -e bash`).
# shellcheck shell=bash

BUILD_DIR=${BPFBENCH_BUILD:-build}
BPFBENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/$BUILD_DIR/bpfbench"
TMPD=$(mktemp -d /tmp/bpfbench-test.XXXXXX)
trap 'rm -rf "$TMPD"' EXIT

_n=0
_failed=0

plan() { echo "1..$1"; }
ok() {	# ok COND-EXIT-STATUS DESCRIPTION; fails as the check did, for `ok ... || diag`
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_n - $2"
		return 0
	fi
	echo "not ok $_n - $2"
	_failed=$((_failed + 1))
	return 1
}
pass() { ok 0 "$1"; }
# todo COND DESC REASON: a check of what another change must still bring; a
# failure is reported "# TODO REASON" and does not fail the file (TAP)
todo() {
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_n - $2 # TODO $3"
	else
		echo "not ok $_n - $2 # TODO $3"
	fi
}
fail() { ok 1 "$1"; [ -n "${2:-}" ] && diag "$2"; }
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
skip() { _n=$((_n + 1)); echo "ok $_n # SKIP $1"; }
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
done_testing() { echo "1..$_n"; [ "$_failed" -eq 0 ]; }

# Tests that load BPF need root (or CAP_BPF+CAP_PERFMON); under CI they must run.
need_bpf() {
	if [ "$(id -u)" -ne 0 ]; then
		[ -n "${CI:-}" ] && { echo "Bail out! CI must run BPF tests as root"; exit 1; }
		skip_all "needs root for BPF"
	fi
}

# Runs bpfbench, keeping stdout, stderr and the exit code.
run() {
	"$BPFBENCH" "$@" >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	OUT=$(cat "$TMPD/out")
	ERR=$(cat "$TMPD/err")
	return 0
}

# Number of BPF programs, maps and links in the whole system, as "P M L".
kernel_objects() {
	local p m l
	p=$(bpftool prog show -j 2>/dev/null | jq length)
	m=$(bpftool map show -j 2>/dev/null | jq length)
	l=$(bpftool link show -j 2>/dev/null | jq length)
	echo "${p:-?} ${m:-?} ${l:-?}"
}

# Maps are freed by the kernel after the last fd closes, a little later:
# poll COUNTER (a function printing counts) until it prints EXPECTED.
objects_settle() {	# objects_settle EXPECTED COUNTER
	local i now
	for i in $(seq 1 50); do
		now=$("$2")
		[ "$now" = "$1" ] && { echo "$now"; return 0; }
		sleep 0.1
	done
	echo "$now"
	return 1
}

kernel_objects_settle() {	# kernel_objects_settle EXPECTED
	objects_settle "$1" kernel_objects
}

# python3 code over the JSON document in FILE bound to `d`: statements, then a
# last line that is the expression to test; exit 0 if it is true.
json_check() {	# json_check FILE CODE
	python3 - "$1" "$2" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
lines = [l for l in sys.argv[2].strip().splitlines() if l.strip()]
env = {"d": d, "math": math}
exec("\n".join(lines[:-1]), env)
sys.exit(0 if eval(lines[-1], env) else 1)
PY
}

# The memory cgroup hierarchy as bpfbench chooses it: "v2 DIR", "v1 DIR" or "none".
memcg_hierarchy() {
	local d v1
	for d in $(awk '$3 == "cgroup2" { print $2 }' /proc/mounts); do
		grep -qw memory "$d/cgroup.controllers" 2>/dev/null && { echo "v2 $d"; return; }
	done
	v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
	[ -n "$v1" ] && { echo "v1 $v1"; return; }
	echo none
}

# The memory cgroup directory process PID is in (empty without a hierarchy).
memcg_dir_of() {	# memcg_dir_of PID
	local kind mnt rel
	read -r kind mnt <<<"$(memcg_hierarchy)"
	case $kind in
	v2) rel=$(awk -F: '$1 == "0" { print $3 }' "/proc/$1/cgroup") ;;
	v1) rel=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' "/proc/$1/cgroup") ;;
	*) return 1 ;;
	esac
	echo "$mnt${rel%/}"
}

# Cgroups named for process PID anywhere in the memory hierarchy (bpfbench-PID, bpfbench-*.PID).
cgroups_of() {	# cgroups_of PID
	local kind mnt
	read -r kind mnt <<<"$(memcg_hierarchy)"
	[ "$kind" = none ] && return 0
	find "$mnt" -maxdepth 8 -type d \( -name "bpfbench-$1" -o -name "bpfbench-*.$1" \) 2>/dev/null
}
