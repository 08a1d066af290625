#!/usr/bin/env bash
# The sanitizer pass's stand-in for the benchmark family tests (make check,
# SAN_TESTS): every listed benchmark runs once, short, with the options that
# reach its family's user-space code (--verify, --count, --latency, several
# use cases and map types, consumers), so each family's C code runs under
# ASan+UBSan; the family tests themselves (tests/bloom.t, maps.t, ...) check
# the kernel-side variations in the plain pass.  Each run must succeed (or
# be a kernel's SKIP), write a result the schema allows with samples in it,
# and leave nothing of ours in the kernel.
source "$(dirname "$0")/../lib.sh"
need_bpf

before=$(kernel_objects)
Q=(-q -w0 -d0.2 --period-ms 100)

# one BENCH ARGS...: a short run of BENCH that succeeds with samples
one() {
	run "${Q[@]}" "$@" --json "$TMPD/r.json"
	if [ "$RC" -eq 4 ]; then
		skip "$*: the kernel lacks it"
		return
	fi
	[ "$RC" -eq 0 ] && json_check "$TMPD/r.json" '
r = d["runs"][0]
r["status"] == 0 and len(r["samples"]) >= 1'
	ok $? "$*" || diag "rc=$RC" "$ERR"
}

one noop --latency
one noop --trigger test-run
one noop --kernel-stats
one noop --speed-ref --normalize -p2
one map-batch --normalize --max_entries 1000 --batch 10
one bpf-loop --nr_loops 100
one bpf-for -p2 --nr_loops 100
one bpf-loop --nr_loops 100 --latency
one bpf-for --nr_loops 100 --latency

one bloom-lookup --nr_entries 5000
one bloom-update --nr_entries 5000 --count 10000
one bloom-false-positive --nr_entries 5000 --nr_probes 20000
one hashmap-without-bloom --nr_entries 5000 --count 10000
one hashmap-with-bloom --nr_entries 5000 --value_size 16 --count 10000
one -p2 bloom-lookup --nr_entries 5000 --latency
one hashmap-with-bloom --nr_entries 5000 --latency

for b in noop baseline; do
	one lpm-trie-$b
done
one lpm-trie-lookup --nr_entries 3000 --verify --latency
one -p2 lpm-trie-lookup --random --nr_entries 5000
one lpm-trie-insert --nr_entries 20000 --verify
one lpm-trie-update --nr_entries 3000 --verify
one lpm-trie-delete --nr_entries 300 --prefix_len 9 --verify
one lpm-trie-free --nr_entries 20000

one map-batch --max_entries 2000 --batch 10,1000
one map-batch --map-type percpu_array --max_entries 1000 --batch 100 --op update,lookup

for u in overwrite batch_add_batch_del add_del_on_diff_cpu; do
	one -p2 htab-mem --use-case $u
done
one htab-mem --preallocated --memory-method fdinfo
one -p2 htab-mem --use-case batch_add_batch_del --latency

for b in rb-libbpf rb-custom pb-libbpf pb-custom; do
	one -c1 $b --rb-total 20000
done
one -c1 rb-custom --rb-total 20000 --rb-sampled
one -c1 rb-libbpf --rb-total 20000 --rb-b2b
one -c1 rb-custom --rb-total 20000 --rb-use-output
one -c1 rb-custom --rb-total 20000 --rb-overwrite --ringbuf-sz 4096
one -c1 -p3 rb-custom --rb-total 60000 --rb-batch-cnt 50
one -p2 rb-libbpf --rb-bench-producer --rb-total 20000

one map-lookup --fill 50 --hit 37
one map-update --map_type lru_hash --max_entries 1000 --nr_entries 2000
one map-delete --map_type percpu_hash
one map-push --map_type queue
one map-pop --map_type stack
for t in hash array queue; do
	one map-ops --map_type $t
done
one map-lookup --latency
one map-ops --map_type lru_hash --latency

after=$(kernel_objects_settle "$before")
[ "$after" = "$before" ]
ok $? "nothing of ours left in the kernel (programs maps links: $before -> $after)"
done_testing
