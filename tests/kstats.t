#!/usr/bin/env bash
# --kernel-stats: the kernel's run count matches the harness's, and the
# accounting is off again after every exit.
source "$(dirname "$0")/lib.sh"
need_bpf

stats_knob() { cat /proc/sys/kernel/bpf_stats_enabled; }
before=$(stats_knob)

run -w0 -d0.2 --period-ms 100 noop --kernel-stats --test-run-repeat 1 --json "$TMPD/k.json"
[ "$RC" -eq 0 ]
ok $? "noop --kernel-stats runs (rc $RC)" || diag "$ERR"
[ "$RC" -eq 0 ] && grep -q '^Kernel: program noop_test_run ran [0-9]* times' <<<"$OUT"
ok $? "the summary has a Kernel line" || diag "$OUT"
json_check "$TMPD/k.json" '
k = d["runs"][0]["kernel_stats"]
k["valid"] and k["harness_runs_min"] <= k["run_cnt"] <= k["harness_runs_max"] and k["run_cnt"] > 0'
ok $? "run_cnt lies between the harness's runs with and without the call the stop cut" ||
	diag "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["kernel_stats"])' "$TMPD/k.json")"

run -q -w0 -d0.2 --period-ms 100 noop --kernel-stats --json "$TMPD/k2.json"
json_check "$TMPD/k2.json" '
k = d["runs"][0]["kernel_stats"]
k["valid"] and k["harness_runs_min"] <= k["run_cnt"] <= k["harness_runs_max"]'
ok $? "with calibrated repeat too"

[ "$(stats_knob)" = "$before" ]
ok $? "the accounting is off again after the run ($(stats_knob))"

# The accounting is held by an fd ("anon_inode:bpf-stats"): open while the run measures.
stats_fds() { ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'bpf-stats'; }
bg_start -w0 -d30 noop --kernel-stats
pid=$PID
during=$(stats_fds "$pid")
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$during" = 1 ] && [ "$rc" -eq 130 ] && [ "$(stats_knob)" = "$before" ]
ok $? "one stats fd held during the run, exit 130 on SIGINT (fds $during, rc $rc)"

# Without the option no accounting is asked for at all.
bg_start -w0 -d30 noop
pid=$PID
without=$(stats_fds "$pid")
kill -INT "$pid"
wait "$pid"
[ "$without" = 0 ]
ok $? "no stats fd without --kernel-stats ($without)"

run -q -w0 -d0.2 --period-ms 100 noop
! grep -q '^Kernel:' <<<"$OUT"
ok $? "no Kernel line without the option"
done_testing
