#!/usr/bin/env bash
# --profile and `bpfbench profile`: where a run's time goes.  The folded
# stacks parse and add up to the samples, our programs and the map's op
# are found, the SVG is XML, the JSON has the profile; the perf fds exist
# only while sampling and nothing is left after a signal; a command's
# profile holds that command's samples alone; --diff gives crafted
# differences.  No figure is held to a speed.
source "$(dirname "$0")/lib.sh"
need_bpf

before=$(kernel_objects)

# Folded lines: "stack count", the count a whole number after the last space.
folded_ok() {	# folded_ok FILE: prints the sum of counts; 1 if a line is not one
	python3 - "$1" <<'PY'
import re, sys
n = 0
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    m = re.fullmatch(r"(\S.*) (\d+)\n?", line)
    if not m or ";;" in m.group(1):
        print("bad line: " + line.rstrip()); sys.exit(1)
    n += int(m.group(2))
print(n)
PY
}
xml_ok() { python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1"; }
perf_fds() { ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'anon_inode:\[perf_event\]'; }
ncpu=$(grep -c '^processor' /proc/cpuinfo)

run -w0 -d1 --profile --folded "$TMPD/l.folded" --flame "$TMPD/l.svg" --json "$TMPD/l.json" bpf-loop
[ "$RC" -eq 0 ]
ok $? "bpf-loop --profile runs (rc $RC)" || diag "$ERR"
grep -q '^Profile: \(cpu-clock\|cycles\) at 999 Hz on [0-9]* CPUs, [0-9]* samples ([0-9]* lost)' <<<"$OUT"
ok $? "the summary has a Profile line" || diag "$OUT"
[ "$(tail -1 <<<"$OUT" | cut -c1-8)" = "Summary:" ]
ok $? "the Summary stays the last line"
sum=$(folded_ok "$TMPD/l.folded")
ok $? "the folded file parses: every line 'stack count'" || diag "$sum"
json_check "$TMPD/l.json" "
p = d['runs'][0]['profile']
p['valid'] and p['samples'] == $sum and p['samples'] > 0 and p['frequency'] == 999 and p['lost'] >= 0"
ok $? "its counts add up to the JSON's samples ($sum)"
# The verifier inlines bpf_loop() into the program (its loop runs inside
# the JIT'ed image), so the helper has no frame of its own: the loop's time
# is our programs' (the test-run entry, its outer loop's plain_call, the
# callback), each named and marked ours; which leads by self time varies.
json_check "$TMPD/l.json" "
p = d['runs'][0]['profile']
ours = [t['function'] for t in p['top'][:5] if t['ours'] and t['function'].startswith('bpf_prog_')]
mine = [t for t in p['top'] if t['function'].startswith('bpf_prog_') and t['function'].endswith('_bpf_loop_test_run')]
ours and mine and mine[0]['ours'] and mine[0]['total_share'] >= 0.5"
ok $? "our bpf_loop programs' bpf_prog_<tag>_ symbols lead the top 5, marked ours; the entry holds most" ||
	diag "$(grep -A12 '^Profile' <<<"$OUT")"
json_check "$TMPD/l.json" "
top = d['runs'][0]['profile']['top'][:5]
any(t['ours'] and t['function'].endswith('_empty_callback') for t in top)"
ok $? "its bpf_loop callback too (the inlined loop's other half)"
json_check "$TMPD/l.json" "
p = d['runs'][0]['profile']; r = d['runs'][0]
ns = 1000 / r['metrics']['throughput']['mean']
all(abs(t['ns_per_op'] - t['self_share'] * ns) <= 1e-6 * ns for t in p['top'])"
ok $? "ns/op attributed = self share x the run's ns/op (1000 / M ops/s)"
# The table's ns/op column adds up (issue 43: its top ten summed to 22.87 where the Summary said
# 21.42): the rest of the functions in one row, then the total it adds up to, said what it is.
# table_sum: "SUM TOTAL ROWS" of the ns/op column of a Profile table on stdin
table_sum() {
	awk '/^ +self +total +ns\/op +function$/ { on = 1; next }
	     on && / all: / { total = $2; exit }
	     on && / more functions?\)$/ { sum += $2; rows++; next }
	     on && /%/ { sum += $3; rows++ }
	     END { printf "%.6f %s %d\n", sum, total, rows }'
}
read -r sum total rows < <(table_sum <<<"$OUT")
lat=$(tail -1 <<<"$OUT" | sed -n 's/.*latency *\([0-9.]*\) ns\/op.*/\1/p')
awk -v s="$sum" -v t="$total" -v n="$rows" -v l="$lat" 'BEGIN {
	exit !(n > 0 && t > 0 && (s - t < 0 ? t - s : s - t) <= 0.0005 * n + 1e-9 &&
	       (t - l < 0 ? l - t : t - l) <= 0.0015) }' &&
	grep -q '^ *100\.0% *[0-9.]*  all: the wall time of an op, 1 / throughput [0-9.]* M ops/s$' <<<"$OUT"
