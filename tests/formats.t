#!/usr/bin/env bash
# The output formats' list (src/bench/out_formats.h) as a user meets it:
# the verdicts of compare, ab and db changes --fail-on-change as JUnit XML
# (valid against schema/junit.xsd) and KTAP (parsed by the kernel's own
# tools/testing/kunit/kunit_parser.py, from linux-source-6.12), each case
# passed, failed or skipped as the gate decided; an output to stdout ('-')
# alone there, the human lines on stderr; the formats each command takes.
# compare and db changes on crafted files (tests/gen_results.py, the
# history of tests/db_lib.sh); one short ab where BPF can run.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/db_lib.sh"

GEN="$(dirname "$0")/gen_results.py"
XSD="$(cd "$(dirname "$0")/.." && pwd)/schema/junit.xsd"
gen() { python3 "$GEN" "$@" >/dev/null; }

# ---- the kernel's KTAP parser, extracted once per build directory ----
KSRC=/usr/src/linux-source-6.12.tar.xz
KUNIT=$(dirname "$BPFBENCH")/kunit-6.12
kunit_ready() {
	local dir
	[ -s "$KUNIT/kunit_parser.py" ] && return 0
	[ -r "$KSRC" ] || return 1
	dir=$(mktemp -d "$KUNIT.XXXXXX") || return 1
	# the two files alone; --occurrence stops reading once both are out
	tar -xJf "$KSRC" -C "$dir" --strip-components=4 --occurrence=1 \
		linux-source-6.12/tools/testing/kunit/kunit_parser.py \
		linux-source-6.12/tools/testing/kunit/kunit_printer.py 2>/dev/null &&
		{ mv -T "$dir" "$KUNIT" 2>/dev/null || [ -s "$KUNIT/kunit_parser.py" ]; }
	local rc=$?
	rm -rf "$dir"
	return $rc
}

# ktap_counts FILE: "passed failed skipped errors" as kunit_parser reads FILE
ktap_counts() {
	python3 - "$KUNIT" "$1" <<'PY'
import inspect, io, sys
sys.path.insert(0, sys.argv[1])
import kunit_parser, kunit_printer
quiet = kunit_printer.Printer(io.StringIO())
kunit_printer.stdout._output = quiet._output	# its progress lines are not ours to print
lines = open(sys.argv[2], encoding="utf-8").read().splitlines()
if len(inspect.signature(kunit_parser.parse_run_tests).parameters) > 1:
    test = kunit_parser.parse_run_tests(lines, quiet)
else:
    test = kunit_parser.parse_run_tests(lines)
c = test.counts
print(c.passed, c.failed, c.skipped, c.errors + c.crashed)
PY
}

# junit_counts FILE: "passed failed skipped" of its cases, once its
# testsuites' and testsuite's counts agree with them; else nothing
junit_counts() {
	python3 - "$1" <<'PY'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suites = root.findall("testsuite")
cases = [c for s in suites for c in s.findall("testcase")]
fail = sum(c.find("failure") is not None for c in cases)
skip = sum(c.find("skipped") is not None for c in cases)
for node in [root] + suites:
    got = tuple(int(node.get(k)) for k in ("tests", "failures", "skipped", "errors"))
    if got != (len(cases), fail, skip, 0):
        sys.exit("%s counts %s, its cases %s" % (node.tag, got, (len(cases), fail, skip, 0)))
print(len(cases) - fail - skip, fail, skip)
PY
}

# cmp_expect COMPARE.json gate|nogate: "passed failed skipped" as the gate judged the rows
cmp_expect() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d, gate = json.load(open(sys.argv[1])), sys.argv[2] == "gate"
p = f = s = 0
for r in d["rows"]:
    if r["verdict"] == "-":		# a count that follows the duration: not judged
        continue
    if r["regression"]:
        f += 1
    elif r["unjudged"] or (not gate and r["verdict"] == "no verdict"):
        s += 1
    else:
        p += 1
print(p, f, s)
PY
}

