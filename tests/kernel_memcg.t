#!/usr/bin/env bash
# Memory from a cgroup v2 (htab-mem) and lpm-trie-free timed by fentry or
# tracefs, where the kernel has them (make check-kernel-ci boots such a
# kernel: a bare init, cgroup v2 alone, its root without +memory).  SKIPs
# where the host has cgroup v1 or no tracefs timing.
source "$(dirname "$0")/lib.sh"
need_bpf
[ -e /sys/fs/cgroup/cgroup.controllers ] || skip_all "cgroup v2 is not this host's memory cgroup"
before=$(kernel_objects_settle "0 0 0")

run -w0 -d1 htab-mem --use-case overwrite --memory-method cgroup --json "$TMPD/h.json"
[ "$RC" -eq 4 ] && skip_all "$(head -1 <<<"$ERR")"
json_check "$TMPD/h.json" 'r = d["runs"][0]
m = r["metrics"]
r["method"] == "cgroup-v2 memory.current, memory.peak" and m["memory"]["mean"] > 0 and m["peak-memory"]["mean"] > 0' 
ok $? "htab-mem --memory-method cgroup: v2 memory.current and memory.peak (rc=$RC)" || diag "$ERR"
ls -d /sys/fs/cgroup/bpfbench-* 2>/dev/null | grep -q . && fail "a bpfbench cgroup is left" || pass "no bpfbench cgroup left"

run -w0 -d1 lpm-trie-free --json "$TMPD/f.json"
m=$(grep -oE '^Method: [a-z0-9-]+' <<<"$OUT$ERR" | head -1)
[ "$RC" -eq 0 ] && json_check "$TMPD/f.json" 'r = d["runs"][0]
r["metrics"]["throughput"]["mean"] > 0'
grep -qE '^Method: (fentry|wq-tracepoint)' <<<"$OUT$ERR"
ok $? "lpm-trie-free timed in the kernel: $m (rc=$RC)" || diag "$ERR"

now=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel: $now"
done_testing
