#!/usr/bin/env bash
# Every signal a user, a terminal or a pipe sends to end a process stops a
# run cleanly: exit 128+N, no cgroup and no kernel object left, also when
# the signal lands in the final teardown; the next run removes the cgroups
# of runs that died without cleaning up (SIGKILL), and only theirs.
source "$(dirname "$0")/lib.sh"
need_bpf
command -v bpftool >/dev/null && command -v jq >/dev/null || skip_all "needs bpftool and jq"

read -r MEMCG_KIND MEMCG_MNT <<<"$(memcg_hierarchy)"
before=$(kernel_objects_settle "0 0 0")	# ours only (lib.sh): none yet
diag "memory cgroup: $MEMCG_KIND $MEMCG_MNT; programs maps links before: $before"

signum() { kill -l "$1"; }


# --- every stop signal, mid-run, in a run with a cgroup of its own ---
for sig in INT TERM HUP QUIT PIPE ALRM USR1 USR2; do
	want=$((128 + $(signum $sig)))
	bg_start -w0 -d30 -p2 htab-mem
	started=$?
	mine=$(cgroups_of "$PID")
	kill -"$sig" "$PID"
	wait "$PID"
	rc=$?
	left=$(cgroups_of "$PID")
	[ "$started" -eq 0 ] && [ "$rc" -eq "$want" ] && [ -z "$left" ] &&
		{ [ "$MEMCG_KIND" = none ] || [ -n "$mine" ]; }
	ok $? "SIG$sig mid-run: exit $rc (want $want), its cgroup ${mine##*/} removed${left:+ - NOT: $left}" ||
		diag "left: $left" "$(cat "$TMPD/bg.err")"
done
now=$(kernel_objects_settle "$before")
ok $? "after every signal: kernel objects as before ($now)"

# --- a pipe whose reader left: SIGPIPE at the next line, then a clean stop ---
"$BPFBENCH" htab-mem -w1 -d2 2>"$TMPD/pipe.err" > >(head -1 >"$TMPD/head.out") &
pid=$!
wait $pid
rc=$?
[ "$rc" -eq 141 ] && [ -s "$TMPD/head.out" ] && [ -z "$(cgroups_of $pid)" ] &&
	! grep -q 'write error' "$TMPD/pipe.err"
ok $? "htab-mem | head -1: exit 141, no cgroup left, no message about the pipe (rc $rc)" ||
	diag "$(cat "$TMPD/pipe.err")" "$(cgroups_of $pid)"

# --- lpm-trie-free's own cgroup under SIGQUIT ---
if [ "$MEMCG_KIND" = v1 ]; then
	bg_start -w0 -d30 lpm-trie-free --free-method memcg --nr_entries 400000
	started=$?
	sleep 0.5
	mine=$(cgroups_of "$PID")
	kill -QUIT "$PID"
	wait "$PID"
	rc=$?
	[ "$started" -eq 0 ] && [ -n "$mine" ] && [ "$rc" -eq 131 ] && [ -z "$(cgroups_of "$PID")" ]
	ok $? "lpm-trie-free --free-method memcg under SIGQUIT: exit $rc, ${mine##*/} removed" ||
		diag "$(cat "$TMPD/bg.err")"
else
	skip "lpm-trie-free's memory cgroup method needs cgroup v1 today"
fi

# --- a signal in the final teardown, or after it: the status still says so ---
# Each try stops the process around the end of its last sample, timed from
# the line of the one before (its teardown now takes a few milliseconds
# only, too short to aim at from the last line): SIGSTOP, so a process
# already gone is told from one still running, then SIGTERM queued and the
# process let go on.  A try counts only if the process was still stopped
# alive.
late=0 tries=0 bad=""
# on a loaded machine every aimed delay may overshoot the run's end: then
# earlier ones, down to 0 (stopped in its last period), until one lands
for delay in 0.40 0.43 0.45 0.46 0.47 0.48 late 0.30 0.20 0.10 0; do
	if [ "$delay" = late ]; then
		[ "$tries" -gt 0 ] && break
		continue
	fi
	coproc RUN { exec "$BPFBENCH" htab-mem -w0 -d1 -p2 --period-ms 500 2>"$TMPD/late.err"; }
	pid=$RUN_PID n=0 stopped=""
	while read -r line <&"${RUN[0]}"; do
		case $line in Iter*) n=$((n + 1)) ;; *) continue ;; esac
		[ "$n" -eq 1 ] || continue
		sleep "$delay"
		kill -STOP "$pid" 2>/dev/null || break
		for i in $(seq 1 100); do
			st=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
			[ "$st" = T ] || [ "$st" = t ] && { stopped=1; break; }
			[ -z "$st" ] || [ "$st" = Z ] && break
			sleep 0.001
		done
		[ -n "$stopped" ] && kill -TERM "$pid"
		kill -CONT "$pid" 2>/dev/null
		break
	done
	{ cat <&"${RUN[0]}"; } >/dev/null 2>&1
	wait "$pid"
	rc=$?
	[ -n "$stopped" ] || continue
	tries=$((tries + 1))
	[ "$rc" -eq 143 ] && [ -z "$(cgroups_of "$pid")" ] || bad="$bad delay $delay: rc $rc;"
	grep -q 'interrupted by signal' "$TMPD/late.err" || late=$((late + 1))
done
[ "$tries" -gt 0 ] && [ -z "$bad" ]
ok $? "SIGTERM at the end of a run: exit 143 and no cgroup left, $tries of $tries tries${bad:+ ($bad)}"
# The runner checks for a signal again after teardown, so few land later
# than that (in the summary or the exports): how many did is worth seeing.
diag "of those, $late landed after the run's last check (in the summary or later)"

# --- the sweep: cgroups of dead runs are removed, those of live ones kept ---
if [ "$MEMCG_KIND" != none ]; then
	home=$(memcg_dir_of $$)
	sh -c 'exit 0' &
	dead=$!
	wait $dead
	sleep 30 &
	live=$!
	planted=("$home/bpfbench-$dead" "$home/bpfbench-lpm-free.$dead" "$home/bpfbench-lpm-free.$live" \
		 "$home/bpfbench-test.$live" "$home/bpfbench-nopid")
	mkdir "${planted[@]}"
	run -w0 -d0.2 --period-ms 100 -q htab-mem
	gone=""
	for d in "${planted[@]}"; do [ -d "$d" ] || gone="$gone ${d##*/}"; done
	[ "$RC" -eq 0 ] && [ "$gone" = " bpfbench-$dead bpfbench-lpm-free.$dead" ]
	ok $? "the next run removed the dead owners' cgroups ($gone ), kept the live one's and the unnamed" ||
		diag "$ERR"
	kill $live
	rmdir "${planted[@]}" 2>/dev/null
else
	skip "no memory cgroup hierarchy"
fi
done_testing
