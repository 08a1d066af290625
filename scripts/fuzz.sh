#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time from its seed corpus and
# prints what it did.  A crash fails the run, and its input is added to
# tests/fuzz/corpus/NAME, where tests/fuzz.t replays it from then on.
# Usage: scripts/fuzz.sh SECONDS BUILD_DIR FUZZER...
set -u
secs=$1 build=$2
shift 2
status=0
for f in "$@"; do
	name=${f#fuzz_}
	work=$build/corpus/$name crashes=$build/crashes/$name
	mkdir -p "$work" "$crashes"
	cp tests/fuzz/corpus/"$name"/* "$work"/
	echo "== $f for $secs s"
	# -close_fd_mask=3: the target's own output is hidden, the fuzzer's
	# statistics and any sanitizer report still reach the log
	"$build"/fuzz/"$f" -max_total_time="$secs" -print_final_stats=1 -close_fd_mask=3 \
		-max_len=4096 -artifact_prefix="$crashes"/ "$work" >"$build/$f.log" 2>&1
	rc=$?
	grep -E '^stat::(number_of_executed_units|new_units_added|peak_rss_mb)' "$build/$f.log"
	# the coverage reached: libFuzzer's last status line (cov: edges, ft: features)
	grep -E '^#[0-9]+' "$build/$f.log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+'
	echo "corpus: $(ls "$work" | wc -l) inputs"
	for c in "$crashes"/*; do
		[ -e "$c" ] || continue
		cp "$c" tests/fuzz/corpus/"$name"/
		echo "CRASH: $c (added to tests/fuzz/corpus/$name as a regression input)"
		status=1
	done
	if [ "$rc" -ne 0 ]; then
		grep -E 'ERROR|SUMMARY' "$build/$f.log" | head -5
		echo "$f: exit $rc, see $build/$f.log"
		status=1
	fi
done
exit $status
