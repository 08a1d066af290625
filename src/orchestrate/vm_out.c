// SPDX-License-Identifier: GPL-2.0
/* --kernel's outputs: found in a command line, handed to the VM, written back (vm_out.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "args.h"
#include "history.h"
#include "opts.h"
#include "outfile.h"
#include "store.h"
#include "util.h"
#include "vm_out.h"

static void add_out(struct vm_job *j, int fmt, const char *path)
{
	j->out[j->nr_out].name = out_format_defs[fmt].name;
	j->out[j->nr_out].fmt = fmt;
	j->out[j->nr_out++].path = path;
}

/* The word of words[] holding text (text itself, or its part after "--opt="): its index, or -1. */
static int word_of(char **words, int n, const char *text)
{
	int i;

	for (i = 0; i < n; i++)
		if (text >= words[i] && text <= words[i] + strlen(words[i]))
			return i;
	return -1;
}

/* The path --json FILE names among the job's outputs, or NULL. */
static const char *json_out(const struct vm_job *j)
{
	int i;

	for (i = 0; i < j->nr_out; i++)
		if (j->out[i].fmt == OUT_JSON)
			return j->out[i].path;
	return NULL;
}

/*
 * --record (or its abbreviation) and --db PATH among words: taken out
 * (NULL), for the host to do; the guest has no database of ours.
 */
static int take_record(struct vm_job *j, char **words, int n)
{
	size_t len;
	int i;

	for (i = 0; i < n; i++) {
		if (!words[i])
			continue;
		len = strlen(words[i]);
		if (len >= 4 && !strncmp(words[i], "--record", len)) {
			words[i] = NULL;
			j->record = true;
		} else if (!strncmp(words[i], "--db=", 5)) {
			j->db = words[i] + 5;
			words[i] = NULL;
		} else if (!strcmp(words[i], "--db") && i + 1 < n) {
			j->db = words[i + 1];
			words[i] = words[i + 1] = NULL;
		}
	}
	if (j->db && !j->record) {
		errmsg("--db names the database --record records into: give --record");
		return EXIT_USAGE;
	}
	if (j->record && !json_out(j)) {
		errmsg("--record records the result file --json FILE writes: give --json FILE");
		return EXIT_USAGE;
	}
	return 0;
}

int record_json(const struct vm_job *j)
{
	const char *path = json_out(j);

	return path ? history_record_written(path, j->db) : 1;
}

/* Whether a word of words[0..n) starts with prefix (an option as abbreviated). */
static bool has_prefix_word(char **words, int n, const char *prefix)
{
	int i;

	for (i = 0; i < n; i++)
		if (words[i] && !strncmp(words[i], prefix, strlen(prefix)))
			return true;
	return false;
}

/*
 * Output fmt's FILE, path, a part of a word of words: the guest is given
 * its return file instead ("--json=FILE" keeps its "--json="), and the
 * host writes path from it.
 */
static int hand_out(struct vm_job *j, char **words, int n, int fmt, const char *path)
{
	int w = word_of(words, n, path);

	if (w < 0 || asprintf(&words[w], "%.*s%s%s", (int)(path - words[w]), words[w],
			      VM_GUEST_OUT, out_format_defs[fmt].name) < 0) {
		errmsg("--kernel: cannot hand --%s to the VM", out_format_defs[fmt].name);
		return 1;
	}
	add_out(j, fmt, path);
	return 0;
}

/*
 * compare's outputs, as its parser takes them (--NAME FILE, --NAME=FILE):
 * its --json and the verdicts' formats.  "-" stays: stdout comes back.
 */
static int compare_outputs(struct vm_job *j, char **words, int n, int at)
{
	const char *path;
	size_t len;
	int i, f, ret = 0;

	for (i = at + 1; i < n && !ret; i++) {
		for (f = 0; f < OUT_NR; f++) {
			if (f != OUT_JSON && out_format_defs[f].kind != OUT_K_VERDICTS)
				continue;
			len = strlen(out_format_defs[f].name);
			if (strncmp(words[i], "--", 2) || strncmp(words[i] + 2, out_format_defs[f].name,
								  len))
				continue;
			path = words[i][len + 2] == '=' ? words[i] + len + 3 :
			       !words[i][len + 2] && i + 1 < n ? words[++i] : NULL;
			if (path && *path && strcmp(path, "-"))
				ret = hand_out(j, words, n, f, path);
			break;
		}
	}
	return ret;
}

/*
 * A run's or a suite's outputs (out_formats.h), as the real parse finds
 * them (abbreviated, --json=FILE, before or after the benchmark): each
 * given to the guest as its return file instead.  "-" stays: stdout
 * comes back as it is.
 */
