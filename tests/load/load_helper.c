// SPDX-License-Identifier: GPL-2.0
/*
 * The load of `make check-busy` (scripts/check-busy.sh): another BPF user
 * and CPU hogs beside the tests, as on a shared machine.
 *
 *   load_helper maps [NAME...]  creates a BPF map, fills a few elements and
 *                               closes it, again and again; the names
 *                               taken in turn (default "churn"), so maps
 *                               named like bpfbench's own come and go too
 *   load_helper cpu             spins
 *
 * Either runs until a signal ends it, and dies with its parent (however
 * that ends, SIGKILL included): nothing outlives the harness.  Maps die
 * with their last fd, so nothing stays in the kernel either.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <bpf/bpf.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int churn(int n, char **names)
{
	static char *churn_name[] = { "churn" };
	unsigned long made = 0, i = 0;
	uint32_t key;
	uint64_t val;
	int fd;

	if (!n) {
		n = 1;
		names = churn_name;
	}
	while (!stop) {
		LIBBPF_OPTS(bpf_map_create_opts, o);
		int type = i % 2 ? BPF_MAP_TYPE_ARRAY : BPF_MAP_TYPE_HASH;

		fd = bpf_map_create(type, names[i++ % n], sizeof(key), sizeof(val), 1024, &o);
		if (fd < 0) {
			if (errno == EPERM || errno == ENOSYS) {
				fprintf(stderr, "load_helper: cannot create BPF maps: %s\n",
					strerror(errno));
				return 1;
			}
			usleep(1000);	/* memory or a limit: try again */
			continue;
		}
		for (key = 0; key < 64; key++) {
			val = key * made;
			bpf_map_update_elem(fd, &key, &val, BPF_ANY);
		}
		close(fd);
		made++;
	}
	fprintf(stderr, "load_helper: %lu maps created and destroyed\n", made);
	return 0;
}

int main(int argc, char **argv)
{
	pid_t parent = getppid();
	struct sigaction sa = { .sa_handler = on_signal };
	volatile unsigned long spin = 0;

	if (argc < 2 || (strcmp(argv[1], "maps") && strcmp(argv[1], "cpu"))) {
		fprintf(stderr, "usage: load_helper maps [NAME...] | load_helper cpu\n");
		return 2;
	}
	/* dies with the harness, even when it is killed outright */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
		return 1;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (!strcmp(argv[1], "maps"))
		return churn(argc - 2, argv + 2);
	while (!stop)
		spin++;
	return 0;
}
