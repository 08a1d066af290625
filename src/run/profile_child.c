// SPDX-License-Identifier: GPL-2.0
/* The command under the profiler (profile_child.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "opts.h"
#include "profile_child.h"
#include "sysfs.h"
#include "util.h"

#define WAIT_STEP_NS	20000000ull
#define TERM_GRACE_NS	2000000000ull

/*
 * The child waits on a pipe until the events are open, so a failure to
 * profile never runs it; the other pipe closes at its exec (CLOEXEC), or
 * carries exec's errno, so sampling starts as the command does.
 */
static pid_t spawn(char **argv, int *go_fd, int *err_fd)
{
	int go[2], err[2], e;
	char c;
	pid_t pid, parent = getpid();

	if (pipe2(go, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		e = -errno;
		close(go[0]), close(go[1]), close(err[0]), close(err[1]);
		return e;
	}
	if (!pid) {
		/* killed with us, SIGKILL too */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		close(go[1]);
		close(err[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* the parent gave up */
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	*go_fd = go[1];
	*err_fd = err[0];
	return pid;
}

static void nap(void)
{
	struct timespec ts = { 0, WAIT_STEP_NS };

	nanosleep(&ts, NULL);
}

/* The command's status once it ended by itself; -1 while it runs. */
static int reaped(pid_t pid, int *status)
{
	int st;

	if (waitpid(pid, &st, WNOHANG) != pid)
		return -1;
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

/*
 * Our children by /proc: the command, and, as we are their subreaper,
 * whatever it started whose parent is gone.  Each is sent sig; how many.
 */
static int signal_children(int sig)
{
	char path[300];
	struct dirent *e;
	int n = 0;
	pid_t self = getpid();
	long long ppid;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (proc_stat_field(path, 4, &ppid) || ppid != self)
			continue;
		kill((pid_t)atol(e->d_name), sig);
		n++;
	}
	closedir(d);
	return n;
}

/* Reaps what ended; false once no child is left. */
static bool children_left(void)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
		;
	return !(pid < 0 && errno == ECHILD);
}

/*
 * SIGTERM, then SIGKILL after a grace: nothing of the command outlives
 * us, neither the command nor what it forked (orphans come to us, the subreaper:
 * each round signals the ones its last round's deaths handed over).
 */
static void stop_all(pid_t pid, bool command_ended)
{
	uint64_t end = now_ns() + TERM_GRACE_NS;
	int rounds;

	if (!command_ended)
		kill(pid, SIGTERM);
	while (children_left() && now_ns() < end) {
		signal_children(SIGTERM);
		nap();
	}
	for (rounds = 0; rounds < 1000 && children_left(); rounds++) {
		if (!signal_children(SIGKILL))
			nap();
	}
}

static int exec_failed(int err_fd, struct child_run *c, struct profile *p)
{
	int e = 0;

	if (read(err_fd, &e, sizeof(e)) != sizeof(e))
		return 0;
	snprintf(p->why, sizeof(p->why), "cannot run %s: %s", c->argv[0], strerror(e));
	return 1;
}

int profile_child(struct child_run *c, struct profile *p)
{
	struct profiler pf;
	int go_fd = -1, err_fd = -1, err, st;
	uint64_t end;
	pid_t pid;

	/* what the command forks and leaves behind comes to us, to be stopped with it */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pid = spawn(c->argv, &go_fd, &err_fd);
	if (pid < 0) {
		snprintf(p->why, sizeof(p->why), "cannot start %s: %s", c->argv[0], strerror(-pid));
		return 1;
	}
	err = profiler_open(&pf, pid, c->freq, p);
	if (err) {
		close(go_fd);	/* the child reads EOF and exits unexecuted */
		close(err_fd);
		waitpid(pid, &st, 0);
		prctl(PR_SET_CHILD_SUBREAPER, 0);
		return err == -ENOENT || err == -EOPNOTSUPP ? EXIT_SKIP : 1;
	}
	if (write(go_fd, "g", 1) != 1)
		kill(pid, SIGKILL);
	close(go_fd);
	err = exec_failed(err_fd, c, p);
	close(err_fd);
	/* from its exec on: before it, the child is a copy of us */
	if (!err)
		profiler_enable(&pf);
	c->exit_status = -1;
	end = c->duration_ms ? now_ns() + c->duration_ms * 1000000ull : UINT64_MAX;
	while (!interrupted() && now_ns() < end && reaped(pid, &c->exit_status) < 0)
		nap();
	/* symbolized while the command may still hold its programs, then it is stopped */
	profiler_close(&pf, p);
	stop_all(pid, c->exit_status >= 0);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	return err;
}
