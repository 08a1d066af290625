#!/usr/bin/env bash
# The result files of real short runs validate against the JSON Schema in
# schema/, with Debian's python3-jsonschema; and the schema is not
# vacuous: documents broken in known ways are refused.
source "$(dirname "$0")/lib.sh"

SCHEMA="$(cd "$(dirname "$0")/.." && pwd)/schema/bpfbench-result.schema.json"
PY=/usr/bin/python3	# Debian's, with python3-jsonschema (a python3 earlier in PATH may lack it)

if ! "$PY" -c 'import jsonschema' 2>/dev/null; then
	[ -n "${CI:-}" ] && { echo "Bail out! CI needs python3-jsonschema (scripts/deps.sh)"; exit 1; }
	skip_all "needs python3-jsonschema (scripts/deps.sh installs it)"
fi
need_bpf

# validate FILE [EDIT]: exit 0 if FILE, after the python statement EDIT on
# the document d, validates; the errors on stdout otherwise.
validate() {
	"$PY" - "$SCHEMA" "$@" <<'PY'
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
d = json.load(open(sys.argv[2]))
if len(sys.argv) > 3:
    exec(sys.argv[3])
errors = sorted(Draft202012Validator(schema).iter_errors(d), key=lambda e: list(e.path))
for e in errors[:5]:
    print("/".join(map(str, e.path)) + ": " + e.message)
sys.exit(1 if errors else 0)
PY
}

# check NAME ARGS...: runs bpfbench ARGS with --json, validates the result
check() {
	local name=$1 out
	shift
	# a result of several samples: what it holds is checked, not its figures
	run -w0 -d0.3 --period-ms 100 -q "$@" --json "$TMPD/$name.json"
	if [ "$RC" -ne 0 ] || [ ! -s "$TMPD/$name.json" ]; then
		fail "$name: $* writes a result" "rc=$RC err=$ERR"
		return
	fi
	out=$(validate "$TMPD/$name.json")
	ok $? "$name: the result of '$*' validates" || diag "$out"
}

check noop noop
check bpf-loop bpf-loop --nr_loops 100
check map-batch map-batch --max_entries 1000 --batch 10,1000
check sweep bpf-loop --sweep nr_loops=1,100
check htab-mem htab-mem --use-case overwrite
check rb-custom -c1 rb-custom
check precision noop --precision 50 --max-duration 2
# fentry is refused on some kernels: then the run is a SKIP with an error
check trigger-sweep noop --sweep trigger=test-run,fentry

# Every benchmark: its result validates, and its metric names carry no parameter: no
# number in a name is the value of one of the run's options (map-batch's batch sizes
# are in each metric's key, not its name).  Small sizes, so that a number would show.
params_free() {	# params_free FILE: exit 0, or the offending names on stdout
	"$PY" - "$1" <<'PY'
import json, re, sys
bad = []
for r in json.load(open(sys.argv[1]))["runs"]:
    vals = set()
    for v in r["options"].values():
        vals |= set(re.findall(r"\d+", json.dumps(v)))
    for k, m in r["metrics"].items():
        name = m.get("name", k)
        key = "".join("{%s=%s}" % kv for kv in m.get("key", {}).items())
        if set(re.findall(r"\d+", name)) & vals or k != (name + ("{%s}" % ",".join("%s=%s" % kv for kv in m["key"].items()) if "key" in m else "")):
            bad.append(k)
print(" ".join(bad))
sys.exit(1 if bad else 0)
PY
}
nr_benches=0
for b in $("$BPFBENCH" --list | awk '{ print $1 }'); do
	args=()
	case $b in
	rb-*|pb-*) args=(-c1) ;;
	map-batch) args=(--max_entries 1000 --batch 10,100) ;;
	lpm-trie-*) args=(-p2 --nr_entries 1000) ;;
	esac
	[ "$b" = lpm-trie-free ] && args=(--nr_entries 1000)
	run -w0 -d0.2 --period-ms 100 -q "${args[@]}" "$b" --json "$TMPD/every.json"
	if [ "$RC" -eq 4 ]; then
		skip "$b: SKIP on this kernel"
		continue
	fi
	out=$(validate "$TMPD/every.json") && names=$(params_free "$TMPD/every.json")
	ok $? "$b ${args[*]}: the result validates, no metric name holds an option's value, keys are name{key}" ||
		diag "rc=$RC $out $names" "$(tail -2 <<<"$ERR")"
	nr_benches=$((nr_benches + 1))
done
[ "$nr_benches" -ge 20 ]
ok $? "every benchmark checked ($nr_benches ran)"

# The optional parts were there to be validated.
json_check "$TMPD/precision.json" '"precision" in d["runs"][0]'
ok $? "precision: the run has its precision object"
json_check "$TMPD/htab-mem.json" '"method" in d["runs"][0]'
ok $? "htab-mem: the run names its memory method"
json_check "$TMPD/sweep.json" 'all("sweep_param" in r and "label" in r for r in d["runs"])'
ok $? "sweep: runs have their label and sweep_param"

# What the schema cannot say: each sample has exactly the run's metrics.
json_check "$TMPD/sweep.json" '
noise = {"steal_pct", "cpu_pressure_pct", "noisy", "repeat"}
all(set(s) - noise == {"elapsed_ns"} | set(r["metrics"]) for r in d["runs"] for s in r["samples"])'
ok $? "sweep: every sample has elapsed_ns and each metric of its run, no other key"

# Known breakages are refused, so the validations above mean something.
doc="$TMPD/noop.json"
refused() {	# refused DESCRIPTION EDIT
	local out
	out=$(validate "$doc" "$2")
	[ $? -eq 1 ] && [ -n "$out" ]
	ok $? "refused: $1" || diag "$out"
}
refused "another schema version" 'd["schema"] = "bpfbench-result/2"'
refused "no env" 'del d["env"]'
refused "an unknown top-level key" 'd["extra"] = 1'
refused "a failed run without its error" 'd["runs"][0]["status"] = 1'
refused "a metric of an unknown kind" 'd["runs"][0]["metrics"]["throughput"]["kind"] = "fast"'
refused "better other than higher/lower/none" 'd["runs"][0]["metrics"]["throughput"]["better"] = "up"'
refused "an inverse metric without its base" 'del d["runs"][0]["metrics"]["latency"]["of"]'
refused "a mean that is a string" 'd["runs"][0]["metrics"]["throughput"]["mean"] = "1.0"'
refused "a fractional sample time" 'd["runs"][0]["samples"][0]["elapsed_ns"] = 1.5'
refused "an option that is a list" 'd["runs"][0]["options"]["batch"] = [1]'
refused "an unknown trigger" 'd["runs"][0]["trigger"] = "kprobe"'
refused "a metric key that is not an object" 'd["runs"][0]["metrics"]["throughput"]["key"] = "op=lookup"'
refused "a key field that is a list" 'd["runs"][0]["metrics"]["throughput"]["key"] = {"batch": [1]}'
refused "a metric name with a key in it" 'd["runs"][0]["metrics"]["throughput"]["name"] = "throughput{op=x}"'

# What is coming is already accepted: metric kinds, better, repeats.
out=$(validate "$doc" '
m = d["runs"][0]["metrics"]
m["throughput"].update(kind="rate", better="higher")
m["latency"].update(kind="time", better="lower")
d["runs"][0]["repeats"] = [{"metrics": {}}]')
ok $? "accepted: kinds rate and time with better, and repeats" || diag "$out"

done_testing
