#!/usr/bin/env bash
# Ring buffer and perf buffer: every sample written is received once, intact
# and in order per stream; drops are never hits; overwrite mode SKIPs where
# the kernel lacks it; bad option combinations exit 2; nothing is left behind.
source "$(dirname "$0")/lib.sh"
need_bpf

BIG_RB="--ringbuf-sz 8388608"	# 512K records: holds every sample of a run
BIG_PB="--perfbuf-sz 1024"	# 4 MiB per CPU
N=100000

before=$(kernel_objects_settle "0 0 0")	# ours only (lib.sh): none yet

# total_of FIELD: a number from the "Totals:" line of the last run
total_of() { grep -o "$1 [0-9a-f]*" <<<"$(grep '^Totals:' <<<"$OUT")" | head -1 | cut -d' ' -f2; }

big_of() { case $1 in rb-*) echo "$BIG_RB" ;; *) echo "$BIG_PB" ;; esac; }

# A fixed number of samples, a ring that holds them all, one consumer:
# consumed == produced == N, nothing dropped, the same contents everywhere.
declare -A digest
for b in rb-libbpf rb-custom pb-libbpf pb-custom; do
	# shellcheck disable=SC2046
	run -q -w0 -d1 -c1 --rb-sampled --rb-total $N $(big_of $b) $b
	p=$(total_of produced) c=$(total_of consumed) d=$(total_of dropped)
	if [ "$RC" -eq 0 ] && [ "$p" = "$N" ] && [ "$c" = "$N" ] && [ "$d" = 0 ]; then
		pass "$b: $N written, $N consumed, none dropped"
	else
		fail "$b: $N written, $N consumed, none dropped" "rc=$RC produced=$p consumed=$c dropped=$d $ERR"
	fi
	digest[$b]=$(total_of digest)
done
[ -n "${digest[rb-libbpf]}" ] && [ "${digest[rb-libbpf]}" = "${digest[rb-custom]}" ]
ok $? "rb-libbpf and rb-custom deliver the same samples (digest ${digest[rb-libbpf]})"
[ -n "${digest[pb-libbpf]}" ] && [ "${digest[pb-libbpf]}" = "${digest[pb-custom]}" ]
ok $? "pb-libbpf and pb-custom deliver the same samples (digest ${digest[pb-libbpf]})"
[ "${digest[rb-custom]}" = "${digest[pb-custom]}" ]
ok $? "ring buffer and perf buffer deliver the same samples"

# Wake-up per sample, and back-to-back (the consumer writes its own batches).
for args in "pb-custom" "--rb-b2b rb-libbpf" "--rb-use-output rb-custom"; do
	# shellcheck disable=SC2046,SC2086
	run -q -w0 -d1 -c1 --rb-total 20000 $(big_of "${args##* }") $args
	c=$(total_of consumed) d=$(total_of dropped)
	[ "$RC" -eq 0 ] && [ "$c" = 20000 ] && [ "$d" = 0 ]
	ok $? "$args: 20000 consumed, none dropped (rc=$RC consumed=$c dropped=$d)"
done

# A ring too small for one batch: drops happen and are never counted as hits.
# Producer and consumer share CPU 0, so no reader drains the ring while a
# program writes its batch of 500 (12+ KiB into 4 KiB): drops are certain.
for args in "--ringbuf-sz 4096 rb-libbpf" "--ringbuf-sz 4096 rb-custom" \
	    "--perfbuf-sz 1 pb-libbpf" "--perfbuf-sz 1 pb-custom"; do
	# shellcheck disable=SC2086
	run -w0 -d1 -c1 --prod-affinity 0 --cons-affinity 0 --rb-total $N \
		--json "$TMPD/drops.json" $args
	p=$(total_of produced) c=$(total_of consumed) d=$(total_of dropped)
	if [ "$RC" -eq 0 ] && [ "${d:-0}" -gt 0 ] && [ "$c" = "$p" ] && [ $((p + d)) -eq $N ]; then
		pass "$args: $d dropped, consumed == produced ($c), produced + dropped == $N"
	else
		fail "$args: drops are not hits" "rc=$RC produced=$p consumed=$c dropped=$d $ERR"
	fi
	# the hits metric is what was consumed: its samples add up to no more than that
	json_check "$TMPD/drops.json" \
		"round(sum(s['hits'] * s['elapsed_ns'] / 1e3 for s in d['runs'][0]['samples'])) <= $c"
	ok $? "$args: hits in the JSON add up to no more than the consumed samples"
	# a drop shows as a gap in the consumer's stream, unless it falls after the
	# last consumed sample (a ring that stays full): gaps never exceed drops
	if [[ $args == *rb-custom ]]; then
		g=$(total_of gaps)
		[ -n "$g" ] && [ "$g" -le "$d" ]
		ok $? "$args: stream gaps ($g) are drops ($d), never more"
	fi
