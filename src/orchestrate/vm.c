// SPDX-License-Identifier: GPL-2.0
/*
 * The layer between bpfbench and its VM runner: --kernel as the first
 * option of a run or of ab runs scripts/vm/run.sh or scripts/vm/ab.sh with
 * this binary's path in BPFBENCH_BIN.  The scripts boot the kernel, share
 * this machine's userland with it read-only, and run the same binary there
 * (see doc/another-kernel.md).
 *
 * The run's output files are this process's to write, on the host, as a
 * run here writes them: checked before any VM boots, then written through
 * write_file_atomic() (no planted link followed, a FIFO opened without
 * blocking) from what the VM hands back in a private directory of ours.
 * The guest's own writes stay in its discarded overlay, so without this a
 * --json file was lost with exit 0.  --record is the host's too: the
 * guest's history would be its overlay's, so the word is taken out of the
 * guest's command line and the file recorded here once written.
 *
 * `bpfbench bisect` hands over to scripts/vm/bisect.sh the same way: the
 * script builds and boots the commits, this process checks --json FILE
 * before anything is built and writes it from what the script leaves in
 * the return directory.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "args.h"
#include "bisect_help.h"
#include "opts.h"
#include "outfile.h"
#include "outpath.h"
#include "util.h"
#include "vm.h"
#include "vm_out.h"

static volatile pid_t vm_child;

static bool is_kernel_opt(const char *word)
{
	return !strcmp(word, "--kernel") || !strncmp(word, "--kernel=", 9);
}

/*
 * The first word (subcommand or benchmark) as the real parse finds it,
 * --kernel and its value left out: its index in argv, or -1.
 */
static int first_word(int argc, char **argv)
{
	char **w = xcalloc((size_t)argc + 1, sizeof(char *));
	int *at = xcalloc((size_t)argc + 1, sizeof(int));
	int i, n = 0, k;
	bool words = false;	/* after "--": words, whatever they look like */

	for (i = 0; i < argc; i++) {
		words |= i && !strcmp(argv[i], "--");
		if (i && !words && is_kernel_opt(argv[i])) {
			i += argv[i][8] != '=';
			continue;
		}
		at[n] = i;
		w[n++] = argv[i];
	}
	k = cli_first_word(n, w);
	k = k > 0 ? at[k] : -1;
	free(w);
	free(at);
	return k;
}

/*
 * --kernel is a global option: written anywhere before a "--" (`-d1
 * --kernel 7.3 noop`, `noop --kernel 7.3`), it is moved to argv[1] with
 * its value, where the rest of this file reads it.  ab's (ab the first
 * word, after global options or not: `-q ab --kernel A --kernel B`) are
 * ab.sh's to read, anywhere.
 */
bool vm_wanted(int argc, char **argv, bool ab)
{
	int i, w, at = first_word(argc, argv);
	bool is_ab = at > 0 && !strcmp(argv[at], "ab");
	char *opt, *val;

	if (ab != is_ab)
		return false;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!is_kernel_opt(argv[i]))
			continue;
		if (ab)
			return true;
		w = argv[i][8] == '=' || i + 1 == argc ? 1 : 2;
		opt = argv[i];
		val = w == 2 ? argv[i + 1] : NULL;
		memmove(&argv[1 + w], &argv[1], (size_t)(i - 1) * sizeof(*argv));
		argv[1] = opt;
		if (val)
			argv[2] = val;
		return true;
	}
	return false;
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


/* The return directory: private, locked, swept of the ones killed runs left. */
static int job_dir(struct vm_job *j)
{
	int err = outpath_private_dir("bpfbench-vmout.", j->dir, sizeof(j->dir), &j->lock);

	if (err)
		errmsg("--kernel: cannot make a private directory in /tmp: %s", strerror(-err));
	return err ? 125 : 0;
}

/* The NULL words of args[] (taken out) closed up; args[*n] stays the NULL that ends them. */
static void squeeze(char **args, int *n)
{
	int i, k = 0;

	for (i = 0; i < *n; i++)
		if (args[i])
			args[k++] = args[i];
	for (i = k; i < *n; i++)
		args[i] = NULL;
	*n = k;
}

static void forward(int sig)
{
	int saved = errno;

	/* the scripts' traps end the VM and the download; one signal of a kind is enough */
	if (vm_child > 0)
		kill(vm_child, sig == SIGINT || sig == SIGHUP ? sig : SIGTERM);
	errno = saved;
}

/* The script, run as a child (not exec'd): this process writes the outputs after it. */
static int run_script(struct vm_job *j)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2 };
	struct sigaction sa = { .sa_handler = forward };
	pid_t parent = getpid(), pid;
	int st, i;

	fflush(NULL);
	sigemptyset(&sa.sa_mask);
	pid = fork();
	if (pid < 0) {
		errmsg("--kernel: cannot start the VM runner: %s", strerror(errno));
		return 125;
	}
	if (!pid) {
		/* killed with us (SIGKILL too): its trap then stops QEMU and any download */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(125);
		if (j->human_stderr && dup2(2, 1) < 0)
			_exit(125);
		execvp("bash", j->args);
		errmsg("--kernel: cannot run %s: %s", j->args[1], strerror(errno));
		_exit(125);
	}
	vm_child = pid;
	for (i = 0; i < (int)ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			errmsg("--kernel: lost the VM runner: %s", strerror(errno));
			return 125;
		}
	vm_child = 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* This binary's path in self, the script NAME's in script, the environment it reads. */
