#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A real results history (doc/history.md): a VM "host" that moves from
# one kernel to the next, Debian's 6.1, 6.12 then 7.3 ($KERNELS: R boots of
# each, `suite lpm-trie` in each, emulated under TCG where there is no KVM),
# and this machine's own runs with a planted step: H runs of bpf-loop
# --nr_loops 1000, then H with --nr_loops 4 (a program run's own cost is
# shared by 4 callbacks instead of 1000: about -35% per op on this VM;
# --nr_loops 10 or 100 move it by less than its run-to-run spread here)
# recorded as --nr_loops 1000 on a kernel called "<release>-planted".
# Every result is recorded into DB, then `db changes` is asked where things
# moved.  (A permutation test over n points cannot reach p <= 0.02 below
# about 8 points a side: hence H.)
#   scripts/history-demo.sh BPFBENCH DB [R [H]]   (R: 3, H: 8; R 0: no VM runs)
# The results are kept in DB's directory (history-demo/).  Say how busy the
# machine was: the figures are the load of the moment's too.
set -euo pipefail
BIN=${1:?usage: history-demo.sh BPFBENCH DB [R]}
DB=${2:?the database (a SQLite file or postgresql://...)}
R=${3:-3}
H=${4:-8}
DIR=$(dirname -- "$(realpath -m -- "$DB")")/history-demo
mkdir -p "$DIR"
n=0
record() {	# record FILE: into DB, one line
	"$BIN" db record --db "$DB" -q "$1"
	echo "$(date -u +%T) recorded $(basename "$1") (load $(cut -d' ' -f1 /proc/loadavg))"
}
for k in ${KERNELS:-6.1 6.12 7.3}; do
	for i in $(seq 1 "$R"); do
		n=$((n + 1))
		f=$DIR/vm-$n-$k.json
		"$BIN" --kernel "$k" -w0 -d1 -q suite lpm-trie --json "$f" >/dev/null
		record "$f"
	done
done
# this machine: H honest runs, then H planted ones (the same options on record)
for i in $(seq 1 "$H"); do
	f=$DIR/host-$i.json
	"$BIN" -w0 -d1 -q bpf-loop --nr_loops 1000 --json "$f" >/dev/null
	record "$f"
done
for i in $(seq 1 "$H"); do
	f=$DIR/planted-$i.json
	"$BIN" -w0 -d1 -q bpf-loop --nr_loops 4 --json "$f" >/dev/null
	python3 - "$f" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["env"]["kernel"] += "-planted"
for r in d["runs"]:
    r["options"]["nr_loops"] = 1000
json.dump(d, open(sys.argv[1], "w"), indent=1)
PY
	record "$f"
done
"$BIN" db changes --db "$DB"
