// SPDX-License-Identifier: GPL-2.0
/*
 * What a consumer checks of the samples it reads, whichever reader it
 * is: intact (checksum), of a known stream, and in order within its
 * stream and ring.  With --rb-verify every sample, and the stream gaps
 * and the digest of all are counted; by default one sample in
 * RB_CHECK_STRIDE, the others only counted as the kernel bench's
 * consumer counts them: the checks of every sample cost rb-custom -c1
 * --rb-b2b an eighth of its figure (doc/variance.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "rb.h"

int rb_check_init(struct rb_state *s)
{
	struct rb_check *c = &s->chk;

	c->every = s->a->verify || s->a->corrupt_at;
	c->nr_streams = s->env->nr_producers > 0 ? s->env->nr_producers : 1;
	c->nr_rings = rb_is_perf(s) ? libbpf_num_possible_cpus() : 1;
	if (c->nr_rings <= 0)
		return c->nr_rings ? c->nr_rings : -EINVAL;
	c->next = calloc((size_t)c->nr_rings * c->nr_streams, sizeof(*c->next));
	return c->next ? 0 : -ENOMEM;
}

/*
 * Within one ring a stream's samples arrive in the order they were
 * written: seq only grows (gaps are drops or overwritten records); going
 * back means duplication or misordering, a bad check means corruption.
 * The count is published with release, after the sample was read: what
 * measure() sees consumed was written, and attempted, before.
 */
int rb_check_sample(struct rb_state *s, int ring, const void *data, size_t len)
{
	struct rb_check *c = &s->chk;
	struct rb_sample smp;
	uint32_t *next;
	int32_t ahead;

	if (len < sizeof(smp) || ring < 0 || ring >= c->nr_rings) {
		bench_fail(s->env, -EBADMSG, "bad record: %zu bytes in ring %d", len, ring);
		return -EBADMSG;
	}
	if (!c->every && (++c->unchecked & (RB_CHECK_STRIDE - 1)))
		goto counted;
	memcpy(&smp, data, sizeof(smp));
	if (smp.check != rb_sample_check(smp.seq, smp.stream)) {
		bench_fail(s->env, -EBADMSG, "sample checksum mismatch (stream %u, seq %u)",
			   smp.stream, smp.seq);
		return -EBADMSG;
	}
	if (smp.stream >= c->nr_streams) {
		bench_fail(s->env, -EBADMSG, "sample of unknown stream %u", smp.stream);
		return -EBADMSG;
	}
	next = &c->next[(size_t)ring * c->nr_streams + smp.stream];
	ahead = (int32_t)(smp.seq - *next);
	if (ahead < 0) {
		bench_fail(s->env, -EBADMSG, "stream %u: seq %u after %u (duplicate or out of order)",
			   smp.stream, smp.seq, *next - 1);
		return -EBADMSG;
	}
	*next = smp.seq + 1;
	if (c->every) {	/* sampled, a gap is also the samples not looked at */
		c->gaps += ahead;
		c->digest += mix64(((uint64_t)smp.stream << 32) | smp.seq);
	}
counted:
	/*
	 * An atomic add (a locked instruction on x86), as the kernel bench's
	 * consumer counts each hit: the count's cost is part of what a
	 * consumer does per sample, and how fast the consumer catches up
	 * decides how often it sleeps and must be woken (doc/fidelity.md).
	 */
	atomic_fetch_add_explicit(&s->consumed, 1, memory_order_release);
	c->consumed++;
	return 0;
}
