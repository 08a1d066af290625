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
