// SPDX-License-Identifier: GPL-2.0
/*
 * The thin layer between bpfbench and its VM runner: --kernel as the first
 * option of a run or of ab execs scripts/vm/run.sh or scripts/vm/ab.sh with
 * this binary's path in BPFBENCH_BIN.  The scripts boot the kernel, share
 * this machine's userland with it read-only, and run the same binary there
 * (see README, Another kernel).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "opts.h"
#include "util.h"
#include "vm.h"

bool vm_wanted(int argc, char **argv, bool ab)
{
	int i = ab ? 2 : 1;

	return argc > i && (!strcmp(argv[i], "--kernel") || !strncmp(argv[i], "--kernel=", 9));
}

/* The scripts: BPFBENCH_VM_DIR, else beside a build tree's binary, else installed (PREFIX/share). */
static int vm_dir(const char *self, char *dir, size_t len)
{
	const char *env = getenv("BPFBENCH_VM_DIR");
	char path[PATH_MAX];
	char *slash;

	if (env) {
		snprintf(dir, len, "%s", env);
		return 0;
	}
	snprintf(path, sizeof(path), "%s", self);
	slash = strrchr(path, '/');
	if (slash)
		*slash = 0;
	if (snprintf(dir, len, "%s/../scripts/vm", path) < (int)len && !access(dir, R_OK))
		return 0;
	if (snprintf(dir, len, "%s/../share/bpfbench/vm", path) < (int)len && !access(dir, R_OK))
		return 0;
	return -ENOENT;
}

int vm_exec(int argc, char **argv, bool ab)
{
	char self[PATH_MAX], dir[PATH_MAX], script[PATH_MAX + 16];
	char **args = calloc(argc + 6, sizeof(*args));
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int i, k = 0;

	if (!args)
		die("out of memory");
	if (n <= 0) {
		errmsg("--kernel: cannot find this binary: %s", strerror(errno));
		return 1;
	}
	self[n] = 0;
	if (vm_dir(self, dir, sizeof(dir))) {
		errmsg("--kernel: the VM runner's scripts are neither in ../scripts/vm nor in "
		       "../share/bpfbench/vm beside %s (BPFBENCH_VM_DIR names them)", self);
		return 1;
	}
	snprintf(script, sizeof(script), "%s/%s", dir, ab ? "ab.sh" : "run.sh");
	setenv("BPFBENCH_BIN", self, 1);
	args[k++] = "bash";
	args[k++] = script;
	if (ab) {
		for (i = 2; i < argc; i++)
			args[k++] = argv[i];
	} else {
		/* run.sh --kernel K -- BIN ARGS... */
		const char *kernel = argv[1][8] == '=' ? argv[1] + 9 : argc > 2 ? argv[2] : "";
		int rest = argv[1][8] == '=' ? 2 : 3;

		if (!*kernel) {
			errmsg("--kernel needs a value: a name (7.3, 6.12), a Debian package or a vmlinuz");
			free(args);
			return EXIT_USAGE;
		}
		args[k++] = "--kernel";
		args[k++] = (char *)kernel;
		args[k++] = "--";
		args[k++] = self;
		for (i = rest; i < argc; i++)
			args[k++] = argv[i];
	}
	args[k] = NULL;
	fflush(stdout);
	execvp("bash", args);
	errmsg("--kernel: cannot run %s: %s", script, strerror(errno));
	return 1;
}
