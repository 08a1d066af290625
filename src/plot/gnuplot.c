// SPDX-License-Identifier: GPL-2.0
/*
 * gnuplot run for plot and db plot: a script written into a private
 * directory, gnuplot's output kept off the terminal unless it fails (its
 * last line of complaint then names the problem), the image written as
 * any result file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "gnuplot.h"
#include "outfile.h"
#include "outpath.h"
#include "util.h"

extern char **environ;

void gnuplot_terminal(FILE *f, bool png)
{
	fprintf(f, "set terminal %s size 960,580 font 'sans,11' noenhanced background rgb 'white'\n",
		png ? "pngcairo" : "svg");
}

void gnuplot_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; s && *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

struct script_args {
	gnuplot_writer write;
	void *arg;
	const char *img;
};

static void write_script_file(FILE *f, void *arg)
{
	const struct script_args *a = arg;

	a->write(f, a->arg, a->img);
}

/* In our private directory: a plain file. */
static bool save_script(const char *path, const struct script_args *sa)
{
	FILE *f = fopen(path, "wxe");
	bool ok;

	if (!f)
		return false;
	sa->write(f, sa->arg, sa->img);
	ok = !ferror(f);
	return !fclose(f) && ok;
}

/* gnuplot's last line of complaint, which names the problem. */
static void gnuplot_says(const char *errfile, int status)
{
	char line[512], last[512] = "";
	FILE *f = fopen(errfile, "re");
	size_t len;

	while (f && fgets(line, sizeof(line), f)) {
		len = strcspn(line, "\n");
		line[len] = 0;
		if (len && strspn(line, " ^") < len)
			snprintf(last, sizeof(last), "%s", line);
	}
	if (f)
		fclose(f);
	if (*last)
		errmsg("plot: gnuplot failed: %s", last);
	else
		errmsg("plot: gnuplot failed (status %d)", status);
}

static int spawn_gnuplot(const char *script, const char *errfile, pid_t *pid)
{
	char *args[] = { "gnuplot", (char *)script, NULL };
	posix_spawn_file_actions_t fa;
	int err;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	err = posix_spawnp(pid, "gnuplot", &fa, NULL, args, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err == ENOENT)
		errmsg("plot: gnuplot is not installed (Debian: apt-get install gnuplot-nox)");
	else if (err)
		errmsg("plot: cannot run gnuplot: %s", strerror(err));
	return err;
}

static int run_gnuplot(const char *script, const char *errfile)
{
	int status;
	pid_t pid;

	if (spawn_gnuplot(script, errfile, &pid))
		return 1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		gnuplot_says(errfile, status);
		return 1;
	}
	return 0;
}

/* What gnuplot drew (opened before: a file of ours just made), copied into the result file. */
static void copy_image(FILE *f, void *arg)
{
	char buf[65536];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), arg)) > 0)
		if (fwrite(buf, 1, n, f) != n)
			break;
}

static int write_image(const char *img, const char *out)
{
	FILE *in = fopen(img, "re");
	int err;

	if (!in) {
		errmsg("plot: gnuplot drew nothing: %s", strerror(errno));
		return 1;
	}
	err = write_file_atomic(out, copy_image, in);
	fclose(in);
	if (err) {
		errmsg("plot: cannot write %s: %s", out, output_strerror(err));
		return 1;
	}
	return 0;
}

static int draw_in(const char *out, const char *script_copy, struct script_args *sa,
		   const char *dir)
{
	char script[PATH_MAX], errfile[PATH_MAX], img[PATH_MAX];
	int err;

	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	snprintf(errfile, sizeof(errfile), "%s/err", dir);
	snprintf(img, sizeof(img), "%s/image", dir);
	sa->img = img;
	if (!save_script(script, sa)) {
		errmsg("plot: cannot write in %s: %s", dir, strerror(errno));
		return 1;
	}
	if (script_copy) {
		sa->img = out;	/* the copy draws where the user said */
		err = write_file_atomic(script_copy, write_script_file, sa);
		if (err) {
			errmsg("plot: cannot write %s: %s", script_copy, output_strerror(err));
			return 1;
		}
	}
	if (run_gnuplot(script, errfile))
		return 1;
	return write_image(img, out);
}

static void unlink_all(const char *dir)
{
	static const char *const names[] = { "plot.gp", "err", "image" };
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * gnuplot draws into a private directory, /tmp/bpfbench-plot.<pid>.XXXXXX,
 * locked while we live (a later plot removes it if we are killed); the
 * image is then written as any result file (util.h: write_file_atomic).
 * OUT is checked first, so an unwritable place is one line before gnuplot.
 */
int gnuplot_draw(const char *out, const char *script_copy, gnuplot_writer write, void *arg)
{
	struct script_args sa = { write, arg, NULL };
	const char *bad = out;
	char dir[64];
	int err, lock, ret;

	err = output_path_check(bad);
	if (!err && script_copy)
		err = output_path_check(bad = script_copy);
	if (err) {
		errmsg("plot: cannot write %s: %s", bad, output_strerror(err));
		return 1;
	}
	err = outpath_private_dir("bpfbench-plot.", dir, sizeof(dir), &lock);
	if (err) {
		errmsg("plot: cannot create a temporary directory: %s", strerror(-err));
		return 1;
	}
	ret = draw_in(out, script_copy, &sa, dir);
	unlink_all(dir);
	if (lock >= 0)
		close(lock);
	return ret;
}
