#!/usr/bin/env bash
# The results history on SQLite (the default engine): record, read back,
# refusals, concurrent and killed writers, change points, export, and the
# migration of a database an older schema wrote (tests/db_lib.sh; the
# same cases on PostgreSQL: tests/db_pg.t).  Real runs -w0 -d0.5 and shorter; no speed
# is asserted.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/db_lib.sh"
need_bpf

DB=$TMPD/history.db
q() {
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], timeout=60)
for r in c.execute(sys.argv[2]):
    print("\t".join("" if v is None else str(v) for v in r))
c.commit()' "$DB" "$1"
}

db_cases "$TMPD/w"

[ "$(q "PRAGMA journal_mode")" = wal ]
ok $? "the database is in WAL mode (readers never wait for a writer)"

# the default file: $XDG_DATA_HOME/bpfbench/results.db, folders made
XDG_DATA_HOME=$TMPD/xdg "$BPFBENCH" db record -q "$TMPD/w/real.json" &&
	[ -s "$TMPD/xdg/bpfbench/results.db" ]
ok $? "without --db: \$XDG_DATA_HOME/bpfbench/results.db"
run db show noop --db "$TMPD/w/real.json"
[ "$RC" -eq 1 ] && grep -q "^bpfbench: error: db: cannot open .*real.json: file is not a database" <<<"$ERR"
ok $? "--db naming a file that is not a database: one line, exit 1" || diag "$ERR"

# --record: the result file a run (here a sweep) wrote, recorded once written
BPFBENCH_DB=$TMPD/rec.db run -w0 -d0.2 --period-ms 100 noop --sweep producers=1,2 --json "$TMPD/sweep.json" --record -q
[ "$RC" -eq 0 ] && grep -q "sweep.json: recorded (2 runs" <<<"$OUT" &&
	[ "$(DB=$TMPD/rec.db q "SELECT count(*) || ' ' || max(measured) FROM runs")" = "2 producers=2" ]
ok $? "--record: the sweep's JSON recorded into \$BPFBENCH_DB, each run with its options" || diag "$OUT" "$ERR"
run -w0 -d1 noop --record
[ "$RC" -eq 2 ] && grep -q "^bpfbench: error: --record records the result file --json FILE writes" <<<"$ERR"
ok $? "--record without --json FILE: a usage error before anything runs"
BPFBENCH_DB=$TMPD/ab.db run ab "noop -w0 -d0.2 --period-ms 100" "noop -w0 -d0.2 --period-ms 100 -p 2" -r 1 -q \
	--json "$TMPD/ab.json" --record
[ "$RC" -eq 0 ] && grep -q "ab.json: recorded (2 runs" <<<"$OUT" &&
	BPFBENCH_DB=$TMPD/ab.db run db show noop --metric throughput &&
	[ "$(grep -c 'producers=2 ' <<<"$OUT")" -eq 1 ]
ok $? "ab --json F --record: both sides recorded, each with its options" || diag "$OUT" "$ERR"
run ab "noop -w0 -d1" "noop -w0 -d1" --record
[ "$RC" -eq 2 ] && grep -q "^bpfbench: error: ab: --record records the file --json FILE writes" <<<"$ERR"
ok $? "ab --record without --json FILE: a usage error before anything runs"
# --record --db PATH (issue 43: "unknown option --db"): into that database, over $BPFBENCH_DB;
# the path is not written into the result (a URI may carry a password)
BPFBENCH_DB=$TMPD/not.db run noop -w0 -d1 --json "$TMPD/db-opt.json" --record --db "$TMPD/opt.db" -q
[ "$RC" -eq 0 ] && grep -q "db-opt.json: recorded (1 run" <<<"$OUT" && [ ! -e "$TMPD/not.db" ] &&
	run db show noop --db "$TMPD/opt.db" --metric throughput && [ "$(grep -c ' throughput ' <<<"$OUT")" -eq 1 ] &&
	[ "$(jq '.runs[0].options | has("db")' "$TMPD/db-opt.json")" = false ]
ok $? "BENCH --json F --record --db DB: recorded into DB, db show finds it; no db in the result" ||
	diag "$OUT" "$ERR"
run noop -w0 -d1 --db "$TMPD/opt.db"
[ "$RC" -eq 2 ] && grep -q "^bpfbench: error: --db names the database --record records into" <<<"$ERR"
ok $? "--db without --record: a usage error before anything runs" || diag "$ERR"
BPFBENCH_DB=$TMPD/not.db run ab "noop -w0 -d1" "noop -w0 -d1 -p 2" -r 1 -q --json "$TMPD/ab2.json" \
	--record --db "$TMPD/ab-opt.db"
