#!/usr/bin/env bash
# A suite's or sweep's Markdown, read as a mail whose reader has no JSON:
# it shows what the text table shows (queue and stack keep their push and
# pop columns, continued under the first table where 120 columns end),
# says once what it leaves to the JSON, writes every ± by the digits rule
# (two significant digits, the mean to the same place), says how a row
# ran where it differs, gives a row's noise word as the text does, and
# explains what a latency beside a throughput is.  Three short sweeps; and
# a figure the Summary derives is in the JSON.
source "$(dirname "$0")/lib.sh"
need_bpf

HERE=$(dirname "$0")
SHORT=(-w0 -d0.2 --period-ms 100)	# two samples a row: a spread to write

# sweep NAME ARGS...: the text table in NAME.txt, the Markdown in NAME.md and its tables merged
sweep() {
	local name=$1
	shift
	run "$@" "${SHORT[@]}" --md "$TMPD/$name.md"
	cp "$TMPD/out" "$TMPD/$name.txt"
	[ "$RC" -eq 0 ] && python3 "$HERE/md_tables.py" --merged "$TMPD/$name.md" >"$TMPD/$name.tables"
}

sweep ops map-ops --sweep map_type=hash,queue,stack
ok $? "map-ops over hash, queue and stack: exit 0, its Markdown's tables parse" ||
	diag "$RC" "$ERR" "$(cat "$TMPD/ops.md")"
sweep push map-push --sweep period-ms=100,200
ok $? "map-push over two periods: exit 0, tables that parse" || diag "$RC" "$ERR"
sweep pop map-pop --sweep map_type=queue,stack
ok $? "map-pop over queue and stack: exit 0, tables that parse" || diag "$RC" "$ERR"

python3 - "$TMPD/ops.tables" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))[0]
rows = {r["Step"]: r for r in t["rows"]}
for q in ("map_type=queue", "map_type=stack"):
    assert all(rows[q].get(h) for h in ("peek [ns/op]", "push [ns/op]", "pop [ns/op]")), rows[q]
assert all(rows["map_type=hash"].get(h) for h in ("lookup [ns/op]", "update [ns/op]", "delete [ns/op]"))
PY
ok $? "queue and stack rows: their peek, push and pop cells; hash its lookup, update, delete" ||
	diag "$(cat "$TMPD/ops.md")"
# Step, Benchmark and six ops' columns pass 120 by their heads alone
python3 -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 120 for l in open(sys.argv[1], encoding="utf-8")))' \
	"$TMPD/ops.md" && [ "$(grep -c '^| Step ' "$TMPD/ops.md")" -ge 2 ]
ok $? "... every line within 120 columns, the columns past them in tables after the first" ||
	diag "$(cat "$TMPD/ops.md")"

bad=
for f in ops push pop; do
	[ "$(grep -c 'more metrics\? (.* counts) in the JSON and CSV exports' "$TMPD/$f.md")" -eq 1 ] ||
		bad+=" $f"
done
[ -z "$bad" ]
ok $? "what the tables leave to the JSON and CSV (the raw counts): said once" || diag "$bad"

# every "mean ± sd" in the Markdown and in the text table
python3 - "$TMPD"/{ops,push,pop}.{md,txt} <<'PY'
import re, sys
bad, n = [], 0
for path in sys.argv[1:]:
    for mean, sd in re.findall(r"(-?[0-9][0-9.]*) ± ([0-9][0-9.]*)", open(path).read()):
        n += 1
        digits = sd.replace(".", "").lstrip("0")
        if "." not in sd:
            digits = digits.rstrip("0") or "0"	# 120: two digits, then the place's zeros
            two = 1 <= len(digits) <= 2 and len(sd) >= 2
        else:
            two = len(digits) == 2
        places = lambda s: len(s.partition(".")[2])
        if not two or places(mean) != places(sd):
            bad.append("%s: %s ± %s" % (path, mean, sd))
assert n >= 10 and not bad, (n, bad)
PY
ok $? "every ± figure, text and Markdown: the ± to two significant digits, the mean to its place"

