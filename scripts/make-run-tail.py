#!/usr/bin/env python3
"""make run's last lines: the conditions of what ran, read from its JSON
result (so they hold whatever RUN_ARGS ran), then two next steps.  A table
(a suite, a sweep) has printed its own Conditions line (kernel, CPU, the
rows' options): after it only what it does not say, one Result line.

usage: make-run-tail.py BPFBENCH RESULT.json
"""
import collections
import json
import os
import sys


def num(x):
	return "%g" % x


def cpu_model():
	try:
		with open("/proc/cpuinfo") as f:
			for line in f:
				if line.startswith("model name"):
					return line.split(":", 1)[1].strip()
	except OSError:
		pass
	return "unknown"


def conditions(path):
	"""The Conditions lines of the result at path, or of this host when none was written."""
	try:
		with open(path) as f:
			doc = json.load(f)
	except (OSError, ValueError):
		return ["Conditions: nothing measured (no result written); kernel %s, CPU %s, %d CPUs"
			% (os.uname().release, cpu_model(), os.cpu_count() or 1)]
	runs = doc.get("runs", [])
	groups = collections.Counter((r["options"].get("warmup"), r["options"].get("duration"))
				     for r in runs if "options" in r)
	reps = sorted({r.get("runs", 1) for r in runs if r.get("status") != 4}) or [1]
	each = "one run" if reps == [1] else "%s runs" % "-".join(str(n) for n in sorted({reps[0], reps[-1]}))
	parts = []
	for i, ((w, d), n) in enumerate(groups.most_common()):
		what = "-w%s -d%s" % (num(w), num(d)) if w is not None and d is not None else "other options"
		if i == 0 and w is not None and d is not None:
			what += " (%s, %s s measured)" % ("no warm-up" if w == 0 else "%s s warm-up" % num(w), num(d))
		parts.append(what if len(runs) == 1 else "%d of %s" % (n, what))
	skipped = sum(1 for r in runs if r.get("status") == 4)
	failed = sum(1 for r in runs if r.get("status") not in (0, 4))
	tail = "".join("; %d %s" % (n, what) for n, what in ((skipped, "skipped"), (failed, "failed")) if n)
	if len(runs) != 1:
		return ["Result: %d rows, %s each%s; every figure and the environment: %s"
			% (len(runs), each, tail, path)]
	head = "Conditions: %s of %s%s" % (each, parts[0], tail)
	env = doc.get("env", {})
	return [head, "  on kernel %s, CPU %s, %s CPUs; every figure and the environment: %s"
		% (env.get("kernel"), env.get("cpu_model"), env.get("online_cpus"), path)]


def main():
	if len(sys.argv) != 3:
		sys.exit(__doc__.strip())
	bpfbench, path = sys.argv[1:]
	lines = conditions(path)
	nxt = [("%s suite seeds" % bpfbench,
		"the seed documents' tables, each row with its 95% CI; about 8 min"),
	       ("%s ab --help" % bpfbench,
		"two command lines, or two kernels, alternated: did a patch make it slower?")]
	width = max(len(c) for c, _ in nxt)
	lines += ["Next: %-*s   (%s)" % (width, c, why) for c, why in nxt]
	print("\n".join(lines))


if __name__ == "__main__":
	main()
