#!/bin/bash
# Side by side, both tools placed alike (our copy of ../shared/reference-bench/side-by-side.sh,
# doc/variance.md): the kernel's selftests bench (UPSTREAM_DIR/bench, built by that folder's
# build.sh) and bpfbench, same benchmark and options, in one run.  Each round runs both, the order
# flipping round by round (U B, B U, ...), so neither always runs first into a phase of the host.
# PLACE (default "-a", both tools' own flag: consumers then producers pinned to CPUs 0, 1, ...) is
# added to every spec that does not place its threads itself; PLACE= leaves them free.  PIN (a
# command prefix, e.g. "taskset -c 0") places the whole process of both.  Prints per spec the
# medians, ours/upstream, and the median of the per-round ratios (paired).
# usage: [SPECS=regex] [EXTRA=1] [PLACE=-a] [PIN=prefix] side-by-side.sh UPSTREAM_DIR BPFBENCH_BIN [ROUNDS] [DURATION]
set -u
U=${1:?upstream dir}; B=${2:?bpfbench binary}; R=${3:-2}; D=${4:-4}
B=$(readlink -f "$B")
out=$(mktemp -d)
# metric: first number after the key in the Summary line; "total" = hits+drops for upstream's hashmap benches
specs=(
"throughput|bpf-loop --nr_loops 10"
"throughput|bpf-loop --nr_loops 1000"
"throughput|bpf-loop --nr_loops 1000000"
"hits|bloom-lookup --nr_entries 100000 --nr_hash_funcs 3 --value_size 8"
"hits|bloom-update --nr_entries 100000 --nr_hash_funcs 3 --value_size 8"
"fpr|bloom-false-positive --nr_entries 100000 --nr_hash_funcs 3 --value_size 8"
"total|hashmap-without-bloom --nr_entries 100000 --nr_hash_funcs 5 --value_size 8"
"total|hashmap-with-bloom --nr_entries 100000 --nr_hash_funcs 5 --value_size 8"
"total|hashmap-without-bloom --nr_entries 1000000 --nr_hash_funcs 5 --value_size 8"
"total|hashmap-with-bloom --nr_entries 1000000 --nr_hash_funcs 5 --value_size 8"
"per-prod-op|htab-mem --use-case overwrite -p1"
"per-prod-op|htab-mem --use-case overwrite --preallocated -p1"
"per-prod-op|htab-mem --use-case batch_add_batch_del -p1"
"per-prod-op|htab-mem --use-case add_del_on_diff_cpu -a -p2"
"hits|rb-libbpf -c1"
"hits|rb-custom -c1"
"hits|pb-libbpf -c1"
"hits|pb-custom -c1"
"hits|rb-custom -c1 --rb-b2b"
"hits|rb-libbpf -c1 --rb-sampled"
"hits|pb-custom -c1 --rb-sampled"
"hits|rb-libbpf -c1 -p2 --rb-batch-cnt 50"
"throughput|lpm-trie-lookup --prefix_len=32 --nr_entries=10000"
"throughput|lpm-trie-update --prefix_len=32 --nr_entries=10000"
"throughput|lpm-trie-delete --prefix_len=32 --nr_entries=10000"
"throughput|lpm-trie-free --prefix_len=32 --nr_entries=10000"
)
# EXTRA=1: htab-mem away from the seed rows' -p1/-p2, at the seed script's own -a -p8
# (run_bench_htab_mem.sh) and preallocated with two producers
[ "${EXTRA:-0}" = 1 ] && specs+=(
"per-prod-op|htab-mem --use-case overwrite -a -p8"
"per-prod-op|htab-mem --use-case overwrite --preallocated -a -p8"
"per-prod-op|htab-mem --use-case batch_add_batch_del --preallocated -a -p8"
"per-prod-op|htab-mem --use-case add_del_on_diff_cpu --preallocated -a -p2"
)
parse() { # file metric side
	python3 - "$1" "$2" "$3" <<'EOF'
import re,sys,math
f,m,side=sys.argv[1:]
t=open(f,errors='replace').read()
s=[l for l in t.splitlines() if l.startswith('Summary')]
if not s: print('nan'); sys.exit()
s=s[-1]
def after(key):
    x=re.search(re.escape(key)+r'[^0-9]*([0-9.]+)',s,re.I); return float(x.group(1)) if x else float('nan')
if m=='fpr':
    v=after('Percentage')
    if side=='b' and math.isnan(v): v=after('as the kernel bench prints it')
elif m=='total':
    v=after('total operations')
    if side=='b' and math.isnan(v): v=after('Lookups')
else:
    v=after(m)
    if side=='b' and m=='hits' and math.isnan(v):
        v=after('Lookups -') if 'Lookups' in s else after('Updates -')
print(v)
EOF
}
printf "%-70s %12s %12s %7s\n" "spec" "upstream" "bpfbench" "ours/up"
for sp in "${specs[@]}"; do
	m=${sp%%|*}; a=${sp#*|}
	[[ "$a" =~ ${SPECS:-.} ]] || continue
	# where the main thread does all the work, both tools refuse -a
	[[ " $a " == *" -a "* || "$a" == bloom-false-positive* || "$a" == lpm-trie-free* ]] ||
		a="$a ${PLACE--a}"
	us=(); bs=()
	for r in $(seq "$R"); do
		if [ $((r % 2)) = 1 ]; then
			(cd "$U" && timeout 60 ${PIN:-} ./bench -w1 -d"$D" $a) >"$out/u" 2>&1
			timeout 60 ${PIN:-} "$B" -w1 -d"$D" $a >"$out/b" 2>&1
		else
			timeout 60 ${PIN:-} "$B" -w1 -d"$D" $a >"$out/b" 2>&1
			(cd "$U" && timeout 60 ${PIN:-} ./bench -w1 -d"$D" $a) >"$out/u" 2>&1
		fi
		us+=("$(parse "$out/u" "$m" u)"); bs+=("$(parse "$out/b" "$m" b)")
	done
	python3 - "$a" "${us[*]}" "${bs[*]}" <<'EOF'
import sys,statistics as st,math
a,u,b=sys.argv[1],[float(x) for x in sys.argv[2].split()],[float(x) for x in sys.argv[3].split()]
mu=st.median(u); mb=st.median(b)
r=mb/mu if mu and not math.isnan(mu) and not math.isnan(mb) else float('nan')
pr=[y/x for x,y in zip(u,b) if x and not math.isnan(x) and not math.isnan(y)]
pm=st.median(pr) if pr else float('nan')
print("%-70s %12.4g %12.4g %7.2f   (u %s | b %s | paired %.2f)"%(a[:70],mu,mb,r,' '.join('%.4g'%x for x in u),' '.join('%.4g'%x for x in b),pm))
EOF
done
rm -rf "$out"
