#!/usr/bin/env python3
"""Splits each row's run-to-run spread (scripts/variance.sh's result files).

Per row and condition: the sd of the run means (% of their mean), the
runs' own sample spread, the share of samples whose threads moved, and for
--speed-ref the sd of the run means normalised by the reference (figure x
the run's reference time / the condition's mean reference time: a run on
a slower CPU is raised by how much slower the reference found it).
"""
import collections
import glob
import json
import math
import os
import statistics as st
import sys


def share(s, nprod):
    """The producers' mean on-CPU share in the sample (None: not known)."""
    xs = [x for x in (s.get("oncpu") or [])[:nprod] if x is not None]
    return st.mean(xs) if xs else None


def runs_of(path):
    """Per repetition: its mean figure, raw and normalised, its references, placement, spread."""
    d = json.load(open(path))
    r = d["runs"][0]
    first = next(iter(r["metrics"]))
    nprod = int(r.get("options", {}).get("producers", 1) or 1)
    by = collections.defaultdict(list)
    for s in r.get("samples", []):
        by[s.get("repeat", 0)].append(s)
    out = []
    for k in sorted(by):
        ss = by[k]
        v = [s[first] for s in ss if isinstance(s.get(first), (int, float))]
        if not v:
            continue
        ru = [s["ref_user_ns"] for s in ss if "ref_user_ns" in s]
        rb = [s["ref_bpf_ns"] for s in ss if "ref_bpf_ns" in s]
        cpus = [s["cpus"][0] for s in ss if s.get("cpus") and s["cpus"][0] is not None]
        m = st.mean(v)
        cv = st.stdev(v) / m * 100 if len(v) > 1 and m else float("nan")
        sh = [share(s, nprod) for s in ss]
        per_cpu = [s[first] / x for s, x in zip(ss, sh) if x and isinstance(s.get(first), (int, float))]
        nm = first + "-normalized"
        nv = [s[nm] for s in ss if isinstance(s.get(nm), (int, float))]
        out.append({
            "mean": m, "cv": cv,
            "norm": st.mean(nv) if nv else None,
            "oncpu": st.mean([x for x in sh if x is not None]) if any(x is not None for x in sh) else None,
            "per_cpu_mean": st.mean(per_cpu) if per_cpu else None,
            "ref_user": st.mean(ru) if ru else None,
            "ref_bpf": st.mean(rb) if rb else None,
            "cpu": st.mode(cpus) if cpus else None,
            "moved": sum(1 for s in ss if s.get("moved")) / len(ss),
            "steal": st.mean([s.get("steal_pct") or 0 for s in ss]),
            "pressure": st.mean([s.get("cpu_pressure_pct") or 0 for s in ss]),
            "n": len(v),
        })
    return out


def sd_pct(xs):
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    if len(xs) < 2:
        return float("nan")
    return st.stdev(xs) / st.mean(xs) * 100


def normalised(runs, key):
    refs = [r[key] for r in runs if r[key]]
    if len(refs) != len(runs) or not refs:
        return float("nan")
    mref = st.mean(refs)
    return sd_pct([r["mean"] * r[key] / mref for r in runs])


