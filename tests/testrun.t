#!/usr/bin/env bash
# One test-run syscall is bounded by a tenth of the sampling period: the
# calibration stays below it, an explicit --test-run-repeat above it is
# refused in one line (exit 2); and a run stops at once on a signal even
# while its producers sit in a test-run call of several seconds.
source "$(dirname "$0")/lib.sh"
need_bpf

LOOPS=(bpf-loop --nr_loops 10000)	# tens of microseconds per program run

# The calibrated repeat and its call time, from -v: "N program runs per syscall (X ms)"
run -w0 -d1 -v --period-ms 50 "${LOOPS[@]}"
line=$(grep -o '[0-9]* program runs per syscall ([0-9.]* ms)' <<<"$ERR")
ms=$(grep -o '([0-9.]*' <<<"$line" | tr -d '(')
[ "$RC" -eq 0 ] && [ -n "$ms" ] && python3 -c "import sys; sys.exit(0 if $ms <= 2 * 5 else 1)"
ok $? "--period-ms 50: calibrated calls stay near the 5 ms bound ($line)" || diag "$ERR"

# A repeat far above the bound: one line naming the bound and what would fit.
run -w0 -d5 --test-run-repeat 1000000 "${LOOPS[@]}"
most=$(grep -o 'at most about [0-9]*' <<<"$ERR" | grep -o '[0-9]*$')
[ "$RC" -eq 2 ] && [ "$(grep -c '^bpfbench: ' <<<"$ERR")" -eq 1 ] &&
	grep -q -- '--test-run-repeat 1000000: one test-run call would take about [0-9]* ms here, over the 100 ms bound' <<<"$ERR" &&
	[ -n "$most" ] && [ "$most" -gt 0 ]
ok $? "--test-run-repeat 1000000 with 10000 loops: refused, exit 2, one line (at most $most)" || diag "$ERR"
[ -n "$most" ] || most=1000

# The largest accepted, give or take the noise: SIGINT ends it promptly.
r=$((most / 2 > 0 ? most / 2 : 1))
"$BPFBENCH" -w0 -d5 --test-run-repeat $r "${LOOPS[@]}" >/dev/null 2>"$TMPD/err" &
pid=$!
sleep 1.5
t0=$(date +%s%N)
kill -INT $pid
wait $pid
rc=$? ms=$((($(date +%s%N) - t0) / 1000000))
[ "$rc" -eq 130 ] && [ "$ms" -le 2000 ]
ok $? "SIGINT with --test-run-repeat $r: exit $rc in $ms ms" || diag "$(cat "$TMPD/err")"

# Calls of seconds (allowed by a 60 s period): SIGINT still ends the run at
# once, because each producer is woken out of its call, not waited for.
r=$((most * 30))
for try in 1 2 3; do
	"$BPFBENCH" -w0 -d60 --period-ms 60000 --test-run-repeat $r "${LOOPS[@]}" >/dev/null 2>"$TMPD/err" &
	pid=$!
	for i in $(seq 1 40); do grep -q "started" "$TMPD/err" && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
	kill -0 $pid 2>/dev/null && break
	wait $pid
	r=$((r / 2))	# refused: the machine is slower now than a moment ago
done
sleep 1.5
t0=$(date +%s%N)
kill -INT $pid
wait $pid
rc=$? ms=$((($(date +%s%N) - t0) / 1000000))
[ "$rc" -eq 130 ] && [ "$ms" -le 1000 ]
ok $? "SIGINT during calls of ~3 s (--test-run-repeat $r): exit $rc in $ms ms" || diag "$(cat "$TMPD/err")"

# The end of a run is as prompt: no call outlives the run by more than the bound.
t0=$(date +%s%N)
run -w0 -d1 -q --test-run-repeat $((most / 2 > 0 ? most / 2 : 1)) "${LOOPS[@]}"
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$RC" -eq 0 ] && [ "$ms" -le 3000 ]
ok $? "a 1 s run with calls near the bound ends in $ms ms (rc $RC)" || diag "$ERR"
done_testing
