// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include "normalize.h"
#include "result.h"

/* Below this share a sample is mostly waiting: dividing by less would magnify noise. */
#define SHARE_MIN	0.05

int normalize_add(struct run_result *res)
{
	struct metric_def def;
	char name[96];

	if (!res->nr_metrics || (res->metrics[0].kind != METRIC_RATE &&
				 res->metrics[0].kind != METRIC_TIME))
		return -1;
	def = res->metrics[0];
	snprintf(name, sizeof(name), "%s-normalized", def.name);
	def.name = name;
	def.prod_unit = NULL;
	return res_add_metric(res, &def, "--normalize");
}

void normalize_sample(const struct run_result *res, int m, int nprod, const struct noise_sample *ns,
		      double *vals)
{
	double sum = 0, share, speed;
	int i, n = 0;

	for (i = 0; i < ns->nr_threads && i < nprod; i++) {
		if (ns->oncpu[i] < 0)
			continue;
		sum += ns->oncpu[i] > 1 ? 1 : ns->oncpu[i];
		n++;
	}
	/* no schedstat: the figure as it is (a whole CPU), never a hole in the samples */
	share = n ? fmax(sum / n, SHARE_MIN) : 1.0;
	/* how much slower than nominal the CPUs ran the reference: 1 without one */
	speed = ns->ref_bpf_ns > 0 ? ns->ref_bpf_ns / 1e3 / NORMALIZE_REF_US : 1.0;
	if (res->metrics[0].kind == METRIC_RATE)
		vals[m] = vals[0] / share * speed;
	else
		vals[m] = vals[0] * share / speed;
}
