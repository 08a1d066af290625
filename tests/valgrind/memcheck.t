#!/usr/bin/env bash
# valgrind memcheck on a short run of each benchmark family: no invalid
# access, no use of uninitialised memory, no definite or indirect leak.
source "$(dirname "$0")/../lib.sh"
need_bpf
command -v valgrind >/dev/null || skip_all "valgrind not installed"
case "$BUILD_DIR" in *san*) skip_all "sanitizer build: valgrind cannot run it" ;; esac

SUPP="$(cd "$(dirname "$0")" && pwd)/valgrind.supp"
# --fair-sched: valgrind runs one thread at a time and a bpf() call holds
# its lock, so without a fair hand-over the main thread starves behind a
# producer.  --test-run-repeat keeps each test-run call short for the same
# reason (calibrated calls last milliseconds).
memcheck() {	# memcheck LABEL ARGS...
	local label=$1
	shift
	timeout -s KILL 300 valgrind -q --fair-sched=yes --suppressions="$SUPP" \
		--error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect \
		"$BPFBENCH" -w0 -d1 -q --test-run-repeat 100 "$@" >"$TMPD/out" 2>"$TMPD/err"
	local rc=$?
	[ "$rc" -eq 0 ]
	ok $? "$label: memcheck clean (rc $rc)" || diag "$(grep -v 'unhandled eBPF' "$TMPD/err" | head -40)"
}

memcheck core-test-run noop
memcheck core-raw-tp --trigger raw-tp noop --batch 100
memcheck bpf-loop bpf-loop --nr_loops 1000
memcheck htab-mem htab-mem --use-case batch_add_batch_del
memcheck htab-mem-pairs -p2 htab-mem --use-case add_del_on_diff_cpu
memcheck rb-custom -c1 --rb-total 20000 rb-custom
memcheck rb-libbpf -c1 --rb-total 20000 rb-libbpf
memcheck pb-custom -c1 --rb-total 20000 pb-custom
memcheck pb-libbpf -c1 --rb-total 20000 pb-libbpf
memcheck map-batch map-batch --max_entries 2000 --batch 10,1000
memcheck map-batch-percpu map-batch --map-type percpu_hash --max_entries 500 --batch 100
memcheck bloom-lookup bloom-lookup --nr_entries 1000
memcheck bloom-fpr bloom-false-positive --nr_entries 1000
memcheck hashmap-with-bloom hashmap-with-bloom --nr_entries 1000
memcheck lpm-trie-lookup lpm-trie-lookup --nr_entries 1000
memcheck lpm-trie-delete lpm-trie-delete --nr_entries 1000
memcheck lpm-trie-free lpm-trie-free --nr_entries 1000
memcheck results bpf-loop --sweep nr_loops=1,10 --json "$TMPD/s.json" --csv "$TMPD/s.csv"
done_testing