# check_verdicts WHAT JUNIT KTAP "P F S": both files hold these cases, JUnit valid, KTAP parsed
check_verdicts() {
	local what=$1 junit=$2 ktap=$3 want=$4 got
	xmllint --noout --schema "$XSD" "$junit" 2>"$TMPD/xmllint"
	ok $? "$what: the JUnit XML is valid against schema/junit.xsd" || diag "$(cat "$TMPD/xmllint")"
	got=$(junit_counts "$junit" 2>&1)
	[ "$got" = "$want" ]
	ok $? "$what: JUnit cases passed, failed, skipped: $got (the gate's: $want)"
	if ! kunit_ready; then
		skip "$what: KTAP by the kernel's parser: no $KSRC (apt-get install linux-source-6.12)"
		return
	fi
	got=$(ktap_counts "$ktap" 2>&1)
	[ "$got" = "$want 0" ] && [ "$(sed -n 1p "$ktap")" = "KTAP version 1" ] &&
		grep -qx "1\.\.$(( $(tr ' ' + <<<"$want") ))" "$ktap"
	ok $? "$what: KTAP by the kernel's kunit_parser: passed, failed, skipped, errors $got (the gate's: $want 0)" ||
		diag "$(head -20 "$ktap")"
}

# ---- compare: OLD and NEW of three rows, the third 20% slower in NEW ----
gen "$TMPD/old.json" --seed 7 --runs 5 --samples 10 --rows 3
gen "$TMPD/same.json" --seed 8 --runs 5 --samples 10 --rows 3
gen "$TMPD/slow.json" --seed 8 --runs 5 --samples 10 --rows 3 --rate-scale 0.8
python3 - "$TMPD/same.json" "$TMPD/slow.json" "$TMPD/new.json" <<'PY'
import json, sys
same, slow = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
same["runs"][2] = slow["runs"][2]
json.dump(same, open(sys.argv[3], "w"))
PY
run compare "$TMPD/old.json" "$TMPD/new.json" --fail-on-regression 5 --run-noise 0 \
	--junit "$TMPD/c.xml" --ktap "$TMPD/c.ktap" --json "$TMPD/c.json"
want=$(cmp_expect "$TMPD/c.json" gate)
read -r p f s <<<"$want"
[ "$RC" -eq 1 ] && [ "$p" -gt 0 ] && [ "$f" -gt 0 ] && [ -s "$TMPD/c.xml" ] && [ -s "$TMPD/c.ktap" ]
ok $? "compare, one row of three 20% slower, --fail-on-regression 5: exit 1, $p rows pass, $f fail" ||
	diag "$ERR"
check_verdicts "compare (pass and fail)" "$TMPD/c.xml" "$TMPD/c.ktap" "$want"
grep -q '<failure message="regression: -[0-9.]*%, beyond --fail-on-regression 5%"/>' "$TMPD/c.xml" &&
	grep -qE '^not ok [0-9]+ bpf-loop: synthetic rows: row 2 throughput$' "$TMPD/c.ktap"
ok $? "the failed case names the regression (JUnit's message; KTAP's row 2 throughput)"

# one run a side, no --run-noise: no verdict, which the gate cannot judge (exit 5): skipped
gen "$TMPD/o1.json" --seed 3 --samples 30 --rows 2
gen "$TMPD/n1.json" --seed 4 --samples 30 --rows 2
for how in "" "--gate-unjudged pass"; do
	# shellcheck disable=SC2086
	run compare "$TMPD/o1.json" "$TMPD/n1.json" --fail-on-regression 5 $how \
		--junit "$TMPD/u.xml" --ktap "$TMPD/u.ktap" --json "$TMPD/u.json"
	want=$(cmp_expect "$TMPD/u.json" gate)
	read -r p f s <<<"$want"
	[ "$RC" -eq "$([ -n "$how" ] && echo 0 || echo 5)" ] && [ "$s" -gt 0 ] && [ "$f" -eq 0 ]
	ok $? "compare, one run a side${how:+, $how}: exit $RC, $s rows skipped (not judged)" || diag "$ERR"
	check_verdicts "compare (skipped${how:+, $how})" "$TMPD/u.xml" "$TMPD/u.ktap" "$want"
