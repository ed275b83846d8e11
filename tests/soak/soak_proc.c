// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-soak's per-process side: a process's streams (proc_main), its
 * VmLck before aclInit and after aclFinalize; the counters summed and
 * reported; the pinned pages and device memory that must balance
 * (soak.h).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "acl/acl.h"
#include "drm/npu_dma_accel.h"
#include "npu_node.h"
#include "soak.h"

#define BALANCE_MS	5000		/* a dead process's release may be deferred */

/*
 * VmLck in kB of process @pid, 0: this one (what the driver charges
 * host registrations to). -1: unknown.
 */
long vmlck_kb(pid_t pid)
{
	char line[128];
	long kb = -1;
	FILE *f;

	if (pid)
		snprintf(line, sizeof(line), "/proc/%d/status", (int)pid);
	else
		snprintf(line, sizeof(line), "/proc/self/status");
	f = fopen(line, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmLck: %ld", &kb) == 1)
			break;
	}
	if (f)
		fclose(f);
	return kb;
}

/*
 * After aclFinalize: the locked memory the registrations charged must be
 * back to what it was before aclInit (a file's release may be deferred).
 */
static bool check_locked(int p, int gen, long before)
{
	double end = now() + BALANCE_MS / 1000.0;
	long after;

	while ((after = vmlck_kb(0)) != before && now() < end)
		usleep(50 * 1000);
	if (after == before)
		return true;
	fprintf(stderr, PROG ": proc %d.%d: VmLck %ld kB before aclInit, %ld kB after"
		" aclFinalize\n", p, gen, before, after);
	add(&shared[p * o.streams].locked, after > before ? after - before : before - after);
	return false;
}

/* Process slot @p, its generation @gen: 0 at start, +1 at each kill. */
int proc_main(int p, int gen)
{
	struct stream *ss = calloc(o.streams, sizeof(*ss));
	pthread_t *tids = calloc(o.streams, sizeof(*tids));
	long locked = vmlck_kb(0);
	bool failed = false;
	int i;

	if (!ss || !tids)
		return 1;
	if (aclInit(NULL) != ACL_SUCCESS) {
		fprintf(stderr, PROG ": proc %d: aclInit: %s\n", p, aclGetRecentErrMsg());
		return 1;
	}
	for (i = 0; i < o.streams; i++) {
		struct stream *s = &ss[i];

		s->proc = p;
		s->gen = gen;
		s->index = i;
		s->dev = o.devs[(p * o.streams + i) % o.nr_devs];
		s->c = &shared[p * o.streams + i];
		/* Generation 0 draws what it drew before kills existed. */
		s->rng = o.seed ^ ((uint64_t)p << 32 | (uint64_t)i) ^
			 (uint64_t)gen << 48;
		splitmix(&s->rng);
		if (pthread_create(&tids[i], NULL, stream_main, s)) {
			fprintf(stderr, PROG ": proc %d: pthread_create failed\n", p);
			return 1;
		}
	}
	for (i = 0; i < o.streams; i++) {
		pthread_join(tids[i], NULL);
		failed |= ss[i].failed;
	}
	if (aclFinalize() != ACL_SUCCESS)
		failed = true;
	if (!check_locked(p, gen, locked))
		failed = true;
	return failed;
}

void sum(struct counters *t)
{
	int i, k;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < o.procs * o.streams; i++) {
		struct counters *c = &shared[i];

#define SUM(f) (t->f += __atomic_load_n(&c->f, __ATOMIC_RELAXED))
		for (k = 0; k < NR_KINDS; k++) {
			SUM(copies[k]);
			SUM(bytes[k]);
		}
		SUM(pinned);
		SUM(pageable);
		SUM(sync);
		SUM(async);
		SUM(batches);
		SUM(readbacks);
		SUM(verified);
		SUM(lost);
		SUM(errors);
		SUM(done);
		SUM(locked);
#undef SUM
	}
}

uint64_t total(const uint64_t *v)
{
	uint64_t t = 0;
	int k;

	for (k = 0; k < NR_KINDS; k++)
		t += v[k];
	return t;
}

