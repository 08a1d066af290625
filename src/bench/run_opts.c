// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "run_opts.h"
#include "util.h"

uint64_t run_opts_measure_ms(const struct run_opts *o)
{
	return o->precision_pct ? o->max_duration_ms : o->duration_ms;
}

void run_spec_free(struct run_spec *spec)
{
	free(spec->args);
	spec->args = NULL;
}

void run_spec_copy(struct run_spec *dst, const struct run_spec *src)
{
	size_t n = src->args_size;

	*dst = *src;
	dst->args = xcalloc(1, n ?: 1);
	if (n)
		memcpy(dst->args, src->args, n);
}

