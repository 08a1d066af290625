#!/usr/bin/env bash
# Replays the fuzzers' seed corpora and every input that once crashed
# them (tests/fuzz/corpus/NAME) through the same entry points, built
# without libFuzzer; the sanitizer pass of `make check` runs it again.
source "$(dirname "$0")/lib.sh"

root="$(cd "$(dirname "$0")/.." && pwd)"
for dir in "$root"/tests/fuzz/corpus/*/; do
	name=$(basename "$dir")
	bin="$root/$BUILD_DIR/tests/replay_$name"
	if [ ! -x "$bin" ]; then
		fail "$name: replay binary $bin is built"
		continue
	fi
	inputs=("$dir"*)
	n=${#inputs[@]} bad=""
	# one process for all; on failure one per input, to name the culprits
	if ! "$bin" "${inputs[@]}" >/dev/null 2>"$TMPD/err" ||
		grep -q -E 'Sanitizer|runtime error' "$TMPD/err"; then
		for input in "${inputs[@]}"; do
			if ! "$bin" "$input" >/dev/null 2>"$TMPD/err" ||
				grep -q -E 'Sanitizer|runtime error' "$TMPD/err"; then
				bad="$bad $(basename "$input")"
			fi
		done
		[ -n "$bad" ] || bad=" (only when replayed together)"
	fi
	[ "$n" -gt 0 ] && [ -z "$bad" ]
	ok $? "$name: $n corpus inputs replay cleanly" || diag "failed:$bad"
done
done_testing
