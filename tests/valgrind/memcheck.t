#!/usr/bin/env bash
# valgrind memcheck on a short run of each benchmark family (make valgrind).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/memcheck.sh"

memcheck core-test-run noop
memcheck core-raw-tp --trigger raw-tp noop --batch 100
memcheck bpf-loop bpf-loop --nr_loops 1
memcheck htab-mem htab-mem --use-case batch_add_batch_del
memcheck htab-mem-pairs -p2 htab-mem --use-case add_del_on_diff_cpu
memcheck rb-custom -c1 --rb-total 20000 rb-custom
memcheck rb-libbpf -c1 --rb-total 20000 rb-libbpf
memcheck pb-custom -c1 --rb-total 20000 pb-custom
memcheck pb-libbpf -c1 --rb-total 20000 pb-libbpf
memcheck map-batch map-batch --max_entries 2000 --batch 10,1000
memcheck map-batch-percpu map-batch --map-type percpu_hash --max_entries 500 --batch 100
# bloom's program runs are long (16384 filter ops, 1024 hash lookups): fewer per call
memcheck bloom-lookup bloom-lookup --nr_entries 1000 --test-run-repeat 1
memcheck bloom-fpr bloom-false-positive --nr_entries 1000
memcheck hashmap-with-bloom hashmap-with-bloom --nr_entries 1000 --test-run-repeat 10
memcheck lpm-trie-lookup lpm-trie-lookup --nr_entries 1000
memcheck lpm-trie-delete lpm-trie-delete --nr_entries 1000
memcheck lpm-trie-free lpm-trie-free --nr_entries 1000
memcheck results bpf-loop --sweep nr_loops=1,10 --json "$TMPD/s.json" --csv "$TMPD/s.csv"
done_testing
