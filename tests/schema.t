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

# Validations are queued and made together at the end, in one python: a
# start with jsonschema takes a second or two on a busy machine, and this
# file makes some fifty.  queue KIND DESC FILE [EDIT]: KIND valid (the
# document must validate, and for "every" also hold no option's value in a
# metric name) or refused (the edited document must not validate).
NQ=0
queue() {
	local f="$TMPD/q$NQ"
	mkdir -p "$f"
	cp "$3" "$f/doc.json"
	printf '%s' "$1" >"$f/kind"
	printf '%s' "$2" >"$f/desc"
	printf '%s' "${4:-}" >"$f/edit"
	NQ=$((NQ + 1))
}
# run_queue: one ok per queued validation, in order
run_queue() {
	local i desc st errors
	"$PY" - "$SCHEMA" "$TMPD" "$NQ" <<'PY' >"$TMPD/q.out"
import json, os, re, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
check = Draft202012Validator(schema)
def params_free(d):
    bad = []
    for r in d["runs"]:
        vals = set()
        for v in r["options"].values():
            vals |= set(re.findall(r"\d+", json.dumps(v)))
        for k, m in r["metrics"].items():
            name = m.get("name", k)
            if set(re.findall(r"\d+", name)) & vals or k != (name + ("{%s}" % ",".join("%s=%s" % kv for kv in m["key"].items()) if "key" in m else "")):
                bad.append(k)
    return bad
for i in range(int(sys.argv[3])):
    q = os.path.join(sys.argv[2], "q%d" % i)
    kind = open(q + "/kind").read()
    d = json.load(open(q + "/doc.json"))
    edit = open(q + "/edit").read()
    if edit:
        exec(edit)
    errors = ["/".join(map(str, e.path)) + ": " + e.message
              for e in sorted(check.iter_errors(d), key=lambda e: list(e.path))][:5]
    if kind == "refused":
        good = bool(errors)
    else:
        good = not errors
        if kind == "every" and good:
            bad = params_free(d)
            good = not bad
            errors = ["metric names holding an option's value: " + " ".join(bad)] if bad else []
    print("%d\t%s" % (not good, " | ".join(e.replace("\n", " ") for e in errors)))
PY
	i=0
	while IFS=$'\t' read -r st errors; do
		desc=$(cat "$TMPD/q$i/desc")
		ok "$st" "$desc" || diag "$errors"
		i=$((i + 1))
	done <"$TMPD/q.out"
	[ "$i" -eq "$NQ" ]
	ok $? "all $NQ queued validations were made" || diag "$(cat "$TMPD/q.out")"
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
	queue valid "$name: the result of '$*' validates" "$TMPD/$name.json"
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
nr_benches=0
for b in $("$BPFBENCH" --list | awk '{ print $1 }'); do
	args=()
	case $b in
	rb-*|pb-*) args=(-c1) ;;
	map-batch) args=(--max_entries 1000 --batch 10,100) ;;
	lpm-trie-*) args=(-p2 --nr_entries 1000) ;;
	local-storage-cache-hashmap-control) args=(--nr_maps 1) ;;
	esac
	case $b in lpm-trie-free|lpm-trie-insert|lpm-trie-delete) args=(--nr_entries 1000) ;; esac	# one producer
	run -w0 -d0.2 --period-ms 100 -q "${args[@]}" "$b" --json "$TMPD/every.json"
	if [ "$RC" -eq 4 ]; then
		skip "$b: SKIP on this kernel"
		continue
	fi
	if [ "$RC" -ne 0 ] || [ ! -s "$TMPD/every.json" ]; then
		fail "$b ${args[*]}: writes a result" "rc=$RC $(tail -2 <<<"$ERR")"
	else
		queue every "$b ${args[*]}: the result validates, no metric name holds an option's value, keys are name{key}" \
			"$TMPD/every.json"
	fi
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
noise = {"steal_pct", "cpu_pressure_pct", "noisy", "repeat", "cpus", "migrations", "oncpu", "moved", "ref_user_ns", "ref_bpf_ns"}
all(set(s) - noise == {"elapsed_ns"} | set(r["metrics"]) for r in d["runs"] for s in r["samples"])'
ok $? "sweep: every sample has elapsed_ns and each metric of its run, no other key"

# Known breakages are refused, so the validations above mean something.
doc="$TMPD/noop.json"
refused() {	# refused DESCRIPTION EDIT
	queue refused "refused: $1" "$doc" "$2"
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
queue valid "accepted: kinds rate and time with better, and repeats" "$doc" '
m = d["runs"][0]["metrics"]
m["throughput"].update(kind="rate", better="higher")
m["latency"].update(kind="time", better="lower")
d["runs"][0]["repeats"] = [{"metrics": {}}]'

run_queue
done_testing