def main(outdir):
    data = collections.defaultdict(list)
    for f in sorted(glob.glob(os.path.join(outdir, "*.json"))):
        name, cond, _rnd, _ = os.path.basename(f).rsplit(".", 3)
        try:
            data[(name, cond)] += runs_of(f)
        except (ValueError, KeyError, StopIteration):
            pass
    rows = sorted({n for n, _ in data})
    print("| row | condition | runs | mean | sd of run means % | within-run cv % | moved samples % |"
          " on CPU0 % | on-CPU share | sd % per on-CPU time | sd % x ref (user / bpf); of NAME-normalized |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in rows:
        conds = [c for (m, c) in data if m == n]
        order = ["plain", "cpu0", "cpu1", "split01", "split10", "ref"]
        for c in sorted(conds, key=lambda c: order.index(c) if c in order else 9):
            rs = data[(n, c)]
            means = [r["mean"] for r in rs]
            on0 = [r["cpu"] == 0 for r in rs if r["cpu"] is not None]
            norm = ""
            if c in ("ref", "norm"):
                norm = "%.1f / %.1f" % (normalised(rs, "ref_user"), normalised(rs, "ref_bpf"))
            if c == "norm":
                norm += " ; --normalize %.1f" % sd_pct([r["norm"] for r in rs])
            sh = [r["oncpu"] for r in rs if r["oncpu"] is not None]
            print("| %s | %s | %d | %.4g | %.1f | %.1f | %.0f | %s | %s | %.1f | %s |" % (
                n, c, len(rs), st.mean(means) if means else float("nan"), sd_pct(means),
                st.mean([r["cv"] for r in rs if not math.isnan(r["cv"])] or [float("nan")]),
                100 * st.mean([r["moved"] for r in rs]) if rs else float("nan"),
                "%.0f" % (100 * sum(on0) / len(on0)) if on0 else "-",
                "%.2f" % st.mean(sh) if sh else "-",
                sd_pct([r["per_cpu_mean"] for r in rs]), norm))
    # how much of the plain spread the CPU the first thread ran on explains
    print()
    print("| row | plain: mean on CPU0 / on CPU1 | pinned cpu1 / cpu0 (or split10 / split01) |")
    print("|---|---:|---:|")
    for n in rows:
        p = data.get((n, "plain"), [])
        m0 = [r["mean"] for r in p if r["cpu"] == 0]
        m1 = [r["mean"] for r in p if r["cpu"] == 1]
        a = "%.3f (%d/%d runs)" % (st.mean(m0) / st.mean(m1), len(m0), len(m1)) if m0 and m1 else "-"
        c0 = data.get((n, "cpu0")) if (n, "cpu1") in data else data.get((n, "split01"))
        c1 = data.get((n, "cpu1")) or data.get((n, "split10"))
        b = "%.3f" % (st.mean([r["mean"] for r in c1]) / st.mean([r["mean"] for r in c0])) \
            if c0 and c1 else "-"
        print("| %s | %s | %s |" % (n, a, b))
    split(data, rows)


def r2(y, x):
    """The share of y's variance a straight line in x explains (0 when x does not vary)."""
    n = len(y)
    if n < 3 or len(set(x)) < 2:
        return 0.0
    my, mx = st.mean(y), st.mean(x)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return sxy * sxy / (sxx * syy) if sxx and syy else 0.0


def residual(y, x):
    """y less its straight-line fit on x."""
    if len(set(x)) < 2:
        return list(y)
    my, mx = st.mean(y), st.mean(x)
    b = sum((a - mx) * (c - my) for a, c in zip(x, y)) / sum((a - mx) ** 2 for a in x)
    return [c - my - b * (a - mx) for a, c in zip(x, y)]


def split(data, rows):
    """Per row: the run-to-run variance of log(run mean) in the 'norm' runs, split into parts.

    within: what the runs' own sample noise gives their means (cv^2 / samples);
    host speed: what the speed reference (ref-bpf, timed after each sample) explains;
    steal/pressure: what the hypervisor's steal and CPU pressure explain of the rest;
    setup and the rest: what is left (fresh maps, hash seeds, memory placement, wake-ups).
    Placement: plain's variance less the pinned conditions' (both without the reference);
    trigger: raw-tp's variance against test-run's (the rows that have it).
    Each as the sd it amounts to alone, % of the mean (sqrt of the variance part).
    """
    def sdp(v):
        return 100 * math.sqrt(max(v, 0.0))

    def var_log(rs):
        y = [math.log(r["mean"]) for r in rs if r["mean"] > 0]
        return st.variance(y) if len(y) > 1 else float("nan")

    print()
    print("| row | runs | total sd % | within (samples) | host speed (ref-bpf) | steal + pressure |"
          " setup and the rest | placement (plain - pinned) | trigger (raw-tp / test-run) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in rows:
        rs = [r for r in data.get((n, "norm"), []) if r["mean"] > 0 and r["ref_bpf"]]
        if len(rs) < 3:
            continue
        y = [math.log(r["mean"]) for r in rs]
        v = st.variance(y)
        within = st.mean([(r["cv"] / 100) ** 2 / max(r["n"], 1) for r in rs
                          if not math.isnan(r["cv"])] or [0.0])
        xr = [math.log(r["ref_bpf"]) for r in rs]
        host = r2(y, xr) * v
        rest = residual(y, xr)
        xs = [r["steal"] + r["pressure"] for r in rs]
        steal = r2(rest, xs) * st.variance(rest) if len(rest) > 2 else 0.0
        left = v - within - host - steal
        pinned = [var_log(data[(n, c)]) for c in ("cpu0", "cpu1", "split01", "split10")
                  if (n, c) in data]
        pinned = [p for p in pinned if not math.isnan(p)]
        plain = var_log(data.get((n, "plain"), []))
        place = "%+.1f" % (sdp(plain - st.mean(pinned)) if plain >= st.mean(pinned)
                           else -sdp(st.mean(pinned) - plain)) if pinned and not math.isnan(plain) \
            else "-"
        trig = "-"
        if (n, "rawtp") in data and not math.isnan(plain):
            trig = "%.1f / %.1f" % (sdp(var_log(data[(n, "rawtp")])), sdp(plain))
        print("| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %s | %s |" % (
            n, len(rs), sdp(v), sdp(within), sdp(host), sdp(steal), sdp(left), place, trig))


if __name__ == "__main__":
    main(sys.argv[1])