int run_outputs(struct vm_job *j, char **words, int n, const struct subcommand *subs)
{
	char **pargv = xcalloc((size_t)n + 2, sizeof(char *));
	const struct subcommand *sub;
	const char *path;
	struct run_spec spec;
	int at, i, k = 0, w, ret;

	if (n && (!strcmp(words[0], "--version") || !strcmp(words[0], "-V"))) {
		free(pargv);
		return 0;
	}
	j->announce = true;
	pargv[k++] = "bpfbench";
	for (i = 0; i < n; i++)
		pargv[k++] = words[i];
	at = cli_first_word(k, pargv);
	sub = at > 0 ? subcmd_find(subs, pargv[at]) : NULL;
	if (sub && sub->vm == SUBCMD_VM_NO) {
		errmsg("--kernel: %s runs on this machine, not in a VM%s%s%s", sub->name,
		       sub->vm_instead ? " (" : "", sub->vm_instead ?: "", sub->vm_instead ? ")" : "");
		free(pargv);
		return EXIT_USAGE;
	}
	if (sub && sub->vm == SUBCMD_VM_VERDICTS) {
		j->announce = false;	/* stdout only, as here */
		free(pargv);
		return compare_outputs(j, words, n, at - 1);
	}
	if (sub && (sub->vm == SUBCMD_VM_STDOUT || sub->vm == SUBCMD_VM_ANNOUNCED)) {
		/* stdout only; probe's text is the kernel's, its --json a document */
		j->announce = sub->vm == SUBCMD_VM_ANNOUNCED && !has_prefix_word(pargv, k, "--j");
		free(pargv);
		return 0;
	}
	if (sub && sub->vm == SUBCMD_VM_SUITE) {	/* suite NAME: the options around it */
		w = at + 1 < k ? 2 : 1;
		memmove(pargv + at, pargv + at + w, (size_t)(k - at - w) * sizeof(char *));
		k -= w;
	}
	ret = cli_parse(k, pargv, &spec);
	free(pargv);
	if (ret)
		return ret;	/* the guest would say the same: said here, before a boot */
	if (spec.opts.help || spec.opts.list)
		j->announce = false;
	for (i = 0; i < OUT_NR && !ret; i++) {
		path = spec.opts.out[i];
		if (path && !strcmp(path, "-"))
			j->announce = false;	/* stdout is the file */
		if (!path || !strcmp(path, "-") || spec.opts.help || spec.opts.list)
			continue;
		ret = hand_out(j, words, n, i, path);
	}
	if (!ret && spec.opts.record)
		ret = take_record(j, words, n);
	run_spec_free(&spec);
	return ret;
}

/* Whether word is one of a script's options that take the next word as their value. */
static bool takes_value(const char *word, const char *const *valued, size_t n)
{
	size_t v;

	for (v = 0; v < n; v++)
		if (!strcmp(word, valued[v]))
			return true;
	return false;
}

/* The word at *word replaced by the return file of fmt, a path ours to free. */
static void own_return_file(struct vm_job *j, int fmt, char **word)
{
	if (asprintf(word, "%s/%s", j->dir, out_format_defs[fmt].name) < 0)
		die("out of memory");
	j->owned[j->nr_owned++] = *word;
}

/*
 * ab.sh's outputs (its options as it parses them): its --json FILE and
 * the verdicts' formats compare writes for it, each written here from
 * the return directory.  One to stdout has it alone: the script's lines
 * then go to stderr (run_script).
 */
int ab_outputs(struct vm_job *j, char **words, int n)
{
	static const char *const valued[] = { "--kernel", "-r", "--runs", "--seed",
					      "--noise", "--alpha", "--fail-on-regression",
					      "--gate-unjudged" };
	const char *paths[OUT_NR] = { NULL };
	int i, f, ret;

	for (i = 0; i + 1 < n; i++) {
		f = strncmp(words[i], "--", 2) ? -1 : out_format_find(words[i] + 2);
		if (f >= 0 && (f == OUT_JSON || out_format_defs[f].kind == OUT_K_VERDICTS)) {
			if (paths[f]) {
				errmsg("ab: %s twice", words[i]);
				return EXIT_USAGE;
			}
			paths[f] = words[i + 1];
			add_out(j, f, words[i + 1]);
			own_return_file(j, f, &words[++i]);
		} else if (takes_value(words[i], valued, ARRAY_SIZE(valued))) {
			i++;
		}
	}
	j->human_stderr = out_to_stdout(paths);
	ret = out_check_stdout(paths) ?: take_record(j, words, n);
	if (!ret && j->record && !strcmp(json_out(j), "-")) {
		errmsg("ab: --record records the file --json FILE writes: give --json FILE");
		ret = EXIT_USAGE;
	}
	return ret;
}

/* The path's folder resolved, then its last name: two paths that would name one file, made or not. */
static char *new_name(const char *path)
{
	char *d = xstrdup(path), *slash = strrchr(d, '/'), *dir, *res = NULL;

	if (slash)
		*slash = 0;
	dir = realpath(!slash ? "." : *d ? d : "/", NULL);
	if (dir && asprintf(&res, "%s/%s", dir, slash ? slash + 1 : path) < 0)
		res = NULL;
	free(dir);
	free(d);
	return res;
}

