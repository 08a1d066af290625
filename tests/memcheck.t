#!/usr/bin/env bash
# valgrind memcheck on three short runs that cover the core's threads and
# triggers, the buffers the kernel fills, and a ring consumer; every family
# is checked by `make valgrind` (tests/valgrind/memcheck.t).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/valgrind/memcheck.sh"

memcheck core-test-run noop
memcheck map-batch map-batch --max_entries 2000 --batch 10,1000
memcheck rb-custom -c1 --rb-total 20000 rb-custom
done_testing
