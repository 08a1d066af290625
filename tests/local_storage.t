#!/usr/bin/env bash
# The local-storage family: every get finds its value (a task storage the
# run's first get of that map created, counted once a map; a hash map's
# key), map 0's gets are the important ones in the number the loop makes;
# creates equal the sockets and threads made; tasks-trace's sleepers go
# with the run;
# options out of upstream's ranges exit 2; a trigger the family lacks or
# the kernel refuses exits 4 with why; run_bench_local_storage.sh,
# unmodified, reads our lines; nothing is left after any exit.
source "$(dirname "$0")/lib.sh"
need_bpf
before=$(kernel_objects)
J="$TMPD/s.json"
short=(-w0 -d0.3 --period-ms 100)

# totals EXPR: the run's totals bound to t, samples to s, run to r; EXPR true
totals() {
	json_check "$J" "r = d['runs'][0]; t = r['totals']; s = r['samples']
$1"
}

# gets and map 0's gets a program run makes: 10000 steps over N maps in
# order, int-get adding a get of map 0 after each map whose index is a multiple of 3
per_run() {	# per_run N INTERLEAVE
	python3 -c "
n, il = $1, $2
print(sum(1 + (il and i % n % 3 == 0) for i in range(10000)),
      sum((i % n == 0) + (il and i % n % 3 == 0) for i in range(10000)))"
}

for c in seq-get:1:0 seq-get:17:0 int-get:17:1 int-get:1000:1; do
	IFS=: read -r b n il <<<"$c"
	read -r g i <<<"$(per_run "$n" "$il")"
	run "${short[@]}" -q --nr_maps "$n" local-storage-cache-$b --json "$J"
	[ "$RC" -eq 0 ] && totals "
gets = t['gets']
t['created'] == $n and t['missed'] == t['wrong'] == 0 and gets > 0 and gets % $g == 0 and \
t['important_gets'] == gets // $g * $i and r['trigger'] == 'raw-tp'"
	ok $? "$b --nr_maps $n: each map's storage created once, every get found it, $i of $g gets map 0's" ||
		diag "rc=$RC $ERR"
done

run "${short[@]}" -q --nr_maps 2 --hashmap_nr_keys_used 10 local-storage-cache-hashmap-control \
	--json "$J"
[ "$RC" -eq 0 ] && totals "
t['created'] == t['missed'] == t['wrong'] == 0 and t['gets'] % 10000 == 0 and \
t['important_gets'] * 2 == t['gets'] > 0"
ok $? "hashmap-control: every lookup found its key's value, half of them in map 0" ||
	diag "rc=$RC $ERR"

for o in "--nr_maps 0" "--nr_maps 1001" "--hashmap_nr_keys_used 0" \
	"--hashmap_nr_keys_used 4194305" "-p 2"; do
	run "${short[@]}" $o local-storage-cache-seq-get
	[ "$RC" -eq 2 ]
	ok $? "$o is refused (exit 2)" || diag "rc=$RC $ERR"
done

run "${short[@]}" local-storage-cache-hashmap-control
[ "$RC" -eq 2 ] && grep -q 'needs about .* MB.*--nr_maps 1' <<<"$ERR"
ok $? "hashmap-control at upstream's default 1000 maps of 4194304 keys: refused at once (exit 2)" ||
	diag "rc=$RC $ERR"

run "${short[@]}" --trigger test-run local-storage-cache-seq-get
[ "$RC" -eq 4 ] && grep -q 'has no test-run trigger' <<<"$ERR"
ok $? "--trigger test-run: a tc program has no task, exit 4 with why" || diag "rc=$RC $ERR"
run "${short[@]}" --trigger fentry local-storage-cache-int-get
if [ "$RC" -eq 0 ]; then
	pass "--trigger fentry: upstream's trigger runs on this kernel"
else
	[ "$RC" -eq 4 ] && grep -q 'refuses the fentry trigger' <<<"$ERR"
	ok $? "--trigger fentry: refused by this kernel, exit 4 with why" || diag "rc=$RC $ERR"
fi

# local-storage-create: a storage for every socket made, for every thread
# made and for the producers the run itself starts after the attach
for p in 1 2; do
	run "${short[@]}" -q -p $p local-storage-create --storage-type socket --batch-size 8 --json "$J"
	[ "$RC" -eq 0 ] && totals "
t['creates'] == t['made'] > 0 and t['create_errors'] == t['make_errors'] == 0 and \
t['kmallocs'] > 0 and r['method'] in ('cgroup/sock_create', 'lsm.s/socket_post_create')"
	ok $? "create, socket, -p $p: creates equal the sockets made" || diag "rc=$RC $ERR"
	run "${short[@]}" -q -p $p local-storage-create --storage-type task --batch-size 4 --json "$J"
	[ "$RC" -eq 0 ] && totals "
t['creates'] == t['made'] + $p and t['made'] > 0 and t['create_errors'] == t['make_errors'] == 0 \
and t['kmallocs'] > 0 and r['method'] == 'tp_btf/sched_process_fork'"
	ok $? "create, task, -p $p: creates equal the threads made, and the $p producer(s)" ||
		diag "rc=$RC $ERR"
