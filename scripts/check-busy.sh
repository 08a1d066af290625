#!/usr/bin/env bash
# make check-busy: `make check` on a busy machine, as CI and the developers'
# shared VMs are: beside another process that keeps creating and destroying
# BPF maps (some named like bpfbench's own) and one CPU hog per CPU.  The
# tests must pass so (tests/lib.sh: objects counted as ours only; promptness
# held to deadlines measured under the same load).  Not run by CI.
#
#   scripts/check-busy.sh HELPER [MAKE-ARGS...]
#
# HELPER is the built tests/load/load_helper.c.  Every load process dies with
# this script however it ends: killed here on exit or signal, and by its
# own parent-death signal should this script be killed outright.  Exit: make
# check's.
set -u
helper=$1
shift
[ -x "$helper" ] || { echo "check-busy: no $helper (make builds it)" >&2; exit 2; }

pids=()
check=
# the load stopped, and make check with every test it runs (its own session,
# so its whole group is ours to end) if the harness is ended before it is
stop_all() {
	local p
	trap - EXIT INT TERM HUP
	[ -n "$check" ] && kill -TERM -- "-$check" 2>/dev/null && wait "$check" 2>/dev/null
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	pids=()
}
trap 'stop_all' EXIT
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
trap 'stop_all; exit 129' HUP

ncpu=$(nproc)
# maps under bpfbench's names too: the tests' object counting must tell
# another process's from a leak of their own
"$helper" maps churn hashmap batch_map hist_map values bloom &
pids+=($!)
for _ in $(seq 1 "$ncpu"); do
	"$helper" cpu &
	pids+=($!)
done
sleep 1
for p in "${pids[@]}"; do
	kill -0 "$p" 2>/dev/null || { echo "check-busy: a load process did not start" >&2; exit 1; }
done
echo "check-busy: load running: 1 BPF map churner, $ncpu CPU hogs (pids ${pids[*]})"
start=$(date +%s)
# in the background, waited for: a signal to the harness is acted on at once
# (bash runs a trap only once a foreground command has ended)
setsid make "$@" check </dev/null &
check=$!
wait "$check"
rc=$?
check=
echo "check-busy: make check exit $rc after $(($(date +%s) - start)) s beside the load"
stop_all
exit "$rc"