static int script_path(const char *who, const char *name, char *self, char *script, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", self, PATH_MAX - 1);
	char dir[PATH_MAX], names[2][256];

	if (n <= 0) {
		errmsg("%s: cannot find this binary: %s", who, strerror(errno));
		return 1;
	}
	self[n] = 0;
	if (vm_dir(self, dir, sizeof(dir))) {
		errmsg("%s: the VM runner's scripts are neither in ../scripts/vm nor in "
		       "../share/bpfbench/vm beside %s (BPFBENCH_VM_DIR names them)", who, self);
		return 1;
	}
	snprintf(script, len, "%s/%s", dir, name);
	setenv("BPFBENCH_BIN", self, 1);
	/* the guest's stderr is a console (a tty): progress lines only if ours is one */
	setenv("BPFBENCH_STDERR_TTY", stderr_is_tty() ? "1" : "0", 1);
	/* the formats, by kind, for ab.sh: a side's outputs refused, the verdicts' handed to compare */
	setenv("BPFBENCH_RUN_FORMATS", format_names(OUT_K_RUN, names[0], sizeof(names[0])), 1);
	setenv("BPFBENCH_VERDICT_FORMATS", format_names(OUT_K_VERDICTS, names[1], sizeof(names[1])),
	       1);
	return 0;
}

/* The job's outputs checked, the script run, its outputs written: the exit status. */
static int job_run(struct vm_job *j, int st)
{
	const char *paths[VM_MAX_OUTS];
	int i;

	for (i = 0; i < j->nr_out; i++)
		paths[i] = j->out[i].path;
	/* a bad output path fails here, as on the host, before a kernel is fetched or booted */
	if (!st && output_paths_check(paths, j->nr_out))
		st = 1;
	if (!st)
		st = write_outputs(j, run_script(j));
	return st;
}

static void job_done(struct vm_job *j)
{
	if (j->lock >= 0) {
		rmdir(j->dir);
		close(j->lock);
	}
	while (j->nr_owned)
		free(j->owned[--j->nr_owned]);
	free(j->args);
}

int vm_exec(int argc, char **argv, bool ab, const struct subcommand *subs)
{
	char self[PATH_MAX], script[PATH_MAX + 16];
	struct vm_job j = { .lock = -1 };
	int i, first, st;

	if (script_path("--kernel", ab ? "ab.sh" : "run.sh", self, script, sizeof(script)))
		return 1;
	j.args = xcalloc((size_t)argc + 10 + 2 * VM_MAX_OUTS, sizeof(char *));	/* the runner's words, NULL */
	j.args[j.n++] = "bash";
	j.args[j.n++] = script;
	if (ab) {
		/*
		 * ab.sh's words: the --kernel options before "ab" (A's first),
		 * those after it, then the other global options before it (both
		 * sides' options, as ab.sh takes them after "ARGS").
		 */
		int at = first_word(argc, argv);

		first = j.n;
		for (i = 1; i < at; i++) {
			if (!is_kernel_opt(argv[i]))
				continue;
			j.args[j.n++] = argv[i];
			if (argv[i][8] != '=' && i + 1 < at)
				j.args[j.n++] = argv[++i];
		}
		for (i = at + 1; i < argc; i++)
			j.args[j.n++] = argv[i];
		for (i = 1; i < at; i++) {
			if (is_kernel_opt(argv[i]))
				i += argv[i][8] != '=' && i + 1 < at;
			else if (strcmp(argv[i], "--"))
				j.args[j.n++] = argv[i];
		}
		st = job_dir(&j) ?: ab_outputs(&j, j.args + first, j.n - first);
		squeeze(j.args, &j.n);
	} else {
		/* run.sh --kernel K --return DIR --return-file NAME... -- BIN ARGS... */
		const char *kernel = argv[1][8] == '=' ? argv[1] + 9 : argc > 2 ? argv[2] : "";
		int rest = argv[1][8] == '=' ? 2 : 3, k;

		if (!*kernel) {
			errmsg("--kernel needs a value: a name (7.3, 6.12, 6.1), a Debian package or a "
			       "path: a vmlinuz or a built kernel tree (./FILE, /DIR)");
			return EXIT_USAGE;
		}
		st = job_dir(&j) ?: run_outputs(&j, argv + rest, argc - rest, subs);
		j.args[j.n++] = "--kernel";
		j.args[j.n++] = (char *)kernel;
		j.args[j.n++] = "--return";
		j.args[j.n++] = j.dir;
		if (j.announce)
			j.args[j.n++] = "--announce";
		for (k = 0; k < j.nr_out; k++) {
			j.args[j.n++] = "--return-file";
			j.args[j.n++] = (char *)j.out[k].name;
		}
		j.args[j.n++] = "--";
		j.args[j.n++] = self;
		for (i = rest; i < argc; i++)
			if (argv[i])	/* NULL: a word taken out (--record, --db) */
				j.args[j.n++] = argv[i];
	}
	st = job_run(&j, st);
	/* ab's gate (1 a regression, EXIT_UNJUDGED rows not judged): history too */
	if (j.record && (!st || (ab && (st == 1 || st == EXIT_UNJUDGED))))
		st = record_json(&j) ?: st;
	job_done(&j);
	return st;
}

int bisect_cmd(int argc, char **argv)
{
	char self[PATH_MAX], script[PATH_MAX + 16];
	struct vm_job j = { .lock = -1 };
	int i, st;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			bisect_help();
			return 0;
		}
	}
	if (script_path("bisect", "bisect.sh", self, script, sizeof(script)))
		return 1;
	j.args = xcalloc((size_t)argc + 3, sizeof(char *));
	j.args[j.n++] = "bash";
	j.args[j.n++] = script;
	for (i = 1; i < argc; i++)
		j.args[j.n++] = argv[i];
	st = job_dir(&j) ?: bisect_outputs(&j, j.args + 2, j.n - 2);
	st = job_run(&j, st);
	job_done(&j);
	return st;
}
