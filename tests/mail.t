#!/usr/bin/env bash
# Output fit for a patch mail, from the one road: Markdown opens with the
# conditions and its tables parse, every line within 120 columns, one
# sample's cell without ±, a column in one number format, counts whole;
# -q prints the Summary alone; a suite's printed table keeps 120 columns,
# a skipped step a row of its own; JSON carries the totals and notes the
# human lines show.
source "$(dirname "$0")/lib.sh"
need_bpf

HERE=$(dirname "$0")
wide() { awk -v f="$2" 'length($0) > 120 { print f ": " length($0) ": " $0 }' "$1"; }

# --- Markdown: conditions, then tables that parse ---
run bpf-loop -w0 -d1 --sweep nr_loops=1,10 --md "$TMPD/one.md"
[ "$RC" -eq 0 ] && python3 "$HERE/md_tables.py" "$TMPD/one.md" >"$TMPD/one.tables"
ok $? "--md of a sweep: its tables parse" || diag "$ERR" "$(cat "$TMPD/one.md")"
kernel=$(uname -r)
grep -q '^- bpfbench [^ ]* (commit [^)]*), [0-9-]*T[0-9:]*Z$' "$TMPD/one.md" &&
	grep -qF -- "- kernel $kernel (" "$TMPD/one.md" && grep -q ', [0-9]* CPUs$' "$TMPD/one.md" &&
	grep -q '^- runs: -w 0 -d 1 --period-ms 1000 -r 1, trigger ' "$TMPD/one.md"
ok $? "--md: version and commit, date, kernel, CPU, -w/-d/period/-r and trigger before the tables" ||
	diag "$(head -8 "$TMPD/one.md")"
[ -z "$(wide "$TMPD/one.md" md)" ]
ok $? "--md: no line over 120 columns" || diag "$(wide "$TMPD/one.md" md)"
# one sample a row: the mean alone; a header that says so
python3 - "$TMPD/one.tables" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))[0]
cols = [h for h in t["header"] if "[" in h]
assert cols and t["rows"], t
assert all("±" not in r[h] and r[h] for r in t["rows"] for h in cols), t["rows"]
# one format per column: every cell of a column has its decimals
for h in cols:
    assert len({len(r[h].partition(".")[2]) for r in t["rows"]}) == 1, [r[h] for r in t["rows"]]
PY
ok $? "--md: one sample a row, no ±; each column's cells in one number format"

# several samples: mean ± sd; the raw counts left to JSON/CSV, said under the table
run bpf-loop -w0 -d0.4 --period-ms 100 --md "$TMPD/two.md" --json "$TMPD/two.json"
[ "$RC" -eq 0 ] && python3 "$HERE/md_tables.py" "$TMPD/two.md" >"$TMPD/two.tables" &&
	python3 - "$TMPD/two.tables" "$TMPD/two.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))[0]
r = json.load(open(sys.argv[2]))["runs"][0]
heads = t["header"]
assert "throughput [M ops/s]" in heads, heads
cell = t["rows"][0]["throughput [M ops/s]"]
mean, sd = (float(x) for x in cell.split(" ± "))
m = r["metrics"]["throughput"]
d = len(cell.split(" ± ")[0].partition(".")[2])
assert abs(mean - m["mean"]) <= 0.51 * 10 ** -d and abs(sd - m["stddev"]) <= 0.51 * 10 ** -d, (cell, m)
counts = [k for k, v in r["metrics"].items() if v["kind"] == "count"]
assert counts and not any(h.split(" [")[0] in counts for h in heads), (counts, heads)
PY
ok $? "--md of 4 samples: mean ± sd as the JSON has them; counts stay in JSON" || diag "$(cat "$TMPD/two.md")"
grep -q '^[0-9]* more metrics\? (.* counts) in the JSON and CSV exports\.$' "$TMPD/two.md"
ok $? "--md: what the table leaves out is said under it"

# --- CSV: the same conditions, as columns ---
run noop -w0 -d1 --csv "$TMPD/r.csv"
python3 - "$TMPD/r.csv" "$kernel" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = rows[0]
assert r["kernel"] == sys.argv[2] and r["cpus"].isdigit() and r["cpu_model"], r
assert r["warmup_s"] == "0" and r["duration_s"] == "1" and r["period_ms"] == "1000" and r["runs"] == "1", r
assert r["trigger"] in ("test-run", "raw-tp", "fentry") and r["bpfbench_version"] and r["date"], r
PY
ok $? "--csv: every row carries version, date, kernel, CPU, -w/-d/period/-r and trigger"

# --- -q: the Summary alone ---
run -q -w0 -d1 rb-custom
[ "$RC" -eq 0 ] && [ "$(grep -c . <<<"$OUT")" -eq 1 ] && grep -q '^Summary: hits ' <<<"$OUT" && [ -z "$ERR" ]
ok $? "-q: the Summary line alone, nothing on stderr" || diag "$OUT" "$ERR"
run -w0 -d1 rb-custom --rb-verify --json "$TMPD/rb.json"
grep -q '^Totals: attempted [0-9]*, produced [0-9]*' <<<"$OUT" && [ -z "$(wide "$TMPD/out" out)" ] &&
	json_check "$TMPD/rb.json" '
t = d["runs"][0]["totals"]
t["attempted"] == t["produced"] + t["dropped"] and len(t["digest"]) == 16'
ok $? "without -q: the Totals line, within 120 columns; JSON totals add up" || diag "$OUT"

# --- a suite's table: rows within 120 columns, a table inside a row too; skipped steps ---
run suite map-batch -w0 -d0.2 --max_entries 1000
[ "$RC" -eq 0 ] && [ -z "$(wide "$TMPD/out" table)" ] && grep -q '^  op  *batch  *time \[ms\]' <<<"$OUT"
ok $? "suite map-batch: no line over 120 columns, each row's table under it" || diag "$(wide "$TMPD/out" table)"
grep -q '^Conditions: kernel .*; rows: -w 0 -d 0.2 ' <<<"$OUT"
ok $? "the table closes with its conditions" || diag "$(tail -3 <<<"$OUT")"
if ! "$BPFBENCH" probe | grep -q '^rb_overwrite *yes'; then
	run -w0 -d0.2 --period-ms 100 -c1 --rb-overwrite --ringbuf-sz 4096 rb-custom --sweep producers=1,2,3
	n=$(grep -c '^producers=[123] *SKIP: ' <<<"$OUT")
	[ "$n" -eq 3 ] && [ "$(grep -c 'SKIP: as above$' <<<"$OUT")" -eq 2 ] &&
		[ -z "$(wide "$TMPD/out" table)" ]
	ok $? "overwrite mode missing: each skipped step a row, the reason said once" || diag "$OUT"
else
	pass "this kernel has overwrite mode: no step skipped"
fi

done_testing
