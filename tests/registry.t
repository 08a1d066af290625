#!/usr/bin/env bash
# What "a family is added" means, for every family of the table
# (benchs/registry.c, doc/architecture.md's recipe): benchmark names are
# unique, each benchmark's family is one of the table's, a family's folder
# benchs/FOLDER/ (its name, '-' written '_') defines it and the registry
# lists it once, it has tests/FOLDER.t, a line and a section in
# doc/benchmarks.md, and the man page lists each of its benchmarks.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MAN="$(dirname "$BPFBENCH")/doc/bpfbench.1"

fams=$("$BPFBENCH" --list-families) && [ -n "$fams" ]
ok $? "--list-families lists the families" || diag "$fams"
list=$("$BPFBENCH" --list)

dups=$(awk '{print $1}' <<<"$list" | sort | uniq -d)
[ -z "$dups" ]
ok $? "benchmark names are unique" || diag "twice: $dups"

known=$(awk '{print $1}' <<<"$fams")
stray=$(awk '{print $2}' <<<"$list" | sort -u | grep -vxF -f <(echo "$known"))
[ -z "$stray" ]
ok $? "every benchmark's family is in the table" || diag "not in the table: $stray"

while read -r name folder count _; do
	dir=${folder#benchs/}
	[ "$dir" = "${name//-/_}" ] && [ -d "$ROOT/$folder" ] &&
		grep -q "^const struct family family_$dir = {" "$ROOT/$folder"/*.c
	ok $? "$name: its folder $folder defines family_$dir" || continue
	[ "$(grep -c "^	F($dir)" "$ROOT/benchs/registry.c")" -eq 1 ]
	ok $? "$name: one line in benchs/registry.c" || diag "F($dir) not there once"
	[ "$(awk -v f="$name" '$2 == f' <<<"$list" | wc -l)" -eq "$count" ]
	ok $? "$name: its $count benchmarks name it their family"
	[ -f "$ROOT/tests/$dir.t" ]
	ok $? "$name: tests/$dir.t"
	missing=()
	grep -q "(family $name)" "$ROOT/doc/benchmarks.md" || missing+=("(family $name)")
	for b in $(awk -v f="$name" '$2 == f {print $1}' <<<"$list"); do
		grep -q "$b" "$ROOT/doc/benchmarks.md" || missing+=("$b")
	done
	[ ${#missing[@]} -eq 0 ]
	ok $? "$name: doc/benchmarks.md names the family and each benchmark" || diag "missing: ${missing[*]}"
	if [ -f "$MAN" ]; then
		missing=()
		for b in $(awk -v f="$name" '$2 == f {print $1}' <<<"$list"); do
			grep -q -- "${b//-/\\\\-}\|$b" "$MAN" || missing+=("$b")
		done
		[ ${#missing[@]} -eq 0 ]
		ok $? "$name: the man page lists its benchmarks" || diag "missing: ${missing[*]}"
	else
		skip "$name: no man page built ($MAN)"
	fi
done <<<"$fams"
done_testing
