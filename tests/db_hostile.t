#!/usr/bin/env bash
# The history's database against what others control: a PostgreSQL
# address that accepts and never answers (every wait bounded, every stop
# signal honoured), and a SQLite file another user planted or can change
# (the output files' rules: no planted link followed, no foreign or
# group/world-writable file used unless --db-trust, no SQL the file
# carries run).  The same server-side cases on a real PostgreSQL, a
# stopped one among them, are tests/db_pg.t's.  No benchmark runs here.
source "$(dirname "$0")/lib.sh"

LPID=
trap '[ -n "$LPID" ] && kill "$LPID" 2>/dev/null; rm -rf "$TMPD"' EXIT

python3 "$(dirname "$0")/gen_results.py" --seed 7 "$TMPD/r.json" ||
	{ fail "a synthetic result for the history"; done_testing; exit 1; }
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
			ls -l /proc/"$pid"/fd 2>/dev/null | grep -q socket && break
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

done_testing
