#!/usr/bin/env bash
# bpf-hashmap end to end: lookups find every key inserted (the program
# counts finds and misses), full-update's updates are its runs times the
# 10000 it makes a run and every one is refused by the full map, the
# per-CPU lines upstream prints, bad option values refused (exit 2), a
# sweep over key sizes, the kernel's run_bench_bpf_hashmap_full_update.sh
# unmodified with bpfbench as ./bench, and nothing left in the kernel.
source "$(dirname "$0")/lib.sh"
need_bpf
before=$(kernel_objects)
SHORT=(-w0 -d0.3 --period-ms 100)

J="$TMPD/lookup.json"
run bpf-hashmap-lookup "${SHORT[@]}" --nr_entries 300 --nr_loops 30000 --key_size 12 --json "$J"
ok "$RC" "bpf-hashmap-lookup runs (exit $RC)" || diag "$ERR"

json_check "$J" '
t = d["runs"][0]["totals"]
t["runs"] > 0 and t["missed"] == 0 and t["found"] == t["runs"] * 30000'
ok $? "lookups find every key inserted: found = runs x nr_loops, no miss" ||
	diag "$(grep -A6 '"totals"' "$J")"

run bpf-hashmap-lookup "${SHORT[@]}" --nr_entries 7 --max_entries 7 --nr_loops 70 --key_size 1 \
	--map_flags 0x1 --json "$TMPD/small.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/small.json" '
t = d["runs"][0]["totals"]
t["runs"] > 0 and t["missed"] == 0 and t["found"] == t["runs"] * 70'
ok $? "a 1-byte key, no preallocation, a map filled to max_entries: every key found" || diag "$ERR"

grep -qE '^cpu[0-9]{2}: lookup [0-9]+\.[0-9]{3}M ± [0-9]+\.[0-9]{3}M events/sec \(approximated from [0-9]+ samples of ~[0-9]+ms\)$' <<<"$OUT" &&
	[ "$(tail -1 <<<"$OUT" | cut -c1-9)" = "Summary: " ]
ok $? "upstream's per-CPU lookup line, then the Summary last" || diag "$OUT"

J="$TMPD/full.json"
run bpf-hashmap-full-update "${SHORT[@]}" --json "$J"
ok "$RC" "bpf-hashmap-full-update runs (exit $RC)" || diag "$ERR"
json_check "$J" '
t = d["runs"][0]["totals"]
t["runs"] > 0 and t["updates"] == t["runs"] * 10000 and t["full"] == t["updates"]'
ok $? "updates = program runs x 10000, each refused by the full map (E2BIG)" ||
	diag "$(grep -A6 '"totals"' "$J")"
grep -qE '^[0-9]+:hash_map_full_perf [0-9]+ events per sec$' <<<"$OUT"
ok $? "upstream's per-CPU full-update line" || diag "$OUT"

# each refused before anything is loaded
for bad in "--key_size 0" "--key_size 1025" "--nr_loops 0" "--nr_loops 8388609" \
	"--max_entries 0" "--nr_entries 0" "--map_flags 4294967296" \
	"--nr_entries 1001" "--nr_entries 600 --nr_loops 500"; do
	# shellcheck disable=SC2086
	run bpf-hashmap-lookup "${SHORT[@]}" $bad
	[ "$RC" -eq 2 ]
	ok $? "bpf-hashmap-lookup $bad: refused (exit 2)" || diag "exit $RC: $ERR"
done
run bpf-hashmap-lookup "${SHORT[@]}" --map_flags 0x80000000
[ "$RC" -ne 0 ] && grep -q "refuses a hash map of key_size 4, max_entries 1000, map_flags 0x80000000" <<<"$ERR"
ok $? "a flag the kernel refuses: the map named with its options (exit $RC)" || diag "$ERR"

run -w0 -d0.2 --period-ms 100 bpf-hashmap-lookup --nr_loops 10000 --sweep key_size=4,8,12
[ "$RC" -eq 0 ] && [ "$(grep -cE '^key_size=(4|8|12) ' <<<"$OUT")" -eq 3 ]
ok $? "--sweep key_size=4,8,12: a row each" || diag "$OUT" "$ERR"

# the kernel's own script, unmodified, with bpfbench as ./bench (lib.sh)
if kernel_scripts run_bench_bpf_hashmap_full_update.sh; then
	out=$(kernel_script run_bench_bpf_hashmap_full_update.sh)
	[ $? -eq 0 ] && grep -qE '^[0-9]+:hash_map_full_perf [0-9]+ events per sec$' <<<"$out"
	ok $? "run_bench_bpf_hashmap_full_update.sh, unmodified: its per-CPU lines" || diag "$out"
else
	skip "the kernel's script: no $KSRC (apt-get install linux-source-6.12)"
fi

after=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel ($before -> $after)"
done_testing
