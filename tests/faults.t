#!/usr/bin/env bash
# Fault paths: the kernel refusing a map or a program, a consumer thread
# failing, an output that cannot be written, two runs at once.  Each ends
# with a clear message, the right exit status, and the kernel as it was.
source "$(dirname "$0")/lib.sh"
need_bpf

before=$(kernel_objects_settle "0 0 0")	# ours only (lib.sh): none yet
settled() {	# settled WHAT
	local now
	now=$(kernel_objects_settle "$before")
	ok $? "$1: kernel objects as before ($now)"
}

# --- the kernel refuses the map: a memory cgroup too small for it ---
MEMCG=/sys/fs/cgroup/memory
if [ -w "$MEMCG" ] && [ -f "$MEMCG/memory.limit_in_bytes" ]; then
	cg="$MEMCG/bpfbench-faults-$$"
	mkdir "$cg" && echo $((64 << 20)) >"$cg/memory.limit_in_bytes"
	(echo "$BASHPID" >"$cg/cgroup.procs" && exec "$BPFBENCH" htab-mem --preallocated \
		--max-entries 2000000 --value-size 1024 -w0 -d1 -q) >"$TMPD/out" 2>"$TMPD/err"
	rc=$?
	[ "$rc" -eq 1 ] && grep -q 'Cannot allocate memory' "$TMPD/err" && [ "$(grep -c . "$TMPD/err")" -eq 1 ]
	ok $? "a 2 GiB map in a 64 MiB cgroup: ENOMEM in one line, exit 1, not killed (rc $rc)" ||
		diag "$(cat "$TMPD/err")"
	for i in $(seq 1 30); do rmdir "$cg" 2>/dev/null && break; sleep 0.1; done
	[ ! -d "$cg" ]
	ok $? "the run's own cgroup under it was removed (the test's could be)"
	settled "after a refused map"
else
	skip "no writable cgroup v1 memory controller"
	skip "no writable cgroup v1 memory controller"
	skip "no writable cgroup v1 memory controller"
fi

# --- the kernel refuses a map larger than the machine (fails fast, no OOM kill) ---
mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
if [ "$mem_kb" -lt $((48 << 20)) ]; then
	run htab-mem --preallocated --max-entries 16777216 --value-size 4096 -w0 -d1 -q
	[ "$RC" -eq 1 ] && grep -q 'Cannot allocate memory' <<<"$ERR" && [ "$(grep -c . <<<"$ERR")" -eq 1 ]
	ok $? "a 64 GiB preallocated map: ENOMEM in one line, exit 1 (rc $RC)" || diag "$ERR"
	settled "after a map larger than memory"
else
	skip "more than 48 GiB of RAM: the 64 GiB map might be granted"
	skip "more than 48 GiB of RAM: the 64 GiB map might be granted"
fi

# --- the kernel refuses the program: fentry loaded without asking the probe ---
if "$BPFBENCH" probe --json | jq -e '.features.trigger_fentry.available == false' >/dev/null; then
	BPFBENCH_TRUST_TRIGGER=1 run bpf-loop --trigger fentry -w0 -d1
	[ "$RC" -eq 1 ] && grep -q 'setup failed: Operation not permitted' <<<"$ERR" &&
		grep -q 'run with -v' <<<"$ERR" && ! grep -q '^libbpf' <<<"$ERR"
	ok $? "refused program load: exit 1, one reason, a hint to use -v" || diag "$ERR"
	BPFBENCH_TRUST_TRIGGER=1 run bpf-loop --trigger fentry -w0 -d1 -v
	[ "$RC" -eq 1 ] && grep -q "libbpf: prog 'bpf_loop_fentry': BPF program load failed" <<<"$ERR"
	ok $? "with -v the libbpf/verifier detail is shown"
	settled "after a refused program"
else
	skip "fentry loads on this kernel: no refused program to watch"
	skip "fentry loads on this kernel"
	skip "fentry loads on this kernel"
fi

# --- a consumer thread fails: a corrupt sample seen by the ring buffer reader ---
run -w0 -d1 -q -c1 --rb-total 20000 --rb-corrupt-seq 5000 rb-custom --json "$TMPD/c.json"
[ "$RC" -eq 1 ] && grep -qi 'checksum\|corrupt\|seq' <<<"$ERR" && [ ! -e "$TMPD/c.json" ]
ok $? "a failing consumer: exit 1 naming the sample, no result file" || diag "rc=$RC $ERR"
settled "after a consumer failure"

# --- an output that cannot be written: a full file system ---
mkdir "$TMPD/full"
if mount -t tmpfs -o size=4k tmpfs "$TMPD/full" 2>/dev/null; then
	head -c 4096 /dev/zero >"$TMPD/full/filler" 2>/dev/null
	run bpf-loop -w0 -d1 -q --json "$TMPD/full/r.json"
	[ "$RC" -eq 1 ] && grep -q "cannot write $TMPD/full/r.json" <<<"$ERR"
	ok $? "a full disk: exit 1 naming the file" || diag "rc=$RC $ERR"
	[ -z "$(ls "$TMPD/full" | grep -v filler)" ]
	ok $? "nothing half-written left behind (no result, no temporary)"
	umount "$TMPD/full"
else
	skip "cannot mount a tmpfs"
	skip "cannot mount a tmpfs"
fi

# --- result files: mode 0644 whatever the umask ---
(umask 077 && "$BPFBENCH" bpf-loop -w0 -d0.2 --period-ms 100 -q --json "$TMPD/m.json" --csv "$TMPD/m.csv" \
	--md "$TMPD/m.md" >/dev/null 2>&1)
[ "$(stat -c %a "$TMPD/m.json" "$TMPD/m.csv" "$TMPD/m.md" | sort -u)" = 644 ]
ok $? "JSON, CSV and Markdown files are mode 0644 under umask 077"

# --- two runs at once, different benchmarks, both with cgroups of their own ---
# (lpm-trie-free the longest: its 400,000-entry setup and frees)
"$BPFBENCH" htab-mem -w0 -d1 -q --json "$TMPD/a.json" >/dev/null 2>"$TMPD/a.err" &
pa=$!
"$BPFBENCH" lpm-trie-free --free-method memcg --nr_entries 400000 -w0 -d2 -q \
	--json "$TMPD/b.json" >/dev/null 2>"$TMPD/b.err" &
pb=$!
"$BPFBENCH" bpf-loop -w0 -d1 -q --json "$TMPD/c2.json" >/dev/null 2>"$TMPD/c.err" &
pc=$!
wait $pa; ra=$?
wait $pb; rb=$?
wait $pc; rc=$?
[ $ra -eq 0 ] && [ $rb -eq 0 ] && [ $rc -eq 0 ]
ok $? "three concurrent runs all succeed ($ra $rb $rc)" || diag "$(cat "$TMPD"/*.err)"
json_check "$TMPD/a.json" 'd["runs"][0]["metrics"]["per-prod-op"]["mean"] > 0 and d["runs"][0]["metrics"]["memory"]["mean"] > 0'
ok $? "htab-mem beside the others: ops and memory measured"
json_check "$TMPD/b.json" 'd["runs"][0]["metrics"]["latency"]["mean"] > 0'
ok $? "lpm-trie-free beside the others: free time measured"
json_check "$TMPD/c2.json" 'd["runs"][0]["metrics"]["throughput"]["mean"] > 0'
ok $? "bpf-loop beside the others: throughput measured"
left="$(cgroups_of $pa)$(cgroups_of $pb)$(cgroups_of $pc)"
[ -z "$left" ]
ok $? "none of their cgroups remains" || diag "$left"
settled "after concurrent runs"
done_testing