ok $? "the ns/op column's rows add up to its stated total ($sum of $total, $rows rows), the Summary's latency ($lat)" ||
	diag "$(grep -A14 '^Profile' <<<"$OUT")"
! grep -q '^Profile: only ' <<<"$OUT"
ok $? "a second of one busy thread: enough samples, no note of too few" || diag "$(grep '^Profile' <<<"$OUT")"
grep -q '^# ns_per_op=[0-9.e+-]*$' "$TMPD/l.folded" && grep -q '^# ours=bpf_prog_' "$TMPD/l.folded"
ok $? "the folded file's header: ns_per_op and our programs, in lines the tools skip"
xml_ok "$TMPD/l.svg"
ok $? "the SVG is well-formed XML"
grep -q '<title>bpfbench -w 0 -d 1 bpf-loop</title>' "$TMPD/l.svg" &&
	grep -q 'at 999 Hz on [0-9]* CPUs, [0-9]* samples' "$TMPD/l.svg"
ok $? "its title has the run and its conditions"

run -q -w0 -d1 --folded "$TMPD/m.folded" map-lookup --map_type hash
[ "$RC" -eq 0 ] && grep -Eq 'htab_map_lookup_elem|lookup_nulls_elem_raw' "$TMPD/m.folded"
ok $? "a hash map's lookup is in map-lookup's profile (--folded implies --profile)" ||
	diag "$ERR" "$(grep -A8 '^Profile' <<<"$OUT")"

# A whole-run benchmark under --profile: its Iter lines say how long each run took (issue 43:
# "(0.000us)", a lateness no tick has); where the Summary's latency is timed inside the program,
# the table says its ns/op is the wall time of an op, and its column still adds up.
run -w0 -d1 --profile map-lookup --map_type hash
iters=$(grep '^Iter' <<<"$OUT")
[ "$RC" -eq 0 ] && [ -n "$iters" ] && ! grep -q '0\.000us\|took *0\.000ms' <<<"$iters" &&
	[ "$(grep -cE '^Iter +[0-9]+ \(took +[0-9]+\.[0-9]{3}ms\): ' <<<"$iters")" -eq "$(wc -l <<<"$iters")" ]
ok $? "map-lookup --profile: every Iter line says how long its run took, none 0" || diag "$iters" "$ERR"
read -r sum total rows < <(table_sum <<<"$OUT")
awk -v s="$sum" -v t="$total" -v n="$rows" 'BEGIN {
	exit !(n > 0 && t > 0 && (s - t < 0 ? t - s : s - t) <= 0.0005 * n + 1e-9) }' &&
	grep -q "^Profile: ns/op is the wall time of an op; the Summary's latency, [0-9.]* ns/op, is timed per op inside the program$" <<<"$OUT"
ok $? "map-lookup --profile: the column adds up ($sum of $total), the Summary's kernel-timed latency told apart" ||
	diag "$(grep -A16 '^Profile' <<<"$OUT")"

# An ab side's profile: its repetitions' samples add up in its result.
run ab "-w0 -d0.5 --period-ms 250 --profile noop" "-w0 -d0.5 --period-ms 250 noop" -r 1 \
	--json "$TMPD/ab.json"
[ "$RC" -eq 0 ] && json_check "$TMPD/ab.json" "
a, b = d['runs']
p = a['profile']
p['valid'] and p['samples'] > 0 and any(t['ours'] for t in p['top'][:3]) and 'profile' not in b"
ok $? "ab: the side with --profile has its profile in the JSON, the other none" || diag "$ERR"

# The sampler's fds: one per online CPU while the run measures, none in a command it profiles.
# interrupted_run ARGS...: a noop run stopped by SIGINT after its first
# sample; FDS its perf fds then, RC its exit status
interrupted_run() {
	local i
	bg_start -w0 -d30 --period-ms 100 "$@" noop || return 1
	for i in $(seq 1 100); do	# a first sample, so the interrupted run has figures
		grep -q '^Iter' "$TMPD/bg.out" && break
		sleep 0.1
	done
	FDS=$(perf_fds "$PID")
	kill -INT "$PID"
	wait "$PID"
	RC=$?
}
interrupted_run --profile
during=$FDS rc=$RC
[ "$during" = "$ncpu" ] && [ "$rc" -eq 130 ]
ok $? "$ncpu perf fds while measuring, exit 130 on SIGINT (fds $during, rc $rc)"
grep -q '^Profile: ' "$TMPD/bg.out"
ok $? "the interrupted run's summary still has its profile"
now=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel after the signal ($now, before $before)"

