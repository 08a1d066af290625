#!/usr/bin/env python3
"""The two sides of an `ab --json` file as compare's two files, B's figure scaled.

usage: ab_split.py AB.json A.json B.json SCALE [NAME...]
B's metrics NAME (default: its first) times SCALE, and the inverse metrics
derived from them (latency) divided by it: a slowdown injected into real
pairs, for power checks (scripts/ab_targets.sh, scripts/steady-check.sh).
"""
import json
import sys

src, a, b, scale = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
d = json.load(open(src))
ra, rb = d["runs"]
names = set(sys.argv[5:]) or {next(iter(rb["metrics"]))}
for r in (ra, rb):
    r.pop("label", None)
for name, m in rb["metrics"].items():
    if name in names:
        f = scale
    elif m.get("kind") == "inverse" and m.get("of") in names:
        f = 1 / scale
    else:
        continue
    for k in ("mean", "median", "min", "max", "ci95_low", "ci95_high", "stddev",
              "between_run_stddev", "of_mean_inverse"):
        if isinstance(m.get(k), (int, float)):
            m[k] *= f
    for s in rb["samples"]:
        if isinstance(s.get(name), (int, float)):
            s[name] *= f
    for rep in rb.get("repeats", []):
        rm = rep["metrics"].get(name)
        if rm:
            for k in ("mean", "stddev"):
                if isinstance(rm.get(k), (int, float)):
                    rm[k] *= f
for path, r in ((a, ra), (b, rb)):
    json.dump(dict(d, runs=[r]), open(path, "w"))