[ "$RC" -eq 0 ] && [ ! -e "$TMPD/not.db" ] && run db show noop --db "$TMPD/ab-opt.db" --metric throughput &&
	[ "$(grep -c 'producers=2 ' <<<"$OUT")" -eq 1 ]
ok $? "ab --json F --record --db DB: both sides recorded into DB" || diag "$OUT" "$ERR"
run --help
grep -q -- '--db PATH|URI' <<<"$OUT"
ok $? "--help names --db PATH|URI" || diag "$OUT"

# db plot's ticks (issue 43: every tick read the same date): results minutes apart on one day
# are told apart by their time, the day in the axis's label; results of one second by number
mkdir -p "$TMPD/min"
python3 - "$TMPD/db-opt.json" "$TMPD/min" <<'PY'
import copy, json, sys
base = json.load(open(sys.argv[1]))
for i in range(8):
    d = copy.deepcopy(base)
    d["env"]["hostname"] = "minutes" if i < 6 else "second"
    d["env"]["date"] = "2026-12-04T10:%02d:00Z" % (i * 7) if i < 6 else "2026-12-04T11:00:00Z"
    d["env"]["git_commit"] = "m%06d" % i
    json.dump(d, open("%s/m%d.json" % (sys.argv[2], i), "w"))
PY
tics() {	# the tick labels of a gnuplot script's "set xtics (...)", a line each
	python3 -c 'import re, sys
line = [l for l in open(sys.argv[1]) if l.startswith("set xtics")][0]
print("\n".join(re.findall(r"\x27([^\x27]*)\x27 [0-9]+", line)))' "$1"
}
"$BPFBENCH" db record -q --db "$TMPD/min.db" "$TMPD"/min/m*.json
run db plot noop --db "$TMPD/min.db" --host minutes --metric throughput -o "$TMPD/min.svg" \
	--script "$TMPD/min.gp"
[ "$RC" -eq 0 ] && [ "$(tics "$TMPD/min.gp" | wc -l)" -eq 6 ] &&
	[ "$(tics "$TMPD/min.gp" | sort -u | wc -l)" -eq 6 ] && [ "$(tics "$TMPD/min.gp" | head -1)" = 10:00 ] &&
	grep -q "^set xlabel 'the result''s time on 2026-12-04 (UTC)'" "$TMPD/min.gp" && [ -s "$TMPD/min.svg" ]
ok $? "db plot of results minutes apart: six distinct tick labels (their time), the day in the axis's label" ||
	diag "$ERR" "$(cat "$TMPD/min.gp" 2>&1)"
run db plot noop --db "$TMPD/min.db" --host second --metric throughput -o "$TMPD/sec.svg" \
	--script "$TMPD/sec.gp"
[ "$RC" -eq 0 ] && [ "$(tics "$TMPD/sec.gp" | tr '\n' ' ')" = "#1 #2 " ] &&
	grep -q "^set xlabel 'results in date order, 2026-12-04 to 2026-12-04 (UTC)'" "$TMPD/sec.gp"
ok $? "db plot of results of one second: numbered ticks" || diag "$ERR" "$(cat "$TMPD/sec.gp" 2>&1)"
run db show noop --db "$TMPD/min.db" --script "$TMPD/x.gp"
[ "$RC" -eq 2 ] && grep -q "db: --script is for plot" <<<"$ERR"
ok $? "db --script outside plot: a usage error" || diag "$ERR"

# migration: version 1's schema and one result -> version 3, the result kept
DB=$TMPD/old.db
python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).executescript(sys.argv[2])' \
	"$DB" "${V1_SQL//@ID/INTEGER PRIMARY KEY}"
run db show noop --db "$DB" --json
[ "$RC" -eq 0 ] && [ "$(q "SELECT version FROM schema_version")" = 3 ] &&
	q "PRAGMA table_info(runs)" | grep -q repeats &&
	q "PRAGMA table_info(runs)" | grep -q moved_samples &&
	python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); assert p[0]["host"]=="oldhost" and p[0]["samples"]==[49.5,50.5] and p[0]["moved_samples"] is None' "$TMPD/out"
ok $? "a version 1 database is migrated to 3 on opening, its result kept (placement unknown)" || diag "$ERR"
run db record --db "$DB" "$TMPD/w/real.json"
[ "$RC" -eq 0 ] && [ "$(q "SELECT count(*) FROM results")" = 2 ]
ok $? "... and records into the migrated schema"
q "UPDATE schema_version SET version = 99"
run db show noop --db "$DB"
[ "$RC" -eq 1 ] && grep -q "schema version 99, newer than this bpfbench's (3)" <<<"$ERR"
ok $? "a newer schema than ours: refused, one line"

done_testing
