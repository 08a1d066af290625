#!/usr/bin/env python3
"""Where a command's threads ran: runs CMD, looks at /proc/PID/task/*/stat
every 50 ms, and prints for each busy thread the CPU time it used on each
CPU (the CPU of each look, weighted by the CPU time since the last one).
For any tool, bpfbench or the kernel's bench alike (doc/variance.md).
usage: thread-cpus.py CMD [ARGS...]   (the command's output is passed through)
"""
import collections
import os
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def look(pid):
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for t in tids:
        try:
            s = open(f"/proc/{pid}/task/{t}/stat").read()
        except OSError:
            continue
        name = s[s.index("(") + 1:s.rindex(")")]
        f = s[s.rindex(")") + 2:].split()
        # fields from 3 on: utime is 14, stime 15, processor 39
        out[t] = (name, int(f[11]) + int(f[12]), int(f[36]))
    return out


def main():
    p = subprocess.Popen(sys.argv[1:])
    used = collections.defaultdict(lambda: collections.Counter())
    names, last = {}, {}
    while p.poll() is None:
        for t, (name, cpu_ticks, cpu) in look(p.pid).items():
            names[t] = name
            used[t][cpu] += cpu_ticks - last.get(t, cpu_ticks)
            last[t] = cpu_ticks
        time.sleep(0.05)
    for t in sorted(used, key=lambda t: -sum(used[t].values())):
        total = sum(used[t].values())
        if total * 1.0 / TICK < 0.05:
            continue
        share = ", ".join("cpu%d %.0f%%" % (c, 100.0 * n / total) for c, n in sorted(used[t].items()))
        print("thread %s (%s): %.2f s on CPUs: %s" % (t, names[t], total / TICK, share), file=sys.stderr)
    sys.exit(p.returncode)


if __name__ == "__main__":
    main()
