#!/usr/bin/env bash
# The history's database against what others control: a PostgreSQL
# address that accepts and never answers (every wait bounded, every stop
# signal honoured), and a SQLite file another user planted or can change
# (the output files' rules: no planted link followed, no foreign or
# group/world-writable file used unless --db-trust, no SQL the file
# carries run), or that would not keep what is recorded.  The same server-side cases on a real PostgreSQL, a
# stopped one among them, are tests/db_pg.t's.  No benchmark runs here.
source "$(dirname "$0")/lib.sh"

LPID=
trap '[ -n "$LPID" ] && kill "$LPID" 2>/dev/null; rm -rf "$TMPD"' EXIT

# a synthetic result, dated as the history wants (RFC 3339)
gen() {	# gen SEED FILE
	python3 "$(dirname "$0")/gen_results.py" --seed "$1" "$2" &&
		sed -i "s/\"date\": \"seed $1\"/\"date\": \"2026-01-0${1}T12:00:00Z\"/" "$2"
}
gen 7 "$TMPD/r.json" || { fail "a synthetic result for the history"; done_testing; exit 1; }
rec() { run db record -q --host h "$@" "$TMPD/r.json"; }

# --- a listener that accepts and stays silent: the startup never completes ---
/usr/bin/python3 -c 'import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
print(s.getsockname()[1], flush=True)
held = []
while True:
    held.append(s.accept()[0])' >"$TMPD/port" &
LPID=$!
for _ in $(seq 100); do [ -s "$TMPD/port" ] && break; sleep 0.05; done
SILENT="postgresql://u:x@127.0.0.1:$(cat "$TMPD/port")/db"

t0=$(date +%s%N)
timeout 60 "$BPFBENCH" db record -q --host h --db "$SILENT?connect_timeout=2" "$TMPD/r.json" \
	>"$TMPD/out" 2>"$TMPD/err"
RC=$? ms=$((($(date +%s%N) - t0) / 1000000))
[ "$RC" -eq 1 ] && [ "$ms" -ge 1500 ] && [ "$ms" -lt 30000 ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] &&
	grep -q "^bpfbench: error: db: cannot open the PostgreSQL database: no answer from the server within 2 s (connect_timeout)" "$TMPD/err"
ok $? "a silent server: connect_timeout=2 in the URI ends the record in 2 s, one line, exit 1" ||
	diag "rc $RC after $ms ms" "$(cat "$TMPD/err")"

for sig in TERM INT; do
	"$BPFBENCH" db show noop --db "$SILENT" >"$TMPD/out" 2>"$TMPD/err" &
	pid=$!
	# a bpfbench deaf to the signal fails the check, it does not hang the test
	(for _ in $(seq 600); do kill -0 "$pid" || exit; sleep 0.1; done; kill -KILL "$pid") >/dev/null 2>&1 &
	dog=$!
	# waiting in the connection: bpfbench's handler is in, and its socket is open
	for _ in $(seq 200); do
		catching "$pid" "$([ $sig = TERM ] && echo 15 || echo 2)" &&
			find /proc/"$pid"/fd -lname 'socket:*' 2>/dev/null | grep -q . && break
		sleep 0.05
	done
	sleep 0.2
	t0=$(date +%s%N)
	kill -"$sig" "$pid"
	wait "$pid"
	RC=$? ms=$((($(date +%s%N) - t0) / 1000000))
	kill "$dog" 2>/dev/null
	wait "$dog" 2>/dev/null
	want=$([ $sig = TERM ] && echo 143 || echo 130)
	[ "$RC" -eq "$want" ] && [ "$ms" -lt 3000 ] && grep -q "interrupted by SIG$sig" "$TMPD/err"
	ok $? "a silent server, no timeout asked: SIG$sig ends the wait at once, exit $want" ||
		diag "rc $RC after $ms ms" "$(cat "$TMPD/err")"
done

"$BPFBENCH" db --help | grep -q "connect_timeout 10 s and statement_timeout 300 s"
ok $? "db --help states the PostgreSQL timeouts and that the URI's win"

# --- an output that names the history (issue 50.6): refused before anything runs ---
run db record -q --host h --db "$TMPD/h6.db" "$TMPD/r.json"
cp "$TMPD/h6.db" "$TMPD/h6.orig"
ln -s h6.db "$TMPD/h6.link"
for out in "--junit $TMPD/h6.db" "--ktap $TMPD/h6.link" "--junit $TMPD/../$(basename "$TMPD")/h6.db"; do
	# shellcheck disable=SC2086 # the option and its path
	run db changes --db "$TMPD/h6.db" --fail-on-change 5 $out
	[ "$RC" -eq 2 ] && cmp -s "$TMPD/h6.db" "$TMPD/h6.orig" &&
		grep -qx "bpfbench: error: .* is the database $TMPD/h6.db: an output would replace it; give the output another name" <<<"$ERR"
	ok $? "db changes ${out%% *} naming the database (${out##*/}): exit 2, the history as it was" ||
		diag "rc $RC" "$ERR"
