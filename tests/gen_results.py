#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Synthetic bpfbench result documents with known distributions, for compare's tests.

Each row is a run of a bpf-loop-like benchmark (label "row K", option nr_loops)
with these metrics:
  throughput  rate, M ops/s, higher is better: an AR(1) series around
              base * --rate-scale, per-sample sd --cv, lag-1 correlation --phi
  latency     inverse of throughput, ns/op, lower is better
  memory      level, MiB: fixed at setup, base * --level-scale
  peak_memory peak, MiB: the running maximum of a noisy level
  drops       rate, M ops/s, lower is better: 0 when --drops is 0, else an AR(1)
              series around it
  checked     count, exact: the same every sample
With --runs R >= 2 each run (process) gets its own mean, off by --between-cv
and by a drift of --drift-cv that documents of one --drift-seed share run by
run, and the document has the repeats records the writer adds.  --old writes
an earlier format (kind sampled/inverse, no better, units M/s, elements).  --target-mb pads a
document with samples of many metrics up to that size (the memory test).
Random draws come from --seed alone: the same arguments give the same file.
"""
import argparse
import json
import math
import random
import statistics


def ar1(rng, n, mean, cv, phi):
    e = rng.gauss(0, cv)  # stationary start
    out = []
    for _ in range(n):
        out.append(mean * (1 + e))
        e = phi * e + math.sqrt(1 - phi * phi) * rng.gauss(0, cv)
    return out


def summary(vals, unit, kind, better, extra=None):
    n = len(vals)
    mean = statistics.fmean(vals)
    sd = statistics.stdev(vals) if n > 1 else None
    m = {"unit": unit, "kind": kind, "n": n, "mean": mean, "stddev": sd,
         "median": statistics.median(vals), "min": min(vals), "max": max(vals),
         "cv": sd / abs(mean) if sd is not None and mean else None,
         "ci95_low": None, "ci95_high": None}
    if better:
        m["better"] = better
    if sd is not None:
        half = 1.96 * sd / math.sqrt(n)
        m["ci95_low"], m["ci95_high"] = mean - half, mean + half
    m.update(extra or {})
    return m


def one_process(rng, a, k, mu_thr):
    thr = ar1(rng, a.samples, mu_thr, a.cv, a.phi)
    thr = [max(t, 1e-9) for t in thr]
    drops = [0.0] * a.samples if a.drops == 0 else \
        [max(d, 0.0) for d in ar1(rng, a.samples, a.drops, a.cv * 5, a.phi)]
    mem = 10.0 * (1 + k * 0.1) * a.level_scale
    peak, run = [], 0.0
    for t in range(a.samples):
        run = max(run, mem * (1 + abs(rng.gauss(0, 0.001))))
        peak.append(run)
    return {"throughput": thr, "latency": [1000.0 / t for t in thr],
            "memory": [mem] * a.samples, "peak_memory": peak, "drops": drops,
            "checked": [1000.0 * (k + 1)] * a.samples}


METRICS = [("throughput", "M ops/s", "rate", "higher"), ("latency", "ns/op", "inverse", "lower"),
           ("memory", "MiB", "level", "lower"), ("peak_memory", "MiB", "peak", "lower"),
           ("drops", "M ops/s", "rate", "lower"), ("checked", "elems", "count", "none")]
# --old: the units as bpfbench spelled them before one vocabulary (resdoc reads them as today's)
OLD_UNITS = {"drops": "M/s", "elems": "elements"}


def row(rng, a, k):
    base = 100.0 * (k + 1) * a.rate_scale
    runs = max(a.runs, 1)
    # --drift-cv: run r's mean moves by a factor drawn from --drift-seed alone, so that two
    # documents of one drift seed share it run by run (ab's pairs on a drifting machine)
    drift_rng = random.Random(a.drift_seed * 1000 + k)
    drift = [1 + drift_rng.gauss(0, a.drift_cv) for _ in range(runs)]
    procs = [one_process(rng, a, k, base * drift[r] * (1 + rng.gauss(0, a.between_cv))
                         if runs > 1 else base) for r in range(runs)]
    cols = {name: sum((p[name] for p in procs), []) for name, _, _, _ in METRICS}
    metrics = {}
    for name, unit, kind, better in METRICS:
        extra = {}
        if kind == "inverse":
            extra = {"of": "throughput",
                     "of_mean_inverse": 1000.0 / statistics.fmean(cols["throughput"])}
        if a.old:
            kind, better = ("inverse" if kind == "inverse" else "sampled"), None
            unit = OLD_UNITS.get(name, OLD_UNITS.get(unit, unit))
        metrics[name] = summary(cols[name], unit, kind, better, extra)
        if runs > 1:
            means = [statistics.fmean(p[name]) for p in procs]
            between = statistics.stdev(means)
            total = statistics.pvariance(cols[name])
            metrics[name]["between_run_stddev"] = between
            metrics[name]["between_share"] = min(1.0, between ** 2 / total) if total else 0.0
    samples = []
    for r in range(runs):
        for i in range(a.samples):
            s = {"elapsed_ns": 1000000000}
            s.update({name: procs[r][name][i] for name, _, _, _ in METRICS})
            if runs > 1:
                s["repeat"] = r
            samples.append(s)
    run = {"bench": "bpf-loop", "family": "bpf-loop", "suite": "synthetic",
           "section": "synthetic rows", "label": "row %d" % k, "status": 0,
           "trigger": "test-run", "options": {"warmup": 0, "duration": a.samples,
                                              "producers": 1, "nr_loops": 10 * (k + 1)},
           "warmup_samples": 0, "measured_s": float(a.samples * runs),
           "metrics": metrics, "samples": samples}
    if runs > 1:
        run["repeats"] = [{"index": r, "metrics": {
            name: {"n": a.samples, "mean": statistics.fmean(procs[r][name]),
                   "stddev": statistics.stdev(procs[r][name]) if a.samples > 1 else None}
            for name, _, _, _ in METRICS}} for r in range(runs)]
    return run


def padding_run(rng, target_bytes):
    """A map-batch-like run: 100 metrics a sample, samples until the target size."""
    names = ["m%03d" % i for i in range(100)]
    per_sample = sum(len(n) + 20 for n in names) + 30  # "m000":1.2345678901234567,
    n = max(1, target_bytes // per_sample)
    vals = {nm: [rng.uniform(1, 2) for _ in range(n)] for nm in names}
    metrics = {nm: summary(vals[nm], "M ops/s", "rate", "higher") for nm in names}
    samples = [dict({"elapsed_ns": 1000000000}, **{nm: vals[nm][i] for nm in names})
               for i in range(n)]
    return {"bench": "map-batch", "family": "map-batch", "label": "padding", "status": 0,
            "trigger": "none", "options": {"warmup": 0, "duration": n},
            "warmup_samples": 0, "measured_s": float(n), "metrics": metrics,
            "samples": samples}


def long_run(path, mb, seed):
    """One noop run as bpfbench writes it (indented, a sample a period) to about mb MB."""
    rng = random.Random(seed)
    sample = ('        {\n          "elapsed_ns": %d,\n          "steal_pct": 0,\n'
              '          "cpu_pressure_pct": %r,\n          "noisy": false,\n'
              '          "throughput": %r,\n          "latency": %r\n        }')
    n = max(2, int(mb * 1e6) // 240)
    thr = [40.0 * (1 + rng.gauss(0, 0.02)) for _ in range(1000)]
    m = {"throughput": ("M ops/s", "rate", "higher"), "latency": ("ns/op", "inverse", "lower")}
    metrics = {}
    for name, (unit, kind, better) in m.items():
        vals = thr if name == "throughput" else [1000.0 / t for t in thr]
        metrics[name] = summary(vals, unit, kind, better, {"of": "throughput"} if kind == "inverse" else None)
        metrics[name]["n"] = n
    head = {"bench": "noop", "family": "noop", "status": 0, "trigger": "test-run",
            "options": {"warmup": 0, "duration": n / 100, "period-ms": 10},
            "warmup_samples": 0, "measured_s": n / 100, "metrics": metrics}
    with open(path, "w") as f:
        f.write('{\n  "schema": "bpfbench-result/1",\n  "env": {"kernel": "synthetic", '
                '"date": "seed %d"},\n  "runs": [\n    ' % seed)
        f.write(json.dumps(head, indent=2)[:-2].replace("\n", "\n    "))
        f.write(',\n      "samples": [\n')
        for i in range(n):
            t = thr[i % 1000] * (1 + rng.random() * 1e-9)
            f.write(sample % (10000000 + i % 997, rng.random() * 10, t, 1000.0 / t))
            f.write(",\n" if i + 1 < n else "\n")
        f.write('      ]\n    }\n  ]\n}\n')


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", help="with --count, a path with %%d: the seed of each document")
    p.add_argument("--count", type=int, default=1,
                   help="documents of seeds --seed, --seed + 1, ... (one process for many)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rows", type=int, default=3)
    p.add_argument("--samples", type=int, default=30, help="per run")
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--phi", type=float, default=0.5)
    p.add_argument("--cv", type=float, default=0.02)
    p.add_argument("--between-cv", type=float, default=0.02)
    p.add_argument("--drift-cv", type=float, default=0.0)
    p.add_argument("--drift-seed", type=int, default=0)
    p.add_argument("--rate-scale", type=float, default=1.0)
    p.add_argument("--level-scale", type=float, default=1.0)
    p.add_argument("--drops", type=float, default=0.0)
    p.add_argument("--old", action="store_true")
    p.add_argument("--target-mb", type=float, default=0)
    p.add_argument("--long-run-mb", type=float, default=0,
                   help="only one long run in bpfbench's own layout, about this many MB")
    a = p.parse_args()
    if a.long_run_mb:
        return long_run(a.out, a.long_run_mb, a.seed)
    if a.count > 1 and "%d" not in a.out:
        p.error("--count needs %d in the output path")
    first = a.seed
    for a.seed in range(first, first + a.count):
        write(a, a.out.replace("%d", str(a.seed)) if a.count > 1 else a.out)


def write(a, path):
    rng = random.Random(a.seed)
    runs = [row(rng, a, k) for k in range(a.rows)]
    if a.target_mb:
        runs.append(padding_run(rng, int(a.target_mb * 1e6)))
    doc = {"schema": "bpfbench-result/1",
           "env": {"bpfbench_version": "synthetic", "kernel": "synthetic", "date": "seed %d" % a.seed},
           "runs": runs}
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":") if a.target_mb else None,
                  indent=None if a.target_mb else 1)


if __name__ == "__main__":
    main()
