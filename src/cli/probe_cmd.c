// SPDX-License-Identifier: GPL-2.0
/* `bpfbench probe`: the features this kernel offers and which benchmarks it can run. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "bench.h"
#include "jsonw.h"
#include "probe.h"
#include "probe_cmd.h"
#include "probe_int.h"

const struct opt_def probe_opts[] = {
	{ "json", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "print a JSON object instead of a table" },
	{ "help", 'h', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "this help" },
	{ NULL },
};

static void usage(void)
{
	printf("Usage: bpfbench probe [--json]\n\n"
	       "Which BPF features this kernel lets bpfbench use with the current privileges,\n"
	       "and which benchmarks it can run.\n\n"
	       "Options:\n");
	opts_print_help(probe_opts, NULL);
}

static const char *verdict(int ret)
{
	return ret > 0 ? "yes" : ret == 0 ? "no" : "unknown";
}

/* Which benchmarks this kernel can run, from what each declares it requires. */
static void print_benchmarks(void)
{
	const struct bench *const *b;
	char why[400];

	printf("\n%-24s %-8s %s\n", "benchmark", "runs", "what it lacks");
	for (b = bench_all(); *b; b++) {
		why[0] = 0;
		printf("%-24s %-8s %s\n", (*b)->name, verdict(bench_runnable(*b, why, sizeof(why))),
		       why);
	}
}

/* A family's own probe, run once here: its verdict and detail. */
static int family_probe_run(const struct family_probe *fp, char *detail, size_t len)
{
	detail[0] = 0;
	return fp->probe(detail, len);
}

static void print_table(void)
{
	const struct family *const *f;
	const struct family_probe *fp;
	char detail[DETAIL_MAX];
	int i, ret;

	printf("%-24s %-8s %s\n", "feature", "avail", "detail");
	for (i = 0; i < PROBE__COUNT; i++) {
		ret = probe_feature(i, detail, sizeof(detail));
		printf("%-24s %-8s %s\n", probe_name(i), verdict(ret), detail);
	}
	for (f = family_table; *f; f++)
		for (fp = (*f)->probes; fp && fp->name; fp++) {
			ret = family_probe_run(fp, detail, sizeof(detail));
			printf("%-24s %-8s %s\n", fp->name, verdict(ret), detail);
		}
	print_benchmarks();
}

static void json_feature(struct jsonw *w, const char *name, int ret, const char *detail)
{
	jsonw_key(w, name);
	jsonw_obj_open(w);
	jsonw_key(w, "available");
	if (ret < 0)
		jsonw_null(w);
	else
		jsonw_bool(w, ret > 0);
	jsonw_kstr(w, "detail", detail);
	jsonw_obj_close(w);
}

static void json_benchmarks(struct jsonw *w)
{
	const struct bench *const *b;
	char why[400];
	int ok;

	jsonw_key(w, "benchmarks");
	jsonw_obj_open(w);
	for (b = bench_all(); *b; b++) {
		why[0] = 0;
		ok = bench_runnable(*b, why, sizeof(why));
		jsonw_key(w, (*b)->name);
		jsonw_obj_open(w);
		jsonw_key(w, "runs");	/* null: our privileges cannot tell */
		if (ok < 0)
			jsonw_null(w);
		else
			jsonw_bool(w, ok);
		if (ok != 1)
			jsonw_kstr(w, "lacks", why);
		jsonw_obj_close(w);
	}
	jsonw_obj_close(w);
}

static void print_json(void)
{
	const struct family *const *f;
	const struct family_probe *fp;
	char detail[DETAIL_MAX];
	struct utsname uts;
	struct jsonw w;
	int i, ret;

	jsonw_init(&w, stdout, true);
	jsonw_obj_open(&w);
	if (uname(&uts) == 0)
		jsonw_kstr(&w, "kernel", uts.release);
	else
		jsonw_kstr(&w, "kernel", "unknown");
	jsonw_key(&w, "features");
	jsonw_obj_open(&w);
	for (i = 0; i < PROBE__COUNT; i++) {
		ret = probe_feature(i, detail, sizeof(detail));
		json_feature(&w, probe_name(i), ret, detail);
	}
	for (f = family_table; *f; f++)
		for (fp = (*f)->probes; fp && fp->name; fp++) {
			ret = family_probe_run(fp, detail, sizeof(detail));
			json_feature(&w, fp->name, ret, detail);
		}
	jsonw_obj_close(&w);
	json_benchmarks(&w);
	jsonw_obj_close(&w);
}

int probe_cmd(int argc, char **argv)
{
	bool json = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage();
			return 0;
		} else {
			errmsg("probe: unknown argument '%s' (try --help)", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (json)
		print_json();
	else
		print_table();
	return 0;
}
