#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Records real runs for the verdicts' calibration (tests/calib, doc/calibration.md):
# N pairs of default runs (-w1 -d5) of two command lines, A and B in an order
# drawn per pair as ab draws it, one JSON per run: DIR/TAG-A-NN.json, TAG-B-NN.json.
#   scripts/calib_record.sh build/bpfbench DIR TAG "ARGS A" "ARGS B" [N]
# then: build/tests/calib --real DIR TAG
# Run it on the machine whose noise you want to know; say how busy it was.
set -euo pipefail
BIN=${1:?usage: calib_record.sh BPFBENCH DIR TAG "ARGS A" "ARGS B" [N]}
DIR=${2:?the output directory}
TAG=${3:?a tag for the file names}
A=${4:?the first command line}
B=${5:?the second command line}
N=${6:-24}
mkdir -p "$DIR"
one() {	# one SIDE ARGS I
	# shellcheck disable=SC2086  # the command line's words, as a user types them
	"$BIN" -q $2 --json "$DIR/$TAG-$1-$3.json" >/dev/null ||
		echo "calib_record: run $3 of $1 failed" >&2
}
for i in $(seq -w 1 "$N"); do
	if [ $((RANDOM % 2)) -eq 0 ]; then
		one A "$A" "$i"; one B "$B" "$i"
	else
		one B "$B" "$i"; one A "$A" "$i"
	fi
	echo "$(date +%T) $TAG pair $i load $(cut -d' ' -f1 /proc/loadavg)"
done
