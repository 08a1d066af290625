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
# what one program run costs, from the calibration: for calls of a chosen length below
runs=${line%% *}
per_run_us=$(python3 -c "print(max(1, int(${ms:-1} * 1000 / ${runs:-1})))")

# A repeat far above the bound: one line naming the bound and what would fit.
run -w0 -d5 --test-run-repeat 1000000 "${LOOPS[@]}"
most=$(grep -o 'at most about [0-9]*' <<<"$ERR" | grep -o '[0-9]*$')
[ "$RC" -eq 2 ] && [ "$(grep -c '^bpfbench: ' <<<"$ERR")" -eq 1 ] &&
	grep -q -- '--test-run-repeat 1000000: one test-run call would take about [0-9]* ms here, over the 100 ms bound' <<<"$ERR" &&
	[ -n "$most" ] && [ "$most" -gt 0 ]
ok $? "--test-run-repeat 1000000 with 10000 loops: refused, exit 2, one line (at most $most)" || diag "$ERR"
[ -n "$most" ] || most=1000

# bg_accepted R ARGS...: starts a run with --test-run-repeat R, halving R
# while it is refused (the machine may be busier than a moment ago); sets
# PID and R once the run started, false if it never did.
bg_accepted() {
	local i try
	R=$1
	shift
	for try in 1 2 3 4; do
		"$BPFBENCH" --test-run-repeat $R "$@" >/dev/null 2>"$TMPD/err" &
		PID=$!
		for i in $(seq 1 100); do
			grep -q "started" "$TMPD/err" && return 0
			kill -0 $PID 2>/dev/null || break
			sleep 0.05
		done
		wait $PID
		R=$((R / 2 > 0 ? R / 2 : 1))
	done
	return 1
}

# sigint_time: SIGINT to PID after 1.5 s; RC and MS it took to end
sigint_time() {
	local t0
	sleep 1.5
	t0=$(date +%s%N)
	kill -INT $PID
	wait $PID
	RC=$? MS=$((($(date +%s%N) - t0) / 1000000))
}

# Near the largest accepted: SIGINT ends it promptly.
bg_accepted $((most / 2 > 0 ? most / 2 : 1)) -w0 -d5 "${LOOPS[@]}"
sigint_time
[ "$RC" -eq 130 ] && [ "$MS" -le 2000 ]
ok $? "SIGINT with --test-run-repeat $R: exit $RC in $MS ms" || diag "$(cat "$TMPD/err")"

# Calls of seconds (allowed by a 60 s period): SIGINT still ends the run at
# once, because each producer is woken out of its call, not waited for.
bg_accepted $((3000000 / per_run_us)) -w0 -d60 --period-ms 60000 "${LOOPS[@]}"
sigint_time
[ "$RC" -eq 130 ] && [ "$MS" -le 500 ]
ok $? "SIGINT during calls of ~3 s (--test-run-repeat $R): exit $RC in $MS ms" || diag "$(cat "$TMPD/err")"

# The end of a run is as prompt: no call outlives the run by more than the bound.
t0=$(date +%s%N)
bg_accepted $((most / 2 > 0 ? most / 2 : 1)) -w0 -d1 "${LOOPS[@]}"
wait $PID
rc=$? ms=$((($(date +%s%N) - t0) / 1000000))
[ "$rc" -eq 0 ] && [ "$ms" -le 4000 ]
ok $? "a 1 s run with calls near the bound ends in $ms ms, refusals included (rc $rc)" || diag "$(cat "$TMPD/err")"
done_testing
