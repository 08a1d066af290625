# The history's cases (bpfbench db), shared by tests/db.t (SQLite) and
# tests/db_pg.t (PostgreSQL 15): one code path, the same checks on both.
# The caller sets DB (a path or postgresql:// URI) and defines q SQL (the
# engine's own client: rows tab-separated), then calls db_cases.
# shellcheck shell=bash

# mkseries REAL.json DIR N STEP_AT [NOISE HOST]: N results made from a real
# one, dated a day apart, on kernel 6.1 before STEP_AT and 6.12 from it,
# throughput 10% lower from STEP_AT (latency its inverse), 1% noise drawn
# with a fixed seed, and NOISE (0) more from run to run, on HOST (testhost).
mkseries() {
	python3 - "$@" <<'PY'
import copy, json, random, sys
src, out, n, step_at = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
noise = float(sys.argv[5]) if len(sys.argv) > 5 else 0
host = sys.argv[6] if len(sys.argv) > 6 else "testhost"
base = json.load(open(src))
rnd = random.Random(34)
for i in range(n):
    d = copy.deepcopy(base)
    d["env"]["date"] = "2026-01-%02dT12:00:00Z" % (i + 1)
    # the first three on an older kernel still: a side of a change may span kernels
    d["env"]["kernel"] = "6.1.0-27-amd64" if i < 3 else "6.1.0-28-amd64" if i < step_at else "6.12.9-amd64"
    d["env"]["git_commit"] = "c%06d" % i
    d["env"]["hostname"] = host
    run = d["runs"][0]
    # five samples whatever the real run gave: the drawn series is the same on every machine
    run["samples"] = [copy.deepcopy(run["samples"][0]) for _ in range(5)]
    for name in run["metrics"]:
        run["metrics"][name]["n"] = 5
    level = 100.0 * (0.9 if i >= step_at else 1.0)
    # (no draw without NOISE: the default series stay as they were)
    run_level = level * (1 + noise * rnd.gauss(0, 1)) if noise else level
    thr = [run_level * (1 + 0.01 * rnd.gauss(0, 1)) for _ in run["samples"]]
    for s, t in zip(run["samples"], thr):
        s["throughput"], s["latency"] = t, 1000.0 / t
    m = run["metrics"]
    mean = sum(thr) / len(thr)
    m["throughput"]["mean"] = mean
    m["latency"]["of_mean_inverse"] = 1000.0 / mean
    m["latency"]["mean"] = sum(1000.0 / t for t in thr) / len(thr)
    json.dump(d, open("%s/s%02d.json" % (out, i), "w"))
PY
}

# mkbig REAL.json OUT RUNS: one result of RUNS runs (a suite's size)
mkbig() {
	python3 - "$@" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
d["runs"] = [copy.deepcopy(d["runs"][0]) for _ in range(int(sys.argv[3]))]
for i, r in enumerate(d["runs"]):
    r["label"] = "copy %d" % i
d["env"]["date"] = "2025-06-01T00:00:00Z"
json.dump(d, open(sys.argv[2], "w"))
PY
}

# consistent: every result has all its runs, every run its metrics
consistent() {
	[ "$(q "SELECT count(*) FROM results r WHERE r.nr_runs <> (SELECT count(*) FROM runs u WHERE u.result_id = r.id)")" = 0 ] &&
	[ "$(q "SELECT count(*) FROM runs u WHERE NOT EXISTS (SELECT 1 FROM metrics m WHERE m.run_id = u.id)")" = 0 ]
}

counts() { q "SELECT (SELECT count(*) FROM results) || ' ' || (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM metrics)"; }

db() { run db "$1" --db "$DB" "${@:2}"; }

