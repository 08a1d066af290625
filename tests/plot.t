#!/usr/bin/env bash
# plot: the gnuplot script it writes (--script) for crafted result files, and the image.
# No benchmark runs: every input is written here, so each check knows what it should see.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null || skip_all "needs gnuplot (apt-get install gnuplot-nox)"

python3 - "$TMPD" <<'PY'
import json, sys

d = sys.argv[1]
ENV = {"bpfbench_version": "0.1", "git_commit": "test", "kernel": "6.18.7-plottest",
       "machine": "x86_64", "cpu_model": "test", "online_cpus": 2, "libbpf_version": "1.1",
       "date": "2026-11-30T12:00:00Z"}

def metric(mean, unit, kind="rate"):
    sd = mean / 50
    return {"unit": unit, "kind": kind, "n": 3, "mean": mean, "stddev": sd, "median": mean,
            "min": mean - sd, "max": mean + sd, "cv": sd / mean, "ci95_low": mean - 2.5 * sd,
            "ci95_high": mean + 2.5 * sd}

def run(bench, opts, metrics, **kw):
    r = {"bench": bench, "family": bench, "status": 0, "trigger": "test-run",
         "options": dict({"warmup": 0, "duration": 3, "producers": 1}, **opts),
         "warmup_samples": 0, "measured_s": 3.0, "metrics": metrics, "samples": []}
    r.update(kw)
    return r

def write(name, runs):
    with open("%s/%s.json" % (d, name), "w") as f:
        json.dump({"schema": "bpfbench-result/1", "env": ENV, "runs": runs}, f, indent=1)

# A producers sweep: integer x, two metrics in two units.
write("sweep", [run("bpf-loop", {"producers": p, "nr_loops": 1000},
                    {"throughput": metric(100.0 * p, "M ops/s"),
                     "latency": dict(metric(10.0 / p, "ns/op", "inverse"), of="throughput",
                                     of_mean_inverse=10.0 / p)}, sweep_param="producers")
                for p in (1, 2, 4, 8)])
# A quick-like suite: every run at producers 1, throughput in three units.
write("units3", [run("bpf-loop", {}, {"throughput": metric(120.0, "M ops/s")}),
                 run("htab-mem", {}, {"throughput": metric(900.0, "k ops/s")}),
                 run("rb-libbpf", {}, {"throughput": metric(3.0, "ns/op", "time")})])
# Older files' spellings: k/s is today's k ops/s, M/s today's M ops/s (one axis with it).
write("units2", [run("bpf-loop", {}, {"throughput": metric(120.0, "M ops/s")}),
                 run("htab-mem", {}, {"throughput": metric(900.0, "k/s")}),
                 run("rb-libbpf", {}, {"throughput": metric(3.0, "M/s")})])
# map-batch: one run, its figures keyed by op and batch size (or one-by-one).
def keyed(name, op, batch, mean, unit):
    return ("%s{op=%s,batch=%s}" % (name, op, batch),
            dict(metric(mean, unit), name=name, key={"op": op, "batch": batch}))
write("mb", [run("map-batch", {"batch": "10,1000,1000000", "op": "lookup,update"},
                 dict(keyed(n, op, b, (1 + i) * (2 if op == "update" else 1), u)
                      for op in ("lookup", "update")
                      for i, b in enumerate((10, 1000, 1000000, "one-by-one"))
                      for n, u in (("rate", "M ops/s"), ("calls", "calls/pass"))))])
# htab-mem over its use cases, preallocated and not: categorical x, two configurations.
write("htab", [run("htab-mem", dict({"use_case": u}, **({"preallocated": True} if pre else {})),
                   {"per-prod-op": metric(300.0 + 100 * i + (500 if pre else 0), "k/s")})
               for pre in (False, True)
               for i, u in enumerate(("overwrite", "batch_add_batch_del", "add_del_on_diff_cpu"))])
# Per-op histograms: two noop runs that differ in batch.
def hist(bins):
    return {"op": {"unit": "ns", "bins": bins, "count": sum(b[2] for b in bins)}}