done
for o in "--storage-type file" "--batch-size 0" "-c 1" "--trigger raw-tp"; do
	run "${short[@]}" $o local-storage-create
	[ "$RC" -eq 2 ]
	ok $? "create $o is refused (exit 2)" || diag "rc=$RC $ERR"
done
if grep -qw bpf /sys/kernel/security/lsm 2>/dev/null; then
	run "${short[@]}" local-storage-create --sock-hook lsm --json "$J"
	[ "$RC" -eq 0 ] && totals "r['method'] == 'lsm.s/socket_post_create' and t['creates'] == t['made']"
	ok $? "create, socket: upstream's LSM hook runs here" || diag "rc=$RC $ERR"
else
	run "${short[@]}" local-storage-create --sock-hook lsm
	[ "$RC" -eq 4 ] && grep -q 'no BPF LSM.*bpfbench --kernel 7.3 local-storage-create' <<<"$ERR"
	ok $? "create, socket: no BPF LSM here, upstream's hook exits 4 with why" || diag "rc=$RC $ERR"
fi

# a signal mid-run: the programs, maps and links go with the process, and
# every thread and socket it made with them
"$BPFBENCH" -w0 -d5 local-storage-create --storage-type task >/dev/null 2>&1 &
pid=$!
sleep 0.7
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -ne 137 ] && ! kill -0 $pid 2>/dev/null
ok $? "create, SIGINT mid-run: the process and its threads are gone (rc $rc)"
now=$(kernel_objects_settle "$before")
ok $? "create, SIGINT mid-run: nothing of ours left ($now)"

# local-storage-tasks-trace: the grace periods need fentry on RCU internals
run "${short[@]}" --nr_procs 10 local-storage-tasks-trace
if [ "$RC" -eq 4 ]; then
	grep -q 'needs fentry on rcu_tasks_trace_pregp_step.*bpfbench --kernel 7.3 local-storage-tasks-trace' <<<"$ERR"
	ok $? "tasks-trace: no fentry here, exit 4 with why" || diag "rc=$RC $ERR"
else
	[ "$RC" -eq 0 ]
	ok $? "tasks-trace: this kernel times the grace periods" || diag "rc=$RC $ERR"
fi
for o in "--nr_procs 0" "--nr_procs 150001" "-p 2"; do
	run "${short[@]}" $o local-storage-tasks-trace
	[ "$RC" -eq 2 ]
	ok $? "tasks-trace $o is refused (exit 2)" || diag "rc=$RC $ERR"
done
# the sleepers and the storage churn (without the grace periods: the test aid)
# run, and every sleeper forked is gone after an exit, a normal one or a signal
for how in end INT; do
	"$BPFBENCH" -w0 -d1 --period-ms 100 --nr_procs 40 --gp-probe none local-storage-tasks-trace \
		--json "$J" >/dev/null 2>"$TMPD/err" &
	pid=$!
	kids=
	for i in $(seq 1 50); do
		kids=$(pgrep -P $pid | tr '\n' ' ')
		[ "$(wc -w <<<"$kids")" -ge 40 ] && break
		sleep 0.05
	done
	[ "$how" = INT ] && kill -INT $pid
	wait $pid
	RC=$?
	left=0
	for k in $kids; do kill -0 "$k" 2>/dev/null && left=$((left + 1)); done
	if [ "$how" = end ]; then
		[ "$RC" -eq 0 ] && [ "$left" -eq 0 ] && totals "
t['sleepers'] == 40 and t['churn'] > 0 and t['grace_periods'] == 0"
	else
		[ "$left" -eq 0 ] && [ "$(wc -w <<<"$kids")" -ge 40 ]
	fi
	ok $? "tasks-trace, --nr_procs 40, $how: the sleepers forked, churned, and none left" ||
		diag "rc=$RC left=$left kids=$kids $(cat "$TMPD/err")"
done

# a signal mid-run: the maps (the inner ones too), programs and links go with the process
"$BPFBENCH" -w0 -d5 --nr_maps 100 local-storage-cache-int-get >/dev/null 2>&1 &
pid=$!
sleep 0.7
kill -INT $pid
wait $pid
now=$(kernel_objects_settle "$before")
ok $? "SIGINT mid-run: nothing of ours left ($now)"

# the kernel's own script, unmodified, with bpfbench as ./bench (lib.sh)
if kernel_scripts run_bench_local_storage.sh; then
	out=$(kernel_script run_bench_local_storage.sh)
	n='[0-9]+\.[0-9]+'
	rows=$(grep -cE "^(hashmap|local_storage) .*get: +hits throughput: $n ± $n M ops/s, hits latency: $n ns/op, important_hits throughput: $n ± $n M ops/s$" <<<"$out")
	[ "$rows" -eq 21 ]
	ok $? "run_bench_local_storage.sh, unmodified: its 21 rows" || diag "$out"
else
	skip "the kernel's script: no $KSRC (apt-get install linux-source-6.12)"
fi

after=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel ($before -> $after)"
done_testing
