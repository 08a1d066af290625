#!/usr/bin/env python3
# Shared by ab.sh and bisect.sh (run, not imported): the result documents
# of N runs of one command line on one kernel, each a fresh VM, merged into
# one document of one run of N repetitions, as compare reads it.
#
#   merge_runs.py --accel ACCEL [--out FILE --spec KERNEL RUN.json...]...
#
# Each --out names a side: FILE is written from the RUN.json files after
# it, in their order (sample k of run i tagged "repeat": i, so that
# compare --paired can pair repetition i of two sides), with the env of the
# first run and env.vm = {kernel_spec: KERNEL, accel: ACCEL, emulated:
# ACCEL is tcg, fresh_vm_per_run: true}.  The run's label is dropped: the
# two sides of a comparison match on the benchmark.  Each metric's summary
# is recomputed over every run's samples, as one run of N repetitions has
# it, without a CI (the samples of N processes are not one series; compare
# tests the runs' means), and an inverse metric's figure from its base's
# merged mean.  Exit 1 with one line on stderr when a run's
# document cannot be read.
import json
import sys


def number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x != 0 and x == x


def merge(paths, spec, accel):
    docs = []
    for p in paths:
        with open(p) as f:
            docs.append(json.load(f))
    run = docs[0]["runs"][0]
    run.pop("repeats", None)
    run["samples"] = [dict(s, repeat=i) for i, doc in enumerate(docs)
                      for s in doc["runs"][0]["samples"]]
    run["runs"] = len(docs)
    # an inverse metric's figure (of_mean_inverse, what compare reads) is
    # its scale over the base's mean: the scale from the first run's, the
    # mean the merged one (else the figure would be the first run's alone)
    scale = {}
    for m, st in run["metrics"].items():
        base = run["metrics"].get(st.get("of") or "", {})
        if st.get("kind") == "inverse" and number(st.get("of_mean_inverse")) and number(base.get("mean")):
            scale[m] = st["of_mean_inverse"] * base["mean"]
    for m, st in run["metrics"].items():
        v = sorted(x[m] for x in run["samples"] if isinstance(x.get(m), (int, float)))
        if not v:
            continue
        mean = sum(v) / len(v)
        sd = (sum((x - mean) ** 2 for x in v) / (len(v) - 1)) ** 0.5 if len(v) > 1 else None
        half = len(v) // 2
        st.update(n=len(v), mean=mean, stddev=sd, min=v[0], max=v[-1],
                  median=v[half] if len(v) % 2 else (v[half - 1] + v[half]) / 2,
                  cv=sd / mean if sd is not None and mean else None,
                  ci95_low=None, ci95_high=None)
    for m, k in scale.items():
        mean = run["metrics"][run["metrics"][m]["of"]]["mean"]
        run["metrics"][m]["of_mean_inverse"] = k / mean if number(mean) else None
    run.pop("label", None)
    env = dict(docs[0]["env"], vm={"kernel_spec": spec, "accel": accel,
                                   "emulated": accel == "tcg", "fresh_vm_per_run": True})
    return {"schema": docs[0]["schema"], "env": env, "runs": [run]}


def main(argv):
    accel, sides, i = "tcg", [], 0
    while i < len(argv):
        if argv[i] == "--accel" and i + 1 < len(argv):
            accel = argv[i + 1]
            i += 2
        elif argv[i] == "--out" and i + 3 < len(argv) and argv[i + 2] == "--spec":
            sides.append([argv[i + 1], argv[i + 3], []])
            i += 4
        elif sides and not argv[i].startswith("--"):
            sides[-1][2].append(argv[i])
            i += 1
        else:
            sys.exit("merge_runs.py: usage: --accel ACCEL [--out FILE --spec KERNEL RUN.json...]...")
    for out, spec, paths in sides:
        if not paths:
            sys.exit(f"merge_runs.py: no runs for {out}")
        try:
            doc = merge(paths, spec, accel)
        except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
            sys.exit(f"merge_runs.py: cannot merge the runs of {out}: {e}")
        with open(out, "w") as f:
            json.dump(doc, f)


if __name__ == "__main__":
    main(sys.argv[1:])