interrupted_run
without=$FDS
[ "$without" = 0 ]
ok $? "no perf fd without --profile ($without)"

# A command's profile: its samples alone (never ours), the command stopped after -d.
mark="profile_t_spin_$$"
run profile -d 0.5 --folded "$TMPD/c.folded" --flame "$TMPD/c.svg" -- \
	sh -c "while :; do :; done; : $mark"
sum=$(folded_ok "$TMPD/c.folded")
[ "$RC" -eq 0 ] && [ "${sum:-0}" -gt 0 ] 2>/dev/null
ok $? "profile -- CMD samples the command (rc $RC, $sum samples)" || diag "$ERR"
! grep -Eq '\[bpfbench\]|\[libbpf' "$TMPD/c.folded" && grep -Eq '\[(dash|sh|bash)\]' "$TMPD/c.folded"
ok $? "only the command's own stacks (its shell, none of bpfbench's)" || diag "$(head "$TMPD/c.folded")"
! pgrep -f "$mark" >/dev/null
ok $? "the command is stopped after -d"
xml_ok "$TMPD/c.svg"
ok $? "its SVG is well-formed XML"

"$BPFBENCH" profile -- sleep 3 >"$TMPD/s.out" 2>&1 &
ppid=$!
for i in $(seq 1 50); do
	spid=$(pgrep -P "$ppid" sleep) && break
	sleep 0.1
done
cfds=$(perf_fds "$spid")
pfds=$(perf_fds "$ppid")
kill -INT "$ppid"
wait "$ppid"
[ "$cfds" = 0 ] && [ "$pfds" = "$ncpu" ] && ! kill -0 "$spid" 2>/dev/null
ok $? "the profiler holds $ncpu perf fds, the command none (CLOEXEC); SIGINT ends both ($pfds, $cfds)"

if command -v setpriv >/dev/null && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 0 ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$BPFBENCH" profile -- true \
		>"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	[ "$RC" -eq 1 ] && grep -q 'perf_event_open(.*) refused: Permission denied (.*perf_event_paranoid' "$TMPD/err"
	ok $? "unprivileged: perf_event_open's refusal named, with its cause (rc $RC)" || diag "$(cat "$TMPD/err")"
else
	skip "setpriv or a perf_event_paranoid that refuses an unprivileged user"
fi

run profile -- /nonexistent/cmd
[ "$RC" -eq 1 ] && grep -q '^bpfbench: error: profile: cannot run /nonexistent/cmd' <<<"$ERR"
ok $? "a command that cannot run: one error line, exit 1 (rc $RC)" || diag "$ERR"

# A command with few samples: its table says how little they tell (issue 43: 4 samples, no word);
# one with none says so instead of an empty table.
few_ok() {	# few_ok: the last run's Profile says its N < 100 samples are few, or that there were none
	n=$(sed -n 's/^Profile: .* \([0-9]*\) samples (.*/\1/p' <<<"$OUT")
	[ "$RC" -eq 0 ] && [ -n "$n" ] && [ "$n" -lt 100 ] || return 1
	[ "$n" -eq 0 ] && grep -q "^Profile: .*0 samples (0 lost): nothing ran long enough on a CPU" <<<"$OUT" &&
		return 0
	grep -q "^Profile: only $n samples\?: each share is known to within +-[0-9]* points (95%); 100 samples give +-10" <<<"$OUT"
}
# (about 16 ms of sh here: a few ms had 0 samples in some runs at 999 Hz)
run profile -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
few_ok && [ "$n" -gt 0 ]
ok $? "profile of a few ms of work: only $n samples, and the table says what they are worth" || diag "$OUT" "$ERR"
run profile -- sleep 1
few_ok
ok $? "profile -- sleep 1: $n samples, said to be too few (or none)" || diag "$OUT" "$ERR"

