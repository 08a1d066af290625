#!/usr/bin/env python3
# bisect.sh's report (run, not imported): what the bisection found, as text
# fit for a mail (lines of at most 120 columns) and as JSON.
#
#   bisect_report.py REPORT.txt REPORT.json [USER.json]
#
# The facts come from bisect.sh in R_* environment variables; each step's
# line from RUNDIR/steps (commit, build s, runs s, pairs, answer, step/good
# and its 95% CI, the session's directory) and the figures from the merged
# sides' documents (merge_runs.py) and compare's JSON.  REPORT.txt and
# REPORT.json are replaced; USER.json (--json) must be a new file (O_EXCL,
# no link followed).  stdout gets the report, or under -q (R_QUIET) its
# answer line alone.  The JSON's shape: doc/json.md, "bisect --json".
# Exit 3: the commit the steps name is unconfirmed (its 95% CI against its
# parent does not exclude no change on the side of good->bad, or compare
# calls the two equal): the report lists it as a candidate, names none.
import hashlib
import json
import math
import os
import subprocess
import sys

E = os.environ
WIDTH = 120
MINUS = "\u2212"


def git(*args):
    r = subprocess.run(["git", "-C", E["R_SRC"]] + list(args), capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else ""


def commit_info(h):
    if not h:
        return None
    out = git("log", "-1", "--format=%H%n%s%n%an <%ae>%n%aI", h).split("\n")
    out += [""] * (4 - len(out))
    return {"commit": h, "subject": out[1], "author": out[2], "date": out[3]}


def short(h):
    return h[:12]


def signed(x, nd=1):
    return (MINUS if x < 0 else "+") + "%.*f" % (nd, abs(x))


def fnum(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def ratio_text(r, lo, hi):
    """-47.3% [-52.1, -41.9] (with a real minus sign)"""
    if not all(math.isfinite(v) for v in (r, lo, hi)):
        return "no ratio"
    return "%s%% [%s, %s]" % (signed((r - 1) * 100), signed((lo - 1) * 100), signed((hi - 1) * 100))


def figure(v):
    """four significant digits, trailing zeros kept: 2.640, 356.9, 1234"""
    if not math.isfinite(v):
        return "-"
    if v == 0:
        return "0"
    d = max(0, 3 - int(math.floor(math.log10(abs(v)))))
    return "%.*f" % (d, v)


def duration(s):
    s = int(s)
    if s < 60:
        return "%d s" % s
    if s < 3600:
        return "%d min %d s" % (s // 60, s % 60)
    return "%d h %d min" % (s // 3600, s % 3600 // 60)


# two-sided 95% quantiles of Student's t
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
       2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
       2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t95(df):
    return T95[df - 1] if df <= len(T95) else 1.96 + 2.4 / df


def side_figure(path, metric):
    """A merged side's figure: the mean of its runs' means, their 95% CI, the runs."""
    if not path:
        return None
    run = json.load(open(path))["runs"][0]
    by = {}
    for s in run["samples"]:
        v = s.get(metric)
        if isinstance(v, (int, float)):
            by.setdefault(s.get("repeat", 0), []).append(v)
    means = [sum(v) / len(v) for _, v in sorted(by.items())]
    if not means:
        return None
    n = len(means)
    m = sum(means) / n
    if n > 1:
        sd = (sum((x - m) ** 2 for x in means) / (n - 1)) ** 0.5
        half = t95(n - 1) * sd / n ** 0.5
        lo, hi = m - half, m + half
    else:
        lo = hi = math.nan
    return {"mean": m, "ci95_low": lo, "ci95_high": hi, "runs": n,
            "kernel": json.load(open(path))["env"].get("kernel")}


def cmp_row(path, metric):
    if not path:
        return None
    for r in json.load(open(path))["rows"]:
        if r["metric"] == metric:
            return r
    return None


def num_or_none(x):
    return x if isinstance(x, (int, float)) and math.isfinite(x) else None


def confirmed(change, r, lo, hi, verdict):
    """The first bad commit's own change: its CI against its parent wholly on bad's side of 1."""
    if not all(math.isfinite(v) for v in (change, lo, hi)) or verdict == "equal":
        return False
    return hi < 1 if change < 1 else lo > 1


def cut(text, n):
    return text if len(text) <= n else text[:n - 1] + "\u2026"


def step_answer(steps, h):
    a = [s["answer"] for s in steps if s["commit"] == h]
    return a[-1] if a else "bad"


def unconfirmed_lines(out, first, parent, good, steps):
    """Why no commit is named, and the candidates: the named one and its parent (unless good)."""
    cands = [c for c in (first, parent) if c != good]
    out.append("  its 95% CI against its parent includes no change: the change may be spread over commits,")
    out.append("  or a step's answer was noise; the first bad commit is one of %d:" % len(cands))
    for c in cands:
        out.append(cut("  %s  %-11s  \"%s\"" % (short(c), step_answer(steps, c),
                                                 git("log", "-1", "--format=%s", c)), WIDTH))


def main():
    txt_path, json_path = sys.argv[1], sys.argv[2]
    user_json = sys.argv[3] if len(sys.argv) > 3 else None
    metric, unit = E["R_METRIC"], E["R_UNIT"]
    words = E["R_BENCH"]
    bench = words.split()[0]
    name = "%s %s" % (bench, metric)
    good, bad = E["R_GOOD"], E["R_BAD"]
    first, parent = E.get("R_FIRST", ""), E.get("R_PARENT", "")
    n = int(E["R_NCOMMITS"])
    change = [fnum(x) for x in E["R_CHANGE"].split()]
    thr = fnum(E["R_THR_RATIO"])
    steps = []
    for line in open(os.path.join(E["R_RUNDIR"], "steps")):
        f = line.rstrip("\n").split("\t")
        if len(f) < 9:
            continue
        steps.append({"commit": f[0], "subject": git("log", "-1", "--format=%s", f[0]),
                      "build_s": int(f[1]), "runs_s": int(f[2]), "pairs": int(f[3]),
                      "answer": f[4], "ratio": fnum(f[5]), "ci95_low": fnum(f[6]),
                      "ci95_high": fnum(f[7])})
    init_runs_s, init_pairs = int(E["R_INIT_RUNS_S"]), int(E["R_INIT_PAIRS"])
    builds_s = int(E["R_GOOD_BUILD_S"]) + int(E["R_BAD_BUILD_S"]) + sum(s["build_s"] for s in steps)
    runs_s = init_runs_s + sum(s["runs_s"] for s in steps)
    most = math.ceil(math.log2(n)) if n > 1 else 0
    cands = E.get("R_CANDS", "").split()
    answers = {"good": "good", "bad": "bad", "skip-build": "skip: build", "skip-noise": "skip: CI"}

    out = []
    head = "bisect: %s %s good\u2192bad in %d pairs; a step is bad past %s" % (
        name, ratio_text(*change), init_pairs, signed((thr - 1) * 100) + "%")
    out.append(head)
    out.append("")
    res = {"schema": "bpfbench-bisect/1", "bench": bench, "args": words.split(), "metric": metric,
           "unit": unit, "tree": E["R_TREE"], "good": commit_info(good), "bad": commit_info(bad),
           "commits": n,
           "change": {"ratio": num_or_none(change[0]), "ci95_low": num_or_none(change[1]),
                      "ci95_high": num_or_none(change[2]), "pairs": init_pairs},
           "threshold_pct_of_change": fnum(E["R_THRESHOLD"]),
           "threshold_ratio": num_or_none(thr)}
    if first:
        x = commit_info(first)
        p = commit_info(parent)
        px = side_figure(E.get("R_P_FILE"), metric)
        xx = side_figure(E.get("R_X_FILE"), metric)
        row = cmp_row(E.get("R_PAIR_CMP"), metric) or {}
        r, lo, hi = (fnum(row.get(k)) for k in ("ratio", "ci95_low", "ci95_high"))
        verdict = row.get("verdict") or "-"
        sure = confirmed(change[0], r, lo, hi, verdict)
        if sure:
            answer = "commit %s: %s %s" % (short(first), name, ratio_text(r, lo, hi))
        else:
            answer = "bisect: unconfirmed: commit %s: %s %s against its parent (%s)" % (
                short(first), metric, ratio_text(r, lo, hi), verdict)
        out.append(cut(answer, WIDTH))
        out.append("  %s" % cut('"%s"' % x["subject"], WIDTH - 2))
        out.append("  %s" % cut("Author: %s, %s" % (x["author"], x["date"]), WIDTH - 2))
        out.append("  %s %s" % ("first bad commit" if sure else "named by the steps:", first))
        pwho = "its parent" + (", good" if parent == good else "")

        def side_line(label, h, who, fig):
            if not fig:
                return "  %s %s (%s): not measured" % (label, short(h), who)
            ci = ("[%s, %s]" % (figure(fig["ci95_low"]), figure(fig["ci95_high"]))
                  if math.isfinite(fig["ci95_low"]) else "(one run: no CI)")
            return cut("  %s %s (%s): %s %s %s, %d runs" % (label, short(h), who, figure(fig["mean"]),
                                                             unit, ci, fig["runs"]), WIDTH)
        out.append(side_line("before:", parent, pwho, px))
        out.append(side_line("after: ", first, "first bad", xx))
        note = E.get("R_PAIR_NOTE", "")
        if note == "paired":
            how = "compare --paired on the pairs that measured the two side by side"
        elif note == "unpaired":
            how = "compare of the two steps' runs, unpaired"
        else:
            how = note
        out.append(cut("  (first bad/parent and its 95%% CI: %s)" % how, WIDTH))
        if not sure:
            unconfirmed_lines(out, first, parent, good, steps)
        res.update(result="found" if sure else "unconfirmed", first_bad=x if sure else None,
                   named=x, parent=p,
                   figures={"parent": px and dict(px, commit=parent),
                            "first_bad": xx and dict(xx, commit=first)},
                   ratio={"ratio": num_or_none(r), "ci95_low": num_or_none(lo),
                          "ci95_high": num_or_none(hi), "basis": note, "verdict": verdict})
        if not sure:
            res["candidates"] = [dict(commit_info(c), answer=step_answer(steps, c))
                                 for c in (first, parent) if c != good]
    else:
        skipped = {s["commit"]: s["answer"] for s in steps}
        answer = "bisect: the first bad commit is one of %d: %s" % (
            len(cands), ", ".join(short(c) for c in cands))
        out.append(cut(answer, WIDTH))
        out.append("  (git bisect ended among skipped commits: it cannot tell which)")
        for c in cands:
            a = answers.get(skipped.get(c, ""), "bad")
            out.append(cut("  %s  %-11s  \"%s\"" % (short(c), a, git("log", "-1", "--format=%s", c)),
                           WIDTH))
        res.update(result="skipped", first_bad=None,
                   candidates=[dict(commit_info(c), answer=skipped.get(c, "bad")) for c in cands])
    out.append("")
    out.append("Steps: %d commit%s after good up to bad, %d step%s (at most \u2308log2 %d\u2309 = %d "
               "without skips)" % (n, "" if n == 1 else "s", len(steps), "" if len(steps) == 1 else "s",
                                    n, most))
    subj_w = 36
    out.append("   #  %-12s  %-*s  build s  runs s  pairs  %-11s  step/good [95%% CI]"
               % ("commit", subj_w, "subject", "answer"))
    out.append(("   -  %-12s  %-*s  %7d  %6s  %5s  %-11s" % (
        short(good), subj_w, cut("good: " + (res["good"] or {}).get("subject", ""), subj_w),
        int(E["R_GOOD_BUILD_S"]), "-", "-", "good")).rstrip())
    out.append("   -  %-12s  %-*s  %7d  %6d  %5d  %-11s  %s" % (
        short(bad), subj_w, cut("bad: " + (res["bad"] or {}).get("subject", ""), subj_w),
        int(E["R_BAD_BUILD_S"]), init_runs_s, init_pairs, "bad", ratio_text(*change)))
    for i, s in enumerate(steps, 1):
        rt = ratio_text(s["ratio"], s["ci95_low"], s["ci95_high"]) if s["pairs"] else ""
        out.append(("  %2d  %-12s  %-*s  %7d  %6d  %5d  %-11s  %s" % (
            i, short(s["commit"]), subj_w, cut(s["subject"], subj_w), s["build_s"], s["runs_s"],
            s["pairs"], answers.get(s["answer"], s["answer"]), rt)).rstrip())
    said = {s["answer"] for s in steps}
    if "skip-build" in said:
        out.append("  skip: build: the commit's build failed (its output in the log)")
    if "skip-noise" in said:
        out.append("  skip: CI: the CI of step/good still straddled the threshold at %s pairs" % E["R_MAX_PAIRS"])
    total = int(E["R_TIME_S"])
    out.append("Time: %s (builds %s, runs %s)" % (duration(total), duration(builds_s), duration(runs_s)))
    out.append(cut("Conditions: %s" % E["R_ACCEL_TEXT"], WIDTH))
    cfg = E["R_CONFIG"]
    if os.path.isfile(cfg):
        sha = hashlib.sha256(open(cfg, "rb").read()).hexdigest()
        out.append("  .config: %s (sha256 %s)" % (cfg, sha[:12]))
    else:
        sha = None
        out.append("  .config: none in %s (the --build command's own)" % os.path.dirname(cfg))
    out.append(cut("  %s; seed %s; pairs %s to %s; a step's threshold %s%% of the change" % (
        E["R_VERSION"], E["R_SEED"], E["R_PAIRS"], E["R_MAX_PAIRS"], E["R_THRESHOLD"]), WIDTH))
    out.append("  ARGS: %s" % words)
    out.append("Work: %s (log: %s)" % (E["R_WORK"], E["R_LOG"]))
    res.update(steps=[{k: (num_or_none(v) if isinstance(v, float) else v) for k, v in s.items()}
                      for s in steps],
               time_s=total, builds_s=builds_s, runs_s=runs_s,
               conditions={"vm": E["R_ACCEL_NAME"], "vm_text": E["R_ACCEL_TEXT"],
                           "config": cfg if sha else None, "config_sha256": sha,
                           "bpfbench": E["R_VERSION"], "seed": int(E["R_SEED"]),
                           "pairs": int(E["R_PAIRS"]), "max_pairs": int(E["R_MAX_PAIRS"]),
                           "build": E["R_BUILD_CMD"]},
               work=E["R_WORK"], log=E["R_LOG"])
    text = "\n".join(out) + "\n"
    with open(txt_path, "w") as f:
        f.write(text)
    with open(json_path, "w") as f:
        json.dump(res, f, indent=2)
        f.write("\n")
    if user_json:
        fd = os.open(user_json, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "w") as f:
            json.dump(res, f, indent=2)
            f.write("\n")
    # stdout: the report without its first line (said when the bisection started)
    sys.stdout.write(answer + "\n" if E.get("R_QUIET") else "\n".join(out[2:]) + "\n")
    return 3 if res["result"] == "unconfirmed" else 0


if __name__ == "__main__":
    sys.exit(main())
