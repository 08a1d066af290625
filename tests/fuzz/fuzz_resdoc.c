// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the result reader behind compare and plot.  The input
 * is the file; whatever it holds, resdoc_load() must return 0 or
 * EXIT_USAGE, never crash, read out of bounds or leak.  Its one-line
 * errors go to stderr: run with -close_fd_mask=2 to read the fuzzer's own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include "opts.h"
#include "resdoc.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct res_doc doc;
	char path[64];
	int fd, ret;

	fd = memfd_create("resdoc", MFD_CLOEXEC);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		die("memfd");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ret = resdoc_load(path, &doc);
	if (ret && ret != EXIT_USAGE)
		abort();
	resdoc_free(&doc);
	close(fd);
	return 0;
}
