#!/usr/bin/env bash
# The tree by layer (issue 26): moves with `git mv` whatever still sits at
# its old flat place, so it can be run again after merging a branch that
# added or kept files there.  Idempotent: a file already moved is left
# alone.  Run from anywhere inside the checkout; commit the result.
# With --contract it also makes the families' mechanical edits (below).
#
#   src/LAYER/FILE      the core, one folder per layer (the map: doc/architecture.md)
#   benchs/FAMILY/      every family with its .bpf.c, headers and suite
#   benchs/registry.c   the table of benchmarks and suites, beside the families
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

# Layer of each core file, by its stem (X.c, X.h and X_int.h go together).
declare -A layer=(
	[main]=cli [cli]=cli [cli_check]=cli [opts]=cli [complete]=cli [mangen]=cli
	[bench]=bench [trigger]=bench [skel_util]=bench [memcg]=bench
	[runner]=run [result]=run [noise]=run [kstats]=run
	[suite]=orchestrate [plan]=orchestrate [ab]=orchestrate
	[stats]=stats [hist]=stats [mkey]=stats
	[report]=output [export]=output [export_json]=output [export_md]=output [crew]=run [vm]=orchestrate [outpath]=output [cmp_match]=readback [jsonw]=output
	[outfile]=output [sysenv]=output
	[resdoc]=readback [resdoc_int]=readback [resdoc_metric]=readback [resenv]=readback
	[jsonr]=readback [compare]=readback [cmp_print]=readback [verdict]=readback
	[plot]=readback [plot_int]=readback [plot_cdf]=readback [plot_gp]=readback
	[probe]=kernel [probe_int]=kernel [probe_bpf]=kernel [sysfs]=kernel
	[util]=util
)

move() {	# old new
	[ -e "$1" ] || return 0
	if [ -e "$2" ]; then
		echo "restructure: both $1 and $2 exist: merge them by hand" >&2
		status=1
		return 0
	fi
	mkdir -p "$(dirname "$2")"
	git mv "$1" "$2"
}

status=0
for f in src/*.c src/*.h; do
	[ -e "$f" ] || continue
	base=$(basename "$f")
	stem=${base%.*}
	if [ "$base" = benchs.c ]; then
		move "$f" benchs/registry.c
	elif [ -n "${layer[$stem]:-}" ]; then
		move "$f" "src/${layer[$stem]}/$base"
	else
		echo "restructure: $f has no layer: add its stem to scripts/restructure.sh" >&2
		status=1
	fi
done

# A flat family file goes into the folder of the family whose name begins
# it (longest first: htab_mem_hist.c into htab_mem/); a new family gets one.
families() {
	{
		find benchs -mindepth 1 -maxdepth 1 -type d -printf '%f\n'
		for f in benchs/*.bpf.c; do
			[ -e "$f" ] && basename "$f" .bpf.c
		done
	} | sort -u | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2
}
for f in benchs/*.c benchs/*.h; do
	[ -e "$f" ] || continue
	base=$(basename "$f")
	[ "$base" = registry.c ] && continue
	fam=
	for d in $(families); do
		case "$base" in "$d".*|"$d"_*) fam=$d; break ;; esac
	done
	if [ -z "$fam" ]; then
		echo "restructure: $f belongs to no family: move it by hand" >&2
		status=1
		continue
	fi
	move "$f" "benchs/$fam/$base"
done

# The only path edit: a family's shared header now sits beside its files.
{ grep -rlE '#include "\.\./[a-z_]+\.h"' benchs || true; } |
	xargs -r sed -i -E 's|#include "\.\./([a-z_]+\.h)"|#include "\1"|'

# --contract: what the later commits built on.  The comments' paths follow
# the moves (src/X.c -> src/LAYER/X.c), and the families' mechanical edits.
[ "${1:-}" = --contract ] || exit $status
comments() {
	local stem
	printf 's|src/benchs\\.c|benchs/registry.c|g\n'
	# a family's "(src/hist.h)" means how it adopts histograms: the reading half's header
	printf 's|src/hist\\.h|src/bench/hist_bpf.h|g\n'
	for stem in "${!layer[@]}"; do
		printf 's|src/%s\\.([ch])\\b|src/%s/%s.\\1|g\n' "$stem" "${layer[$stem]}" "$stem"
	done
}
{ git ls-files src benchs bpf tests Makefile doc | grep -E '\.(c|h|t|sh|in)$|Makefile' |
	xargs -r grep -lE 'src/[a-z_]+\.[ch]\b' || true; } | xargs -r sed -i -E -f <(comments)

# A family sees only bench.h (scripts/check-includes.py), and reads its
# result through bench.h's accessors, never run_result's fields.
# Mechanical, so it can be re-run on family code merged from elsewhere.
core=$(find src -name '*.h' ! -name bench.h -printf '%f\n' | sort -u | paste -sd'|')
find benchs -name '*.[ch]' ! -name '*.bpf.c' -print0 |
	xargs -0 perl -0pi -e '
		my $core = qr/'"$core"'/;
		if (s/^#include "(?:$core)"\n/\@BENCH_H\@\n/mg) {
			# bench.h, unless the file has it or a header of its family
			(my $dir = $ARGV) =~ s{/[^/]*$}{};
			my $has = /^#include "bench.h"/m;
			$has ||= -e "$dir/$1" while !$has && /^#include "([^"]+\.h)"/mg;
			s/\@BENCH_H\@\n/#include "bench.h"\n/ unless $has;
			s/^\@BENCH_H\@\n//mg;
		}
		s/&((?:env->)?res)->st\[([^]]+)\]/res_st($1, $2)/g;
		s/\b((?:env->)?res)->st\[([^]]+)\]\./res_st($1, $2)->/g;
		s/&((?:env->)?res)->metrics\[([^]]+)\]/res_def($1, $2)/g;
		s/\b((?:env->)?res)->metrics\[([^]]+)\]\./res_def($1, $2)->/g;
		s/\b((?:env->)?res)->(nr_metrics|nr_samples|nr_warmup)\b/res_$2($1)/g;
		s/\b((?:env->)?res)->spec\.args\b/res_args($1)/g;
		s/\b((?:env->)?res)->spec\.opts\./res_opts($1)->/g;
		s/\b((?:env->)?res)->bench->/res_bench($1)->/g;
	'
exit $status