done
BPFBENCH_DB=$TMPD/h6.db run -w0 -d1 noop --json "$TMPD/h6.link" --record
[ "$RC" -eq 2 ] && cmp -s "$TMPD/h6.db" "$TMPD/h6.orig" && [ -z "$OUT" ] &&
	grep -q "is the database $TMPD/h6.db: an output would replace it" <<<"$ERR"
ok $? "--json (a link to) the database --record records into: exit 2 before the run" ||
	diag "rc $RC" "$ERR"
run -w0 -d1 noop --json "$TMPD/new6.db" --record --db "$TMPD/./new6.db"
[ "$RC" -eq 2 ] && [ ! -e "$TMPD/new6.db" ] && [ -z "$OUT" ]
ok $? "--json F.db --record --db ./F.db, neither there yet: exit 2, nothing made" || diag "rc $RC" "$ERR"

# --- a gate that judged nothing (issue 50.8): exit 5, or 2 for an empty name ---
for f in "--normalized" "--metric nosuch" "nosuch" "--host nosuch"; do
	# shellcheck disable=SC2086 # the filter and its value
	run db changes --db "$TMPD/h6.db" --fail-on-change 5 $f
	[ "$RC" -eq 5 ] && grep -q '^Gate: --fail-on-change 5%: no series to judge (exit 5)\.$' <<<"$OUT" &&
		grep -q '^bpfbench: error: gate: no .*series matched .*: nothing judged, exit 5$' <<<"$ERR"
	ok $? "db changes --fail-on-change 5 $f: no series, nothing judged, exit 5" || diag "rc $RC" "$OUT" "$ERR"
done
run db changes --db "$TMPD/h6.db" --fail-on-change 5 --metric nosuch --gate-unjudged pass
[ "$RC" -eq 5 ]
ok $? "... --gate-unjudged pass lets unjudged series pass, not a gate of none" || diag "rc $RC" "$ERR"
for f in "--metric" "--host"; do
	run db changes --db "$TMPD/h6.db" --fail-on-change 5 "$f" ""
	[ "$RC" -eq 2 ] && grep -q "^bpfbench: error: db: $f needs a name" <<<"$ERR"
	ok $? "db changes $f '': bad usage, exit 2" || diag "rc $RC" "$ERR"
done
run db changes --db "$TMPD/h6.db" --fail-on-change 5
[ "$RC" -eq 5 ] && grep -q 'not judged: 1 run recorded, and the gate judges a series of 9 runs or more$' <<<"$OUT"
ok $? "a young history: how many runs a gate needs, in plain words" || diag "$OUT"

# --- the SQLite file: the output files' rules, and no SQL of its own ---
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "a link and a file another user planted: needs root and setpriv"
	done_testing
	exit
