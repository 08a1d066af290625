#!/usr/bin/env bash
# Every program in every variant the options can load passes the verifier
# with wide headroom: at most a quarter of its 1M processed-instruction
# limit (prog info's verified_insns, via --verifier-stats), so that the
# next kernel's verifier, which may follow more states, still accepts it.
source "$(dirname "$0")/lib.sh"
need_bpf

HEADROOM=250000		# 25% of BPF_COMPLEXITY_LIMIT_INSNS

# One variant a line: a benchmark and the options that change its programs.
variants() {
	local t b
	for t in auto raw-tp test-run fentry; do echo "noop --trigger $t"; done
	echo "noop --batch 4096 --latency"
	echo "bpf-loop --latency"
	echo "bpf-for --latency"
	echo "bloom-false-positive --value_size 256"
	for b in bloom-lookup bloom-update hashmap-without-bloom hashmap-with-bloom; do
		echo "$b"
		echo "$b --latency"
		echo "$b --value_size 256 --latency"
		echo "$b --value_size 2"
	done
	echo "hashmap-with-bloom --trigger test-run --latency"	# auto: raw-tp
	for b in lpm-trie-noop lpm-trie-baseline lpm-trie-lookup lpm-trie-insert \
		 lpm-trie-update lpm-trie-delete; do
		echo "$b --latency"
		echo "$b --prefix_len 24 --nr_entries 1000"
	done
	echo "lpm-trie-lookup --random"
	echo "lpm-trie-free"
	for u in overwrite batch_add_batch_del add_del_on_diff_cpu; do
		echo "htab-mem -p2 --use-case $u"
		echo "htab-mem -p2 --use-case $u --preallocated --latency --value-size 4096"
	done
	for b in rb-libbpf rb-custom pb-libbpf pb-custom; do
		echo "$b -c1"
		echo "$b -c1 --rb-sampled --rb-batch-cnt 3000"
	done
	echo "rb-custom -c1 --rb-use-output"
	echo "rb-custom -c1 --rb-overwrite"
	echo "rb-custom -c1 --rb-b2b"
	echo "rb-libbpf --rb-bench-producer"
	for t in hash percpu_hash lru_hash lru_hash_no_common lru_percpu_hash \
		 lru_percpu_hash_no_common array percpu_array lpm_trie queue stack; do
		echo "map-ops --map_type $t --latency"
		echo "map-ops --map_type $t --value_size 1024"
	done
	echo "map-ops --map_type hash --key_size 256"
	echo "map-ops --map_type lpm_trie --key_size 256"
	echo "map-batch --map-type hash"
}

# The sanitizer pass (make check) is for the user-space code: its BPF objects
# are the plain pass's (BPF_BUILD=build), so the verifier's counts are those
# the plain pass checks for every variant; there each family loads once
# (its setup and --verifier-stats' reading under ASan + UBSan).
SAN_VARIANTS=("noop --trigger test-run" "noop --batch 4096 --latency" "bpf-for --latency"
	"bloom-lookup --value_size 256 --latency" "hashmap-with-bloom --trigger test-run --latency"
	"lpm-trie-lookup --latency" "lpm-trie-free"
	"htab-mem -p2 --use-case overwrite --preallocated --latency --value-size 4096"
	"rb-custom -c1 --rb-sampled --rb-batch-cnt 3000" "pb-libbpf -c1"
	"map-ops --map_type lru_hash --latency" "map-batch --map-type hash")
SAN=
ldd "$BPFBENCH" 2>/dev/null | grep -q libasan && SAN=1
san_only() {	# the variants on stdin; under ASan only those of SAN_VARIANTS
	if [ -n "$SAN" ]; then
		grep -xF -f <(printf '%s\n' "${SAN_VARIANTS[@]}")
	else
		cat
	fi
}
if [ -n "$SAN" ]; then
	[ "$(variants | san_only | wc -l)" -eq ${#SAN_VARIANTS[@]} ]
	ok $? "the sanitizer pass's ${#SAN_VARIANTS[@]} variants are among the plain pass's"
fi

while read -r line; do
	# shellcheck disable=SC2086
	run --verifier-stats $line
	if [ "$RC" -eq 4 ]; then
		skip "$line: this kernel lacks what it needs"
		continue
	fi
	n=$(grep -c '^verifier: ' <<<"$OUT")
	[ "$RC" -eq 0 ] && [ "$n" -gt 0 ]
	ok $? "$line: loads and reports its programs (rc $RC, $n programs)" ||
		{ diag "$ERR"; continue; }
	worst=$(awk '/^verifier: / { if ($5 > m) { m = $5; p = $3 } } END { print m + 0, p }' <<<"$OUT")
	[ "${worst% *}" -le "$HEADROOM" ]
	ok $? "$line: every program within $HEADROOM processed insns (most: $worst)" ||
		diag "$OUT"
done < <(variants | san_only)

# nothing is measured: a run that loads and leaves
run --verifier-stats -d1 noop
[ "$RC" -eq 0 ] && ! grep -q '^Summary' <<<"$OUT" && grep -q '^verifier: noop ' <<<"$OUT"
ok $? "--verifier-stats measures nothing (no Summary)" || diag "$OUT" "$ERR"
# a result file of it was a status-0 run of n 0 written over the old one:
# refused before anything loads, the old file as it was
bad=
for out in --json --csv --md; do
	printf 'old\n' >"$TMPD/v.out"
	run --verifier-stats -d1 noop $out "$TMPD/v.out"
	[ "$RC" -eq 2 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -q -- "--verifier-stats.*$out" <<<"$ERR" &&
		[ "$(cat "$TMPD/v.out")" = old ] && [ -z "$OUT" ] || bad+=" $out:rc$RC"
done
run suite bpf-loop --verifier-stats --json "$TMPD/v.out"
[ "$RC" -eq 2 ] && [ "$(cat "$TMPD/v.out")" = old ] || bad+=" suite:rc$RC"
run ab "noop --verifier-stats" "noop" -w0 -d1
[ "$RC" -eq 2 ] && grep -q 'ab: --verifier-stats runs nothing to compare' <<<"$ERR" || bad+=" ab:rc$RC"
run ab noop noop -w0 -d1 --verifier-stats
[ "$RC" -eq 2 ] && grep -q 'ab: --verifier-stats runs nothing to compare' <<<"$ERR" || bad+=" ab-both:rc$RC"
[ -z "$bad" ]
ok $? "--verifier-stats with --json/--csv/--md (single, suite) or in ab: usage errors, the old file kept" ||
	diag "$bad" "$ERR"

done_testing
