// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the command line parser.  The input is split into
 * arguments at newlines; whatever it holds, cli_parse() must return 0 or
 * EXIT_USAGE, never crash, read out of bounds or leak.  A sweep's plan is
 * built and every step checked (not run); `suite NAME ...` goes through
 * the suite's parser and plan with --help appended, which lists the
 * steps instead of running them; compare and plot parse their arguments
 * (every file named is replaced by one that cannot exist).  Its one-line
 * errors go to stderr: run with -close_fd_mask=2 to read the fuzzer's own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "args.h"
#include "compare.h"
#include "plot.h"
#include "suite.h"

#define MAX_ARGS	64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2], *p, *nl;
	struct run_spec spec;
	int argc = 0, ret, i;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	argv[argc++] = "bpfbench";
	for (p = buf; argc < MAX_ARGS; p = nl + 1) {
		nl = strchr(p, '\n');
		argv[argc++] = p;
		if (!nl)
			break;
		*nl = 0;
	}
	argv[argc] = NULL;
	if (argc > 1 && (!strcmp(argv[1], "compare") || !strcmp(argv[1], "plot"))) {
		/* their argument parsers, then files that cannot be there: never stdin or a device */
		for (i = 2; i < argc; i++)
			if (strchr(argv[i], '/') || strstr(argv[i], ".json") || !strcmp(argv[i], "-"))
				argv[i] = "/nonexistent/fuzz.json";
		ret = !strcmp(argv[1], "compare") ? compare_cmd(argc - 1, argv + 1) :
						     plot_cmd(argc - 1, argv + 1);
		if (ret != 0 && ret != 1 && ret != EXIT_USAGE)
			abort();
		free(buf);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "suite")) {
		argv[argc++] = "--help";	/* the plan is made and listed, never run */
		argv[argc] = NULL;
		ret = suite_cmd(argc - 1, argv + 1);
		if (ret != 0 && ret != EXIT_USAGE)
			abort();
		free(buf);
		return 0;
	}
	ret = cli_parse(argc, argv, &spec);
	if (ret != 0 && ret != EXIT_USAGE)
		abort();
	if (!ret && spec.bench && !cli_validate(&spec) && spec.opts.sweep)
		sweep_check(argc, argv, &spec);
	if (!ret)
		run_spec_free(&spec);
	free(buf);
	return 0;
}
