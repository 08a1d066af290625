#!/usr/bin/env bash
# Ring buffer and perf buffer: every sample written is received once, intact
# and in order per stream; drops are never hits; the figures are the counts
# of each sample over its period, and never more outcomes than attempts;
# overwrite mode SKIPs where the kernel lacks it; the summary parses as the
# kernel's run_bench_ringbufs.sh reads it; bad option combinations exit 2;
# nothing is left behind.
source "$(dirname "$0")/lib.sh"
need_bpf

BIG_RB="--ringbuf-sz 8388608"	# 512K records: holds every sample of a run
BIG_PB="--perfbuf-sz 1024"	# 4 MiB per CPU
N=100000

before=$(kernel_objects_settle "0 0 0")	# ours only (lib.sh): none yet

# total_of FIELD: a number from the "Totals:" lines of the last run
total_of() { grep -o "$1 [0-9a-f]*" <<<"$(grep -A1 '^Totals:' <<<"$OUT")" | head -1 | cut -d' ' -f2; }

big_of() { case $1 in rb-*) echo "$BIG_RB" ;; *) echo "$BIG_PB" ;; esac; }

# Python over the run's samples `s`: each rate is its count over its period.
RATE_IS_COUNT='all(abs(x[m] * x["elapsed_ns"] / 1e3 - x[m + "_count"]) <= 1e-6 * max(1, x[m + "_count"]) for x in s for m in ("hits", "drops"))'
# ... and over every first k samples, no more hits and drops than attempts.
NO_MORE_THAN_TRIED='all(sum(x["hits_count"] + x["drops_count"] for x in s[:k]) <= sum(x["attempts_count"] for x in s[:k]) for k in range(1, len(s) + 1))'
samples_check() {	# samples_check FILE EXPR: EXPR (one line) over s = the first run's samples
	json_check "$1" "s = d['runs'][0]['samples']
$2"
}

# A fixed number of samples, a ring that holds them all, one consumer:
# consumed == produced == N, nothing dropped, the same contents everywhere
# (--rb-verify: every sample checked and in the digest).
declare -A digest
for b in rb-libbpf rb-custom pb-libbpf pb-custom; do
	# shellcheck disable=SC2046
	run -w0 -d1 -c1 --rb-verify --rb-sampled --rb-total $N $(big_of $b) --json "$TMPD/n.json" $b
	p=$(total_of produced) c=$(total_of consumed) d=$(total_of dropped)
	if [ "$RC" -eq 0 ] && [ "$p" = "$N" ] && [ "$c" = "$N" ] && [ "$d" = 0 ]; then
		pass "$b: $N written, $N consumed, none dropped"
	else
		fail "$b: $N written, $N consumed, none dropped" "rc=$RC produced=$p consumed=$c dropped=$d $ERR"
	fi
	digest[$b]=$(total_of digest)
	# N samples take milliseconds: the one measured second saw them all
	sums="sum(x['hits_count'] for x in s) == sum(x['attempts_count'] for x in s) == $N"
	samples_check "$TMPD/n.json" "$RATE_IS_COUNT and $sums and sum(x['drops_count'] for x in s) == 0"
	ok $? "$b: hits x period == the $N samples consumed, attempted $N, dropped 0"
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
	run -w0 -d1 -c1 --rb-total 20000 $(big_of "${args##* }") $args
	c=$(total_of consumed) d=$(total_of dropped)
	[ "$RC" -eq 0 ] && [ "$c" = 20000 ] && [ "$d" = 0 ]
	ok $? "$args: 20000 consumed, none dropped (rc=$RC consumed=$c dropped=$d)"
done

# A ring too small for one batch: drops happen and are never counted as hits.
# Without --rb-verify one sample in 64 is checked: every one still counted, no gaps or digest.
# shellcheck disable=SC2046
run -w0 -d1 -c1 --rb-sampled --rb-total $N $(big_of rb-custom) rb-custom
p=$(total_of produced) c=$(total_of consumed)
[ "$RC" -eq 0 ] && [ "$p" = "$N" ] && [ "$c" = "$N" ] && [ -z "$(total_of digest)" ] && [ -z "$(total_of gaps)" ]
ok $? "rb-custom, checks sampled: $N consumed of $N, no digest or gaps claimed (rc=$RC)" || diag "$OUT" "$ERR"
# Producer and consumer share CPU 0, so no reader drains the ring while a
# program writes its batch of 500 (12+ KiB into 4 KiB): drops are certain.
for args in "--ringbuf-sz 4096 rb-libbpf" "--ringbuf-sz 4096 rb-custom" \
	    "--perfbuf-sz 1 pb-libbpf" "--perfbuf-sz 1 pb-custom"; do
	# shellcheck disable=SC2086
	run -w0 -d1 -c1 --rb-verify --prod-affinity 0 --cons-affinity 0 --rb-total $N \
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
	samples_check "$TMPD/drops.json" "$RATE_IS_COUNT and $NO_MORE_THAN_TRIED"
	ok $? "$args: rates are counts over periods; hits + drops never exceed attempts"
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
	run -w0 -d1 -c1 --rb-total 20000 --rb-corrupt-seq 5000 $(big_of $b) $b
	[ "$RC" -eq 1 ] && grep -q "checksum mismatch (stream 0, seq 4999)" <<<"$ERR"
	ok $? "$b: a spoiled sample fails the run (rc=$RC)"
