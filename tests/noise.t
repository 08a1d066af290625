#!/usr/bin/env bash
# The noise check: a CPU hog pinned beside the producer (same CPU) makes
# its samples wait, which /proc/pressure/cpu shows; those samples are
# flagged in JSON; the Noise line appears where the noise moved the figure
# (noisy samples apart from quiet ones) or covered every sample.  An idle
# run's flags are reported, not asserted: this machine may be busy.
source "$(dirname "$0")/lib.sh"
need_bpf
[ -r /proc/pressure/cpu ] || skip_all "no /proc/pressure/cpu (PSI off): no pressure to flag"
command -v taskset >/dev/null || skip_all "needs taskset"

HOG=
stop_hog() { [ -n "$HOG" ] && kill "$HOG" 2>/dev/null; wait "$HOG" 2>/dev/null; HOG=; }
trap 'stop_hog; rm -rf "$TMPD"' EXIT

# noisy_of FILE: "flagged total" of the run's samples
noisy_of() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
s = r["samples"]
print(sum(1 for x in s if x["noisy"]), len(s), r["noisy_samples"])' "$1"
}

# -a pins the one producer to CPU 0; the hog shares it.
taskset -c 0 sh -c 'while :; do :; done' &
HOG=$!
run noop -a -w0 -d1.2 --period-ms 200 --json "$TMPD/hog.json"
stop_hog
[ "$RC" -eq 0 ]
ok $? "noop beside a CPU hog on its CPU: exit 0" || diag "$ERR"
read -r flagged total recorded <<<"$(noisy_of "$TMPD/hog.json")"
[ "$total" -ge 4 ] && [ "$flagged" -ge $((total / 2)) ] && [ "$recorded" -eq "$flagged" ]
ok $? "beside the hog, $flagged of $total samples are flagged noisy (at least half; the count agrees)"
# every sample under the hog: no quiet ones to set against, the pressure itself is said;
# some quiet ones: the line says by how much the noisy ones ran apart, or nothing (-v says it)
if [ "$flagged" -eq "$total" ]; then
	grep -qE "^Noise: every sample ran under CPU pressure > 20% .*median pressure [0-9]+%" <<<"$OUT"
else
	grep -qE "^Noise: $flagged of $total samples under .* ran [-+][0-9.]+% from the other" <<<"$OUT" ||
		! grep -q "^Noise:" <<<"$OUT"
fi
ok $? "the Noise line says what the noise did ($flagged of $total flagged)" || diag "$OUT"
json_check "$TMPD/hog.json" True
ok $? "the hog run's JSON is valid"

# the hog for the second half only: those samples ran slower than the first half's,
# and the Noise line says so with the shift (a shared CPU halves a busy loop's rate)
( sleep 1.1; exec taskset -c 0 sh -c 'while :; do :; done' ) &
HOG=$!
run noop -a -w0 -d2 --period-ms 200 --json "$TMPD/half.json"
stop_hog
read -r flagged total recorded <<<"$(noisy_of "$TMPD/half.json")"
if [ "$flagged" -ge 2 ] && [ "$flagged" -le $((total - 2)) ]; then
	grep -qE "^Noise: $flagged of $total samples under CPU pressure > 20% or steal > 2% ran -[0-9.]+% from the other" <<<"$OUT"
	ok $? "a hog for half the run: the Noise line gives the noisy samples' shift" || diag "$OUT"
else
	skip "the hog flagged $flagged of $total samples (the machine's own load decides it)"
fi

run noop -a -w0 -d1.2 --period-ms 200 --json "$TMPD/idle.json"
[ "$RC" -eq 0 ]
ok $? "noop alone: exit 0"
read -r flagged total recorded <<<"$(noisy_of "$TMPD/idle.json")"
diag "without the hog: $flagged of $total samples flagged (load: $(cut -d' ' -f1-3 /proc/loadavg))"
kernel_objects_settle "0 0 0" >/dev/null
ok $? "no object of ours left"
done_testing