done
grep -q '# SKIP not judged: no verdict, .*(passed: --gate-unjudged pass; else exit 5)$' "$TMPD/u.ktap"
ok $? "a skipped case says it was not judged, and what the gate did with it"
run compare "$TMPD/o1.json" "$TMPD/n1.json" --junit "$TMPD/g.xml" --ktap "$TMPD/g.ktap" \
	--json "$TMPD/g.json"
[ "$RC" -eq 0 ]
ok $? "compare without a gate: exit 0" || diag "$ERR"
check_verdicts "compare (no gate)" "$TMPD/g.xml" "$TMPD/g.ktap" "$(cmp_expect "$TMPD/g.json" nogate)"

# ---- one road on stdout: an output to '-' has it alone ----
"$BPFBENCH" compare --json - "$TMPD/old.json" "$TMPD/new.json" 2>"$TMPD/err" |
	python3 -m json.tool >/dev/null
ok $? "compare --json - OLD NEW | python3 -m json.tool: stdout is the JSON alone"
grep -q '^bpf-loop: synthetic rows: row 2: NEW is .* slower than OLD' "$TMPD/err" &&
	grep -q '^Summary: ' "$TMPD/err"
ok $? "... and the answer lines, the table and the summary went to stderr" || diag "$(cat "$TMPD/err")"
run compare "$TMPD/old.json" "$TMPD/new.json" --junit - --fail-on-regression 5 --run-noise 0
printf '%s\n' "$OUT" >"$TMPD/stdout.xml"
[ "$RC" -eq 1 ] && xmllint --noout --schema "$XSD" "$TMPD/stdout.xml" 2>/dev/null &&
	grep -q 'NEW is .* slower' <<<"$ERR"
ok $? "compare --junit -: stdout is the JUnit XML alone, valid" || diag "$OUT"
run compare "$TMPD/old.json" "$TMPD/new.json" --ktap -
[ "$RC" -eq 0 ] && [ "$(head -1 <<<"$OUT")" = "KTAP version 1" ] &&
	! grep -vqE '^(KTAP version 1|1\.\.[0-9]+|(not )?ok [0-9]+ .*|# .*)$' <<<"$OUT"
ok $? "compare --ktap -: stdout holds KTAP lines alone" || diag "$OUT"
run compare "$TMPD/old.json" "$TMPD/new.json" --json - --ktap -
[ "$RC" -eq 2 ] && [ -z "$OUT" ] &&
	grep -q "only one output can go to stdout ('-'): --json and --ktap both do" <<<"$ERR"
ok $? "compare --json - --ktap -: refused, exit 2, nothing on stdout" || diag "$ERR"

# ---- which commands take which formats ----
run --junit "$TMPD/x.xml" noop -w0 -d1
[ "$RC" -eq 2 ] && [ ! -e "$TMPD/x.xml" ]
ok $? "a run has no verdicts: --junit is not its option (exit 2)" || diag "$ERR"
for cmd in compare ab db; do
	run "$cmd" --help
	grep -qE '^ *--junit FILE +write the verdicts as JUnit XML' <<<"$OUT" &&
		grep -qE '^ *--ktap FILE +write the verdicts as KTAP' <<<"$OUT" &&
		grep -qF '[--junit FILE] [--ktap FILE]' <<<"$OUT"
	ok $? "$cmd --help lists --junit and --ktap, from the list of formats" || diag "$OUT"
done
run completion bash
for cmd in compare ab db; do
	for f in junit ktap; do
		grep -A1 -F "'@$cmd':'--$f')" <<<"$OUT" | grep -q '_bpfbench_kind=file' ||
			fail "completion: $cmd --$f completes a file"
	done