done

# Several producers: every stream is checked on its own.
run -w0 -d1 -c1 -p3 --rb-batch-cnt 50 --rb-total 60000 $BIG_RB rb-custom
[ "$RC" -eq 0 ] && [ "$(total_of consumed)" = 60000 ]
ok $? "rb-custom -p3: 60000 consumed over three streams (rc=$RC)"

# Overwrite mode: SKIP with one line naming it where the kernel lacks it.
if "$BPFBENCH" probe | grep -q '^rb_overwrite *yes'; then
	run -w0 -d1 -c1 --rb-overwrite --rb-total $N --ringbuf-sz 4096 rb-custom
	[ "$RC" -eq 0 ] && [ "$(total_of consumed)" -gt 0 ]
	ok $? "rb-custom --rb-overwrite consumes an overwrite ring (rc=$RC)"
	run -w0 -d1 -p2 --rb-batch-cnt 50 --rb-overwrite --rb-bench-producer rb-libbpf
	[ "$RC" -eq 0 ] && [ "$(total_of dropped)" = 0 ]
	ok $? "overwrite producers never drop (rc=$RC)"
else
	for args in "-c1 --rb-overwrite rb-custom" \
		    "-p2 --rb-batch-cnt 50 --rb-overwrite --rb-bench-producer rb-libbpf"; do
		# shellcheck disable=SC2086
		run -w0 -d1 $args
		# the one line says which feature is missing and what for
		[ "$RC" -eq 4 ] && grep -q "lacks rb_overwrite for --rb-overwrite" <<<"$ERR"
		ok $? "$args: exit 4, the kernel lacks overwrite mode (rc=$RC)"
	done
fi

# Producers alone: hits are what BPF wrote, nothing is consumed.
run -w0 -d1 -p2 --rb-total $N $BIG_RB --rb-bench-producer --json "$TMPD/p.json" rb-custom
[ "$RC" -eq 0 ] && [ "$(total_of produced)" = $N ] && [ "$(total_of consumed)" = 0 ]
ok $? "--rb-bench-producer: $N produced, none consumed (rc=$RC)"
sums="sum(x['hits_count'] for x in s) == sum(x['attempts_count'] for x in s) == $N"
samples_check "$TMPD/p.json" "$RATE_IS_COUNT and $sums"
ok $? "--rb-bench-producer: hits x period == the $N samples BPF wrote, of $N attempted"

# The default ring fills within milliseconds and then every write fails: a
# hit was once attempts minus drops, two counters read apart, and a later
# drop count could make it wrap to ~1e13 M/s.  Now every sample's hits are
# writes BPF saw succeed, and over any first samples hits and drops never
# exceed the attempts BPF counted.
run -w0 -d1 --period-ms 100 --json "$TMPD/bp.json" --rb-bench-producer rb-libbpf
ok "$RC" "--rb-bench-producer rb-libbpf, ten 100 ms samples (rc=$RC)" || diag "$ERR"
samples_check "$TMPD/bp.json" "$RATE_IS_COUNT and $NO_MORE_THAN_TRIED and len(s) >= 5"
ok $? "--rb-bench-producer: rates are counts over periods; hits + drops never exceed attempts"
t=$(total_of attempted) p=$(total_of produced) d=$(total_of dropped)
samples_check "$TMPD/bp.json" "max(x['hits_count'] for x in s) <= ${p:-0} and $p + $d == $t"
ok $? "--rb-bench-producer: no sample above the $p written; written $p + dropped $d == attempted $t"

# What the kernel's run_bench_ringbufs.sh takes from a run: its summarize
# joins the output on one line and takes the last 'hits N ± NM/s' and the
# last 'drops N ± NM/s' (our own patterns, to the same effect).
take() { sed -E "s/.*$1[[:space:]]+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*/\1/" <<<"$2"; }
run -w0 -d1 -c1 rb-libbpf
joined=$(echo $OUT)	# unquoted, as summarize does
h=$(take hits "$joined") d=$(take drops "$joined")
[[ $h =~ ^[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+M/s$ ]] && [[ $d =~ ^[0-9]+\.[0-9]+\ ±\ [0-9]+\.[0-9]+M/s$ ]]
ok $? "summarize's patterns read hits '$h' and drops '$d'"
grep -q "^Summary: hits .* ± .*M/s (.*M/prod), drops .* ± .*M/s$" <<<"$OUT"
ok $? "the Summary line has the kernel bench's shape"

# Bad combinations: exit 2 with the reason.
bad() {	# bad WORD ARGS...
	local word=$1
	shift
	run -w0 -d1 "$@"
	[ "$RC" -eq 2 ] && grep -qF -- "$word" <<<"$ERR"
	ok $? "rejects $*: exit 2 naming '$word' (rc=$RC)"
}
bad "exactly one consumer" -c0 rb-libbpf
bad "exactly one consumer" -c2 pb-custom
bad "runs no consumer" -c1 --rb-bench-producer rb-libbpf
bad "--rb-b2b needs" --rb-b2b --rb-bench-producer rb-custom
bad "--rb-sampled paces" --rb-sampled --rb-bench-producer rb-libbpf
bad "one producer (-p1)" -c1 -p2 --rb-b2b rb-custom
bad "no batch would wake" -c1 --rb-b2b --rb-sampled --rb-batch-cnt 10 --rb-sample-rate 20 pb-custom
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
