#!/usr/bin/env bash
# The kernel's benchmark scripts as a client of ours: run_bench_*.sh call
# `./bench ...`, join its whole stdout into one line (`echo $2 | tail -n1`,
# unquoted) and cut the figures out of the Summary with sed.  Here the same
# patterns (written out from run_common.sh's and run_bench_htab_mem.sh's
# shapes) go over every family's output, at one sample and at several, and
# must give back the numbers the JSON of the same run holds.
source "$(dirname "$0")/lib.sh"
need_bpf

# --- the scripts' patterns, as they apply them ---
cut_() { sed -E "s/$1/\1/" <<<"$2"; }
k_hits() { cut_ '.*hits\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*' "$1"; }
k_drops() { cut_ '.*drops\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*' "$1"; }
k_total() { cut_ '.*total operations\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s).*' "$1"; }
k_percentage() { cut_ '.*Percentage\s=\s+([0-9]+\.[0-9]+).*' "$1"; }
k_throughput() { cut_ '.*throughput\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+\sM\sops\/s).*' "$1"; }
k_latency() { cut_ '.*latency\s+([0-9]+\.[0-9]+\sns\/op).*' "$1"; }
k_per_prod_op() { cut_ '.* per-prod-op\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+k\/s).*' "$1"; }
k_avg_mem() { cut_ '.* memory usage\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+MiB).*' "$1"; }
k_peak_mem() { cut_ '.* peak memory usage\s+([0-9]+\.[0-9]+MiB).*' "$1"; }
# lpm-trie-free's 'K' rate and ms latency (the seed's shape; no script reads it)
k_free_throughput() { cut_ '.*throughput\s+([0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+\sK\sops\/s).*' "$1"; }
k_free_latency() { cut_ '.*latency\s+([0-9]+\.[0-9]+\sms\/op).*' "$1"; }

# compare SHAPE JSON FIELD=CAPTURE...: each capture is the JSON's figure, to the printed decimals
compare() {
	python3 - "$@" <<'PY'
import json, re, sys
shape, path, pairs = sys.argv[1], sys.argv[2], dict(a.split("=", 1) for a in sys.argv[3:])
r = json.load(open(path))["runs"][0]
m, s = r["metrics"], r["samples"]
n = m[next(iter(m))]["n"]
sd = lambda k: m[k]["stddev"] if n > 1 else 0.0
def per_sample_sd(vals):
    if len(vals) < 2:
        return 0.0
    mu = sum(vals) / len(vals)
    return (sum((v - mu) ** 2 for v in vals) / (len(vals) - 1)) ** 0.5
def lat(k):
    return m[k]["of_mean_inverse"] if m[k]["kind"] == "inverse" else m[k]["mean"]
want = {}
if shape in ("ops", "free"):
    want["throughput"] = (m["throughput"]["mean"], sd("throughput"))
    want["latency"] = (lat("latency"),)
elif shape == "hits":
    total = next(k for k in ("lookups", "updates") if k in m) if "lookups" in m or "updates" in m else None
    want["hits"] = (m["hits"]["mean"], sd("hits"))
    want["drops"] = (m["drops"]["mean"], sd("drops"))
    if total:
        want["total"] = (m[total]["mean"], sd(total))
    else:	# ringbufs: hits + drops of each sample, as the kernel's hits_drops_report_final
        t = [x["hits"] + x["drops"] for x in s]
        want["total"] = (sum(t) / len(t), per_sample_sd(t))
elif shape == "percentage":
    fh = sum(x["false_hits"] for x in s)
    want["percentage"] = (100 * fh / (sum(x["ops"] for x in s) + fh),)
elif shape == "htab":
    want["per_prod_op"] = (m["per-prod-op"]["mean"], sd("per-prod-op"))
    want["avg_mem"] = (m["memory"]["mean"], sd("memory"))
    want["peak_mem"] = (m["peak-memory"]["max"],)
bad = []
for k, w in want.items():
    text = pairs.get(k, "")
    got = [float(x) for x in re.findall(r"[0-9]+\.[0-9]+", text)]
    dec = max((len(x.split(".")[1]) for x in re.findall(r"[0-9]+\.[0-9]+", text)), default=3)
    if len(got) != len(w) or any(abs(g - v) > 0.5 * 10 ** -dec + 1e-9 for g, v in zip(got, w)):
        bad.append("%s: captured %r, JSON %r" % (k, text, w))
print("; ".join(bad) or "n=%d" % n)
sys.exit(1 if bad else 0)
PY
}

