#!/usr/bin/env bash
# The noise check: a CPU hog pinned beside the producer (same CPU) makes
# its samples wait, which /proc/pressure/cpu shows; those samples are
# flagged in JSON and counted on the Noise line.  An idle run's flags are
# reported, not asserted: this machine may be busy.
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
grep -qE "^Noise: $flagged of $total samples were taken under" <<<"$OUT$ERR"
ok $? "the Noise line says how many" || diag "$OUT"
json_check "$TMPD/hog.json" True
ok $? "the hog run's JSON is valid"

run noop -a -w0 -d1.2 --period-ms 200 --json "$TMPD/idle.json"
[ "$RC" -eq 0 ]
ok $? "noop alone: exit 0"
read -r flagged total recorded <<<"$(noisy_of "$TMPD/idle.json")"
diag "without the hog: $flagged of $total samples flagged (load: $(cut -d' ' -f1-3 /proc/loadavg))"
kernel_objects_settle "0 0 0" >/dev/null
ok $? "no object of ours left"
done_testing