done

# A spoiled sample is caught by every consumer: exit 1 naming it.
for b in rb-libbpf rb-custom pb-libbpf pb-custom; do
	# shellcheck disable=SC2046
	run -q -w0 -d1 -c1 --rb-total 20000 --rb-corrupt-seq 5000 $(big_of $b) $b
	[ "$RC" -eq 1 ] && grep -q "checksum mismatch (stream 0, seq 4999)" <<<"$ERR"
	ok $? "$b: a spoiled sample fails the run (rc=$RC)"
done

# Several producers: every stream is checked on its own.
run -q -w0 -d1 -c1 -p3 --rb-batch-cnt 50 --rb-total 60000 $BIG_RB rb-custom
[ "$RC" -eq 0 ] && [ "$(total_of consumed)" = 60000 ]
ok $? "rb-custom -p3: 60000 consumed over three streams (rc=$RC)"

# Overwrite mode: SKIP with one line naming it where the kernel lacks it.
if "$BPFBENCH" probe | grep -q '^rb_overwrite *yes'; then
	run -q -w0 -d1 -c1 --rb-overwrite --rb-total $N --ringbuf-sz 4096 rb-custom
	[ "$RC" -eq 0 ] && [ "$(total_of consumed)" -gt 0 ]
	ok $? "rb-custom --rb-overwrite consumes an overwrite ring (rc=$RC)"
	run -q -w0 -d1 -p2 --rb-batch-cnt 50 --rb-overwrite --rb-bench-producer rb-libbpf
	[ "$RC" -eq 0 ] && [ "$(total_of dropped)" = 0 ]
	ok $? "overwrite producers never drop (rc=$RC)"
else
	for args in "-c1 --rb-overwrite rb-custom" \
		    "-p2 --rb-batch-cnt 50 --rb-overwrite --rb-bench-producer rb-libbpf"; do
		# shellcheck disable=SC2086
		run -w0 -d1 $args
		[ "$RC" -eq 4 ] &&
			grep -q "lacks ring buffer overwrite mode (BPF_F_RB_OVERWRITE, 6.19+)" <<<"$ERR"
		ok $? "$args: exit 4, the kernel lacks overwrite mode (rc=$RC)"
	done
fi

# Producers alone: hits are what BPF wrote, nothing is consumed.
run -q -w0 -d1 -p2 --rb-total $N $BIG_RB --rb-bench-producer rb-custom
[ "$RC" -eq 0 ] && [ "$(total_of produced)" = $N ] && [ "$(total_of consumed)" = 0 ]
ok $? "--rb-bench-producer: $N produced, none consumed (rc=$RC)"

# Bad combinations: exit 2 with the reason.
bad() {	# bad WORD ARGS...
	local word=$1
	shift
	run -w0 -d1 "$@"
	[ "$RC" -eq 2 ] && grep -qF -- "$word" <<<"$ERR"
	ok $? "rejects $*: exit 2 naming '$word' (rc=$RC)"
}
bad "exactly one consumer" rb-libbpf
bad "exactly one consumer" -c2 pb-custom
bad "runs no consumer" -c1 --rb-bench-producer rb-libbpf
bad "--rb-b2b needs" --rb-b2b --rb-bench-producer rb-custom
bad "--ringbuf-sz" -c1 --ringbuf-sz 12288 rb-custom
bad "--perfbuf-sz" -c1 --perfbuf-sz 3 pb-custom
bad "libbpf's ring_buffer cannot" -c1 --rb-overwrite rb-libbpf
bad "does not apply" -c1 --rb-use-output pb-libbpf
bad "does not apply" -c1 --rb-overwrite pb-custom
bad "rb-batch-cnt" -c1 --rb-batch-cnt 0 rb-custom
bad "rb-batch-cnt" -c1 --rb-batch-cnt 3001 rb-custom

# The suite declares every section of run_bench_ringbufs.sh.
grep -q "ringbufs" <<<"$("$BPFBENCH" suite --list 2>&1)"
ok $? "suite ringbufs is listed"

after=$(kernel_objects_settle "$before")
ok $? "kernel objects unchanged: $before -> $after"

done_testing
