#!/usr/bin/env bash
# The strncmp family: every program run's result has the sign C's
# strncmp() gives over strings made as the family makes them (less, as
# upstream's, and the test aid's equal and greater); hits are every
# program run (the kernel's own run count); --cmp-str-len is refused
# outside upstream's 1-4095; the helper is probed (exit 4 where missing);
# run_bench_strncmp.sh, unmodified, reads our lines; nothing is left.
source "$(dirname "$0")/lib.sh"
need_bpf
before=$(kernel_objects)
J="$TMPD/s.json"
short=(-w0 -d0.3 --period-ms 100)

# totals EXPR: the run's totals bound to t, samples to s, run to r; EXPR true
totals() {
	json_check "$J" "r = d['runs'][0]; t = r['totals']; s = r['samples']
$1"
}

# C's strncmp over strings made as the family makes them: random digits,
# str the target's first LEN bytes and a terminator, its last byte one
# smaller (less), one larger (greater), or all LEN + 1 bytes the target's
# (equal); prints the sign of strncmp(str, target, LEN + 1)
cat >"$TMPD/sign.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	static char target[4096], str[4096];
	size_t len = strtoul(argv[1], NULL, 10), i;
	int ret;

	srandom(getpid_like());
	for (i = 0; i < sizeof(target) - 1; i++)
		target[i] = '1' + random() % 9;
	memcpy(str, target, len);
	str[len] = '\0';
	if (!strcmp(argv[2], "less"))
		str[len - 1] -= 1;
	else if (!strcmp(argv[2], "greater"))
		str[len - 1] += 1;
	else
		str[len] = target[len];
	ret = strncmp(str, target, len + 1);
	printf("%s\n", ret < 0 ? "negative" : ret ? "positive" : "zero");
	return argc != 3;
}
C
sed -i 's/getpid_like()/(unsigned int)time(NULL)/; 1i #include <time.h>' "$TMPD/sign.c"
cc -O2 -o "$TMPD/sign" "$TMPD/sign.c"
ok $? "the C side builds"

declare -A total_of=([negative]=hits [zero]=results_zero [positive]=results_positive)
for b in strncmp-no-helper strncmp-helper; do
	for c in less:32 equal:32 greater:32 less:1 equal:4095 less:4095; do
		sc=${c%:*} len=${c#*:}
		want=$("$TMPD/sign" "$len" "$sc")
		run "${short[@]}" -q $b --cmp-str-len "$len" --cmp-str-case "$sc" --json "$J"
		key=${total_of[$want]}
		[ "$RC" -eq 0 ] && totals "
t['$key'] > 0 and all(t[k] == 0 for k in ('hits', 'results_zero', 'results_positive') if k != '$key')"
		ok $? "$b --cmp-str-len $len, $sc: every run's result is $want, as C's strncmp" ||
			diag "rc=$RC $ERR"
	done
done

# hits are every program run: the kernel's count of the program's runs
for b in strncmp-no-helper strncmp-helper; do
	run "${short[@]}" -q --trigger test-run --test-run-repeat 64 --kernel-stats $b --json "$J"
	[ "$RC" -eq 0 ] && totals "
k = r['kernel_stats']
n = k['run_cnt']
inside = k['harness_runs_min'] <= n <= k['harness_runs_max'] and sum(x['hits_count'] for x in s) <= n
r['trigger'] == 'test-run' and k['valid'] and t['hits'] == n > 0 and inside"
	ok $? "$b, test-run: hits are the kernel's run count of the program" || diag "rc=$RC $ERR"
	run "${short[@]}" -q $b --json "$J"
	[ "$RC" -eq 0 ] && totals "
r['trigger'] == 'raw-tp' and 0 < sum(x['hits_count'] for x in s) <= t['hits']"
	ok $? "$b: auto takes raw-tp (a run a getpgid(), as upstream's tracepoint), every run a hit" ||
		diag "rc=$RC $ERR"
done

for v in 0 4096; do
	run "${short[@]}" strncmp-helper --cmp-str-len $v
	[ "$RC" -eq 2 ] && grep -q 'out of range \[1, 4095\]' <<<"$ERR"
	ok $? "--cmp-str-len $v is refused (exit 2), as upstream's 1-4095" || diag "rc=$RC $ERR"
done
run "${short[@]}" --cmp-str-len=4096 strncmp-no-helper
[ "$RC" -eq 2 ]
ok $? "and before the benchmark's name, as the kernel's script places it" || diag "rc=$RC $ERR"

has=$("$BPFBENCH" probe --json | python3 -c \
	"import json,sys; print(json.load(sys.stdin)['features']['helper_strncmp']['available'])")
if [ "$has" = True ]; then
	pass "bpf_strncmp is probed: this kernel has it (its runs above)"
else
	run "${short[@]}" strncmp-helper
	[ "$RC" -eq 4 ] && grep -q 'bpf_strncmp unknown.*--kernel 7.3' <<<"$ERR"
	ok $? "strncmp-helper: no bpf_strncmp here, exit 4 with the reason" || diag "rc=$RC $ERR"
fi

# a signal mid-run: the programs and links go with the process
"$BPFBENCH" -w0 -d5 strncmp-no-helper >/dev/null 2>&1 &
pid=$!
sleep 0.7
kill -INT $pid
wait $pid
now=$(kernel_objects_settle "$before")
ok $? "SIGINT mid-run: nothing of ours left ($now)"

# the kernel's own script, unmodified, with bpfbench as ./bench (lib.sh)
if kernel_scripts run_bench_strncmp.sh; then
	out=$(kernel_script run_bench_strncmp.sh)
	rows=$(grep -cE '^(no-)?helper-[0-9]+ +[0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M/s \(drops [0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M/s\)$' <<<"$out")
	[ "$rows" -eq 12 ]
	ok $? "run_bench_strncmp.sh, unmodified: its 12 rows" || diag "$out"
else
	skip "the kernel's script: no $KSRC (apt-get install linux-source-6.12)"
fi

after=$(kernel_objects_settle "$before")
ok $? "nothing of ours left in the kernel ($before -> $after)"
done_testing
