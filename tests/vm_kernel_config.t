#!/usr/bin/env bash
# scripts/vm/bpfbench.config, the fragment a kernel developer merges into
# their .config (doc/kernel-dev.md), has every option the VM runner needs
# (run.sh's RUNNER_NEEDS, the options init.sh's check names) and every one
# the feature probes need (the kconfig column of src/kernel/probe.c), each
# built in; and nothing else than options and comments.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FRAG=$ROOT/scripts/vm/bpfbench.config

# in_fragment WHO OPTION...: each is CONFIG_OPTION=y in the fragment
in_fragment() {
	local who=$1 o miss=()
	shift
	[ $# -gt 0 ] || { ok 1 "$who: its list is found"; return; }
	for o in "$@"; do grep -qx "CONFIG_$o=y" "$FRAG" || miss+=("$o"); done
	[ ${#miss[@]} -eq 0 ]
	ok $? "the fragment has the $# options $who needs, each =y" || diag "missing: ${miss[*]}"
}

runner=$(sed -n '/^RUNNER_NEEDS="/,/"$/p' "$ROOT/scripts/vm/run.sh" | grep -o '[A-Z][A-Z0-9_]*' | grep -vx RUNNER_NEEDS)
# shellcheck disable=SC2086
in_fragment "run.sh (RUNNER_NEEDS)" $runner
# init.sh's check: the pairs fs:OPTION and the CONFIG_ words it writes
guest=$(sed -n '/^kconfig_missing()/,/^}/p' "$ROOT/scripts/vm/init.sh" |
	grep -oE ':[A-Z][A-Z0-9_]*|CONFIG_[A-Z0-9_]+' | sed 's/^://; s/^CONFIG_//' | sort -u)
# shellcheck disable=SC2086
in_fragment "init.sh's check" $guest
for o in $guest; do grep -qw "$o" <<<"$runner" || false; done
ok $? "what init.sh checks after the boot is in run.sh's list checked before it" || diag "$guest"
probe=$(sed -n '/^} probes\[PROBE__COUNT\] = {/,/^};/p' "$ROOT/src/kernel/probe.c" |
	sed -n 's/.*, "\([A-Z0-9_ ]*\)" },$/\1/p' | tr ' ' '\n' | sort -u | grep .)
n=$(grep -c '= { "' <(sed -n '/^} probes\[PROBE__COUNT\] = {/,/^};/p' "$ROOT/src/kernel/probe.c"))
[ "$n" -eq "$(grep -c '^	\[PROBE_' <(sed -n '/^} probes\[PROBE__COUNT\] = {/,/^};/p' "$ROOT/src/kernel/probe.c"))" ] &&
	[ "$(grep -c '"[A-Z0-9_ ]*" },$' <(sed -n '/^} probes\[PROBE__COUNT\] = {/,/^};/p' "$ROOT/src/kernel/probe.c"))" -eq "$n" ]
ok $? "every probe of probe.c's table has its kconfig column ($n probes)"
# shellcheck disable=SC2086
in_fragment "the probes (probe.c)" $probe
bad=$(grep -vE '^(#.*|CONFIG_[A-Z0-9_]+=(y|[0-9]+|"[^"]*")|# CONFIG_[A-Z0-9_]+ is not set|)$' "$FRAG")
[ -z "$bad" ]
ok $? "the fragment is options and comments only" || diag "$bad"
dup=$(grep -oE '^CONFIG_[A-Z0-9_]+' "$FRAG" | sort | uniq -d)
[ -z "$dup" ]
ok $? "no option twice" || diag "$dup"
done_testing
