#!/usr/bin/env bash
# valgrind memcheck on a short run of each benchmark family: no invalid
# access, no use of uninitialised memory, no definite or indirect leak.
source "$(dirname "$0")/../lib.sh"
need_bpf
command -v valgrind >/dev/null || skip_all "valgrind not installed"
case "$BUILD_DIR" in *san*) skip_all "sanitizer build: valgrind cannot run it" ;; esac

SUPP="$(cd "$(dirname "$0")" && pwd)/valgrind.supp"
memcheck() {	# memcheck LABEL ARGS...
	local label=$1
	shift
	timeout -s KILL 300 valgrind -q --suppressions="$SUPP" --error-exitcode=99 --leak-check=full \
		--show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
		"$BPFBENCH" -w0 -d1 -q "$@" >"$TMPD/out" 2>"$TMPD/err"
	local rc=$?
	[ "$rc" -eq 0 ]
	ok $? "$label: memcheck clean (rc $rc)" || diag "$(grep '^==' "$TMPD/err" | head -30)"
}

# valgrind sees memory the kernel fills through mmap (the skeletons' .bss,
# the rings) but not what bpf() writes into user buffers (test-run output,
# batch lookups) nor does it cope with BPF_PROG_TEST_RUN's calibrated runs:
# runs that use them are left to the AddressSanitizer pass.
memcheck core --trigger raw-tp noop --batch 100
memcheck bpf-loop --trigger raw-tp bpf-loop --nr_loops 1000
memcheck htab-mem htab-mem --use-case batch_add_batch_del
memcheck ringbufs -c1 --rb-total 20000 rb-custom
memcheck ringbufs-libbpf -c1 --rb-total 20000 pb-libbpf
memcheck lpm-trie-free lpm-trie-free --nr_entries 1000
memcheck results --trigger raw-tp bpf-loop --sweep nr_loops=1,10 --json "$TMPD/s.json" --csv "$TMPD/s.csv"
done_testing