# --diff on crafted profiles: c shrank from half to a fifth, e is new.
printf '# ns_per_op=8\na;b;c 10\na;b 5\na;d 5\n' >"$TMPD/A.folded"
printf '# ns_per_op=10\na;b;c 5\na;b 5\na;d 10\na;e 5\n' >"$TMPD/B.folded"
run profile --diff "$TMPD/A.folded" "$TMPD/B.folded"
rows=$(grep '^ ' <<<"$OUT" | awk 'NR > 1 { print $7, $3, $6 }' | tr '\n' '|')
[ "$RC" -eq 0 ] && [ "$rows" = "c -30.0pp -2.000|e +20.0pp +2.000|d +15.0pp +2.000|b -5.0pp +0.000|" ]
ok $? "--diff: the crafted shifts, largest first, in share and ns/op" || diag "$OUT" "$rows"
# one program in two configurations (its tag changed) is one row, keyed by its name (issue 43:
# two rows of -50 and +50 points); two programs of one name on a side keep their tags
T1=1111111111111111 T2=2222222222222222 T3=3333333333333333
printf 'a;bpf_prog_%s_run 10\na;bpf_prog_%s_cb 10\n' $T1 $T3 >"$TMPD/PA.folded"
printf 'a;bpf_prog_%s_run 5\na;bpf_prog_%s_cb 15\n' $T2 $T3 >"$TMPD/PB.folded"
run profile --diff "$TMPD/PA.folded" "$TMPD/PB.folded"
rows=$(grep '^ ' <<<"$OUT" | awk 'NR > 1' | sed 's/^ *//; s/  */ /g' | tr '\n' '|')
[ "$RC" -eq 0 ] &&
	[ "$rows" = "50.0% 25.0% -25.0pp bpf_prog_run (tag $T1 -> $T2)|50.0% 75.0% +25.0pp bpf_prog_$T3""_cb|" ]
ok $? "--diff: a program whose tag changed is matched by its name, one row saying so" || diag "$OUT" "$rows"
printf 'a;bpf_prog_%s_run 10\na;bpf_prog_%s_run 10\n' $T1 $T3 >"$TMPD/PC.folded"
run profile --diff "$TMPD/PC.folded" "$TMPD/PB.folded"
[ "$RC" -eq 0 ] && [ "$(grep -c "bpf_prog_$T1""_run$" <<<"$OUT")" -eq 1 ] &&
	[ "$(grep -c "bpf_prog_$T3""_run$" <<<"$OUT")" -eq 1 ] && [ "$(grep -c "bpf_prog_$T2""_run$" <<<"$OUT")" -eq 1 ] &&
	! grep -q '(tag ' <<<"$OUT"
ok $? "--diff: a name two programs share on a side: matched by tag, each its own row" || diag "$OUT"
printf 'a;b notanumber\n' >"$TMPD/bad.folded"
run profile --diff "$TMPD/A.folded" "$TMPD/bad.folded"
[ "$RC" -eq 2 ] && grep -q 'bad.folded:1: not a folded stack line' <<<"$ERR"
ok $? "a line that is no folded stack is named (rc $RC)" || diag "$ERR"

# --counters: software events always, hardware ones where a PMU answers (else one skip line).
run -w0 -d0.5 --period-ms 250 --counters --json "$TMPD/k.json" bpf-loop
[ "$RC" -eq 0 ] && json_check "$TMPD/k.json" "
r = d['runs'][0]; c = r['counters']
ops = r['metrics']['throughput']['mean'] * 1e6 * r['measured_s']
defn = all(abs(c['per_op'][k] - c['counts'][k] / c['ops']) <= 1e-9 * max(1, c['per_op'][k]) for k in c['counts'])
cpu = 0 < c['counts']['task_clock_ns'] <= r['measured_s'] * 1e9 * $ncpu * 1.05
c['valid'] and abs(c['ops'] - ops) <= 1e-3 * ops and defn and cpu"
ok $? "--counters: each per-op figure is its count / the run's ops (rate x measured time)" ||
	diag "$ERR" "$(grep '^Counters' <<<"$OUT")"
if json_check "$TMPD/k.json" "not d['runs'][0]['counters']['pmu']"; then
	[ "$(grep -c '^Counters: cycles, instructions, IPC, cache and branch misses per op skipped: ' <<<"$OUT")" = 1 ]
	ok $? "no PMU here: one line says the hardware counters are skipped, and why"
else
	grep -q '^Counters: [0-9.]* cycles/op, [0-9.]* instructions/op, IPC ' <<<"$OUT"
	ok $? "a PMU: cycles, instructions and IPC per op"
fi

run -w0 -d1 --profile --sweep producers=1,2 noop
[ "$RC" -eq 2 ] && grep -q 'error: --profile profiles one run' <<<"$ERR"
ok $? "--profile with --sweep is refused (rc $RC)" || diag "$ERR"
run profile
[ "$RC" -eq 2 ] && grep -q 'profile: no command' <<<"$ERR"
ok $? "profile without a command: usage error (rc $RC)"
# -q keeps what was asked for by name (issue 50, also found): the profile, then the Summary
run -q -w0 -d0.3 --period-ms 100 --profile noop
[ "$RC" -eq 0 ] && grep -q '^Profile: ' <<<"$OUT" && tail -1 <<<"$OUT" | grep -q '^Summary: ' &&
	! grep -qE '^(Stats|Setting up|Iter)' <<<"$OUT"
ok $? "-q --profile: the profile table, then the Summary last, nothing else" || diag "$OUT" "$ERR"
done_testing