# the text rows and the Markdown rows: the same figures under the same names and units
python3 - "$TMPD" <<'PY'
import json, re, sys
d = sys.argv[1]
fig = re.compile(r"^(\S+) (-?[0-9.]+(?: ± [0-9.]+)?) (.+)$")
checked = 0
for name in ("ops", "push", "pop"):
    tables = json.load(open("%s/%s.tables" % (d, name)))
    md = {r["Step"]: r for t in tables for r in t["rows"]}
    for line in open("%s/%s.txt" % (d, name)):
        label = line.split(" ", 1)[0]
        if label not in md:
            continue
        text = re.sub(r"  \[.*$", "", line[len(label):].strip())
        tags = re.findall(r"\[([^]]*)\]", line[len(label):])
        for item in text.split(", "):
            m = fig.match(item)
            assert m, (line, item)
            head = "%s [%s]" % (m.group(1), m.group(3))
            assert head in md[label], (label, head, md[label])
            if "±" in m.group(2):
                assert md[label][head] == m.group(2), (label, head, md[label][head], m.group(2))
            checked += 1
        noise = [w for w in tags if w in ("noisy", "loaded")]
        assert md[label].get("Noise", "") == (noise[0] if noise else ""), (label, tags, md[label])
        runs = [w for w in tags if w not in ("noisy", "loaded") and not w.startswith("CI ")]
        assert md[label].get("Runs", "") == (runs[0] if runs else ""), (label, tags, md[label])
assert checked >= 13, checked
PY
ok $? "text table and Markdown: the same columns, the same ± figures, the same noise word and runs"

# how a row ran where it differs: said in the Markdown itself, not left to the JSON
grep -q '^- runs: -w 0 -d 0.2 --period-ms 100 -r 1, trigger test-run (the first row' "$TMPD/push.md" &&
	python3 - "$TMPD/push.tables" <<'PY' && ! grep -q 'see the JSON' "$TMPD"/*.md
import json, sys
rows = {r["Step"]: r for r in json.load(open(sys.argv[1]))[0]["rows"]}
assert rows["period-ms=100"]["Runs"] == "" and rows["period-ms=200"]["Runs"] == "--period-ms 200", rows
PY
ok $? "rows that ran otherwise: a Runs column says how (--period-ms 200), no 'see the JSON'" ||
	diag "$(cat "$TMPD/push.md")"
grep -q '^period-ms=200 .* \[--period-ms 200\]$' "$TMPD/push.txt"
ok $? "... and the text table's row says it after its figures" || diag "$(cat "$TMPD/push.txt")"

# the noise: a word a row has, its meaning under the table; or a line that none has one
bad=
for out in "$TMPD"/{ops,push,pop}.{md,txt}; do
	if grep -qE '\| (noisy|loaded) +\||\[(noisy|loaded)\]' "$out"; then
		grep -qE '^(- )?(noisy|loaded): ' "$out" || bad+=" $out"
	else
		grep -q "Noise: no row's figure was moved by CPU pressure or steal" "$out" || bad+=" $out"
	fi
done
[ -z "$bad" ]
ok $? "a row's noise word explained under the table, or a line saying no row has one" || diag "$bad"

# what a latency beside a throughput is, where both are shown
grep -q 'it is not 1000 / latency' "$TMPD/push.md" && grep -q 'it is not 1000 / latency' "$TMPD/push.txt" &&
	grep -q "each op's ns/op is kernel time per op" "$TMPD/ops.md"
ok $? "the maps notes: latency is kernel time per op, throughput not its inverse" ||
	diag "$(cat "$TMPD/push.md")"

# what the Summary derives is in the JSON: ringbuf's total operations (hits + drops of each sample)
run rb-custom -c1 "${SHORT[@]}" --json "$TMPD/rb.json"
tot=$(sed -nE 's/^Summary: .*total operations +([0-9.]+ ± +[0-9.]+)M\/s$/\1/p' <<<"$OUT" | tr -s ' ')
[ "$RC" -eq 0 ] && [ -n "$tot" ] && json_check "$TMPD/rb.json" "
t = d['runs'][0]['derived']['total_operations']
'%.3f ± %.3f' % (t['mean'], t['stddev']) == '$tot' and t['unit'] == 'M ops/s' and t['n'] == 2"
ok $? "the Summary's total operations ($tot M/s) is the JSON's derived total_operations" || diag "$OUT"

done_testing