# The schema as version 1 wrote it, with one result: what an older bpfbench left.
V1_SQL="CREATE TABLE schema_version (version BIGINT NOT NULL); INSERT INTO schema_version VALUES (1);
CREATE TABLE results (id @ID, sha256 TEXT NOT NULL UNIQUE, path TEXT, recorded_at TEXT NOT NULL, host TEXT NOT NULL, kernel TEXT NOT NULL, kernel_build TEXT, machine TEXT, cpu_model TEXT, version TEXT, git_commit TEXT, date TEXT NOT NULL, env TEXT NOT NULL, nr_runs BIGINT NOT NULL);
CREATE TABLE runs (id @ID, result_id BIGINT NOT NULL REFERENCES results(id), idx BIGINT NOT NULL, bench TEXT NOT NULL, label TEXT, suite TEXT, section TEXT, status BIGINT NOT NULL, options TEXT NOT NULL, measured TEXT NOT NULL, nr_samples BIGINT NOT NULL);
CREATE TABLE metrics (id @ID, run_id BIGINT NOT NULL REFERENCES runs(id), name TEXT NOT NULL, mkey TEXT NOT NULL, unit TEXT NOT NULL, kind TEXT NOT NULL, better TEXT NOT NULL, n BIGINT NOT NULL, mean DOUBLE PRECISION, stddev DOUBLE PRECISION, figure DOUBLE PRECISION, samples TEXT NOT NULL);
CREATE INDEX runs_result ON runs(result_id); CREATE INDEX metrics_run ON metrics(run_id);
INSERT INTO results (id, sha256, path, recorded_at, host, kernel, date, env, nr_runs) VALUES (1, 'old', 'old.json', '2025-01-01T00:00:00Z', 'oldhost', '5.10.0', '2025-01-01T00:00:00Z', '{}', 1);
INSERT INTO runs (id, result_id, idx, bench, status, options, measured, nr_samples) VALUES (1, 1, 0, 'noop', 0, '{}', '', 2);
INSERT INTO metrics (run_id, name, mkey, unit, kind, better, n, mean, stddev, figure, samples) VALUES (1, 'throughput', '', 'M ops/s', 'rate', 'higher', 2, 50, 1, 50, '49.5,50.5');"

# mkbad REAL.json DIR: result files that are no result to record, each named for its fault
mkbad() {
	python3 - "$@" <<'PY'
import copy, json, sys
src, out = sys.argv[1], sys.argv[2]
base = json.load(open(src))
def put(name, d=None, text=None):
    with open("%s/%s.json" % (out, name), "w") as f:
        f.write(text if text is not None else json.dumps(d))
def env(k, v):
    d = copy.deepcopy(base); d["env"][k] = v; return d
def metric(name, v):
    d = copy.deepcopy(base); r = d["runs"][0]
    r["metrics"][name]["mean"] = v
    for s in r["samples"]:
        s[name] = v
    return d
put("notadate", env("date", "not a date"))
put("baddate", env("date", "2026-13-45T99:99:99Z"))
put("hostnum", env("hostname", 5))
put("kernelobj", env("kernel", {"a": 1}))
norun = copy.deepcopy(base); norun["runs"] = []
put("noruns", norun)
put("negative", metric("throughput", -5))
with open("%s/badutf8.json" % out, "wb") as f:
    f.write(json.dumps(env("hostname", "XXHOSTXX")).encode().replace(b"XXHOSTXX", b"\xff\xfe"))
t = json.dumps(base)
put("dupkey", text=t.replace('"env": {', '"env": {"hostname": "first", ', 1))
put("duprun", text=t.replace('"bench": ', '"be\\u006ech": "x", "bench": ', 1))
# recorded, but shown bounded and escaped; the date kept as UTC
d = env("date", "2026-03-01T12:00:00.25+02:00")
d["env"]["hostname"], d["env"]["kernel"] = "h" * (10 << 20), "6.1\n\x1b[31mred"
put("odd", d)
PY
}

