# bpfbench: `make` builds, `make run` runs the quick suite, `make check` tests.
# Both `run` and `check` first install what is missing (scripts/deps.sh).

BUILD		?= build
# The BPF objects, their skeletons and vmlinux.h do not depend on the C
# compiler's flags: check's sanitizer build takes build/'s (BPF_BUILD=build)
# instead of compiling them a second time.
BPF_BUILD	?= $(BUILD)
CC		?= gcc
CLANG		?= clang
BPFTOOL		?= bpftool
SANITIZE	?=
VERSION		:= 0.1
GIT		:= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
ARCH		:= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')

# The core's layers (src/LAYER/): each folder is on the include path.
SRC_DIRS	:= $(sort $(patsubst %/,%,$(dir $(wildcard src/*/*.c src/*/*.h))))

CFLAGS		?= -O2 -g
# libpq's header: Debian's libpq-dev puts it under postgresql/
PG_INC		:= $(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
CFLAGS		+= -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers \
		   -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
		   -D_GNU_SOURCE -DBPFBENCH_VERSION='"$(VERSION)"' -DBPFBENCH_GIT='"$(GIT)"' \
		   $(addprefix -I,$(SRC_DIRS)) -I$(PG_INC) -Ibpf -I$(BPF_BUILD)
LDLIBS		+= -lbpf -lelf -lz -ljson-c -lsqlite3 -lpq -lpthread -lm
# The multiarch include folder, after the others: libbpf's usdt.bpf.h
# includes <linux/errno.h>, whose <asm/errno.h> Debian keeps there.
MULTIARCH	:= $(shell $(CC) -dumpmachine 2>/dev/null)
BPF_CFLAGS	:= -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror \
		   -Ibpf -I$(BPF_BUILD) -idirafter /usr/include/$(MULTIARCH)

ifneq ($(FUZZ),)
CC		:= $(CLANG)
CFLAGS		+= -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
endif

ifneq ($(SANITIZE),)
CFLAGS		+= -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS		+= -fsanitize=address,undefined
endif

CORE_SRCS	:= $(filter-out src/cli/main.c,$(wildcard src/*/*.c))
# Every family has its own folder, benchs/FAMILY/; benchs/registry.c lists them.
BENCH_SRCS	:= $(sort $(filter-out %.bpf.c,$(wildcard benchs/*.c benchs/*/*.c)))
BPF_SRCS	:= $(wildcard benchs/*.bpf.c benchs/*/*.bpf.c)
# Skeletons are named by the BPF file alone (unique): $(BPF_BUILD)/X.skel.h.
SKELS		:= $(patsubst %.bpf.c,$(BPF_BUILD)/%.skel.h,$(notdir $(BPF_SRCS)))
vpath %.bpf.c $(sort $(dir $(BPF_SRCS)))
CORE_OBJS	:= $(patsubst src/%.c,$(BUILD)/obj/%.o,$(CORE_SRCS))
BENCH_OBJS	:= $(patsubst benchs/%.c,$(BUILD)/obj/benchs/%.o,$(BENCH_SRCS))
# tests/unit/: no bpf(), run unprivileged; tests/kernel/: C tests that load BPF.
UNIT_SRCS	:= $(wildcard tests/unit/*_test.c)
UNIT_BINS	:= $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS)) \
		   $(patsubst tests/kernel/%.c,$(BUILD)/tests/kernel/%,$(wildcard tests/kernel/*_test.c))
REPLAY_BINS	:= $(patsubst tests/fuzz/fuzz_%.c,$(BUILD)/tests/replay_%,$(wildcard tests/fuzz/fuzz_*.c))

# Generated from the built binary's tables, so they never drift from it.
DOCS		:= $(BUILD)/doc/bpfbench.1 $(BUILD)/doc/bpfbench.bash $(BUILD)/doc/_bpfbench \
		   $(BUILD)/doc/usage.md

PREFIX		?= /usr/local
DESTDIR		?=
BINDIR		:= $(PREFIX)/bin
MAN1DIR		:= $(PREFIX)/share/man/man1
BASHCOMPDIR	:= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR	:= $(PREFIX)/share/zsh/site-functions
DOCDIR		:= $(PREFIX)/share/doc/bpfbench
VMDIR		:= $(PREFIX)/share/bpfbench/vm
VM_FILES	:= scripts/vm/run.sh scripts/vm/ab.sh scripts/vm/bisect.sh scripts/vm/bisect-lib.sh \
		   scripts/vm/bisect_report.py \
		   scripts/vm/merge_runs.py scripts/vm/kernel.sh scripts/vm/init.sh scripts/vm/guest.sh \
		   scripts/vm/kernels scripts/vm/lib.sh scripts/vm/bpfbench.config
# The reference README.md links, in doc/ beside it as in the tree.
DOC_FILES	:= $(wildcard doc/*.md) doc/kernel-patch-example.diff
INSTALLED	:= $(BINDIR)/bpfbench $(MAN1DIR)/bpfbench.1 $(BASHCOMPDIR)/bpfbench \
		   $(ZSHCOMPDIR)/_bpfbench $(DOCDIR)/README.md $(DOCDIR)/LICENSE \
		   $(DOCDIR)/bpfbench-result.schema.json $(addprefix $(DOCDIR)/,$(DOC_FILES)) \
		   $(addprefix $(VMDIR)/,$(notdir $(VM_FILES)))

FUZZ_SECONDS	?= 60
FUZZERS		:= $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: FORCE all run check test deps clean fuzz fuzzers valgrind man completion usage-md install \
	uninstall vm-deps check-kernel check-kernel-ci check-busy
.DELETE_ON_ERROR:
.SECONDARY:

all: $(BUILD)/bpfbench $(UNIT_BINS) $(REPLAY_BINS) $(DOCS) $(BUILD)/tests/calib

# A build whose BPF objects are another's says where they are: tests/lib.sh
# reads the skeletons' object names there to tell our objects from others'.
ifneq ($(abspath $(BPF_BUILD)),$(abspath $(BUILD)))
all: $(BUILD)/bpf-build
$(BUILD)/bpf-build: FORCE
	@mkdir -p $(@D)
	@echo $(abspath $(BPF_BUILD)) >$@
endif
FORCE:

$(BPF_BUILD)/vmlinux.h:
	@mkdir -p $(@D)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@

# Each object's header dependencies are generated as it compiles (-MMD),
# so one edit rebuilds exactly what includes it; the skeletons (and
# vmlinux.h) must exist before a first compile can list them.
DEPFLAGS	= -MMD -MP -MF $(@:.o=.d)

$(BPF_BUILD)/%.bpf.o: %.bpf.c | $(BPF_BUILD)/vmlinux.h
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BPF_BUILD)/%.skel.h: $(BPF_BUILD)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/obj/benchs/%.o: benchs/%.c | $(SKELS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

-include $(patsubst %.o,%.d,$(BUILD)/obj/cli/main.o $(CORE_OBJS) $(BENCH_OBJS)) \
	 $(patsubst %.skel.h,%.bpf.d,$(SKELS))

$(BUILD)/bpfbench: $(BUILD)/obj/cli/main.o $(CORE_OBJS) $(BENCH_OBJS)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The core's tests run the BPF-free test double instead of the real table.
$(BUILD)/tests/core_test: tests/unit/core_test.c tests/unit/mock_bench.c \
			  $(CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The verdicts' calibration harness (tests/calib/): the core's verdict code
# on drawn and recorded comparisons; BPF-free, like core_test.
CALIB_SRCS	:= $(wildcard tests/calib/*.c)
$(BUILD)/tests/calib: $(CALIB_SRCS) tests/calib/calib.h tests/unit/mock_bench.c $(CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/calib $(LDFLAGS) $(CALIB_SRCS) tests/unit/mock_bench.c \
		$(CORE_OBJS) $(LDLIBS) -o $@

$(BUILD)/doc/bpfbench.1.scd: doc/bpfbench.1.scd.in $(BUILD)/bpfbench
	@mkdir -p $(@D)
	$(BUILD)/bpfbench gen-man $< > $@

# scdoc's .nh comes before .TH, which turns hyphenation back on: option
# names and values must not be split, neither by hyphenation nor at their
# own hyphens (.cflags 0 -: a line may not break after a '-').
$(BUILD)/doc/bpfbench.1: $(BUILD)/doc/bpfbench.1.scd
	@command -v scdoc >/dev/null || \
		{ echo "bpfbench: the man page needs scdoc: apt-get install scdoc (or make deps)" >&2; exit 1; }
	scdoc < $< > $@.tmp
	sed '/^\.TH /a .nh\n.cflags 0 -' $@.tmp > $@
	rm -f $@.tmp

$(BUILD)/doc/bpfbench.bash: $(BUILD)/bpfbench
	@mkdir -p $(@D)
	$< completion bash > $@

$(BUILD)/doc/_bpfbench: $(BUILD)/bpfbench
	@mkdir -p $(@D)
	$< completion zsh > $@

# doc/usage.md is committed (it is read where the tree is, without a build),
# generated as the man page is; tests/docs.t fails when it differs from what
# the binary writes: make usage-md writes it again.
$(BUILD)/doc/usage.md: doc/usage.md.in $(BUILD)/bpfbench
	@mkdir -p $(@D)
	$(BUILD)/bpfbench gen-usage $< > $@

man: $(BUILD)/doc/bpfbench.1
completion: $(BUILD)/doc/bpfbench.bash $(BUILD)/doc/_bpfbench
usage-md: $(BUILD)/doc/usage.md
	cp $< doc/usage.md

# PREFIX (default /usr/local) and DESTDIR as packagers expect.
install: $(BUILD)/bpfbench $(DOCS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(DOCDIR)/doc
	install -m 0755 $(BUILD)/bpfbench $(DESTDIR)$(BINDIR)/bpfbench
	install -m 0644 $(BUILD)/doc/bpfbench.1 $(DESTDIR)$(MAN1DIR)/bpfbench.1
	install -m 0644 $(BUILD)/doc/bpfbench.bash $(DESTDIR)$(BASHCOMPDIR)/bpfbench
	install -m 0644 $(BUILD)/doc/_bpfbench $(DESTDIR)$(ZSHCOMPDIR)/_bpfbench
	install -m 0644 README.md LICENSE schema/bpfbench-result.schema.json $(DESTDIR)$(DOCDIR)
	install -m 0644 $(DOC_FILES) $(DESTDIR)$(DOCDIR)/doc
	install -d $(DESTDIR)$(VMDIR)
	install -m 0644 $(VM_FILES) $(DESTDIR)$(VMDIR)

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rmdir $(DESTDIR)$(DOCDIR)/doc $(DESTDIR)$(DOCDIR) $(DESTDIR)$(VMDIR) $(DESTDIR)$(PREFIX)/share/bpfbench 2>/dev/null || true

$(BUILD)/tests/%: tests/unit/%.c $(CORE_OBJS) $(BENCH_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/kernel/%: tests/kernel/%.c $(CORE_OBJS) $(BENCH_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# A fuzz target with a plain main(), for the tests to replay its corpus.
$(BUILD)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(CORE_OBJS) $(BENCH_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/fuzz/%: tests/fuzz/%.c $(CORE_OBJS) $(BENCH_OBJS)
	@mkdir -p $(@D)
	$(CLANG) $(CFLAGS) -fsanitize=fuzzer,address,undefined $^ $(LDLIBS) -o $@

fuzzers: $(addprefix $(BUILD)/fuzz/,$(FUZZERS))

# Each fuzzer runs FUZZ_SECONDS from the seed corpus in tests/fuzz/corpus/NAME
# (copied: the repo's corpus only grows with inputs that once crashed).
fuzz:
	@bash scripts/deps.sh libclang-rt-14-dev
	$(MAKE) BUILD=build-fuzz FUZZ=1 fuzzers
	bash scripts/fuzz.sh $(FUZZ_SECONDS) build-fuzz $(FUZZERS)

deps:
	@bash scripts/deps.sh

# make run: the packages, a quiet build (make all's commands go to
# $(BUILD)/build.log; on a failure its tail is shown), then RUN_ARGS (the
# quick suite; tests/make_run.t runs one short benchmark) with its result in
# $(BUILD)/run.json, from which the conditions of what ran are printed, and
# two next steps (scripts/make-run-tail.py).
RUN_ARGS	?= suite quick
RUN_JSON	= $(BUILD)/run.json

run: deps
	@mkdir -p $(BUILD)
	@printf 'bpfbench: building into %s/ (log: %s) ... ' '$(BUILD)' '$(BUILD)/build.log'; \
	t0=$$(date +%s); \
	if $(MAKE) $(JOBS) all >$(BUILD)/build.log 2>&1; then \
		echo "done ($$(( $$(date +%s) - t0 )) s)"; \
	else \
		echo failed; tail -n 30 $(BUILD)/build.log >&2; exit 1; \
	fi
	@echo '$(BUILD)/bpfbench $(RUN_ARGS) --json $(RUN_JSON)'
	@rm -f $(RUN_JSON); st=0; \
	$(BUILD)/bpfbench $(RUN_ARGS) --json $(RUN_JSON) || st=$$?; \
	echo; python3 scripts/make-run-tail.py $(BUILD)/bpfbench $(RUN_JSON); exit $$st

# The builds of check use every CPU unless make was given its own -j.
NPROC		:= $(shell nproc 2>/dev/null || echo 1)
JOBS		:= $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))
# Both passes' tests run side by side in one prove, three per CPU: most of a
# test's time is the fixed -d of short runs (busy loops that stop on the
# clock, not after a given work: they spin on whatever CPU there is) and the
# waits around them, so more of them side by side finish sooner, and a
# test must pass beside other BPF users and load anyway (tests/lib.sh
# counts only the objects of its own processes; its deadlines are measured
# under the load of the moment).  The slowest first, so the pool stays full.
PROVE_JOBS	:= $(shell echo $$(( $(NPROC) * 3 )))
PROVE		:= prove -j$(PROVE_JOBS) -e bash --timer -f --comments
# ... except those that judge timing or noise: they run alone, after the rest
# (a self-comparison beside another test's bursts of load is no self-comparison;
# placement.t's CPU hog must be the only one on its CPU).
SERIAL_TESTS	:= tests/verdicts.t tests/testrun.t tests/noise.t tests/placement.t
# The runner's real boots (QEMU under TCG: two boots, about 100 s of both
# CPUs) are check-kernel-ci's, beside its other VM runs, not check's.
BOOT_TESTS	:= tests/vm_boot.t

# The sanitizer pass of check is there for the user-space code under ASan +
# UBSan, not to repeat in it every kernel-side variation the family tests
# run in the plain pass: under the sanitizers tests/san/families.t stands in
# for them, every benchmark once with the options that reach its family's C
# code (--verify, --count, --latency, use cases, map types, consumers,
# test-run's calibration; every run reads CPU pressure for its Noise line).
# Also left out: busy.t (tests/lib.sh's object counting against other
# processes, no bpfbench code of its own), includes.t and archive_hosts.t
# (scripts over the source tree, no binary), memcheck.t (valgrind cannot run an ASan binary),
# the VM runner's tests (shell scripts and a boot), make_run.t (make run's
# output: it builds a plain tree of its own), the tests only a newer
# kernel runs (they skip here; make check-kernel-ci runs them), and the three
# that judge timing and noise, testrun.t, noise.t and verdicts.t (ASan's
# slowdown is what they would measure; their user-space paths run in
# families.t, ab.t and compare.t), and
# four whose checks are on text or JSON by tools of their own, the writers
# they read running under the sanitizers elsewhere: install.t (completion
# and man page: cli.t prints both completions under ASan), schema.t (the
# JSON of every benchmark: families.t writes it), upstream_scripts.t
# (the kernel's scripts reading our Summary lines: families.t prints them)
# and docs.t (the docs against every --help: cli.t prints them under ASan).
# Every other test, and any new one, runs in both passes: the core and its
# outputs (CLI, results, JSON/CSV/Markdown, schema, compare, ab and verdicts,
# plot, C unit tests, fuzz corpora, histograms, faults, signals, state,
# probe, privileges, kernel stats, install).
SAN_OMIT	:= tests/install.t tests/schema.t tests/upstream_scripts.t tests/docs.t \
		   tests/bloom.t tests/bloom_latency.t tests/bpf_for.t tests/bpf_loop.t \
		   tests/htab_mem.t tests/lpm_trie.t tests/map_batch.t tests/maps.t tests/ringbufs.t \
		   tests/busy.t tests/includes.t tests/memcheck.t tests/make_run.t tests/vm.t tests/vm_boot.t \
		   tests/mail.t tests/ab_progress.t tests/plot.t \
		   tests/vm_kernel.t tests/vm_kernel_config.t tests/vm_mirror.t tests/archive_hosts.t \
		   tests/noise.t tests/testrun.t tests/verdicts.t tests/placement.t $(wildcard tests/kernel_*.t) \
		   tests/bisect.t tests/normalized.t tests/rounds.t
SAN_TESTS	:= $(filter-out $(SAN_OMIT),$(sort $(wildcard tests/*.t))) tests/san/families.t
# The sanitizer pass's tests are run through wrappers, build-san/check/NAME.t,
# that point them at build-san: one prove schedules both passes.
SAN_CHECK	:= build-san/check
san_wrap	= $(SAN_CHECK)/$(notdir $(1))
# The slowest tests of both passes, longest first (prove --timer on an idle
# 2-vCPU VM): started first, so that the pool's tail is short tests.
SLOW_TESTS	:= tests/vm.t tests/compare.t $(call san_wrap,tests/compare.t) tests/maps.t \
		   tests/bisect.t \
		   $(call san_wrap,tests/profile_hostile.t) tests/profile_hostile.t \
		   $(call san_wrap,tests/san/families.t) $(call san_wrap,tests/results.t) tests/busy.t \
		   $(call san_wrap,tests/fds.t) tests/lpm_trie.t tests/htab_mem.t $(call san_wrap,tests/ab.t) \
		   tests/fds.t $(call san_wrap,tests/cli.t) tests/map_batch.t tests/upstream_scripts.t \
		   $(call san_wrap,tests/outputs.t) tests/verifier.t $(call san_wrap,tests/plot.t) \
		   $(call san_wrap,tests/privileges.t) tests/ringbufs.t tests/calib.t tests/bloom.t \
		   tests/vm_kernel.t tests/install.t tests/docs.t tests/bloom_latency.t tests/results.t tests/plot.t \
		   tests/memcheck.t tests/schema.t $(call san_wrap,tests/db_pg.t) \
		   $(call san_wrap,tests/db.t) tests/outputs.t tests/bpf_for.t \
		   $(call san_wrap,tests/profile.t) $(call san_wrap,tests/compare_scale.t) tests/ab.t \
		   $(call san_wrap,tests/signals.t) $(call san_wrap,tests/verifier.t)
PAR_TESTS	:= $(filter-out $(SERIAL_TESTS) $(BOOT_TESTS),$(wildcard tests/*.t)) \
		   $(foreach t,$(filter-out $(SERIAL_TESTS),$(SAN_TESTS)),$(call san_wrap,$(t)))
PAR_TESTS	:= $(filter $(PAR_TESTS),$(SLOW_TESTS)) $(filter-out $(SLOW_TESTS),$(PAR_TESTS))

# Both builds, then every test but the serial ones of both passes side by
# side, then the serial ones alone (the sanitizer pass has none: SAN_OMIT).
check:
	@bash scripts/deps.sh valgrind qemu-system-x86 busybox-static cpio xz-utils postgresql-15 \
		libxml2-utils linux-source-6.12
	$(MAKE) $(JOBS) all
	$(MAKE) $(JOBS) BUILD=build-san BPF_BUILD=$(BUILD) SANITIZE=1 all
	@rm -rf $(SAN_CHECK) && mkdir -p $(SAN_CHECK)
	@for t in $(SAN_TESTS); do \
		printf '#!/usr/bin/env bash\n# %s under ASan + UBSan (make check)\nBPFBENCH_BUILD=build-san exec bash %s\n' \
			"$$t" "$(CURDIR)/$$t" >$(SAN_CHECK)/$${t##*/}; \
	done
	BPFBENCH_BUILD=$(BUILD) $(PROVE) $(PAR_TESTS)
	BPFBENCH_BUILD=$(BUILD) prove -v -e bash --timer $(SERIAL_TESTS)