fi
as_nobody() { (cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$@"); }
chmod 755 "$TMPD"
mkdir -m 1777 "$TMPD/sticky"
rec --db "$TMPD/good.db"
[ "$RC" -eq 0 ]
ok $? "a new database of ours is made and recorded into" || diag "$ERR"

as_nobody ln -s "$TMPD/victim.db" "$TMPD/sticky/a.db"
rec --db "$TMPD/sticky/a.db"
[ "$RC" -eq 2 ] && [ ! -e "$TMPD/victim.db" ] && [ "$(wc -l <<<"$ERR")" -eq 1 ] &&
	grep -q "a.db is a symbolic link another user could have planted (owner uid 65534" <<<"$ERR"
ok $? "a link another user planted in a sticky folder: refused, exit 2, nothing made where it points" ||
	diag "rc $RC" "$ERR"
rec --db "$TMPD/sticky/a.db" --db-trust
[ "$RC" -eq 2 ] && [ ! -e "$TMPD/victim.db" ]
ok $? "... even with --db-trust"

as_nobody cp "$TMPD/good.db" "$TMPD/sticky/theirs.db"
rec --db "$TMPD/sticky/theirs.db"
[ "$RC" -eq 2 ] && grep -q "theirs.db is another user's or writable by others (owner uid 65534, mode 0644): refused (--db-trust" <<<"$ERR"
ok $? "a database another user owns: refused, exit 2, one line naming the remedy" || diag "rc $RC" "$ERR"
rec --db "$TMPD/sticky/theirs.db" --db-trust && [ "$RC" -eq 0 ] &&
	BPFBENCH_DB_TRUST=1 run db show bpf-loop --db "$TMPD/sticky/theirs.db" && [ "$RC" -eq 0 ]
ok $? "... used when trusted: --db-trust, \$BPFBENCH_DB_TRUST=1" || diag "rc $RC" "$ERR"
cp "$TMPD/good.db" "$TMPD/open.db"
chmod 666 "$TMPD/open.db"
run db show bpf-loop --db "$TMPD/open.db"
[ "$RC" -eq 2 ] && grep -q "open.db is another user's or writable by others (owner uid 0, mode 0666)" <<<"$ERR"
ok $? "a world-writable database of ours: refused, exit 2" || diag "rc $RC" "$ERR"
mkdir -m 777 "$TMPD/open"
rec --db "$TMPD/open/x.db"
[ "$RC" -eq 2 ] && grep -q "its folder can be changed by another user (owner uid 0, mode 0777)" <<<"$ERR" &&
	[ ! -e "$TMPD/open/x.db" ]
ok $? "a database in a folder anyone may change (not sticky): refused, nothing made" || diag "rc $RC" "$ERR"

sql() { python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()' "$@"; }
cp "$TMPD/good.db" "$TMPD/trig.db"
sql "$TMPD/trig.db" "CREATE TRIGGER planted AFTER INSERT ON results BEGIN DELETE FROM metrics; END"
gen 8 "$TMPD/r8.json"
run db record -q --host h --db "$TMPD/trig.db" "$TMPD/r8.json"
[ "$RC" -eq 2 ] && [ "$(wc -l <<<"$ERR")" -eq 1 ] &&
	grep -q "it holds a trigger 'planted' that bpfbench did not make: refused" <<<"$ERR" &&
	[ "$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM results").fetchone()[0])' "$TMPD/trig.db")" = 1 ]
ok $? "a database carrying a trigger: refused before anything runs, exit 2, the trigger named" || diag "rc $RC" "$ERR"
cp "$TMPD/good.db" "$TMPD/view.db"
sql "$TMPD/view.db" "CREATE VIEW v AS SELECT 1"
run db show bpf-loop --db "$TMPD/view.db"
[ "$RC" -eq 2 ] && grep -q "it holds a view 'v' that bpfbench did not make" <<<"$ERR"
ok $? "... a view too" || diag "rc $RC" "$ERR"

# --- what would make the data vanish, or a database that is not one ---
for t in "file:$TMPD/m.db?mode=memory" ":memory:"; do
	rec --db "$t"
	[ "$RC" -eq 2 ] && grep -q "a URI filename or an in-memory database keeps nothing past the command" <<<"$ERR" &&
		! grep -q recorded <<<"$OUT"
	ok $? "--db $t: refused, exit 2, nothing said recorded" || diag "rc $RC" "$OUT" "$ERR"
done
cp "$TMPD/good.db" "$TMPD/two.db"
sql "$TMPD/two.db" "INSERT INTO schema_version VALUES (2)"
run db show bpf-loop --db "$TMPD/two.db"
[ "$RC" -eq 2 ] && grep -q "its schema_version table holds 2 rows, not one: refused" <<<"$ERR"
ok $? "two schema_version rows: refused, exit 2" || diag "rc $RC" "$ERR"
run db show bpf-loop --db "$TMPD/none.db"
[ "$RC" -eq 1 ] && [ ! -e "$TMPD/none.db" ] && grep -q "no such database" <<<"$ERR"
ok $? "show of a database that does not exist: one line, nothing created" || diag "rc $RC" "$ERR"

# --- a read-only mount: the reading commands read ---
mkdir "$TMPD/ro"
cp "$TMPD/good.db" "$TMPD/ro/h.db"
if unshare -m true 2>/dev/null; then
	# shellcheck disable=SC2016 # the inner shell's own arguments
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
		"$2" db show bpf-loop --metric throughput --db "$1/h.db" &&
		"$2" db changes --db "$1/h.db" -q' sh "$TMPD/ro" "$BPFBENCH" >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	[ "$RC" -eq 0 ] && grep -q "nr_loops=20 .*throughput" "$TMPD/out" && [ ! -s "$TMPD/err" ]
	ok $? "on a read-only mount show and changes read the database" || diag "rc $RC" "$(cat "$TMPD/err")"
else
	skip "a read-only mount: no mount namespace here"
fi

done_testing