# Files that are no result to record: each refused with one line, exit 2, nothing written.
hardening_refusals() {
	local w=$1 f before
	mkdir -p "$w/bad"
	mkbad "$w/real.json" "$w/bad"
	grep -q '"hostname": "first"' "$w/bad/dupkey.json" && grep -q 'be\\u006ech' "$w/bad/duprun.json" &&
		[ "$(head -c 3000 "$w/bad/badutf8.json" | grep -c $'\xff\xfe')" = 1 ]
	ok $? "the refused files are made as meant" || return
	before=$(counts)
	for f in notadate:"env.date \"not a date\" is not an RFC 3339 date-time" \
		baddate:"env.date \"2026-13-45T99:99:99Z\" is not an RFC 3339" \
		hostnum:"env.hostname is a number, not a string" \
		kernelobj:"env.kernel is an object, not a string" \
		noruns:"no runs: nothing to record" \
		negative:"runs\[0\].metrics.throughput: -5 M ops/s, but a rate is >= 0" \
		badutf8:"env.hostname is not UTF-8 (byte 0xff" \
		dupkey:"env has the member \"hostname\" twice" \
		duprun:"runs\[0\] has the member \"bench\" twice"; do
		db record "$w/bad/${f%%:*}.json"
		[ "$RC" -eq 2 ] && [ "$(wc -l <<<"$ERR")" = 1 ] && grep -q -- "${f#*:}" <<<"$ERR" &&
			[ "$(counts)" = "$before" ]
		ok $? "record refuses ${f%%:*}.json: ${f#*:}" || diag "rc $RC" "$ERR"
	done
	db record "$w/bad/odd.json"
	[ "$RC" -eq 0 ] && [ "$(wc -c <<<"$OUT")" -lt 600 ] && grep -qE 'h{200}\.\.\.\([0-9]+ bytes\)' <<<"$OUT" &&
		[ "$(q "SELECT date FROM results WHERE kernel LIKE '6.1%red'")" = 2026-03-01T10:00:00Z ]
	ok $? "a 10 MB hostname: recorded, echoed bounded; a date at +02:00 kept as UTC" ||
		diag "rc $RC $(head -c 300 <<<"$OUT")" "$ERR"
	db show noop --since 2026-03-01 --until 2026-03-01
	[ "$RC" -eq 0 ] && [ "$(wc -l <<<"$OUT")" = 3 ] && grep -qF '6.1\n\x1b[31mred' <<<"$OUT" &&
		! grep -q $'\x1b' <<<"$OUT" && [ "$(wc -c <<<"$OUT")" -lt 2000 ]
	ok $? "show: the kernel's newline and escape shown escaped, the hostname bounded" ||
		diag "$(head -c 600 <<<"$OUT")"
	db show noop --since 2026-03-01 --until 2026-03-01 --json
	python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); assert len(p[0]["host"]) > 1000 and p[0]["kernel"] == "6.1\n\x1b[31mred"' "$TMPD/out"
	ok $? "show --json: the same values whole, as JSON escapes them"
	q "DELETE FROM metrics WHERE run_id IN (SELECT u.id FROM runs u JOIN results r ON u.result_id = r.id WHERE r.date = '2026-03-01T10:00:00Z')"
	q "DELETE FROM runs WHERE result_id IN (SELECT id FROM results WHERE date = '2026-03-01T10:00:00Z')"
	q "DELETE FROM results WHERE date = '2026-03-01T10:00:00Z'"
}

# mkextreme REAL.json DIR HOST V1 V2: ten results of throughput alone, five at V1, five at V2
mkextreme() {
	python3 - "$@" <<'PY'
import copy, json, sys
src, out, host, v1, v2 = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
base = json.load(open(src))
for i in range(10):
    d = copy.deepcopy(base)
    d["env"]["hostname"], d["env"]["date"] = host, "2026-04-%02dT12:00:00Z" % (i + 1)
    r = d["runs"][0]
    r["metrics"] = {"throughput": r["metrics"]["throughput"]}
    v = (v1 if i < 5 else v2) * (1 + 0.001 * i)
    r["metrics"]["throughput"].update(mean=v, stddev=0, median=v, min=v, max=v, cv=0,
                                      ci95_low=v, ci95_high=v)
    r["samples"] = [{k: s[k] for k in s if k != "latency"} for s in r["samples"]]
    for s in r["samples"]:
        s["throughput"] = v
    json.dump(d, open("%s/%s%02d.json" % (out, host, i), "w"))
PY
}