# kernel_check SHAPE ARGS...: one run; Summary last; the patterns give the JSON's figures
kernel_check() {
	local shape=$1 joined got fields=()
	shift
	run "$@" --json "$TMPD/k.json"
	if [ "$RC" -ne 0 ]; then
		fail "$shape: $*" "rc=$RC $ERR"
		return
	fi
	# shellcheck disable=SC2086
	joined=$(echo $OUT | tail -n1)	# summarize's summary=$(echo $2 | tail -n1)
	case $shape in
	ops) fields=("throughput=$(k_throughput "$joined")" "latency=$(k_latency "$joined")") ;;
	free) fields=("throughput=$(k_free_throughput "$joined")" "latency=$(k_free_latency "$joined")") ;;
	hits) fields=("hits=$(k_hits "$joined")" "drops=$(k_drops "$joined")" "total=$(k_total "$joined")") ;;
	percentage) fields=("percentage=$(k_percentage "$joined")") ;;
	htab) fields=("per_prod_op=$(k_per_prod_op "$joined")" "avg_mem=$(k_avg_mem "$joined")"
		      "peak_mem=$(k_peak_mem "$joined")") ;;
	esac
	got=$(compare "$shape" "$TMPD/k.json" "${fields[@]}")
	ok $? "$shape patterns read the JSON's figures, Summary last ($got): $*" ||
		diag "$(tail -3 <<<"$OUT")"
	[[ $(tail -n1 <<<"$OUT") == Summary:* ]]
	ok $? "the Summary is the last line: $*" || diag "$(tail -3 <<<"$OUT")"
}

one=(-w0 -d0.1 --period-ms 100)		# one sample
some=(-w0 -d0.3 --period-ms 100)	# three
for t in "one" "some"; do
	declare -n d=$t
	kernel_check ops "${d[@]}" bpf-loop --nr_loops 100
	kernel_check ops "${d[@]}" -a -p2 bpf-loop --nr_loops 1000
	kernel_check ops "${d[@]}" noop
	kernel_check ops "${d[@]}" lpm-trie-lookup --prefix_len=32 --producers=1 --nr_entries=1000
	kernel_check ops "${d[@]}" lpm-trie-delete --nr_entries=1000
	kernel_check hits "${d[@]}" bloom-lookup --nr_entries 10000
	kernel_check hits "${d[@]}" bloom-update --nr_entries 10000
	kernel_check hits "${d[@]}" -p2 hashmap-with-bloom --nr_entries 10000
	kernel_check hits "${d[@]}" hashmap-without-bloom --nr_entries 10000
	kernel_check hits "${d[@]}" -c1 rb-libbpf
	kernel_check hits "${d[@]}" rb-custom --rb-sampled
	kernel_check hits "${d[@]}" -c1 pb-libbpf
	kernel_check hits "${d[@]}" --rb-b2b pb-custom
	kernel_check htab "${d[@]}" htab-mem --use-case overwrite -p2
	kernel_check free "${d[@]}" lpm-trie-free --nr_entries 1000
done
# whole-pass benchmarks: a sample is a pass (the false positive test makes five at least)
kernel_check ops -w0 -d0.01 map-lookup --max_entries 1000
kernel_check ops -w0 -d0.3 map-lookup --max_entries 1000
kernel_check percentage -w0 -d0.01 bloom-false-positive --nr_entries 10000 --nr_probes 20000

# the Summary at one sample: the kernel bench's "± 0.000"; our Stats line says why
run -w0 -d0.2 --period-ms 200 bpf-loop
grep -Eq '^Summary: throughput +[0-9]+\.[0-9]{3} ± 0\.000 M ops/s ' <<<"$OUT" &&
	grep -q '^Stats: throughput n 1, .*(one sample: no spread, no CI)$' <<<"$OUT"
ok $? "one sample: the Summary prints ± 0.000 as the kernel's, Stats says there is no spread" ||
	diag "$OUT"

# --- our own lines: counts whole, Iter lines within 120 columns unless -v ---
run -w0 -d0.3 --period-ms 100 htab-mem --latency -p2 --json "$TMPD/h.json"
wide=$(grep '^Iter' <<<"$OUT" | awk 'length($0) > 120' | head -1)
[ "$RC" -eq 0 ] && [ "$(grep -c '^Iter' <<<"$OUT")" -eq 3 ] && [ -z "$wide" ] &&
	! grep -E '^Iter' <<<"$OUT" | grep -q ' ops ' &&
	grep -Eq '^Stats: ops n 3, median [0-9]+, min [0-9]+, max [0-9]+, cv [0-9.]+%, 95% CI \[[0-9]+, [0-9]+\] ops$' <<<"$OUT"
ok $? "htab-mem: Iter lines <= 120 columns without the counts; Stats of a count in whole numbers" ||
	diag "$wide" "$(grep -E '^(Iter|Stats: ops)' <<<"$OUT")"
run -v -w0 -d0.2 --period-ms 200 bpf-loop --json "$TMPD/v.json"
runs=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["runs"][0]["samples"][0]["runs"])' "$TMPD/v.json")
grep -Eq "^Iter +0 \(.*\): throughput .*, latency .*, ops [0-9]+ ops, runs $runs runs$" <<<"$OUT" &&
	grep -q "^Stats: runs n 1, $runs runs (one sample: no spread, no CI)$" <<<"$OUT"
ok $? "-v: every metric on the Iter line, counts whole ($runs runs), as the Stats line" ||
	diag "$(grep -E '^(Iter|Stats: runs)' <<<"$OUT")"

done_testing
