// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage-create: a 64-byte storage created for every task our
 * process forks (tp_btf/sched_process_fork, upstream's) or every socket
 * it makes (upstream's lsm.s/socket_post_create where the kernel runs
 * BPF LSM, else cgroup/sock_create, which has the new socket too:
 * doc/differences.md), and every kmalloc on the machine counted
 * (raw_tp/kmalloc, unfiltered as upstream's: kmallocs per create).
 * hits are the storages created, extra[] the rest (local_storage.h).
 */
#include "bench_common.bpf.h"
#include "local_storage.h"

struct storage {
	__u8 data[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct storage);
} sk_storage_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct storage);
} task_storage_map SEC(".maps");

static __always_inline void count_create(void *stg)
{
	struct bench_slot *slot = bench_my_slot();

	if (stg)
		__sync_fetch_and_add(&slot->hits, 1);
	else
		__sync_fetch_and_add(&slot->extra[LS_SLOT_CREATE_ERRS], 1);
}

SEC("raw_tp/kmalloc")
int create_kmalloc(void *ctx)
{
	__sync_fetch_and_add(&bench_my_slot()->extra[LS_SLOT_KMALLOCS], 1);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(create_fork, struct task_struct *parent, struct task_struct *child)
{
	if (parent->tgid == bench_tgid)
		count_create(bpf_task_storage_get(&task_storage_map, child, NULL,
						  BPF_LOCAL_STORAGE_GET_F_CREATE));
	return 0;
}

SEC("lsm.s/socket_post_create")
int BPF_PROG(create_sock_lsm, struct socket *sock, int family, int type, int protocol, int kern)
{
	struct sock *sk = sock->sk;

	if (bench_is_us() && sk)
		count_create(bpf_sk_storage_get(&sk_storage_map, sk, NULL,
						BPF_LOCAL_STORAGE_GET_F_CREATE));
	return 0;
}

SEC("cgroup/sock_create")
int create_sock_cg(struct bpf_sock *ctx)
{
	if (bench_is_us())
		count_create(bpf_sk_storage_get(&sk_storage_map, ctx, NULL,
						BPF_LOCAL_STORAGE_GET_F_CREATE));
	return 1;	/* the socket is allowed */
}