# Figures at the ends of a double's range, a step from 0, and figures the database
# holds that are no numbers: every case found or named.
extreme_cases() {
	local w=$1
	mkdir -p "$w/ext"
	mkextreme "$w/real.json" "$w/ext" tiny 1e-300 1e300
	mkextreme "$w/real.json" "$w/ext" zero 0 1
	db record -q "$w"/ext/*.json
	[ "$RC" -eq 0 ]
	ok $? "record: 1e-300, 1e300 and 0 are rates a result may have" || diag "$ERR"
	db changes noop --host tiny
	grep -q "^noop throughput (M ops/s) on tiny: point 6 of 10" <<<"$OUT" && grep -q "improvement" <<<"$OUT"
	ok $? "changes: five points of 1e-300, five of 1e300: the change at point 6" || diag "$OUT" "$ERR"
	db changes noop --host zero --fail-on-change 5
	grep -q "^noop throughput (M ops/s) on zero: point 6 of 10" <<<"$OUT" &&
		grep -q "step from 0 to 1.00[0-9]* (no percentage of 0)  p 0.0[0-9]*  improvement$" <<<"$OUT" &&
		! grep -qi "inf" <<<"$OUT" && [ "$RC" -eq 0 ]
	ok $? "changes: a step from 0 named with both means, not +inf%" || diag "$OUT" "$ERR"
	db changes noop --host zero --json
	python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["changes"][0]; assert c["step_pct"] is None and c["before_mean"] == 0 and 1 <= c["after_mean"] < 1.01, c' "$TMPD/out"
	ok $? "changes --json: step_pct null, the two means said"
	q "UPDATE metrics SET figure = 'NaN' WHERE run_id IN (SELECT u.id FROM runs u JOIN results r ON u.result_id = r.id WHERE r.host = 'tiny' AND r.date = '2026-04-03T12:00:00Z')"
	db changes noop --host tiny
	grep -q "on tiny: point 5 of 9" <<<"$OUT" &&
		grep -q "db: noop throughput on tiny: the figure of 2026-04-03T12:00:00Z is NaN, not a finite number: left out" <<<"$ERR"
	ok $? "a NaN figure in the database: named and left out, not read as 0" || diag "$OUT" "$ERR"
	q "UPDATE metrics SET figure = 'Infinity' WHERE run_id IN (SELECT u.id FROM runs u JOIN results r ON u.result_id = r.id WHERE r.host = 'zero')"
	db plot noop --host zero -o "$w/inf.svg"
	[ "$RC" -eq 2 ] && grep -q "db plot: the series of noop has no finite figure (10 left out)" <<<"$ERR" &&
		[ ! -e "$w/inf.svg" ]
	ok $? "plot over figures of Infinity: named, not 'no series match'" || diag "$ERR"
}

db_cases() {	# db_cases WORKDIR
	local w=$1 f out sha
	mkdir -p "$w/series"
	"$BPFBENCH" -w0 -d0.5 --period-ms 100 noop --json "$w/real.json" -q >/dev/null 2>&1 ||
		{ fail "a real noop run for the history" "$(cat "$w/real.json" 2>&1)"; return; }
	mkseries "$w/real.json" "$w/series" 24 12
	mkbig "$w/real.json" "$w/big.json" 300

	# --- record, read back exactly ---
	db record "$w/real.json"
	[ "$RC" -eq 0 ] && grep -q "real.json: recorded (1 run," <<<"$OUT"
	ok $? "record: a real result is recorded" || diag "$OUT" "$ERR"
	db show noop --json
	python3 - "$w/real.json" "$TMPD/out" <<'PY'
import json, sys
f, got = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
run = f["runs"][0]
want = {name: [s.get(name) for s in run["samples"]] for name in run["metrics"]}
have = {p["metric"]: p["samples"] for p in got}
assert want == have, (want, have)	# exact: float equality, every sample
for p in got:
    m = run["metrics"][p["metric"]]
    assert p["kind"] == m["kind"] and p["better"] == m["better"] and p["n"] == m["n"]
    assert p["host"] == f["env"]["hostname"] and p["kernel"] == f["env"]["kernel"]
    assert p["kernel_build"] == f["env"]["kernel_build"] and p["commit"] == f["env"]["git_commit"]
PY
	ok $? "show --json: every sample read back exactly, with kind, direction, host, kernel, build, commit"
	sha=$(sha256sum "$w/real.json" | cut -d' ' -f1)
	[ "$(q "SELECT sha256 FROM results")" = "$sha" ]
	ok $? "the result's identity is the SHA-256 of the file's bytes"
	[ "$(q "SELECT options FROM runs")" != "" ] && q "SELECT env FROM results" | grep -q '"cpu_model"'
	ok $? "the run's options and the result's whole env are kept"

	# --- idempotent ---
	before=$(counts)
	db record "$w/real.json"
	[ "$RC" -eq 0 ] && grep -q "already recorded, nothing added" <<<"$OUT" && [ "$(counts)" = "$before" ]
	ok $? "record: the same file again adds nothing" || diag "$OUT" "$(counts) vs $before"

	# --- refused files, nothing written ---
	head -c 300 "$w/real.json" >"$w/trunc.json"
	sed 's/"schema": *"bpfbench-result\/1"/"schema":"other\/2"/' "$w/real.json" >"$w/schema.json"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["interrupted"]=True; json.dump(d,open(sys.argv[2],"w"))' \
		"$w/real.json" "$w/intr.json"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["env"]["hostname"]; json.dump(d,open(sys.argv[2],"w"))' \
		"$w/real.json" "$w/nohost.json"
	for f in trunc schema intr nohost; do
		db record "$w/$f.json"
		[ "$RC" -eq 2 ] && grep -q "^bpfbench: error: .*$f.json: " <<<"$ERR" && [ "$(counts)" = "$before" ]
		ok $? "record refuses $f.json with one line, nothing written" || diag "rc $RC" "$ERR"
	done
	hardening_refusals "$w"
	db record "$w/nohost.json" --host named
	[ "$RC" -eq 0 ] && [ "$(q "SELECT count(*) FROM results WHERE host = 'named'")" = 1 ]
	ok $? "record --host names a file's host"

	# --- two concurrent writers: no result lost or doubled ---
	( "$BPFBENCH" db record -q --db "$DB" "$w"/series/s0*.json "$w"/series/s1[0-5].json 2>"$w/w1.err"; echo $? >"$w/w1.rc" ) &
	( "$BPFBENCH" db record -q --db "$DB" "$w"/series/s1[0-9].json "$w"/series/s2*.json 2>"$w/w2.err"; echo $? >"$w/w2.rc" ) &
	wait
	[ "$(cat "$w/w1.rc")" = 0 ] && [ "$(cat "$w/w2.rc")" = 0 ] &&
		[ "$(q "SELECT count(*) FROM results WHERE host = 'testhost'")" = 24 ] &&
		[ "$(q "SELECT count(DISTINCT sha256) FROM results")" = "$(q "SELECT count(*) FROM results")" ] && consistent
	ok $? "two writers at once (6 files in common): 24 results, none lost or doubled" ||
		diag "$(cat "$w/w1.err" "$w/w2.err")" "$(counts)"

	# --- a writer killed mid-transaction leaves nothing half-written ---
	before=$(counts)
	BPFBENCH_DB_STALL_MS=20000 "$BPFBENCH" db record --db "$DB" "$w/big.json" 2>"$w/kill.err" &
	pid=$!
	for _ in $(seq 100); do grep -q stalling "$w/kill.err" && break; sleep 0.1; done
	grep -q stalling "$w/kill.err" && kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	[ "$(counts)" = "$before" ] && consistent
	ok $? "a writer SIGKILLed halfway through 300 runs leaves the database as it was" ||
		diag "$(cat "$w/kill.err")" "$(counts) vs $before"
	t0=$(date +%s%N)
	db record "$w/big.json"
	t1=$(date +%s%N)
	[ "$RC" -eq 0 ] && [ "$(q "SELECT nr_runs FROM results WHERE path LIKE '%big.json'")" = 300 ] && consistent
	ok $? "... and the same file records whole afterwards" || diag "$ERR"
	diag "recording 300 runs took $(( (t1 - t0) / 1000000 )) ms (not a test: the load of the moment)"

	# --- change points ---
	db changes noop --metric throughput
	grep -q "^noop throughput (M ops/s) on testhost: point 13 of 24" <<<"$OUT" &&
		grep -qE "step -[0-9.]+% \[-[0-9.]+%, -[0-9.]+%\]  p 0\.0[0-9]+  regression" <<<"$OUT" &&
		grep -qE "before: [0-9]* points, .* kernel 6.1.0-28-amd64, commit c000011 \(2 kernels: 6.1.0-27-amd64 .. 6.1.0-28-amd64\)(; threads moved CPU in [0-9]+ of its runs)?$" <<<"$OUT" &&
		grep -qE "after:  12 points, 2026-01-13T12:00:00Z .* kernel 6.12.9-amd64, commit c000012(; threads moved CPU in [0-9]+ of its runs)?$" <<<"$OUT" &&
		[ "$RC" -eq 0 ]
	ok $? "changes: the planted 10% step found at point 13, with its CI, p, both sides' kernels (a side's span) and commits" ||
		diag "$OUT" "$ERR"
	db changes noop --fail-on-change 5 -q
	[ "$RC" -eq 1 ] && grep -q "regression: noop throughput on testhost: -" <<<"$ERR" &&
		grep -q "regression: noop latency on testhost: +" <<<"$ERR"
	ok $? "changes --fail-on-change 5: exit 1 naming throughput down and latency up" || diag "$ERR"
	# a side that spans kernels says so (issue 43: it named the last point's kernel alone, so a
	# change within a side read "X-planted -> X-planted")
	[ "$(grep -c "at point 13; kernel 6.1.0-27-amd64..6.1.0-28-amd64 (2 kernels) -> 6.12.9-amd64; commit c000000..c000011 (12 commits) -> c000012..c000023 (12 commits)$" <<<"$ERR")" -eq 2 ]
	ok $? "changes --fail-on-change: each side's kernels and commits as first..last (k kernels), one alone as itself" ||
		diag "$ERR"
	# (one host: the real run's own host has a single point, which no gate can judge)
	db changes noop --host testhost --fail-on-change 20 -q
	[ "$RC" -eq 0 ]
	ok $? "changes --fail-on-change 20: a 10% step passes" || diag "$OUT" "$ERR"
	db changes --json --host testhost
	python3 - "$TMPD/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["metric"]: x for x in d["changes"]}
t = c["throughput"]
assert t["index"] == 12 and t["verdict"] == "regression" and -12 < t["step_pct"] < -8
assert t["ci95_low_pct"] < t["step_pct"] < t["ci95_high_pct"] and t["p"] <= 0.02
assert t["before"]["kernel"] == "6.1.0-28-amd64" and t["after"]["kernel"] == "6.12.9-amd64"
assert t["before"]["kernels"] == 2 and t["after"]["kernels"] == 1
assert c["latency"]["verdict"] == "regression" and c["latency"]["step_pct"] > 8
PY
	ok $? "changes --json: index, step and CI, p, verdict by the metric's direction, kernels"
	db changes noop --by-kernel -q
	[ "$RC" -eq 0 ] && grep -q "^0 change points in [0-9]* series" <<<"$OUT"
	ok $? "changes --by-kernel: within each kernel no change" || diag "$OUT"

	# --- show, export ---
	db show noop --host testhost --since 2026-01-20 --metric throughput
	[ "$RC" -eq 0 ] && [ "$(grep -c "testhost" <<<"$OUT")" = 5 ]
	ok $? "show --host --since --metric: the 5 points from Jan 20" || diag "$OUT"
	db export --otava-csv noop --host testhost
	[ "$RC" -eq 0 ] && [ "$(head -1 <<<"$OUT")" = 'time,commit,kernel,"latency","throughput"' ] &&
		[ "$(wc -l <<<"$OUT")" = 25 ]
	ok $? "export --otava-csv: a row a result, a column a metric" || diag "$OUT" "$ERR"
	db export --otava-csv noop
	[ "$RC" -eq 2 ] && grep -q "several hosts" <<<"$ERR"
	ok $? "export: several hosts' history refused, --host asked for"

	# --- plot: one series, its change point and kernels marked ---
	db plot noop --host testhost --metric throughput -o "$w/h.svg"
	[ "$RC" -eq 0 ] && grep -q "h.svg: 24 points, 1 change point" <<<"$OUT" && grep -q "<svg" "$w/h.svg" &&
		grep -q "6.12.9-amd64" "$w/h.svg" && grep -q -- "-10\.[0-9]% (p 0\.0" "$w/h.svg"
	ok $? "plot: the series drawn, its change point's step and the kernels labelled" || diag "$OUT" "$ERR"
	db plot noop --host testhost -o "$w/two.svg"
	[ "$RC" -eq 2 ] && grep -q "several series of noop match: choose one" <<<"$ERR" && [ ! -e "$w/two.svg" ]
	ok $? "plot: several series selected: refused, nothing drawn"

	# --- usage errors ---
	db show
	[ "$RC" -eq 2 ] && grep -q "bpfbench: error: db: show needs a benchmark" <<<"$ERR"
	ok $? "show without a benchmark: usage error"
	db changes --since yesterday
	[ "$RC" -eq 2 ] && [ "$(wc -l <<<"$ERR")" = 1 ] && grep -q "since takes an RFC 3339 date-time" <<<"$ERR"
	ok $? "--since takes a date, one line" || diag "$ERR"
	db show noop --host testhost --metric throughput --since 2026-01-19T12:00:00+02:00 --until 2026-01-21
	[ "$RC" -eq 0 ] && [ "$(grep -c "testhost" <<<"$OUT")" = 3 ]
	ok $? "show --since (an offset) --until (a day, to its end): Jan 19, 20, 21" || diag "$OUT" "$ERR"
	db show noop --until 2026-02-30
	[ "$RC" -eq 2 ] && grep -q "until takes an RFC 3339" <<<"$ERR"
	ok $? "--until refuses a day that is none"
	db record "$w/none.json"
	[ "$RC" -eq 2 ] && grep -q "none.json: cannot open" <<<"$ERR"
	ok $? "record of a missing file: one line, exit 2"

	# --- export: Otava takes every metric cell as a number, an empty one stops it ---
	python3 - "$w/series/s00.json" "$w" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
for i, p in enumerate((1, 2)):
    e = copy.deepcopy(d)
    e["env"]["hostname"], e["env"]["date"] = "gaphost", "2026-02-%02dT12:00:00Z" % (i + 1)
    e["runs"][0]["options"]["producers"] = p
    json.dump(e, open("%s/gap%d.json" % (sys.argv[2], p), "w"))
PY
	db record -q "$w/gap1.json" "$w/gap2.json" && db export --otava-csv noop --host gaphost
	[ "$RC" -eq 2 ] && [ -z "$OUT" ] && grep -q "1 of 2 results have no '[a-z]*' (4 columns in all): Otava reads no empty cell" <<<"$ERR"
	ok $? "export: two options sets (each row would lack the other's columns): refused" || diag "$OUT" "$ERR"
	db export --otava-csv noop --host gaphost --options producers=2
	[ "$RC" -eq 0 ] && [ "$(head -1 <<<"$OUT")" = 'time,commit,kernel,"producers=2:latency","producers=2:throughput"' ] &&
		[ "$(wc -l <<<"$OUT")" = 2 ] && ! grep -qE ',,|,$' <<<"$OUT"
	ok $? "export --options: one set, no empty cell" || diag "$OUT" "$ERR"

	# --- a gate that could not judge (issue 42, item 8: these passed, exit 0) ---
	db changes noop --host testhost --since 2026-01-20 --fail-on-change 5
	[ "$RC" -eq 5 ] &&
		grep -qE '^noop throughput \(M ops/s\) on testhost: not judged: 5 runs recorded, and the gate judges a series of [0-9]+ runs or more$' <<<"$OUT" &&
		grep -qE '^Gate: --fail-on-change 5%: 0 regressions, [1-9][0-9]* series not judged \(exit 5\)\.$' <<<"$OUT" &&
		grep -qE 'gate: [1-9][0-9]* series not judged \(too short or too noisy to show a step of 5%\): exit 5' <<<"$ERR"
	ok $? "changes --fail-on-change 5 on 5 points: too short to judge, said, exit 5" || diag "$OUT" "$ERR"
	mkdir -p "$w/noisy"
	mkseries "$w/real.json" "$w/noisy" 20 99 0.15 noisyhost
	db record -q "$w"/noisy/*.json
	db changes noop --host noisyhost --metric throughput --fail-on-change 5
	[ "$RC" -eq 5 ] && grep -qE '^noop throughput \(M ops/s\) on noisyhost: not judged: its points stray ±[0-9]+\.[0-9]% from one to the next; the smallest step it could show is [0-9]+\.[0-9]%, more than --fail-on-change 5%$' <<<"$OUT" &&
		grep -qx 'Gate: --fail-on-change 5%: 0 regressions, 1 series not judged (exit 5).' <<<"$OUT"
	ok $? "changes --fail-on-change 5 on 20 points 15% apart: too noisy to judge, said, exit 5" || diag "$OUT" "$ERR"
	db changes noop --host noisyhost --metric throughput --fail-on-change 5 --gate-unjudged pass
	[ "$RC" -eq 0 ] && [ -z "$ERR" ] &&
		grep -qx 'Gate: --fail-on-change 5%: 0 regressions, 1 series not judged (passed: --gate-unjudged pass).' <<<"$OUT"
	ok $? "--gate-unjudged pass: the series passes, and the gate line says so" || diag "$OUT" "$ERR"
	db changes noop --host noisyhost --metric throughput --fail-on-change 60
	[ "$RC" -eq 0 ] && grep -qx 'Gate: --fail-on-change 60%: 0 regressions, 0 series not judged.' <<<"$OUT"
	ok $? "the same series at a 60% gate: judged, no change, exit 0" || diag "$OUT" "$ERR"
	db changes noop --host noisyhost --fail-on-change 5 --json
	[ "$RC" -eq 5 ] && python3 - "$TMPD/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
u = {x["metric"]: x for x in d["unjudged"]}
t = u["throughput"]
assert d["regressions"] == 0 and d["fail_on_change_pct"] == 5 and t["points"] == 20
assert 5 < t["spread_pct"] < 30 and t["smallest_step_pct"] > 5 and t["host"] == "noisyhost"
assert "latency" in u
PY
	ok $? "changes --json: the series not judged, with their spread and the smallest step they could show" ||
		diag "$(cat "$TMPD/out")"
	db changes noop --gate-unjudged pass
	[ "$RC" -eq 2 ] && grep -q "gate-unjudged is for a gate: give --fail-on-change PCT" <<<"$ERR"
	ok $? "--gate-unjudged without --fail-on-change: usage error"
	db changes noop --fail-on-change 5 --gate-unjudged sometimes
	[ "$RC" -eq 2 ] && grep -q "gate-unjudged takes pass or fail, not sometimes" <<<"$ERR"
	ok $? "--gate-unjudged takes pass or fail"

	extreme_cases "$w"	# last: its series have change points --by-kernel would count
}
