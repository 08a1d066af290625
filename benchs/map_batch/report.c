// SPDX-License-Identifier: GPL-2.0
/*
 * map-batch: the human summary and the suite row, one table both: a row
 * per op and batch size, then the op's one-by-one row.  Which metric is
 * which comes from the run's own options (res_args(res)), so a result
 * reads the same long after its run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "mb.h"

struct text {
	char *buf;
	size_t len, off;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->off >= t->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->off, t->len - t->off, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->off += (size_t)n;
}

/* "hash map, 1000000 elements, 4 B keys, 4 B values": at most 75 characters */
static void describe(struct text *t, const struct map_batch_args *a)
{
	put(t, "%s map, %llu elements, %llu B keys, %llu B values%s",
	    mb_kind_names[a->map_kind], (unsigned long long)a->max_entries,
	    (unsigned long long)a->key_size, (unsigned long long)a->value_size,
	    a->no_prealloc ? ", no prealloc" : "");
}

static void header(struct text *t, const char *indent)
{
	put(t, "%s%-17s %-10s %11s %10s %9s %8s %11s\n", indent, "op", "batch", "ms/pass", "± sd",
	    "M ops/s", "speed-up", "calls/pass");
}

/*
 * The speed-up shown is the ratio of the mean times, as the rate is N over
 * the mean time: a ratio of the row's own figures, and not dominated by
 * the one pass a disturbance slowed (JSON keeps each pass's ratio).
 */
static void row(struct text *t, const char *indent, const struct run_result *res, int op,
		uint32_t batch, const struct mb_figs *f, const struct mb_figs *one)
{
	const struct stats *ms = res_st(res, f->ms);
	char how[16], sd[16] = "-", up[16] = "-";

	if (batch)
		snprintf(how, sizeof(how), "%u", batch);
	else
		snprintf(how, sizeof(how), "one-by-one");
	if (ms->n > 1)	/* one pass has no spread */
		snprintf(sd, sizeof(sd), "%.3f", ms->stddev);
	if (f->speedup >= 0 && ms->mean > 0)
		snprintf(up, sizeof(up), "%.2fx", res_st(res, one->ms)->mean / ms->mean);
	put(t, "%s%-17s %-10s %11.3f %9s %9.3f %8s %11.0f\n", indent, mb_op_names[op], how,
	    ms->mean, sd, res_shown_mean(res, f->rate), up, res_st(res, f->calls)->mean);
}

static void table(struct text *t, const char *indent, const struct run_result *res,
		  const struct mb_plan *p)
{
	const struct map_batch_args *a = res_args(res);
	int i, j, op, n;

	header(t, indent);
	for (i = 0; i < p->nr_ops; i++) {
		op = p->op_order[i];
		for (j = 0; j < p->nr_ways; j++)
			row(t, indent, res, op, mb_way_batch(a, j), &p->figs[op][j],
			    &p->figs[op][p->nr_ways - 1]);
	}
	n = res_st(res, p->checked)->n;
	put(t, "%s%d pass%s; ms/pass: the syscall loop's time; speed-up: one-by-one ms / ms\n",
	    indent, n, n == 1 ? "" : "es");
	if (res_st(res, p->retries)->max > 0)
		put(t, "%sENOSPC: a bucket outgrew the batch buffer %.1f times per pass "
		    "(buffer grown, call retried)\n", indent, res_st(res, p->retries)->mean);
}

void mb_report_final(struct bench_env *env, const struct run_result *res)
{
	char buf[8192];
	struct text t = { buf, sizeof(buf), 0 };
	struct mb_plan p;

	buf[0] = 0;
	if (mb_plan_of_result(res, &p))
		return;
	/* the table, then the Summary last, as every run ends */
	table(&t, "", res, &p);
	put(&t, "Summary: ");
	describe(&t, res_args(res));
	put(&t, "\n");
	fputs(buf, report_out(env->opts));
}

/*
 * A suite row: its first line follows the step's label, the table
 * starts on the next line, indented, so every line stays short.
 */
void mb_format_row(const struct run_result *res, char *buf, size_t len)
{
	struct text t = { buf, len, 0 };
	struct mb_plan p;

	buf[0] = 0;
	if (mb_plan_of_result(res, &p)) {
		put(&t, "(see --json)");
		return;
	}
	describe(&t, res_args(res));
	put(&t, "\n");
	table(&t, "  ", res, &p);
	if (t.off && t.off <= len && buf[t.off - 1] == '\n')
		buf[t.off - 1] = 0;	/* the suite ends the row */
}

/* One short Iter line per pass: the table has the figures. */
void mb_format_iter(const struct bench_env *env, const double *vals, char *buf, size_t len)
{
	const struct run_result *res = env->res;
	double ms = 0;
	struct mb_plan p;
	int i, op, j;

	if (mb_plan_of_result(res, &p)) {
		snprintf(buf, len, "pass done");
		return;
	}
	for (i = 0; i < p.nr_ops; i++) {
		op = p.op_order[i];
		for (j = 0; j < p.nr_ways; j++)
			ms += vals[p.figs[op][j].ms];
	}
	snprintf(buf, len, "pass: %d ops x %d ways, %.0f elements checked, %.0f retries, "
		 "%.3f ms in syscalls", p.nr_ops, p.nr_ways, vals[p.checked], vals[p.retries], ms);
}
