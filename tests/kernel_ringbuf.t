#!/usr/bin/env bash
# Ring buffer overwrite mode (6.19+), which only a newer kernel runs (make
# check-kernel-ci boots one): the rb-custom reader verifies every record it
# keeps, counts what writers reclaimed, reads nothing twice or torn; the
# producers-only table's shape, with and without overwrite.  SKIPs (the
# kernel's exit 4) where overwrite mode is missing.
source "$(dirname "$0")/lib.sh"
need_bpf
total_of() { grep -o "$1 [0-9a-f]*" <<<"$(grep -A1 '^Totals:' <<<"$OUT")" | head -1 | cut -d' ' -f2; }
N=100000
before=$(kernel_objects_settle "0 0 0")

# A ring of 4 KiB (64 records) and one consumer: writers lap it all the time.
run -w0 -d1 -c1 --rb-verify --rb-overwrite --rb-total $N --ringbuf-sz 4096 rb-custom
[ "$RC" -eq 4 ] && skip_all "$(head -1 <<<"$ERR")"
p=$(total_of produced) c=$(total_of consumed) g=$(total_of gaps) o=$(total_of overwritten)
d=$(total_of dropped)
# rc 0: every record kept passed its checksum (a torn copy fails the run)
# and sequence numbers only grew (one read twice fails the run)
[ "$RC" -eq 0 ] && [ "$p" = $N ] && [ "$d" = 0 ]
ok $? "rb-custom --rb-overwrite: $N written, none dropped, every record kept intact and once (rc=$RC)" ||
	diag "$ERR"
[ -n "$c" ] && [ "$c" -gt 0 ] && [ "$o" -gt 0 ] && [ $((c + g)) -eq $N ] && [ "$o" -eq "$g" ]
ok $? "consumed $c + missed $g == $N; overwritten $o counted once each == missed"

# Many more writes than the ring holds, no total: the same accounting.
run -w0 -d1 -c1 --rb-verify --rb-overwrite --ringbuf-sz 65536 rb-custom
p=$(total_of produced) c=$(total_of consumed) g=$(total_of gaps) o=$(total_of overwritten)
[ "$RC" -eq 0 ] && [ "$o" -le "$g" ] && [ $((c + g)) -le "$p" ]
ok $? "an unbounded run: overwritten $o <= missed $g, consumed $c + missed <= written $p (rc=$RC)"

# The producers-only table (the seed's multi-producer shape): one row a
# producer count, hits and drops in M/s; drops 0 in overwrite mode with one
# producer; with two, the kernel refuses a write while the other's record is
# reserved and the ring laps it (see doc/differences.md): drops are counted,
# never hits.
for ow in "" --rb-overwrite; do
	for p in 1 2; do
		run -w0 -d1 -p$p --rb-batch-cnt 50 $ow --rb-bench-producer --json "$TMPD/bp.json" rb-libbpf
		t=$(total_of attempted) w=$(total_of produced) d=$(total_of dropped)
		grep -qE '^Summary: hits +[0-9.]+ ± [0-9.]+M/s \( *[0-9.]+M/prod\), drops +[0-9.]+ ± [0-9.]+M/s' <<<"$OUT$ERR" &&
			[ "$RC" -eq 0 ] && [ $((w + d)) -eq "$t" ]
		ok $? "--rb-bench-producer -p$p ${ow:-(no overwrite)}: the summary's shape, written $w + dropped $d == attempted $t"
		if [ -n "$ow" ] && [ $p = 1 ]; then
			[ "$d" = 0 ]
			ok $? "overwrite mode, one producer: never drops ($d)"
		fi
		[ -n "$ow" ] && [ $p = 2 ] && diag "overwrite, two producers: $d of $t dropped"
	done
done
now=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel: $now"
done_testing
