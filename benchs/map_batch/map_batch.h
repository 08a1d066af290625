/* SPDX-License-Identifier: GPL-2.0 */
/* map-batch: what the census program reports, shared by both sides. */
#ifndef BPFBENCH_MAP_BATCH_H
#define BPFBENCH_MAP_BATCH_H

struct census {
	__u64 elems;	/* elements visited */
	__u64 id_sum;	/* sum of their ids: with elems, catches a wrong set */
	__u64 bad;	/* keys out of range, values not what user space wrote */
};

#endif