/* --json FILE: a new file, one we can write (outfile.h), not the history --record writes into */
static int bisect_json(const char *path, const char *db)
{
	struct stat st;
	char *a, *b;
	bool same;
	int err;

	if (!strcmp(path, "-")) {
		errmsg("bisect: --json -: stdout is the report's; give a file");
		return EXIT_USAGE;
	}
	/* a bisection takes hours: its report never replaces a file */
	if (!lstat(path, &st) && !S_ISCHR(st.st_mode)) {
		errmsg("bisect: --json %s exists: give a new name", path);
		return EXIT_USAGE;
	}
	err = output_path_check(path);
	if (err) {
		errmsg("bisect: --json %s: %s", path, output_strerror(err));
		return EXIT_USAGE;
	}
	a = new_name(path);
	b = db ? new_name(db) : NULL;
	same = a && b && !strcmp(a, b);
	free(a);
	free(b);
	if (same) {
		errmsg("bisect: --json %s is the database --record writes into: give another name", path);
		return EXIT_USAGE;
	}
	return 0;
}

/* The database bisect.sh's --record writes into (db_cli.c's choice), or NULL. */
static const char *bisect_db(char **words, int n, char *buf, size_t len)
{
	const char *db = NULL, *env = getenv("BPFBENCH_DB");
	bool record = false;
	int i;

	for (i = 0; i < n && strcmp(words[i], "--"); i++) {
		record |= !strcmp(words[i], "--record");
		if (!strcmp(words[i], "--db") && i + 1 < n)
			db = words[i + 1];
	}
	if (!record)
		return NULL;
	return db ?: env && *env ? env : store_default_path(buf, len);
}

/*
 * bisect.sh's --json FILE (its options as it parses them, up to "--"): a
 * new file, checked here before anything is built, written here at the end.
 */
int bisect_outputs(struct vm_job *j, char **words, int n)
{
	static const char *const valued[] = { "--good", "--bad", "--tree", "--work", "--build",
					      "--config", "--pairs", "--max-pairs", "--threshold",
					      "--metric", "--seed", "--json", "--db" };
	char def[PATH_MAX];
	const char *db = bisect_db(words, n, def, sizeof(def));
	int i, ret;

	for (i = 0; i + 1 < n && strcmp(words[i], "--"); i++) {
		if (!takes_value(words[i], valued, ARRAY_SIZE(valued)))
			continue;
		if (!strcmp(words[i], "--json")) {
			if (j->nr_out) {
				errmsg("bisect: --json twice");
				return EXIT_USAGE;
			}
			ret = bisect_json(words[i + 1], db);
			if (ret)
				return ret;
			add_out(j, OUT_JSON, words[i + 1]);
			own_return_file(j, OUT_JSON, &words[i + 1]);
		}
		i++;
	}
	return 0;
}

struct buf {
	char *p;
	size_t len;
};

static void put_buf(FILE *f, void *arg)
{
	const struct buf *b = arg;

	fwrite(b->p, 1, b->len, f);
}

/* A file of the return directory, ours and regular: its content (len 0 if none). */
static int slurp(const struct vm_job *j, const char *name, struct buf *b)
{
	char path[128];
	struct stat st;
	ssize_t n;
	int fd;

	b->p = NULL;
	b->len = 0;
	snprintf(path, sizeof(path), "%s/%s", j->dir, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		return -EINVAL;
	}
	b->p = xcalloc((size_t)st.st_size + 1, 1);
	while (b->len < (size_t)st.st_size) {
		n = read(fd, b->p + b->len, (size_t)st.st_size - b->len);
		if (n <= 0)
			break;
		b->len += (size_t)n;
	}
	close(fd);
	return 0;
}

/*
 * Each output the VM returned, written where the user asked; one it did
 * not return after a run that succeeded is an error (125: the runner lost
 * it), never a silent exit 0.  A failed or interrupted run's file is
 * written if the guest wrote one, as on the host.
 */
int write_outputs(struct vm_job *j, int st)
{
	char path[128];
	struct buf b;
	int i, err;

	for (i = 0; i < j->nr_out; i++) {
		err = slurp(j, j->out[i].name, &b);
		if (!err && b.len)
			err = write_file_atomic(j->out[i].path, put_buf, &b);
		else if (!err && !st) {
			errmsg("--kernel: the VM gave back no %s for %s: not written",
			       j->out[i].name, j->out[i].path);
			st = 125;
		}
		if (err) {
			errmsg("cannot write %s: %s", j->out[i].path, output_strerror(err));
			st = st ?: 1;
		}
		free(b.p);
		snprintf(path, sizeof(path), "%s/%s", j->dir, j->out[i].name);
		unlink(path);
	}
	return st;
}

/* "json csv md": the names of the formats of these kinds, for a script to loop over. */
const char *format_names(unsigned int kinds, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < OUT_NR; i++)
		if (out_format_defs[i].kind & kinds)
			bufcat(buf, len, &n, "%s%s", n ? " " : "", out_format_defs[i].name);
	return buf;
}
