#!/usr/bin/env bash
# Installs the Debian packages bpfbench needs, only those missing.
set -euo pipefail

# Extra package names may be given as arguments (e.g. what `make fuzz` needs).
# scdoc builds the man page; man-db, zsh and python3-jsonschema are for the
# tests of the man page, the zsh completion and the result schema; time
# (/usr/bin/time) measures compare's memory in tests/compare.t; git drives
# tests/bisect.t's stand-in kernel trees; systemtap-sdt-dev (sys/sdt.h) puts
# the USDT notes trig-usdt-* probe into bpfbench's own binary.
# libsqlite3-dev and libpq-dev build the history (bpfbench db): SQLite is
# embedded, so `make run` needs no database server; make check adds
# postgresql-15 for tests/db_pg.t, and libxml2-utils (xmllint: the JUnit
# XML against schema/junit.xsd) and linux-source-6.12 (the kernel's KTAP
# parser, tools/testing/kunit) for tests/formats.t.
pkgs=(make gcc clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev pkg-config
      libjson-c-dev gnuplot-nox python3 perl jq iproute2 scdoc man-db zsh
      python3-jsonschema time libsqlite3-dev libpq-dev git systemtap-sdt-dev "$@")

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "bpfbench: missing packages: ${missing[*]} (run as root or: sudo apt-get install ${missing[*]})" >&2
	exit 1
fi
echo "bpfbench: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# another apt-get (a parallel make, a helper) may hold the lock: wait for it
apt-get install -y -qq -o DPkg::Lock::Timeout=300 --no-install-recommends "${missing[@]}" >/dev/null