void report(const struct counters *t, double secs, const struct run *r)
{
	uint64_t bytes = total(t->bytes);
	bool fail = t->lost || t->errors || r->bad_exits || r->unbalanced ||
		    t->locked || !total(t->copies);
	int k;

	printf("%-8s %12s %16s\n", "kind", "copies", "bytes");
	for (k = 0; k < NR_KINDS; k++)
		printf("%-8s %12" PRIu64 " %16" PRIu64 "\n", kind_name[k],
		       t->copies[k], t->bytes[k]);
	printf("host side: %" PRIu64 " pinned, %" PRIu64 " pageable;"
	       " calls: %" PRIu64 " async, %" PRIu64 " sync;"
	       " %" PRIu64 " batches, %" PRIu64 " full read-backs\n",
	       t->pinned, t->pageable, t->async, t->sync, t->batches, t->readbacks);
	printf(PROG ": %.0f s, copies %" PRIu64 ", bytes moved %" PRIu64
	       " (%.1f MB/s), bytes verified %" PRIu64 ", bytes lost %" PRIu64
	       ", errors %" PRIu64 ", failed processes %d, kills %d (mid-batch),"
	       " balances %s: %s\n", secs,
	       total(t->copies), bytes, secs > 0 ? bytes / secs / 1e6 : 0.0,
	       t->verified, t->lost, t->errors, r->bad_exits, r->kills,
	       r->unbalanced || t->locked ? "DIFFER" : "equal",
	       fail ? "FAIL" : "PASS");
}

static long long pinned_pages(void)
{
	long long acq = -1, rel = -1, v;
	char name[64];
	FILE *f;

	/* The counters are per-CPU, folded lazily: fold them now. */
	f = fopen("/proc/sys/vm/stat_refresh", "w");
	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
	f = fopen("/proc/vmstat", "r");
	while (f && fscanf(f, "%63s %lld", name, &v) == 2) {
		if (!strcmp(name, "nr_foll_pin_acquired"))
			acq = v;
		else if (!strcmp(name, "nr_foll_pin_released"))
			rel = v;
	}
	if (f)
		fclose(f);
	return acq < 0 || rel < 0 ? -1 : acq - rel;
}

static long long dev_mem_free(const struct npu_node *n)
{
	struct npu_dma_info info = { 0 };
	int fd = open(n->node, O_RDWR | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = ioctl(fd, DRM_IOCTL_NPU_DMA_GET_INFO, &info);
	close(fd);
	return ret ? -1 : (long long)info.mem_free;
}

void read_balance(struct balance *b)
{
	struct npu_node nodes[MAX_DEVS];
	int i, n;

	b->pins = pinned_pages();
	n = npu_node_list("/sys", nodes, MAX_DEVS);
	for (i = 0; i < MAX_DEVS; i++)
		b->mem_free[i] = -1;
	for (i = 0; i < o.nr_devs; i++) {
		if (o.devs[i] < n)
			b->mem_free[o.devs[i]] = dev_mem_free(&nodes[o.devs[i]]);
	}
}

static bool same_balance(const struct balance *a, const struct balance *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/*
 * After the last process: poll until the balances are back (the release
 * of a killed process's file may run later, from a work item), print
 * them. Return: whether they are.
 */
bool check_balance(const struct balance *start)
{
	double end = now() + BALANCE_MS / 1000.0;
	struct balance b;
	bool same;
	int i, d;

	while (read_balance(&b), !(same = same_balance(start, &b)) && now() < end)
		usleep(100 * 1000);
	printf(PROG ": balance: pinned pages %lld at start, %lld at end", start->pins,
	       b.pins);
	for (i = 0; i < MAX_DEVS; i++) {
		for (d = 0; d < o.nr_devs && o.devs[d] != i; d++)
			;
		if (d < o.nr_devs)
			printf("; device %d memory free %lld, %lld", i, start->mem_free[i],
			       b.mem_free[i]);
	}
	printf(": %s\n", same ? "equal" : "DIFFER");
	if (start->pins < 0)
		fprintf(stderr, PROG ": pinned pages unknown (no nr_foll_pin_* in"
			" /proc/vmstat)\n");
	for (i = 0; i < o.nr_devs; i++) {
		if (start->mem_free[o.devs[i]] < 0)
			fprintf(stderr, PROG ": device %d: memory free unknown (GET_INFO"
				" on its node failed; run as root)\n", o.devs[i]);
	}
	return same;
}