write("cdf", [run("noop", {"latency": True, "batch": 1}, {"throughput": metric(30.0, "M ops/s")},
                  histograms=hist([[0, 0.0625, 10], [0.875, 0.9375, 50], [8, 8.5, 30], [300, 320, 10]])),
              run("noop", {"latency": True, "batch": 64}, {"throughput": metric(60.0, "M ops/s")},
                  histograms=hist([[2, 2.125, 5], [4, 4.25, 90], [4000, 4096, 5]])),
              run("noop", {"latency": True, "batch": 8}, {"throughput": metric(50.0, "M ops/s")},
                  histograms=hist([]))])
write("nohist", [run("noop", {}, {"throughput": metric(30.0, "M ops/s")})])
# A sweep of single-sample points (-d1, 1 s periods): no spread to draw.
def one(mean, unit):
    return {"unit": unit, "kind": "rate", "n": 1, "mean": mean, "stddev": None, "median": mean,
            "min": mean, "max": mean, "cv": None, "ci95_low": None, "ci95_high": None}
write("n1", [run("bpf-loop", {"nr_loops": n, "duration": 1}, {"throughput": one(10.0 * n, "M ops/s")},
                 sweep_param="nr_loops") for n in (1, 10, 100)])
# A suite's runs with no swept parameter.
write("suite", [run("bpf-loop", {"nr_loops": n}, {"throughput": metric(50.0, "M ops/s")},
                    suite="bpf-loop", label="nr_loops %d" % n) for n in (1, 10, 100, 1000)])
# A map-lookup --latency run, -r 2: the CDF's subtitle names the map (type and shape, even at their
# defaults), never an option left at its default (fill, hit) nor --latency itself, and -w/-d/-r.
# Bins over 10-104 ns: p50 16 ns (the top of [15, 16)), p99 64 ns (the top of [60, 64)).
write("mlcdf", [run("map-lookup", {"map_type": "lru_hash", "key_size": 4, "value_size": 64,
                                   "max_entries": 10000, "fill": 100, "hit": 100, "latency": True,
                                   "duration": 1, "runs": 2},
                    {"throughput": metric(30.0, "M ops/s")},
                    histograms=hist([[9.5, 10, 5], [15, 16, 45], [20, 21, 40], [60, 64, 9],
                                     [100, 104, 1]]))])
# An rb-libbpf producers sweep with its consumer: -c 1 and the batch count (at its default) in the subtitle.
write("rbsweep", [run("rb-libbpf", {"producers": p, "consumers": 1, "rb_batch_cnt": 500,
                                    "ringbuf_sz": 524288, "duration": 1, "runs": 1},
                      {"hits": one(10.0 / p, "M ops/s")}, sweep_param="producers") for p in (1, 2)])
# Options without end: the configuration line stops, and counts the rest.
write("manyopts", [run("noop", dict({"batch": b, "latency": True},
                                    **{"opt%02d" % i: "v" * 30 for i in range(30)}),
                       {"throughput": metric(30.0, "M ops/s")}, sweep_param="batch") for b in (1, 2)])
