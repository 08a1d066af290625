# memcheck(): one bpfbench run under valgrind memcheck, as a TAP check:
# no invalid access, no use of uninitialised memory, no definite or
# indirect leak.  Sourced after tests/lib.sh by tests/memcheck.t (a few
# runs, part of `make check`) and tests/valgrind/memcheck.t (every family).
# shellcheck shell=bash
need_bpf
command -v valgrind >/dev/null || skip_all "valgrind not installed"
case "$BUILD_DIR" in *san*) skip_all "sanitizer build: valgrind cannot run it" ;; esac

SUPP="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/valgrind.supp"
# --fair-sched: valgrind runs one thread at a time and a bpf() call holds
# its lock, so without a fair hand-over the main thread starves behind a
# producer.  --test-run-repeat keeps each test-run call short for the same
# reason (calibrated calls last milliseconds).
memcheck() {	# memcheck LABEL ARGS...
	local label=$1 repeat=(--test-run-repeat 100)
	shift
	# only the test-run trigger takes it: not with --trigger, nor in a benchmark without one
	[[ " $* " =~ \ (--trigger|map-batch|bloom-false-positive|lpm-trie-free)\  ]] && repeat=()
	timeout -s KILL 300 valgrind -q --fair-sched=yes --suppressions="$SUPP" \
		--error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect \
		"$BPFBENCH" -w0 -d1 -q "${repeat[@]}" "$@" >"$TMPD/out" 2>"$TMPD/err"
	local rc=$?
	[ "$rc" -eq 0 ]
	ok $? "$label: memcheck clean (rc $rc)" || diag "$(grep -v 'unhandled eBPF' "$TMPD/err" | head -40)"
}