done
[ "$(grep -c "'--junit:write the verdicts as JUnit XML" <<<"$OUT")" -eq 3 ]
ok $? "completion: compare, ab and db offer --junit and --ktap, and a file after each"

# ---- db changes --fail-on-change: a case per series ----
DB=$TMPD/history.db
gen "$TMPD/one.json" --seed 3 --samples 5 --rows 1
mkdir -p "$TMPD/step" "$TMPD/short"
mkseries "$TMPD/one.json" "$TMPD/step" 24 12		# a 10% step down at point 13
mkseries "$TMPD/one.json" "$TMPD/short" 5 99 0 shorthost	# 5 points: too short to judge
run db record --db "$DB" -q "$TMPD"/step/*.json "$TMPD"/short/*.json
ok $RC "db record: a history of two hosts" || diag "$ERR"
run db changes --db "$DB" --fail-on-change 5 --json --junit "$TMPD/d.xml" --ktap "$TMPD/d.ktap"
printf '%s\n' "$OUT" >"$TMPD/d.json"
want=$(python3 - "$TMPD/d.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ident = lambda c: (c["bench"], c["options"], c["metric"], c["key"], c["host"])
failed = len({ident(c) for c in d["changes"] if c["beyond_gate"]})
skipped = len(d["unjudged"])
print(d["series"] - failed - skipped, failed, skipped)
PY
)
read -r p f s <<<"$want"
[ "$RC" -eq 1 ] && [ "$p" -gt 0 ] && [ "$f" -gt 0 ] && [ "$s" -gt 0 ]
ok $? "db changes --fail-on-change 5 --json: stdout is the JSON alone; exit 1; series $p pass, $f fail, $s not judged" ||
	diag "$OUT" "$ERR"
check_verdicts "db changes" "$TMPD/d.xml" "$TMPD/d.ktap" "$want"
grep -q 'classname="bpf-loop on shorthost"><skipped\|<skipped message="not judged: 5 runs recorded, and the gate judges a series of ' "$TMPD/d.xml"
ok $? "db changes: a series too short to judge is skipped, saying why"
run db changes --db "$DB" --junit -
[ "$RC" -eq 2 ] && grep -q "db: --junit writes the verdicts of changes --fail-on-change PCT" <<<"$ERR"
ok $? "db changes --junit without --fail-on-change: refused (exit 2)" || diag "$ERR"
run db changes --db "$DB" --fail-on-change 5 --json --junit -
[ "$RC" -eq 2 ] && grep -q "only one output can go to stdout ('-'): --json and --junit both do" <<<"$ERR"
ok $? "db changes --json (stdout) and --junit -: refused (exit 2)" || diag "$ERR"
run db changes --db "$DB" --fail-on-change 5 --ktap -
[ "$RC" -eq 1 ] && [ "$(head -1 <<<"$OUT")" = "KTAP version 1" ] && grep -q '^Gate: ' <<<"$ERR"
ok $? "db changes --ktap -: stdout the KTAP alone, the lines on stderr" || diag "$OUT"

# ---- ab: its verdicts are compare's ----
if [ "$(id -u)" -eq 0 ]; then
	run ab "noop -w0 -d0.3 --period-ms 100" "noop -w0 -d0.3 --period-ms 100" -r 3 --seed 1 \
		--junit - --ktap "$TMPD/ab.ktap"
	printf '%s\n' "$OUT" >"$TMPD/ab.xml"
	[ "$RC" -eq 0 ] && grep -q '^  throughput ' <<<"$ERR"
	ok $? "ab --junit -: exit 0, the answer and the table on stderr" || diag "$ERR"
	want=$(junit_counts "$TMPD/ab.xml")
	read -r p f s <<<"$want"
	[ "$f" -eq 0 ] && [ $((p + s)) -gt 0 ] && grep -q 'testsuite name="bpfbench ab"' "$TMPD/ab.xml"
	ok $? "ab of noop against itself: no case fails ($want)"
	check_verdicts "ab" "$TMPD/ab.xml" "$TMPD/ab.ktap" "$want"
	run ab "noop -w0 -d1" "noop -w0 -d1" --json - --junit -
	[ "$RC" -eq 2 ] && grep -q "only one output can go to stdout" <<<"$ERR"
	ok $? "ab --json - --junit -: refused before any run (exit 2)" || diag "$ERR"
else
	skip "ab's verdicts: needs root for BPF"
fi

done_testing
