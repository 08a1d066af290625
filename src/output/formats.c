// SPDX-License-Identifier: GPL-2.0
/* Every format's writer, from the list (out_formats.h), and the one loop that calls them. */
#include <stdio.h>
#include "formats.h"
#include "outfile.h"
#include "util.h"

typedef void (*out_writer)(FILE *f, const struct out_doc *d);

static const out_writer writers[OUT_NR] = {
#define OUT_WRITER(ID, name, metavar, kind, help)	[OUT_##ID] = name##_write,
	OUT_FORMATS(OUT_WRITER)
#undef OUT_WRITER
};

struct out_job {
	out_writer write;
	const struct out_doc *doc;
};

static void write_job(FILE *f, void *arg)
{
	const struct out_job *j = arg;

	j->write(f, j->doc);
}

int out_write(const char *const *paths, const struct out_doc *d)
{
	struct out_job j = { .doc = d };
	int i, err, ret = 0;

	for (i = 0; i < OUT_NR; i++) {
		if (!paths[i] || out_format_defs[i].kind != d->kind)
			continue;
		j.write = writers[i];
		err = write_file_atomic(paths[i], write_job, &j);
		if (err) {
			errmsg("cannot write %s: %s", paths[i], output_strerror(err));
			ret = 1;
		}
	}
	return ret;
}
