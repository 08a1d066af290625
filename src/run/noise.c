// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "noise.h"
#include "stats.h"
#include "util.h"

static bool read_stat(unsigned long long *steal, unsigned long long *total)
{
	unsigned long long v[8];
	FILE *f = fopen("/proc/stat", "re");
	int n, i;

	if (!f)
		return false;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n != 8)
		return false;
	*steal = v[7];
	for (*total = 0, i = 0; i < 8; i++)
		*total += v[i];
	return true;
}

/* "some ... total=N": microseconds in which at least one task waited for a CPU. */
static bool read_psi(unsigned long long *us)
{
	FILE *f = fopen("/proc/pressure/cpu", "re");
	char line[256], *t;
	bool ok = false;

	if (!f)
		return false;
	if (fgets(line, sizeof(line), f) && !strncmp(line, "some", 4) &&
	    (t = strstr(line, "total=")))
		ok = sscanf(t + 6, "%llu", us) == 1;
	fclose(f);
	return ok;
}

void noise_begin(struct noise_mon *m, int threads)
{
	memset(m, 0, sizeof(*m));
	m->oversubscribed = threads >= nr_online_cpus();
	m->have_stat = read_stat(&m->steal, &m->total);
	m->have_psi = read_psi(&m->psi_us);
	m->t_ns = now_ns();
}

void noise_next(struct noise_mon *m, struct noise_sample *out)
{
	unsigned long long steal = 0, total = 0, psi = 0;
	uint64_t t = now_ns();

	out->steal_pct = out->pressure_pct = -1;
	out->ref_user_ns = out->ref_bpf_ns = -1;
	out->nr_threads = 0;
	out->moved = false;
	if (m->have_stat && read_stat(&steal, &total) && total > m->total)
		out->steal_pct = 100.0 * (steal - m->steal) / (total - m->total);
	if (m->have_psi && read_psi(&psi) && t > m->t_ns)
		out->pressure_pct = 100.0 * (psi - m->psi_us) * 1000.0 / (t - m->t_ns);
	out->noisy = out->steal_pct > NOISE_STEAL_PCT ||
		     (!m->oversubscribed && out->pressure_pct > NOISE_PRESSURE_PCT);
	m->steal = steal;
	m->total = total;
	m->psi_us = psi;
	m->t_ns = t;
}

static int cmp_float(const void *pa, const void *pb)
{
	float a = *(const float *)pa, b = *(const float *)pb;

	return (a > b) - (a < b);
}

static double median_pressure(const struct noise_sample *ns, int n)
{
	float *p = xcalloc((size_t)n + 1, sizeof(float));
	int i, k = 0;
	double med;

	for (i = 0; i < n; i++)
		if (ns[i].pressure_pct >= 0)
			p[k++] = ns[i].pressure_pct;
	qsort(p, (size_t)k, sizeof(float), cmp_float);
	med = k ? (k % 2 ? p[k / 2] : (p[k / 2 - 1] + p[k / 2]) / 2.0) : NAN;
	free(p);
	return med;
}

void noise_effect(const double *v, int stride, const struct noise_sample *ns, int n,
		  struct noise_effect *out)
{
	double *a = xcalloc((size_t)n + 1, sizeof(double)), *b = xcalloc((size_t)n + 1, sizeof(double));
	double mq, mn;
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		if (isnan(v[(size_t)i * stride]))
			continue;
		if (ns[i].noisy)
			a[out->noisy++] = v[(size_t)i * stride];
		else
			b[out->quiet++] = v[(size_t)i * stride];
	}
	out->median_pressure = median_pressure(ns, n);
	out->shift_pct = NAN;
	mn = stats_mean(a, out->noisy);
	mq = stats_mean(b, out->quiet);
	if (out->noisy && out->quiet && mq != 0) {
		out->shift_pct = (mn - mq) / fabs(mq) * 100;
		out->moved = out->noisy >= 2 && out->quiet >= 2 &&
			     fabs(out->shift_pct) > NOISE_SHIFT_PCT &&
			     stats_welch_p(a, out->noisy, b, out->quiet) < 0.05;
	}
	free(a);
	free(b);
}