# env strings as long as a file likes: the titles are cut, never overrun their buffers
for k in (480, 505, 511, 600):
    with open("%s/longenv%d.json" % (d, k), "w") as f:
        json.dump({"schema": "bpfbench-result/1",
                   "env": dict(ENV, kernel="k" * k, cpu_model="c" * (k // 2)),
                   "runs": [run("bpf-loop" + "x" * (k // 4), {"nr_loops": n},
                                {"throughput": metric(50.0, "M ops/s")}, sweep_param="nr_loops")
                            for n in (1, 10)]}, f)
PY

bad=
for f in sweep units3 units2 htab cdf nohist suite mb n1 longenv480 mlcdf rbsweep manyopts; do
	schema_check "$TMPD/$f.json" || bad+=" $f"
done
[ -z "$bad" ]
ok $? "the crafted files are results the schema allows" || diag "not:$bad"

# plot_ok NAME ARGS...: plots $TMPD/NAME.json, the script in $TMPD/NAME.gp
plot_ok() {
	local name=$1
	shift
	run plot "$TMPD/$name.json" -o "$TMPD/$name.svg" --script "$TMPD/$name.gp" "$@"
	[ "$RC" -eq 0 ] && [ -z "$ERR" ] && [ -s "$TMPD/$name.svg" ] && [ -s "$TMPD/$name.gp" ]
}
# curves FILE.gp: one title per curve of the plot command
curves() {
	sed -n '/^plot /,/[^\\]$/p' "$1" | grep -o "title '[^']*'" | sed "s/^title '//; s/'$//"
}
# block FILE.gp N: the points of curve N (x y sd)
block() { sed -n "/^\$c$2 << EOD/,/^EOD/{/EOD/!p}" "$1"; }

plot_ok sweep
ok $? "plot a sweep: exit 0, nothing on stderr (gnuplot's output kept off the terminal)" || diag "$ERR"
grep -qx "set xtics (1, 2, 4, 8)" "$TMPD/sweep.gp" && grep -qx "set format x '%.0f'" "$TMPD/sweep.gp" &&
	! grep -q 'logscale' "$TMPD/sweep.gp"
ok $? "integer parameter: ticks at 1, 2, 4, 8 only, no fractions, linear under 2 decades"
title=$(grep '^set title' "$TMPD/sweep.gp")
grep -q 'bpf-loop' <<<"$title" && grep -q '6.18.7-plottest' <<<"$title" && grep -q '2026-11-30' <<<"$title"
ok $? "title: benchmark, kernel and date from the file's env" || diag "$title"
grep -q 'set rmargin' "$TMPD/sweep.gp" && grep -q '^set xrange \[' "$TMPD/sweep.gp"
ok $? "margins and x range set: the last label is not clipped"
python3 - "$TMPD/sweep.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
text = "".join(root.itertext())
assert "producers" in text and "throughput" in text and "M ops/s" in text
PY
ok $? "the SVG is valid and names the axes and the unit"

plot_ok sweep --metric throughput,latency
[ "$(curves "$TMPD/sweep.gp" | wc -l)" -eq 2 ] &&
	grep -q "^set ylabel 'throughput (M ops/s)" "$TMPD/sweep.gp" &&
	grep -q "^set y2label 'latency (ns/op)" "$TMPD/sweep.gp" &&
	grep -q 'axes x1y2' "$TMPD/sweep.gp" && [ "$(grep -c 'ns/op' "$TMPD/sweep.gp")" -eq 1 ]
ok $? "--metric a,b: two curves, ns/op on y2, never on the M ops/s axis" || diag "$ERR" "$(cat "$TMPD/sweep.gp")"
curves "$TMPD/sweep.gp" | grep -qx 'bpf-loop latency'
ok $? "--metric a,b: each curve names its metric"

# A 480-character kernel name (and others near the title's 512 bytes) overran the
# subtitle's buffer (ASan: stack-buffer-overflow): cut to fit, whole lines, exit 0.
bad=
for k in 480 505 511 600; do
	plot_ok "longenv$k" || { bad+=" $k:rc$RC"; continue; }
	sub=$(grep '^set title' "$TMPD/longenv$k.gp" | sed 's/.*\.\"\\n\"\.//')
	grep -q "^'kernel kkkkkkkkkk" <<<"$sub" && [ "${#sub}" -le 520 ] || bad+=" $k:${#sub}"
done
[ -z "$bad" ]
ok $? "env strings of 480-600 characters: titles cut to their buffers, exit 0" || diag "$bad" "$ERR"

# Labels say only what is drawn; the conditions in a subtitle, the key clear of the x label.
plot_ok n1
title=$(grep '^set title' "$TMPD/n1.gp")
! grep -q 'yerror\|stddev' "$TMPD/n1.gp" && grep -q 'with linespoints' "$TMPD/n1.gp" &&
	grep -qx "set ylabel 'throughput (M ops/s)'" "$TMPD/n1.gp" && grep -qx 'unset key' "$TMPD/n1.gp" &&
	grep -qF ".\"\\n\"." <<<"$title" && grep -qF 'kernel 6.18.7-plottest, test (2 CPUs), -w 0 -d 1 -p 1, n = 1 sample a point' <<<"$title"
ok $? "n = 1: no error bars nor 'mean ± stddev', no key for one curve; a subtitle with kernel, CPU, -w/-d/-p, n" ||
	diag "$(cat "$TMPD/n1.gp")"
grep -q ': 1 curve, 3 points$' <<<"$OUT"
ok $? "one curve: '1 curve', singular" || diag "$OUT"
grep -q 'yerrorlines' "$TMPD/sweep.gp" && grep -q "^set y2label 'latency (ns/op), mean ± stddev'" "$TMPD/sweep.gp" &&
	grep -q 'n = 3 samples a point' "$TMPD/sweep.gp" && grep -q '^set key outside right' "$TMPD/sweep.gp" &&
	! grep -q -- ' -p ' <(grep '^set title' "$TMPD/sweep.gp")
ok $? "n = 3: bars and 'mean ± stddev'; two curves: the key beside the graph; -p left out when it is x" ||
	diag "$(cat "$TMPD/sweep.gp")"

plot_ok units2 --x producers
grep -q "^set ylabel '.*(M ops/s)" "$TMPD/units2.gp" && grep -q "^set y2label '.*(k ops/s)" "$TMPD/units2.gp" &&
	! grep '^set ylabel' "$TMPD/units2.gp" | grep -q 'k ops/s' && ! grep -q 'M/s\|k/s' "$TMPD/units2.gp" &&
	[ "$(grep -c 'axes x1y1' "$TMPD/units2.gp")" -eq 2 ]
ok $? "two units: the second on y2, each axis labelled with its own; an old file's M/s on the M ops/s axis" ||
	diag "$ERR" "$(cat "$TMPD/units2.gp")"
grep -q '^set xrange \[0.5:1.5\]' "$TMPD/units2.gp" && grep -qx 'set xtics (1)' "$TMPD/units2.gp"
ok $? "one x value: a range around it, one integer tick" || diag "$(grep xr "$TMPD/units2.gp")"
run plot "$TMPD/units3.json" -o "$TMPD/u3.svg" --x producers
[ "$RC" -eq 2 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -q 'M ops/s, k ops/s, ns/op' <<<"$ERR" &&
	[ ! -e "$TMPD/u3.svg" ]
ok $? "three units: refused, one line naming them" || diag "$ERR"

plot_ok htab --x use-case
mapfile -t t < <(curves "$TMPD/htab.gp")
[ "${#t[@]}" -eq 2 ] && [ "${t[0]}" = htab-mem ] && [ "${t[1]}" = 'htab-mem preallocated=true' ]
ok $? "one curve per configuration, labelled by what differs" || diag "${t[@]}"
grep -qx "set xtics rotate by 30 right ('overwrite' 0, 'batch_add_batch_del' 1, 'add_del_on_diff_cpu' 2)" \
	"$TMPD/htab.gp" && [ "$(block "$TMPD/htab.gp" 0 | cut -d' ' -f1 | tr '\n' ' ')" = "0 1 2 " ] &&
	[ "$(block "$TMPD/htab.gp" 1 | cut -d' ' -f1 | tr '\n' ' ')" = "0 1 2 " ]
ok $? "names on x: evenly spaced, labelled, each curve once through them" || diag "$(cat "$TMPD/htab.gp")"

# map-batch: --x batch is read from each metric's key, one curve per op, one point per batch size.
plot_ok mb --x batch --metric rate
mapfile -t t < <(curves "$TMPD/mb.gp")
[ "${#t[@]}" -eq 2 ] && [ "${t[0]}" = 'map-batch op=lookup' ] && [ "${t[1]}" = 'map-batch op=update' ] &&
	[ "$(block "$TMPD/mb.gp" 0 | cut -d' ' -f1,2 | tr '\n' ' ')" = "10 1 1000 2 1000000 3 " ] &&
	[ "$(block "$TMPD/mb.gp" 1 | cut -d' ' -f1,2 | tr '\n' ' ')" = "10 2 1000 4 1000000 6 " ] &&
	grep -q 'set logscale x' "$TMPD/mb.gp" && grep -q "^set ylabel 'rate (M ops/s)" "$TMPD/mb.gp" &&
	grep -q '2 points whose batch is not a number (one-by-one) left out' <<<"$OUT"
ok $? "map-batch --x batch --metric rate: a curve per op, a point per batch size, log x, one-by-one left out and said so" ||
	diag "$OUT" "$(cat "$TMPD/mb.gp")"
plot_ok mb --x batch --metric 'rate{op=update,batch=1000}'
[ "$(curves "$TMPD/mb.gp")" = 'map-batch op=update' ] && [ "$(block "$TMPD/mb.gp" 0 | cut -d' ' -f1,2)" = "1000 4" ]
ok $? "--metric name{key}: that metric alone" || diag "$OUT" "$(cat "$TMPD/mb.gp")"
plot_ok mb --x op --metric rate
[ "$(curves "$TMPD/mb.gp" | tr '\n' ' ')" = "map-batch batch=10 map-batch batch=1000 map-batch batch=1000000 map-batch batch=one-by-one " ] &&
	grep -qx "set xtics rotate by 30 right ('lookup' 0, 'update' 1)" "$TMPD/mb.gp"
ok $? "--x op: ops on x, a curve per batch size and one for one-by-one" || diag "$OUT" "$(cat "$TMPD/mb.gp")"

plot_ok suite --x nr_loops
grep -q 'set logscale x' "$TMPD/suite.gp" && grep -qx 'set xtics (1, 10, 100, 1000)' "$TMPD/suite.gp"
ok $? "3 decades: log x, integer ticks" || diag "$ERR"
run plot "$TMPD/suite.json" -o "$TMPD/x.svg"
[ "$RC" -eq 2 ] && grep -q -- '--x' <<<"$ERR" && [ ! -e "$TMPD/x.svg" ]
ok $? "no swept parameter: exit 2, asks for --x"
run plot "$TMPD/htab.json" -o "$TMPD/x.svg" --x nr_loops
[ "$RC" -eq 2 ] && grep -q 'records the option nr_loops' <<<"$ERR" && [ ! -e "$TMPD/x.svg" ]
ok $? "--x of an option no run records: exit 2, naming it"
run plot "$TMPD/sweep.json" -o "$TMPD/x.svg" --metric nosuch
[ "$RC" -eq 2 ] && grep -q nosuch <<<"$ERR" && [ ! -e "$TMPD/x.svg" ]
ok $? "--metric of no run: exit 2, naming it"

plot_ok cdf --cdf
[ "$(curves "$TMPD/cdf.gp" | wc -l)" -eq 2 ] && grep -q 'set logscale x' "$TMPD/cdf.gp" &&
	curves "$TMPD/cdf.gp" | grep -qx 'noop batch=64 op: p50 4.12, p99 4077 ns'
ok $? "--cdf: one curve per run and histogram with ops, log x, each keyed with its p50 and p99" ||
	diag "$ERR" "$(cat "$TMPD/cdf.gp")"
# p50, p99 as hist_quantile() reads them: interpolated in their bins (p50 of curve 0: 0.875 + 0.0625 * 40/50)
[ "$(sed -n '/^\$m0 << EOD/,/^EOD/{/EOD/!p}' "$TMPD/cdf.gp" | tr '\n' ' ')" = '0.92500000000000004 0.5 "p50" 318 0.99 "p99" ' ] &&
	[ "$(sed -n '/^\$m1 << EOD/,/^EOD/{/EOD/!p}' "$TMPD/cdf.gp" | tr '\n' ' ')" = '4.125 0.5 "p50" 4076.8000000000002 0.99 "p99" ' ] &&
	[ "$(grep -c '^     \$m[01] using 1:2:3 with labels point pt 7 .* notitle' "$TMPD/cdf.gp")" -eq 2 ]
ok $? "--cdf: p50 and p99 marked on each curve, at the histogram's percentiles" || diag "$(cat "$TMPD/cdf.gp")"

# The subtitle says what was measured, how long and how often; the x axis has one label, with its unit.
plot_ok mlcdf --cdf
title=$(grep '^set title' "$TMPD/mlcdf.gp")
grep -qF -- "-w 0 -d 1 -p 1 -r 2'" <<<"$title" &&
	grep -qF "'map_type=lru_hash key_size=4 value_size=64 max_entries=10000'" <<<"$title" &&
	! grep -q 'fill\|hit\|latency' <<<"$title" && [ "$OUT" = "$TMPD/mlcdf.svg: 1 curve, 6 points" ]
ok $? "--cdf subtitle: the map's type and shape (defaults too), -w/-d/-p/-r; no default options; '1 curve'" ||
	diag "$title" "$OUT"
[ "$(grep -c '^set xlabel' "$TMPD/mlcdf.gp")" -eq 1 ] && grep -qx "set xlabel 'ns per op (log scale)'" "$TMPD/mlcdf.gp" &&
	grep -qx "set xtics ('10' 10, '20' 20, '50' 50, '100' 100)" "$TMPD/mlcdf.gp"
ok $? "--cdf over one decade: one x label with its unit, ticks at 10, 20, 50, 100 (not 10 and 100 alone)" ||
	diag "$(grep -e xlabel -e xtics "$TMPD/mlcdf.gp")"
python3 - "$TMPD/mlcdf.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
texts = ["".join(t.itertext()).strip() for t in root.iter() if t.tag.endswith("}text")]
assert texts.count("ns per op (log scale)") == 1, texts
assert "p50 16.0 ns" in texts and "p99 64.0 ns" in texts, texts
assert any("map_type=lru_hash" in t for t in texts) and any("-d 1" in t and "-r 2" in t for t in texts), texts
PY
ok $? "--cdf SVG: one x label, p50/p99 labels with their values, the subtitle"

plot_ok rbsweep
title=$(grep '^set title' "$TMPD/rbsweep.gp")
grep -qF -- "-w 0 -d 1 -c 1 -r 1, n = 1 sample a point'" <<<"$title" && grep -qF ".'rb_batch_cnt=500'" <<<"$title" &&
	! grep -q -- ' -p \|ringbuf' <<<"$title"
ok $? "sweep subtitle: -c 1 and the batch count (at its default), -w/-d/-r; -p is x; no other default" ||
	diag "$title"
plot_ok manyopts
line=$(grep '^set title' "$TMPD/manyopts.gp" | sed 's/.*\.\"\\n\"\.//')
[ "${#line}" -le 120 ] && grep -q "^'latency=true opt00=v* opt01=v* and 28 more options'$" <<<"$line" && ! grep -q 'batch=' <<<"$line"
ok $? "thirty options: the configuration line stops at 110 columns and counts the rest" || diag "$line"

# The CDF of the crafted file, drawn above.
for n in 0 1; do
	block "$TMPD/cdf.gp" $n | awk 'NR > 1 && ($1 < x || $2 < y) { bad = 1 } { x = $1; y = $2 }
		END { exit bad || y != 1 }'
	ok $? "--cdf: curve $n rises monotonically to 1" || diag "$(block "$TMPD/cdf.gp" $n)"
done
[ "$(block "$TMPD/cdf.gp" 0 | head -1)" = "0.0625 0.10000000000000001 0" ]
ok $? "--cdf: the first bin's count at its upper edge" || diag "$(block "$TMPD/cdf.gp" 0 | head -1)"

run plot "$TMPD/nohist.json" -o "$TMPD/x.svg" --cdf
[ "$RC" -eq 2 ] && grep -q 'histogram' <<<"$ERR" && [ ! -e "$TMPD/x.svg" ]
ok $? "--cdf without histograms: exit 2, says so"

run plot "$TMPD/sweep.json" --help
[ "$RC" -eq 0 ] && grep -q -- '--cdf' <<<"$OUT" && [ -z "$ERR" ]
ok $? "plot --help: usage on stdout, exit 0"
run plot "$TMPD/sweep.json" -o "$TMPD/sweep.png" --metric latency
[ "$RC" -eq 0 ] && [ "$(head -c 8 "$TMPD/sweep.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
ok $? "plot -o x.png --metric latency: a PNG"
# A transparent SVG is unreadable on a dark page: gnuplot's first rectangle, the whole canvas, is white.
python3 - "$TMPD/cdf.svg" "$TMPD/sweep.svg" "$TMPD/sweep.png" <<'PY'
import sys, struct, zlib, xml.etree.ElementTree as ET
for svg in sys.argv[1:3]:
    rect = next(e for e in ET.parse(svg).getroot().iter() if e.tag.endswith("}rect"))
    assert (rect.get("width"), rect.get("height"), rect.get("fill")) == ("960", "580", "#ffffff"), rect.attrib
png = open(sys.argv[3], "rb").read()
color_type, idat, pos = png[25], b"", 8
while pos < len(png):
    n, kind = struct.unpack(">I4s", png[pos:pos + 8])
    idat += png[pos + 8:pos + 8 + n] if kind == b"IDAT" else b""
    pos += 12 + n
assert color_type == 2, color_type	# RGB, no alpha channel
assert zlib.decompress(idat)[1:4] == b"\xff\xff\xff"	# row 0's filter byte, then pixel (0, 0)
PY
ok $? "the background: white, opaque, in SVG (CDF and sweep) and PNG" ||
	diag "$(grep -m1 'rect x="0"' "$TMPD/sweep.svg")" "$(head -1 "$TMPD/sweep.gp")"
run plot "$TMPD/sweep.json" -o "$TMPD/x.gif"
[ "$RC" -eq 2 ]
ok $? "plot to .gif: exit 2"
run plot "$TMPD/sweep.json" -o "$TMPD/nosuch-dir/x.svg"
[ "$RC" -eq 1 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] && grep -q "cannot write $TMPD/nosuch-dir/x.svg" <<<"$ERR"
ok $? "plot into a missing directory: exit 1, one line naming the file" || diag "$ERR"
(umask 077 && "$BPFBENCH" plot "$TMPD/sweep.json" -o "$TMPD/private.svg" >/dev/null 2>&1)
[ "$(stat -c %a "$TMPD/private.svg" 2>/dev/null)" = 644 ] && ! ls "$TMPD"/private.svg.tmp.* >/dev/null 2>&1
ok $? "plot: the image is mode 0644 under umask 077, no temporary left"
head -c 200 "$TMPD/sweep.json" >"$TMPD/truncated.json"
run plot "$TMPD/truncated.json" -o "$TMPD/x.svg"
[ "$RC" -eq 2 ] && [ ! -e "$TMPD/x.svg" ]
ok $? "plot of a truncated file: exit 2"

mkdir "$TMPD/bin" && ln -s "$(command -v cat)" "$TMPD/bin/cat"
PATH="$TMPD/bin" run plot "$TMPD/sweep.json" -o "$TMPD/x.svg"
[ "$RC" -eq 1 ] && grep -q 'gnuplot is not installed' <<<"$ERR"
ok $? "plot without gnuplot: says so"
mkdir "$TMPD/badgp" && cat >"$TMPD/badgp/gnuplot" <<'SH'
#!/bin/sh
printf 'plot $c0 using 1:2\n     ^\n"%s" line 12: all points y value undefined!\n\n' "$1" >&2
exit 1
SH
chmod +x "$TMPD/badgp/gnuplot"
PATH="$TMPD/badgp:$PATH" run plot "$TMPD/sweep.json" -o "$TMPD/x.svg"
[ "$RC" -eq 1 ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] &&
	grep -q 'gnuplot failed: .*line 12: all points y value undefined' <<<"$ERR" && [ ! -e "$TMPD/x.svg" ]
ok $? "gnuplot fails: one line of ours with gnuplot's message, no image" || diag "$ERR"

# --- plot -o behind another user's directory link: refused, nothing written there ---
if command -v setpriv >/dev/null; then
	mkdir -m 1777 "$TMPD/shared" && mkdir -m 700 "$TMPD/rootonly" && chmod 755 "$TMPD"
	setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$TMPD/rootonly" "$TMPD/shared/figs"
	run plot "$TMPD/sweep.json" -o "$TMPD/shared/figs/x.svg"
	[ "$RC" -eq 1 ] && [ -z "$(ls -A "$TMPD/rootonly")" ] && [ "$(grep -c . <<<"$ERR")" -eq 1 ] &&
		grep -q "cannot write $TMPD/shared/figs/x.svg: .* symbolic link another user" <<<"$ERR"
	ok $? "plot -o through another user's directory link: one line, exit 1, nothing behind it (rc $RC)" ||
		diag "$ERR" "$(ls -A "$TMPD/rootonly")"
	run plot "$TMPD/sweep.json" -o "$TMPD/x.svg" --script "$TMPD/shared/figs/x.gp"
	[ "$RC" -eq 1 ] && [ -z "$(ls -A "$TMPD/rootonly")" ] && [ ! -e "$TMPD/x.svg" ]
	ok $? "plot --script through it: refused too, before drawing (rc $RC)" || diag "$ERR"
else
	skip "needs setpriv"
	skip "needs setpriv"
fi

# --- what a plot killed with SIGKILL leaves is removed by the next ---
mkdir "$TMPD/slowgp" && cat >"$TMPD/slowgp/gnuplot" <<SH
#!/bin/sh
echo "\$\$ \$1" >"$TMPD/slowgp/started"
exec sleep 60
SH
chmod +x "$TMPD/slowgp/gnuplot"
PATH="$TMPD/slowgp:$PATH" "$BPFBENCH" plot "$TMPD/sweep.json" -o "$TMPD/k.svg" >/dev/null 2>&1 &
pid=$!
for i in $(seq 100); do [ -s "$TMPD/slowgp/started" ] && break; sleep 0.05; done
kill -KILL $pid
{ wait $pid; } 2>/dev/null
read -r gp script <"$TMPD/slowgp/started"
kill $gp 2>/dev/null
left=$(dirname "$script")
[ -d "$left" ]
ok $? "a plot killed while gnuplot draws leaves $left" || diag "$(cat "$TMPD/slowgp/started")"
run plot "$TMPD/sweep.json" -o "$TMPD/k.svg"
[ "$RC" -eq 0 ] && [ ! -e "$left" ] && [ -z "$(find "$TMPD" -name 'k.svg.tmp*')" ]
ok $? "the next plot removes it; no k.svg.tmp* either (rc $RC)" || diag "$ERR" "$(ls -la "$left" 2>&1)"

# One real file, so that what bpfbench writes is what plot reads (root: it loads BPF).
if [ "$(id -u)" -eq 0 ]; then
	run -q bpf-loop -w0 -d0.2 --period-ms 100 --sweep nr_loops=1,10,100 --json "$TMPD/real.json"
	schema_check "$TMPD/real.json" && plot_ok real
	grep -q 'set logscale x' "$TMPD/real.gp" && grep -qx 'set xtics (1, 10, 100)' "$TMPD/real.gp" &&
		[ "$(curves "$TMPD/real.gp")" = bpf-loop ]
	ok $? "a real sweep: one curve, log x, integer ticks, nothing on stderr" || diag "$ERR"
	run -q noop -w0 -d0.2 --period-ms 100 --latency --json "$TMPD/realh.json"
	schema_check "$TMPD/realh.json" && plot_ok realh --cdf
	block "$TMPD/realh.gp" 0 | awk 'NR > 1 && ($1 < x || $2 < y) { bad = 1 } { x = $1; y = $2 }
		END { exit bad || y != 1 }'
	ok $? "a real noop --latency histogram: a CDF rising to 1" || diag "$ERR"
	run -q map-lookup -w0 -d0.2 --period-ms 100 --latency --map_type lru_hash --value_size 64 --json "$TMPD/realml.json"
	schema_check "$TMPD/realml.json" && plot_ok realml --cdf &&
		grep '^set title' "$TMPD/realml.gp" | grep -F -- "-w 0 -d 0.2 -p 1 -r 1'" |
		grep -qF "'map_type=lru_hash key_size=4 value_size=64 max_entries=10000'" &&
		python3 - "$TMPD/realml.json" "$TMPD/realml.gp" <<'PY'
import json, re, sys
h = json.load(open(sys.argv[1]))["runs"][0]["histograms"]["op"]
m = re.search(r"^\$m0 << EOD\n(\S+) 0.5 \"p50 [^\"]* ns\"\n(\S+) 0.99 \"p99 [^\"]* ns\"$", open(sys.argv[2]).read(), re.M)
assert m, "no marks"
for got, want in zip(map(float, m.groups()), (h["p50"], h["p99"])):
    assert abs(got - want) <= 1e-9 * want, (got, want)
PY
	ok $? "a real map-lookup --latency CDF: the map in the subtitle, p50/p99 marks where the run's Latency line put them" ||
		diag "$ERR" "$(grep -e '^set title' -A3 -e '^\$m0' "$TMPD/realml.gp")"
else
	skip "real runs need root"
	skip "real runs need root"
	skip "real runs need root"
fi

done_testing
