# shellcheck shell=bash
# What every --latency run's histogram must satisfy (sourced after lib.sh
# by the tests of the families that time ops inside BPF).

# hist_ok FILE NAME SAMPLED SLACK [VS]: histogram NAME of the first run
#  - holds exactly the ops the samples' SAMPLED metric says were timed in
#    the measured samples (the two are read together) plus its tail_ops
#    (those timed after the last sample, read once the producers stopped);
#  - its bins sum to that count within SLACK: it is read while programs
#    run, so a batch in flight on a CPU may be in the bins and not yet in
#    the count, or the other way round (0 for runs read between passes);
#  - its percentiles are ordered and read from its bins;
#  - VS given: it is set beside that metric, and its mean is not above it
#    by more than the agreement bound (timed ops are part of the wall time).
hist_ok() {
	json_check "$1" "
r = d['runs'][0]; h = r['histograms']['$2']; s = r['samples']
ok = h['unit'] == 'ns' and h['count'] == sum(x['$3'] for x in s) + h['tail_ops'] > 0
ok = ok and abs(sum(b[2] for b in h['bins']) - h['count']) <= $4
ok = ok and 0 <= h['p50'] <= h['p90'] <= h['p99'] <= h['p999'] <= h['max'] and h['mean'] > 0
def crossing(p):
    c = 0
    for lo, hi, n in h['bins']:
        c += n
        if c >= p * sum(b[2] for b in h['bins']):
            return lo, hi
ok = ok and all(crossing(p)[0] - 1e-9 <= h[k] <= crossing(p)[1] + 1e-9 for k, p in (('p50', .5), ('p90', .9)))
vs = '${5:-}'
ok = ok and (h.get('vs') == vs and h['verdict'] in ('agree', 'outside') if vs else 'vs' not in h)
ok"
}

# hist_diag FILE: the figures a failed check looked at
hist_diag() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
for n, h in r.get("histograms", {}).items():
    print(n, {k: v for k, v in h.items() if k != "bins"}, "bins", sum(b[2] for b in h["bins"]))
print({k: sum(x[k] for x in r["samples"]) for k in r["samples"][0] if k.endswith("ops") or k == "runs"})' "$1" 2>&1
}

# latency_off FILE: a run without --latency has no histogram and no sampled_ops
latency_off() {
	json_check "$1" '
r = d["runs"][0]
"histograms" not in r and not any(k.endswith("sampled_ops") for k in r["metrics"])'
}