test: check

# make check beside another BPF user (a process creating and destroying maps,
# some named like bpfbench's) and a CPU hog per CPU: the tests must pass on a
# busy machine too (scripts/check-busy.sh; not run by CI).
$(BUILD)/tests/load_helper: tests/load/load_helper.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(LDLIBS) -o $@

check-busy: $(BUILD)/tests/load_helper
	bash scripts/check-busy.sh $(BUILD)/tests/load_helper

# --- Another kernel: the tests run inside a Debian kernel under QEMU ---
# (scripts/vm/: KVM where /dev/kvm works, else TCG, emulated and slow).
# KERNEL is a name of scripts/vm/kernels (7.3, 6.12) or a package name;
# check-kernel runs TESTS (default every tests/*.t: under TCG about an hour),
# check-kernel-ci the tests only a newer kernel can run, as .ci/run does,
# then the runner's real boots from this host (BOOT_TESTS)
# (about 10 minutes under TCG; tests/verifier.t alone takes 16 there:
# make check-kernel TESTS=tests/verifier.t).
KERNEL		?= 7.3
TESTS		?= $(filter-out tests/vm.t tests/vm_boot.t,$(wildcard tests/*.t))
KERNEL_TESTS	:= $(wildcard tests/kernel_*.t)
VM_TIMEOUT	?= 5400
VM_RUN		= bash scripts/vm/run.sh --kernel $(KERNEL) --timeout $(VM_TIMEOUT) --

vm-deps:
	@bash scripts/deps.sh qemu-system-x86 busybox-static cpio xz-utils

check-kernel: vm-deps
	$(MAKE) $(JOBS) all
	$(VM_RUN) env BPFBENCH_BUILD=$(BUILD) prove -v -e bash $(TESTS)

check-kernel-ci: vm-deps
	$(MAKE) $(JOBS) all
	$(VM_RUN) env BPFBENCH_BUILD=$(BUILD) prove -v --timer -e bash $(KERNEL_TESTS)
	BPFBENCH_BUILD=$(BUILD) prove -v --timer -e bash $(BOOT_TESTS)

# memcheck on a short run of each family (about 2 minutes; check runs three
# of them).  Its own build: the valgrind headers must be there at compile time
# for KERNEL_WROTE (src/util/util.h) to mean anything.
valgrind:
	@bash scripts/deps.sh valgrind
	$(MAKE) BUILD=build-vg all
	BPFBENCH_BUILD=build-vg prove -v -e bash tests/valgrind/memcheck.t

clean:
	rm -rf build build-san build-fuzz build-vg
