# bpfbench: `make` builds, `make run` runs the quick suite, `make check` tests.
# Both `run` and `check` first install what is missing (scripts/deps.sh).

BUILD		?= build
CC		?= gcc
CLANG		?= clang
BPFTOOL		?= bpftool
SANITIZE	?=
VERSION		:= 0.1
GIT		:= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
ARCH		:= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')

CFLAGS		?= -O2 -g
CFLAGS		+= -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers \
		   -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
		   -D_GNU_SOURCE -DBPFBENCH_VERSION='"$(VERSION)"' -DBPFBENCH_GIT='"$(GIT)"' \
		   -Isrc -Ibpf -I$(BUILD)
LDLIBS		+= -lbpf -lelf -lz -ljson-c -lpthread -lm
BPF_CFLAGS	:= -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Werror \
		   -Ibpf -I$(BUILD)

ifneq ($(FUZZ),)
CC		:= $(CLANG)
CFLAGS		+= -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
endif

ifneq ($(SANITIZE),)
CFLAGS		+= -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS		+= -fsanitize=address,undefined
endif

CORE_SRCS	:= $(filter-out src/main.c,$(wildcard src/*.c))
BENCH_SRCS	:= $(sort $(filter-out %.bpf.c,$(wildcard benchs/*.c benchs/*/*.c)))
BPF_SRCS	:= $(wildcard benchs/*.bpf.c benchs/*/*.bpf.c)
SKELS		:= $(patsubst benchs/%.bpf.c,$(BUILD)/%.skel.h,$(BPF_SRCS))
CORE_OBJS	:= $(patsubst src/%.c,$(BUILD)/obj/%.o,$(CORE_SRCS))
BENCH_OBJS	:= $(patsubst benchs/%.c,$(BUILD)/obj/benchs/%.o,$(BENCH_SRCS))
UNIT_SRCS	:= $(wildcard tests/unit/*_test.c)
UNIT_BINS	:= $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
REPLAY_BINS	:= $(patsubst tests/fuzz/fuzz_%.c,$(BUILD)/tests/replay_%,$(wildcard tests/fuzz/fuzz_*.c))

FUZZ_SECONDS	?= 60
FUZZERS		:= $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: all run check test deps clean fuzz fuzzers valgrind
.DELETE_ON_ERROR:
.SECONDARY:

all: $(BUILD)/bpfbench $(UNIT_BINS) $(REPLAY_BINS)

$(BUILD)/vmlinux.h:
	@mkdir -p $(@D)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@

$(BUILD)/%.bpf.o: benchs/%.bpf.c bpf/*.h $(wildcard benchs/*.h) $(BUILD)/vmlinux.h
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@

$(BUILD)/obj/%.o: src/%.c src/*.h bpf/bench_shared.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/benchs/%.o: benchs/%.c $(SKELS) src/*.h $(wildcard benchs/*.h benchs/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/bpfbench: $(BUILD)/obj/main.o $(CORE_OBJS) $(BENCH_OBJS)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# The core's tests run the BPF-free test double instead of the real table.
$(BUILD)/tests/core_test: tests/unit/core_test.c tests/unit/mock_bench.c \
			  $(filter-out $(BUILD)/obj/benchs.o,$(CORE_OBJS))
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/unit/%.c $(CORE_OBJS) $(BENCH_OBJS)
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

run: deps
	$(MAKE) all
	$(BUILD)/bpfbench suite quick

# The suite runs twice: as built, then under AddressSanitizer + UBSan.
check:
	@bash scripts/deps.sh valgrind
	$(MAKE) all
	BPFBENCH_BUILD=$(BUILD) prove -v -e bash tests/*.t
	$(MAKE) BUILD=build-san SANITIZE=1 all
	BPFBENCH_BUILD=build-san prove -e bash tests/*.t

test: check

# memcheck on a short run of each family (about 2 minutes; check runs three
# of them).  Its own build: the valgrind headers must be there at compile time
# for KERNEL_WROTE (src/util.h) to mean anything.
valgrind:
	@bash scripts/deps.sh valgrind
	$(MAKE) BUILD=build-vg all
	BPFBENCH_BUILD=build-vg prove -v -e bash tests/valgrind/memcheck.t

clean:
	rm -rf build build-san build-fuzz build-vg
