#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ab's targets on real runs (doc/comparing.md), for one benchmark:
#   1. the time --precision 2 takes to bring the 95% CI of B/A within +-2%;
#   2. TRIES same-configuration ab runs: how often they are called slower/faster
#      (false alarms, against alpha = 0.05), and how often the same runs with
#      B's first metric scaled by 0.95 (a 5% slowdown injected into real data)
#      are called slower (power, target >= 80%).
# Run it on an idle machine, as root:
#   scripts/ab_targets.sh build/bpfbench "bpf-loop --nr_loops 1000" 20 5
#   scripts/ab_targets.sh build/bpfbench "lpm-trie-lookup" 20 5
# PAIRS p2 runs each try as `ab --precision 2 --max-duration ${MAXTRY:-60}`
# (pairs until the CI of B/A is within +-2%) instead of a fixed -r.
set -u
BIN=${1:?usage: ab_targets.sh BPFBENCH "BENCH ARGS" [TRIES] [PAIRS] [-w -d ...]}
ARGS=${2:?the benchmark and its options}
TRIES=${3:-20}
PAIRS=${4:-5}
RUNOPTS=${5:--w0.2 -d1}
DIR=$(mktemp -d /tmp/ab-targets.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

echo "== --precision 2 --max-duration ${MAXDUR:-300}: $ARGS"
start=$(date +%s)
"$BIN" $RUNOPTS ab "$ARGS" "$ARGS" --precision 2 --max-duration "${MAXDUR:-300}" -v | grep -E '^[a-z0-9-]+: |pairs in random'
echo "   ($(($(date +%s) - start)) s)"

# split AB.json A.json B.json SCALE: the two sides of an ab --json file, B's first metric times SCALE
split() { python3 "$(dirname "$0")/ab_split.py" "$@"; }

alarms=0 found=0 n=0
case $PAIRS in
p*) HOW="--precision ${PAIRS#p} --max-duration ${MAXTRY:-60}" ;;
*) HOW="-r $PAIRS" ;;
esac
for t in $(seq 1 "$TRIES"); do
	rm -f "$DIR/ab.json"
	began=$(date +%s)
	# shellcheck disable=SC2086
	"$BIN" $RUNOPTS ab "$ARGS" "$ARGS" $HOW -q --json "$DIR/ab.json" >"$DIR/ab.out" || true
	[ -s "$DIR/ab.json" ] || continue
	took=$(($(date +%s) - began))
	pairs=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["runs"][0]["repeats"]))' \
		"$DIR/ab.json" 2>/dev/null)
	n=$((n + 1))
	split "$DIR/ab.json" "$DIR/a.json" "$DIR/b.json" 1.0
	same=$("$BIN" compare -q --paired "$DIR/a.json" "$DIR/b.json" | head -1)
	split "$DIR/ab.json" "$DIR/a.json" "$DIR/b5.json" 0.95
	slow=$("$BIN" compare -q --paired "$DIR/a.json" "$DIR/b5.json" | head -1)
	grep -qE ' × (slower|faster) than ' <<<"$same" && alarms=$((alarms + 1))
	grep -qE ' × slower than ' <<<"$slow" && found=$((found + 1))
	printf '%2d  (%s pairs, %s s) same: %s\n    -5%%: %s\n' "$t" "$pairs" "$took" \
		"${same#*: }" "${slow#*: }"
done
echo "== $ARGS, $n tries of $HOW ($RUNOPTS): $alarms false alarms (alpha 0.05)," \
	"5% slowdown called slower in $found"
