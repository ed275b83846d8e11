// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: a structure-aware fuzzer of everything user space can reach
 * through an NPU's DRM node: every driver ioctl (valid-looking arguments
 * with one field mutated, random bytes, bad pointers, unknown commands
 * and wrong sizes), the DRM core's ioctls a render node allows
 * (GEM_CLOSE of live, closed and random handles, VERSION, GET_CAP, PRIME
 * export and import), the mmap'd rings (valid-looking descriptors with
 * one field mutated, random descriptors, random tails), eventfds closed
 * under their queues, registered memory unmapped while copies use it,
 * several files, queues and peer NPUs per process, a second thread
 * racing the first (on what the worker holds, and on the ids its
 * creates are about to return: graph ids, GEM handles and queue ids
 * just above the known ones, the address being registered), foreign
 * processes holding the files, and children exec'd with a file
 * inherited (not O_CLOEXEC in them). Arguments come now and then from a
 * read-only page (the DRM core's copy-out fails); rings get complete
 * batches of up to 300 members and 2-D copies of up to 4096 rows, host
 * memory included; a quarter of the rounds run under tight budgets of
 * outstanding work (module parameters: 16 jobs and 1 MiB of pins a
 * queue, 3 MiB in all). In some rounds one host buffer is backed by a
 * userfaultfd whose faults a thread serves, some late, or never (the
 * round then ends with SIGKILL). In others ("parked" rounds) queues on
 * up to four files are parked at host barriers and fed pageable copies,
 * and the parent samples the pins meanwhile: never more than the
 * module-wide budget (fz_pin_bound()).
 *
 * Each round forks a worker that runs a random program for about a
 * second from a seed derived from the run's seed; the worker exits with
 * or without cleaning up, or is killed with SIGKILL at a random moment.
 * After every round: no page left pinned (/proc/vmstat), every NPU's
 * free device memory, queue count and client list back to their start,
 * the test's own open files, locked and pinned memory (VmLck, VmPin)
 * unchanged, and the driver's job objects (the npu_dma_job slab, when
 * it can be counted) back to their start count. runtests.sh scans the
 * kernel log for warnings.
 *
 * Environment: NPU_FUZZ_SEED (replay a run; printed at the start),
 * NPU_FUZZ_SECONDS (default 45). See Documentation/security.rst.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_fuzz.h"
#include "t_state.h"
#include "t_vm.h"

#define MAX_NPUS	8
#define MAX_CTX		4
#define MAX_ALLOC	12
#define MAX_REG		6
#define MAX_Q		6
#define MAX_GRAPH	4
#define MAX_HANDLES	8	/* imported and closed GEM handles kept */
#define MAX_BUFS_OUT	4	/* exported dma-buf fds kept */
#define NR_BUFS		6
#define BUF_LEN		(256 << 10)
#define PAGE		4096UL

/* What the workers did, kept in shared memory so killed workers count. */
struct fz_stats {
	uint64_t ops;
	uint64_t ioctls;
	uint64_t ioctl_ok;
	uint64_t descs;
	uint64_t munmaps;
	uint64_t efd_closed;
	uint64_t graphs;
	uint64_t gem_closes;
	uint64_t prime;
	uint64_t prime_ok;	/* dma-bufs exported */
	uint64_t foreign;
	uint64_t races;
	uint64_t rounds;
	uint64_t killed;
	uint64_t ro_args;	/* arguments passed in a read-only page */
	uint64_t batches;	/* complete batches written to rings */
	uint64_t tight;		/* rounds under tight budgets */
	uint64_t guesses;	/* racer's destroys of ids a create is about to give */
	uint64_t uffd_rounds;	/* rounds with a userfaultfd-backed buffer */
	uint64_t uffd_never;	/* of which its faults were never served */
	uint64_t uffd_faults;	/* faults served */
	uint64_t execs;		/* children exec'd with a file inherited */
	uint64_t parked;	/* rounds of queues parked at barriers */
	long pin_peak;		/* most pages seen pinned in a parked round */
	char fail[256];
};

static struct fz_stats *stats;
static int nr_npus;
static struct npu_dma_info infos[MAX_NPUS];

/* splitmix64: small, fast, and the same sequence on every machine. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static int chance(int percent)
{
	return (int)below(100) < percent;
}

/* Values that sit on the edges validation code tends to get wrong. */
static uint64_t interesting(uint64_t near)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 4095, 4096, 4097, 65536, 0x7fffffff,
		0x80000000, 0xffffffff, 0x100000000ULL, 1ULL << 40, 1ULL << 47,
		0x7fffffffffffffffULL, 0x8000000000000000ULL,
		0xffff888000000000ULL, 0xffffffff81000000ULL,
		0xfffffffffffff000ULL, 0xffffffffffffffffULL,
	};

	switch (below(5)) {
	case 0:
		return near + below(9) - 4;
	case 1:
		return near ^ (1ULL << below(64));
	case 2:
		return rnd();
	case 3:
		return near + (below(2) ? PAGE : -PAGE);
	default:
		return v[below(sizeof(v) / sizeof(v[0]))];
	}
}

struct fz_alloc {
	uint64_t addr, size;
	uint32_t handle;
};

struct fz_reg {
	uint64_t addr, size;
};

struct fz_queue {
	uint32_t id, entries;
	int efd;		/* -1 once closed under the queue */
	void *map;		/* NULL if not mapped */
	size_t map_size;
	uint64_t map_off;
};

struct fz_ctx {
	int fd;			/* -1: slot free */
	int npu;
	struct fz_alloc alloc[MAX_ALLOC];
	int nr_alloc;
	struct fz_reg reg[MAX_REG];
	int nr_reg;
	struct fz_queue q[MAX_Q];
	int nr_q;
	uint32_t graph[MAX_GRAPH];	/* ids from GRAPH_CREATE */
	uint32_t graph_len[MAX_GRAPH];
	int nr_graph;
	uint32_t imported[MAX_HANDLES];	/* handles from PRIME_FD_TO_HANDLE */
	int nr_imported;
	uint32_t closed[MAX_HANDLES];	/* handles closed, not handed out since */
	int nr_closed;
	uint64_t events_off, events_size;	/* GET_INFO's event table */
};

/* dma-buf fds from PRIME_HANDLE_TO_FD: the npu they came from. */
static struct {
	int fd, npu;
} dmabufs[MAX_BUFS_OUT];
static int nr_dmabufs;

struct fz_buf {
	uint8_t *p;
	int mapped;
};

static struct fz_ctx ctxs[MAX_CTX];
static struct fz_buf bufs[NR_BUFS];
/* The buffer backed by a userfaultfd in this round, or -1. */
static int uffd_buf = -1;
/*
 * The host buffers live in the middle of a PROT_NONE arena. The kernel
 * writes host memory wherever a descriptor says, and a mutated one may
 * name any address of the worker: writes are kept inside the arena, so
 * the worker never corrupts itself (a copy running into the guard pages
 * fails with -EFAULT, which is the point).
 */
#define ARENA		(1ULL << 30)
static uint8_t *arena;
/* A page the kernel can read but not write: copy-in works, copy-out fails. */
static uint8_t *ro_page;
/* A page followed by an unmapped one: arguments that straddle it fault. */
static uint8_t *edge;

static void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fz_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(stats->fail, sizeof(stats->fail), fmt, ap);
	va_end(ap);
	_exit(3);
}

/* One ioctl, never restarted: an alarm may interrupt a blocking one. */
static int fz_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret = ioctl(fd, cmd, arg);

	stats->ioctls++;
	if (ret >= 0)
		stats->ioctl_ok++;
	return ret < 0 ? -errno : ret;
}

static void on_alarm(int sig)
{
	(void)sig;
}

static int cur_op;
/*
 * A second thread of the worker (in some rounds) that races the first:
 * submits, releases, destroys, frees and unregisters by the ids and
 * addresses the worker holds. Then an operation on a tracked resource
 * may find it gone: the checks that expect success are off.
 */
static volatile int racing, stop_racer;
/* The address HOST_REGISTER is about to pin, for the racer to unregister. */
static volatile uint64_t next_reg;

/* A worker's own memory fault is a fuzzer bug or a broken mapping: say where. */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	snprintf(stats->fail, sizeof(stats->fail), "signal %d code %d at %p in op %d",
		 sig, si->si_code, si->si_addr, cur_op);
	_exit(5);
}

/* Interrupt whatever blocks in the next ms milliseconds. */
static void arm(int ms)
{
	struct itimerval it = { .it_value = { ms / 1000, (ms % 1000) * 1000 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

static struct fz_ctx *any_ctx(void)
{
	int i, start = (int)below(MAX_CTX);

	for (i = 0; i < MAX_CTX; i++)
		if (ctxs[(start + i) % MAX_CTX].fd >= 0)
			return &ctxs[(start + i) % MAX_CTX];
	return NULL;
}

static int is_edu(const struct fz_ctx *c)
{
	return infos[c->npu].backend == NPU_DMA_BACKEND_EDU;
}

/*
 * Mutate one naturally aligned field of an argument structure: pick a
 * 4- or 8-byte word and give it an interesting value.
 */
static void mutate_struct(void *s, size_t size)
{
	uint8_t *b = s;

	if (chance(50)) {
		size_t off = below(size / 8) * 8;
		uint64_t v;

		memcpy(&v, b + off, 8);
		v = interesting(v);
		memcpy(b + off, &v, 8);
	} else {
		size_t off = below(size / 4) * 4;
		uint32_t v;

		memcpy(&v, b + off, 4);
		v = (uint32_t)interesting(v);
		memcpy(b + off, &v, 4);
	}
}

static void random_bytes(void *s, size_t size)
{
	uint8_t *b = s;
	size_t i;

	for (i = 0; i < size; i++)
		b[i] = (uint8_t)rnd();
}

/*
 * Issue cmd with the valid-looking structure s: as is, from a read-only
 * page, with one field mutated, as random bytes, or through a bad
 * pointer.
 */
static int fz_call(int fd, unsigned long cmd, void *s, size_t size, int *mutated)
{
	int how = (int)below(100);

	*mutated = 1;
	if (how < 45) {
		*mutated = 0;
		return fz_ioctl(fd, cmd, s);
	}
	if (how < 50 && size <= PAGE) {
		/* Copy-out fails: what a create made stays the file's. */
		mprotect(ro_page, PAGE, PROT_READ | PROT_WRITE);
		memcpy(ro_page, s, size);
		mprotect(ro_page, PAGE, PROT_READ);
		stats->ro_args++;
		return fz_ioctl(fd, cmd, ro_page);
	}
	if (how < 80)
		mutate_struct(s, size);
	else if (how < 90)
		random_bytes(s, size);
	else if (how < 94)
		return fz_ioctl(fd, cmd, edge + PAGE - size / 2);
	else if (how < 97)
		return fz_ioctl(fd, cmd, (void *)(uintptr_t)interesting(0));
	else
		return fz_ioctl(fd, cmd, NULL);
	return fz_ioctl(fd, cmd, s);
}

static void op_info(struct fz_ctx *c)
{
	struct npu_dma_info info = { 0 };
	int mutated, ret;

	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_GET_INFO, &info, sizeof(info), &mutated);
	if (!mutated && ret && !racing)
		fz_fail("GET_INFO on npu %d: %d", c->npu, ret);
}

/* @h was handed out again (or is live): it is no longer a closed one. */
static void unclose(struct fz_ctx *c, uint32_t h)
{
	int i;

	for (i = 0; i < c->nr_closed; i++)
		if (c->closed[i] == h) {
			c->closed[i] = c->closed[--c->nr_closed];
			return;
		}
}

static void note_closed(struct fz_ctx *c, uint32_t h)
{
	unclose(c, h);
	if (c->nr_closed == MAX_HANDLES)
		c->closed[below(MAX_HANDLES)] = h;
	else
		c->closed[c->nr_closed++] = h;
}

static int gem_close(int fd, uint32_t h)
{
	struct drm_gem_close g = { .handle = h };

	stats->gem_closes++;
	return fz_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &g);
}

static void track_alloc(struct fz_ctx *c, uint64_t addr, uint64_t size, uint32_t h)
{
	int i;

	unclose(c, h);
	/* A stale entry (the racer closed it) whose number came back. */
	for (i = 0; i < c->nr_alloc; i++)
		if (c->alloc[i].handle == h) {
			c->alloc[i].addr = addr;
			c->alloc[i].size = size;
			return;
		}
	if (c->nr_alloc < MAX_ALLOC) {
		c->alloc[c->nr_alloc].addr = addr;
		c->alloc[c->nr_alloc].handle = h;
		c->alloc[c->nr_alloc++].size = size;
	} else if (!gem_close(c->fd, h)) {
		note_closed(c, h);
	}
}

static void op_alloc(struct fz_ctx *c)
{
	uint64_t cap = is_edu(c) ? 64 << 10 : 4 << 20;
	struct npu_dma_mem_alloc a = {
		.size = 1 + below(cap),
		.align = chance(30) ? 1ULL << below(22) : 0,
		.policy = (uint32_t)below(3),
		.flags = chance(30) ? NPU_DMA_MEM_F_P2P : 0,
	};
	int mutated, ret;

	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_MEM_ALLOC, &a, sizeof(a), &mutated);
	if (ret == 0) {
		if (!a.handle && !racing)
			fz_fail("MEM_ALLOC answered handle 0");
		track_alloc(c, a.dev_addr, a.alloc_size, a.handle);
	} else if (ret == -EFAULT) {
		/*
		 * The argument may have been readable but not writable (an
		 * "interesting" pointer): the allocation then exists, as the
		 * DRM core leaves it, under a handle we never saw, maybe the
		 * number of one we closed. No closed handle is known now.
		 */
		c->nr_closed = 0;
	}
}

/* Forget handle @h of @c once it is closed: an allocation or an import. */
static void untrack_handle(struct fz_ctx *c, uint32_t h)
{
	int i;

	for (i = 0; i < c->nr_alloc; i++)
		if (c->alloc[i].handle == h) {
			c->alloc[i] = c->alloc[--c->nr_alloc];
			break;
		}
	for (i = 0; i < c->nr_imported; i++)
		if (c->imported[i] == h) {
			c->imported[i] = c->imported[--c->nr_imported];
			break;
		}
	note_closed(c, h);
}

static int tracked_handle(const struct fz_ctx *c, uint32_t h)
{
	int i;

	for (i = 0; i < c->nr_alloc; i++)
		if (c->alloc[i].handle == h)
			return 1;
	for (i = 0; i < c->nr_imported; i++)
		if (c->imported[i] == h)
			return 1;
	return 0;
}

/*
 * GEM_CLOSE, which frees device memory: of a live handle (must work), of
 * one closed before and not handed out since (must be -EINVAL), of a
 * guessed one, with a mutated argument or through a bad pointer.
 */
static void op_free(struct fz_ctx *c)
{
	struct drm_gem_close g = { 0 };
	int how = (int)below(100), ret, live = 0, closed = 0;

	if (c->nr_alloc && how < 50) {
		g.handle = c->alloc[below(c->nr_alloc)].handle;
		live = 1;
	} else if (c->nr_imported && how < 55) {
		g.handle = c->imported[below(c->nr_imported)];
		live = 1;
	} else if (c->nr_closed && how < 75) {
		g.handle = c->closed[below(c->nr_closed)];
		closed = !tracked_handle(c, g.handle);
	} else {
		/* Guess: handles are small numbers, the lowest free first. */
		g.handle = chance(70) ? (uint32_t)below(64) : (uint32_t)interesting(1);
	}
	stats->gem_closes++;
	how = (int)below(100);
	if (how < 10) {
		mutate_struct(&g, sizeof(g));
		live = closed = 0;
	} else if (how < 14) {
		fz_ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, edge + PAGE - sizeof(g) / 2);
		return;
	} else if (how < 16) {
		fz_ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, NULL);
		return;
	}
	ret = fz_ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, &g);
	if (live && ret && !racing)
		fz_fail("GEM_CLOSE of a live handle %u: %d", g.handle, ret);
	if (closed && ret != -EINVAL && !racing)
		fz_fail("GEM_CLOSE of closed handle %u: %d", g.handle, ret);
	if (!ret)
		untrack_handle(c, g.handle);
}

/*
 * A range in one of the host buffers (which may be unmapped), more often
 * the userfaultfd-backed one if there is one.
 */
static void host_range(__u64 *addr, __u64 *size, uint64_t cap)
{
	struct fz_buf *b = &bufs[below(NR_BUFS)];
	uint64_t off = below(BUF_LEN - 1);

	if (chance(25) && uffd_buf >= 0)
		b = &bufs[uffd_buf];

	*size = 1 + below(cap < BUF_LEN - off ? cap : BUF_LEN - off);
	*addr = (uintptr_t)b->p + off;
}

static int in_arena(uint64_t addr, uint64_t len)
{
	uint64_t base = (uintptr_t)arena;

	return addr >= base && len <= ARENA && addr - base <= ARENA - len;
}

static void op_register(struct fz_ctx *c)
{
	struct npu_dma_host_register r = { 0 };
	int mutated;

	host_range(&r.addr, &r.size, BUF_LEN);
	r.flags = chance(20) ? NPU_DMA_HOST_F_READONLY : 0;
	next_reg = r.addr;
	if (fz_call(c->fd, DRM_IOCTL_NPU_DMA_HOST_REGISTER, &r, sizeof(r), &mutated) == 0) {
		/* Copies into it would write wherever it is: keep only the arena's. */
		if (c->nr_reg < MAX_REG && in_arena(r.addr, r.size)) {
			c->reg[c->nr_reg].addr = r.addr;
			c->reg[c->nr_reg++].size = r.size;
		} else {
			npu_raw_unregister(c->fd, (void *)(uintptr_t)r.addr);
		}
	}
}

static void op_unregister(struct fz_ctx *c)
{
	struct npu_dma_host_unregister u = { 0 };
	int mutated, ret, i = -1, j;

	if (c->nr_reg && chance(85)) {
		i = (int)below(c->nr_reg);
		u.addr = c->reg[i].addr;
	} else {
		u.addr = (uintptr_t)bufs[below(NR_BUFS)].p + below(BUF_LEN);
	}
	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_HOST_UNREGISTER, &u, sizeof(u), &mutated);
	if (!mutated && i >= 0 && ret && !racing)
		fz_fail("HOST_UNREGISTER of a registration: %d", ret);
	if (ret)
		return;
	for (j = 0; j < c->nr_reg; j++)
		if (c->reg[j].addr == u.addr) {
			c->reg[j] = c->reg[--c->nr_reg];
			break;
		}
}

static void map_queue(struct fz_ctx *c, struct fz_queue *q)
{
	size_t len = q->map_size;
	off_t off = (off_t)q->map_off;
	int prot = PROT_READ | PROT_WRITE, flags = MAP_SHARED;
	void *p;

	switch (below(10)) {
	case 0:
		len = (size_t)below(q->map_size * 2) + 1;
		break;
	case 1:
		off = (off_t)(interesting(q->map_off) & ~(PAGE - 1));
		break;
	case 2:
		flags = MAP_PRIVATE;
		break;
	case 3:
		prot |= PROT_EXEC;
		break;
	}
	p = mmap(NULL, len, prot, flags, c->fd, off);
	if (p == MAP_FAILED)
		return;
	if (len == q->map_size && off == (off_t)q->map_off && flags == MAP_SHARED) {
		q->map = p;
		return;
	}
	munmap(p, len);
}

static void op_queue_create(struct fz_ctx *c)
{
	struct npu_dma_queue_create qc = {
		.entries = 1U << below(13),
		.eventfd = -1,
	};
	struct fz_queue *q;
	int efd = -1, mutated, ret;

	if (c->nr_q == MAX_Q)
		return;
	if (chance(80)) {
		efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		qc.eventfd = efd;
		/* A counter near its limit must not upset the kernel. */
		if (chance(10)) {
			uint64_t v = 0xfffffffffffffffdULL;

			if (write(efd, &v, sizeof(v)) != sizeof(v))
				fz_fail("eventfd write: %d", errno);
		}
	} else if (chance(50)) {
		qc.eventfd = chance(50) ? c->fd : (int)interesting(3);
	}
	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &qc, sizeof(qc), &mutated);
	if (ret) {
		if (efd >= 0)
			close(efd);
		return;
	}
	q = &c->q[c->nr_q++];
	memset(q, 0, sizeof(*q));
	q->id = qc.queue_id;
	q->entries = qc.entries;
	q->efd = efd;
	q->map_size = qc.mmap_size;
	q->map_off = qc.mmap_offset;
	if (chance(90))
		map_queue(c, q);
}

static void drop_queue(struct fz_ctx *c, int i)
{
	struct fz_queue *q = &c->q[i];

	if (q->map && chance(70))
		munmap(q->map, q->map_size);
	if (q->efd >= 0)
		close(q->efd);
	c->q[i] = c->q[--c->nr_q];
}

static void op_queue_destroy(struct fz_ctx *c)
{
	struct npu_dma_queue_destroy d = { 0 };
	int mutated, ret, i = -1, j;

	if (c->nr_q && chance(85)) {
		i = (int)below(c->nr_q);
		d.queue_id = c->q[i].id;
	} else {
		d.queue_id = (uint32_t)interesting(1);
	}
	/* A queue parked at a barrier or a WAIT never drains by itself. */
	arm(150);
	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &d, sizeof(d), &mutated);
	arm(0);
	if (ret)
		return;
	for (j = 0; j < c->nr_q; j++)
		if (c->q[j].id == d.queue_id) {
			drop_queue(c, j);
			break;
		}
}

/* An address of length len in device memory this process may name. */
static uint64_t dev_range(struct fz_ctx *c, uint64_t len)
{
	struct fz_ctx *o = c;
	struct fz_alloc *a;

	/* Sometimes a peer's or another file's allocation. */
	if (chance(15))
		o = any_ctx();
	if (!o->nr_alloc)
		return infos[c->npu].mem_base + below(16) * PAGE;
	a = &o->alloc[below(o->nr_alloc)];
	if (len >= a->size)
		return a->addr;
	return a->addr + below(a->size - len + 1);
}

/* A host address for len bytes; sets the HOST/PAGEABLE flag bits. */
static uint64_t host_side(struct fz_ctx *c, uint64_t len, uint16_t host,
			  uint16_t pageable, uint16_t *flags)
{
	__u64 addr, size;

	*flags |= host;
	if (c->nr_reg && chance(60)) {
		struct fz_reg *r = &c->reg[below(c->nr_reg)];

		if (len >= r->size)
			return r->addr;
		return r->addr + below(r->size - len + 1);
	}
	*flags |= pageable;
	host_range(&addr, &size, len);
	return addr;
}

static uint32_t some_queue_id(struct fz_ctx *c)
{
	struct fz_ctx *o = chance(70) ? c : any_ctx();

	if (!o->nr_q)
		return (uint32_t)interesting(1);
	return o->q[below(o->nr_q)].id;
}

/* A descriptor that should pass validation, given what the worker holds. */
static void valid_desc(struct fz_ctx *c, struct fz_queue *q, struct npu_dma_desc *d)
{
	uint64_t cap = is_edu(c) ? 4096 : 256 << 10;
	uint64_t len = 1 + below(chance(70) ? 512 : cap);
	int dir = (int)below(3);

	memset(d, 0, sizeof(*d));
	d->opcode = (uint8_t)below(NPU_DMA_OP_MAX + 1);
	switch (d->opcode) {
	case NPU_DMA_OP_COPY:
		d->len = len;
		d->src = dir == 0 ? host_side(c, len, NPU_DMA_DESC_F_SRC_HOST,
					      NPU_DMA_DESC_F_SRC_PAGEABLE, &d->flags)
				  : dev_range(c, len);
		d->dst = dir == 1 ? host_side(c, len, NPU_DMA_DESC_F_DST_HOST,
					      NPU_DMA_DESC_F_DST_PAGEABLE, &d->flags)
				  : dev_range(c, len);
		break;
	case NPU_DMA_OP_COPY_2D:
		d->len = 1 + below(64);
		/* Now and then tall: thousands of narrow rows. */
		d->height = 1 + (uint32_t)below(chance(10) && !is_edu(c) ? 4096 : 8);
		d->src_pitch = d->len + below(64);
		d->dst_pitch = d->len + below(64);
		d->src = dir == 0 ? host_side(c, d->src_pitch * d->height,
					      NPU_DMA_DESC_F_SRC_HOST,
					      NPU_DMA_DESC_F_SRC_PAGEABLE, &d->flags)
				  : dev_range(c, d->src_pitch * d->height);
		d->dst = dir == 1 ? host_side(c, d->dst_pitch * d->height,
					      NPU_DMA_DESC_F_DST_HOST,
					      NPU_DMA_DESC_F_DST_PAGEABLE, &d->flags)
				  : dev_range(c, d->dst_pitch * d->height);
		break;
	case NPU_DMA_OP_FILL:
		d->fill_size = (uint8_t)(1U << below(3));
		d->len = (len + 3) & ~3ULL;
		d->value = rnd() & ((1ULL << (8 * d->fill_size)) - 1);
		d->dst = dir == 1 ? host_side(c, d->len, NPU_DMA_DESC_F_DST_HOST,
					      NPU_DMA_DESC_F_DST_PAGEABLE, &d->flags)
				  : dev_range(c, d->len);
		break;
	case NPU_DMA_OP_COPY_INDIRECT:
		/* Words wherever copies left them: most fail when they run. */
		d->src = dev_range(c, 24) & ~7ULL;
		d->dst = chance(50) ? d->src + 8 : dev_range(c, 8) & ~7ULL;
		if (chance(50))
			d->value = d->src + 16;
		else
			d->len = len;
		if (chance(30))
			d->src_pitch = rnd();
		break;
	case NPU_DMA_OP_EVENT_RECORD:
		d->dst = below(infos[c->npu].max_event_slots);
		break;
	case NPU_DMA_OP_WAIT:
		d->wait_queue = some_queue_id(c);
		d->value = below(4);
		break;
	case NPU_DMA_OP_HOST_BARRIER:
		/* Parks the queue until released: keep them rare. */
		if (chance(70))
			d->opcode = NPU_DMA_OP_NOP;
		break;
	default:
		break;
	}
	(void)q;
}

/* Make a host destination outside the arena point into it. */
static void keep_writes_in_arena(struct npu_dma_desc *d)
{
	uint64_t span = d->len;

	if (!(d->flags & NPU_DMA_DESC_F_DST_HOST) || d->dst >= 1ULL << 47)
		return;
	if (d->opcode == NPU_DMA_OP_COPY_2D && d->height &&
	    __builtin_mul_overflow(d->dst_pitch, (uint64_t)d->height - 1, &span))
		return;		/* wraps: the kernel must refuse it */
	if (d->opcode == NPU_DMA_OP_COPY_2D && __builtin_add_overflow(span, d->len, &span))
		return;
	if (in_arena(d->dst, span))
		return;
	if (span > ARENA / 2) {
		d->len = ARENA / 4;
		d->height = d->height ? 1 : 0;
	}
	d->dst = (uintptr_t)arena + d->dst % (ARENA / 2);
}

/*
 * A complete batch at the tail: BATCH_BEGIN, up to 300 members (copies,
 * 2-D copies and fills, host memory included; now and then one invalid),
 * BATCH_END, all published with one doorbell. Return the new tail.
 */
static uint32_t write_batch(struct fz_ctx *c, struct fz_queue *q, uint32_t tail)
{
	struct npu_dma_desc *ring = (void *)((char *)q->map + NPU_DMA_QUEUE_RING_OFFSET);
	uint32_t room = q->entries - 2, n = 1 + (uint32_t)below(room < 300 ? room : 300);
	struct npu_dma_desc d;
	uint32_t i;

	if (is_edu(c) && n > 4)
		n = 4;
	memset(&d, 0, sizeof(d));
	d.opcode = NPU_DMA_OP_BATCH_BEGIN;
	ring[tail++ & (q->entries - 1)] = d;
	for (i = 0; i < n; i++) {
		do
			valid_desc(c, q, &d);
		while (d.opcode != NPU_DMA_OP_COPY && d.opcode != NPU_DMA_OP_COPY_2D &&
		       d.opcode != NPU_DMA_OP_FILL && d.opcode != NPU_DMA_OP_NOP);
		if (chance(2))
			mutate_struct(&d, sizeof(d));
		keep_writes_in_arena(&d);
		ring[tail++ & (q->entries - 1)] = d;
	}
	memset(&d, 0, sizeof(d));
	d.opcode = NPU_DMA_OP_BATCH_END;
	ring[tail++ & (q->entries - 1)] = d;
	stats->descs += n + 2;
	stats->batches++;
	return tail;
}

/* Fill n slots at the tail with descriptors; return the new tail. */
static uint32_t write_descs(struct fz_ctx *c, struct fz_queue *q, uint32_t tail, int n)
{
	struct npu_dma_queue_ctrl *ctrl = q->map;
	struct npu_dma_desc *ring = (void *)((char *)q->map + NPU_DMA_QUEUE_RING_OFFSET);
	struct npu_dma_desc d;
	int i;

	for (i = 0; i < n; i++) {
		int how = (int)below(100);

		valid_desc(c, q, &d);
		if (how < 35)
			mutate_struct(&d, sizeof(d));
		else if (how < 45)
			random_bytes(&d, sizeof(d));
		else if (how < 50)
			d.opcode = (uint8_t)rnd();
		keep_writes_in_arena(&d);
		ring[tail & (q->entries - 1)] = d;
		tail++;
	}
	(void)ctrl;
	stats->descs += n;
	return tail;
}

static void op_submit(struct fz_ctx *c)
{
	struct npu_dma_queue_submit s = { 0 };
	struct npu_dma_queue_ctrl *ctrl;
	struct fz_queue *q;
	uint32_t tail;
	int mutated, n;

	if (!c->nr_q)
		return;
	q = &c->q[below(c->nr_q)];
	s.queue_id = q->id;
	/* Half the doorbells ask for small work to run in them. */
	s.flags = chance(50) ? NPU_DMA_SUBMIT_F_INLINE : 0;
	if (q->map) {
		ctrl = q->map;
		tail = ctrl->sq_tail;
		n = 1 + (int)below(q->entries < 8 ? q->entries : 8);
		if (is_edu(c) && n > 2)
			n = 2;
		if (q->entries >= 8 && chance(10))
			tail = write_batch(c, q, tail);
		else
			tail = write_descs(c, q, tail, n);
		switch (below(20)) {
		case 0:
			tail = (uint32_t)rnd();
			break;
		case 1:
			tail = ctrl->sq_head + q->entries + 1 + (uint32_t)below(4);
			break;
		case 2:
			tail = ctrl->sq_head - 1 - (uint32_t)below(4);
			break;
		case 3:
			/* Kernel-owned fields: it must not believe them. */
			ctrl->sq_head = (uint32_t)rnd();
			ctrl->completed_seq = rnd();
			break;
		}
		__atomic_store_n(&ctrl->sq_tail, tail, __ATOMIC_RELEASE);
	}
	fz_call(c->fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &s, sizeof(s), &mutated);
}

static void op_barrier(struct fz_ctx *c)
{
	struct npu_dma_barrier_release b = { 0 };
	struct fz_queue *q;
	int mutated;

	if (!c->nr_q)
		return;
	q = &c->q[below(c->nr_q)];
	b.queue_id = q->id;
	if (q->map)
		b.seq = ((struct npu_dma_queue_ctrl *)q->map)->barrier_seq;
	if (!b.seq || chance(20))
		b.seq = below(64);
	fz_call(c->fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &b, sizeof(b), &mutated);
}

/* Make a graph of up to 8 descriptors, some of them broken. */
static void op_graph_create(struct fz_ctx *c)
{
	struct npu_dma_graph_create g = { 0 };
	struct npu_dma_desc d[8];
	int i, n = 1 + (int)below(8), mutated;

	for (i = 0; i < n; i++) {
		valid_desc(c, NULL, &d[i]);
		if (chance(10))
			mutate_struct(&d[i], sizeof(d[i]));
		keep_writes_in_arena(&d[i]);
	}
	g.descs = (uintptr_t)d;
	g.count = (uint32_t)n;
	if (fz_call(c->fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, &g, sizeof(g), &mutated) ||
	    mutated)
		return;
	if (c->nr_graph == MAX_GRAPH) {
		struct npu_dma_graph_destroy gd = { .graph_id = c->graph[0] };

		ioctl(c->fd, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY, &gd);
		c->graph[0] = c->graph[--c->nr_graph];
		c->graph_len[0] = c->graph_len[c->nr_graph];
	}
	c->graph[c->nr_graph] = g.graph_id;
	c->graph_len[c->nr_graph++] = g.count;
	stats->graphs++;
}

static void op_graph_destroy(struct fz_ctx *c)
{
	struct npu_dma_graph_destroy gd = { 0 };
	int i = c->nr_graph ? (int)below(c->nr_graph) : -1, mutated;

	gd.graph_id = i < 0 ? (uint32_t)interesting(1) : c->graph[i];
	/* Kept in the table when it failed: a replay of it must fail too. */
	if (fz_call(c->fd, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY, &gd, sizeof(gd), &mutated) ||
	    i < 0 || mutated)
		return;
	c->graph[i] = c->graph[--c->nr_graph];
	c->graph_len[i] = c->graph_len[c->nr_graph];
}

/* A GRAPH descriptor for a known graph (or a wrong count) on a queue. */
static void op_graph_replay(struct fz_ctx *c)
{
	struct npu_dma_queue_submit sub = { 0 };
	struct npu_dma_queue_ctrl *ctrl;
	struct npu_dma_desc *ring, d = { .opcode = NPU_DMA_OP_GRAPH };
	struct fz_queue *q;
	int i;

	if (!c->nr_q || !c->nr_graph)
		return;
	q = &c->q[below(c->nr_q)];
	if (!q->map)
		return;
	i = (int)below(c->nr_graph);
	d.value = c->graph[i];
	d.len = chance(90) ? c->graph_len[i] : chance(50) ? below(16) : rnd();
	ctrl = q->map;
	ring = (void *)((char *)q->map + NPU_DMA_QUEUE_RING_OFFSET);
	ring[ctrl->sq_tail & (q->entries - 1)] = d;
	__atomic_store_n(&ctrl->sq_tail, ctrl->sq_tail + 1, __ATOMIC_RELEASE);
	sub.queue_id = q->id;
	sub.flags = chance(30) ? NPU_DMA_SUBMIT_F_INLINE : 0;
	fz_ioctl(c->fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &sub);
	stats->descs++;
}

/*
 * Commands nobody defined, or defined ones with the wrong size or
 * direction: the driver's range (DRM_COMMAND_BASE up, the ten ioctls and
 * numbers past them) and core numbers past the DRM core's table. The
 * DRM core does not look at the type byte, so any type reaches it.
 */
static void op_bad_cmd(struct fz_ctx *c)
{
	uint8_t arg[256];
	unsigned long cmd;
	unsigned int nr;

	random_bytes(arg, sizeof(arg));
	nr = chance(80) ? DRM_COMMAND_BASE + (unsigned int)below(16)
			: 0xe0 + (unsigned int)below(0x20);
	cmd = _IOC((unsigned int)below(4), chance(90) ? DRM_IOCTL_BASE : (unsigned)rnd() & 0xff,
		   nr, (unsigned int)below(sizeof(arg)));
	/* Generic VFS commands (FIOCLEX...) are not ours to fuzz. */
	if (_IOC_TYPE(cmd) == 'T' || _IOC_TYPE(cmd) == 'f' || _IOC_TYPE(cmd) == 0x94)
		return;
	fz_ioctl(c->fd, cmd, arg);
}

/* Keep a dma-buf fd PRIME gave us, or close it if there is no room. */
static void keep_dmabuf(int fd, int npu)
{
	if (nr_dmabufs == MAX_BUFS_OUT) {
		close(fd);
		return;
	}
	dmabufs[nr_dmabufs].fd = fd;
	dmabufs[nr_dmabufs++].npu = npu;
}

static void note_import(struct fz_ctx *c, uint32_t h)
{
	unclose(c, h);
	if (tracked_handle(c, h))
		return;
	if (c->nr_imported < MAX_HANDLES)
		c->imported[c->nr_imported++] = h;
	else if (!gem_close(c->fd, h))
		note_closed(c, h);
}

/*
 * The DRM core's ioctls a render node allows: VERSION (it names the
 * driver), GET_CAP, PRIME export of a handle and import of a dma-buf (on
 * the file it came from, where it must come back as the same handle; on
 * another file or NPU), SYNCOBJ_CREATE (no syncobjs here). None may
 * upset the driver or leak: the oracle counts what they hold.
 */
static void op_drm_core(struct fz_ctx *c)
{
	/*
	 * Outside the arena, where no descriptor writes: only the name and
	 * desc pointers (never mutated) lead there.
	 */
	static char strs[192];
	struct drm_version v = {
		.name_len = 64, .name = strs,
		.date_len = 64, .date = strs + 64,
		.desc_len = 64, .desc = strs + 128,
	};
	struct drm_get_cap cap = { 0 };
	struct drm_prime_handle ph = { .fd = -1 };
	struct drm_syncobj_create sc = { 0 };
	size_t asked;
	int ret, i;

	switch (below(6)) {
	case 0:
		if (chance(20))
			v.name_len = interesting(7) & 63;
		if (chance(10))
			v.date = (char *)(uintptr_t)interesting(0);
		asked = v.name_len;
		ret = fz_ioctl(c->fd, DRM_IOCTL_VERSION, &v);
		/* It says the name's length, and copies as much as there is room. */
		if (!ret && (v.name_len != strlen(NPU_DMA_DRIVER_NAME) ||
			     memcmp(strs, NPU_DMA_DRIVER_NAME,
				    asked < v.name_len ? asked : v.name_len)))
			fz_fail("DRM_IOCTL_VERSION names '%.7s' (%zu)", strs, (size_t)v.name_len);
		if (ret && v.date == strs + 64 && !racing)
			fz_fail("DRM_IOCTL_VERSION: %d", ret);
		break;
	case 1:
		cap.capability = chance(70) ? below(0x20) : interesting(1);
		fz_ioctl(c->fd, DRM_IOCTL_GET_CAP, &cap);
		break;
	case 2:
	case 3:
		/* Export a live handle, a guessed one, with odd flags. */
		ph.handle = c->nr_alloc && chance(80) ? c->alloc[below(c->nr_alloc)].handle
						      : (uint32_t)below(32);
		ph.flags = chance(80) ? DRM_CLOEXEC | DRM_RDWR : (uint32_t)interesting(2);
		stats->prime++;
		if (!fz_ioctl(c->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph) && ph.fd >= 0) {
			stats->prime_ok++;
			keep_dmabuf(ph.fd, c->npu);
		}
		break;
	case 4:
		/* Import: on the exporter's file it is the same object again. */
		if (!nr_dmabufs)
			return;
		i = (int)below(nr_dmabufs);
		ph = (struct drm_prime_handle){ .fd = chance(90) ? dmabufs[i].fd : (int)rnd() };
		stats->prime++;
		if (!fz_ioctl(c->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph))
			note_import(c, ph.handle);
		if (chance(30)) {
			close(dmabufs[i].fd);
			dmabufs[i] = dmabufs[--nr_dmabufs];
		}
		break;
	default:
		if (!fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc)) {
			struct drm_syncobj_destroy sd = { .handle = sc.handle };

			fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &sd);
		}
		break;
	}
}

/*
 * Export one of @c's allocations and import it again on the same file:
 * the same handle back (the DRM core's prime lookup), unless the racer
 * closed it meanwhile.
 */
static void op_prime_roundtrip(struct fz_ctx *c)
{
	struct drm_prime_handle ph = { .flags = DRM_CLOEXEC | DRM_RDWR, .fd = -1 };
	uint32_t h;

	if (!c->nr_alloc)
		return;
	h = c->alloc[below(c->nr_alloc)].handle;
	ph.handle = h;
	stats->prime++;
	if (fz_ioctl(c->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph) || ph.fd < 0)
		return;		/* export may be refused; the oracle still holds */
	stats->prime_ok++;
	ph.handle = 0;
	if (!fz_ioctl(c->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph) && ph.handle != h && !racing)
		fz_fail("PRIME re-import of handle %u gave handle %u", h, ph.handle);
	keep_dmabuf(ph.fd, c->npu);
}

static void op_close_eventfd(struct fz_ctx *c)
{
	struct fz_queue *q;

	if (!c->nr_q)
		return;
	q = &c->q[below(c->nr_q)];
	if (q->efd >= 0) {
		close(q->efd);
		q->efd = -1;
		stats->efd_closed++;
	}
}

static void op_wait(struct fz_ctx *c)
{
	struct fz_queue *q;
	uint64_t v;

	if (!c->nr_q)
		return;
	q = &c->q[below(c->nr_q)];
	if (q->efd >= 0) {
		usleep((useconds_t)below(20000));
		if (read(q->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
			fz_fail("eventfd read: %d", errno);
	}
}

/* Unmap part of a host buffer (registered or not), or map it back. */
static void op_munmap(void)
{
	struct fz_buf *b = &bufs[below(NR_BUFS)];
	uint64_t off = below(BUF_LEN / PAGE) * PAGE;
	uint64_t len = (1 + below((BUF_LEN - off) / PAGE)) * PAGE;

	if (chance(50)) {
		munmap(b->p + off, len);
		/*
		 * Plug the hole, or a queue's mapping could land in it and
		 * be zapped by the madvise() below (SIGBUS on the next touch).
		 */
		if (mmap(b->p + off, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
			 MAP_FIXED_NOREPLACE, -1, 0) == MAP_FAILED)
			fz_fail("mmap PROT_NONE: %d", errno);
		b->mapped = 0;
		stats->munmaps++;
	} else if (chance(50)) {
		madvise(b->p + off, len, MADV_DONTNEED);
	} else {
		if (mmap(b->p, BUF_LEN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			fz_fail("mmap back: %d", errno);
		b->mapped = 1;
	}
}

/*
 * The event table at its fake offset, whole or not, read-write or not;
 * other offsets (0, pages into it, past it, random). Only the exact
 * mapping may work; it is read, then unmapped.
 */
static void op_mmap_events(struct fz_ctx *c)
{
	size_t len = chance(60) ? c->events_size : (1 + below(40)) * PAGE;
	int prot = chance(20) ? PROT_READ | PROT_WRITE : PROT_READ;
	off_t off = (off_t)c->events_off;
	void *p;

	switch (below(8)) {
	case 0:
		off = 0;
		break;
	case 1:
		off += (off_t)(below(40) * PAGE);
		break;
	case 2:
		off = (off_t)(below(1 << 20) * PAGE);
		break;
	}
	p = mmap(NULL, len, prot, MAP_SHARED | (chance(10) ? MAP_PRIVATE : 0), c->fd, off);
	if (p == MAP_FAILED)
		return;
	if (off == (off_t)c->events_off && len == c->events_size) {
		volatile uint8_t *v = p;

		if (prot & PROT_WRITE)
			fz_fail("the event table mapped writable");
		(void)v[below(len)];
	}
	munmap(p, len);
}

static void close_ctx(struct fz_ctx *c)
{
	while (c->nr_q)
		drop_queue(c, 0);
	close(c->fd);
	c->fd = -1;
	c->nr_graph = 0;
	c->nr_alloc = 0;
	c->nr_reg = 0;
	c->nr_imported = 0;
	c->nr_closed = 0;
}

static void op_open(void)
{
	struct npu_dma_info info;
	int i, npu = (int)below(nr_npus);

	for (i = 0; i < MAX_CTX; i++)
		if (ctxs[i].fd < 0)
			break;
	if (i == MAX_CTX) {
		/* Close one with whatever it has queued. */
		close_ctx(any_ctx());
		return;
	}
	memset(&ctxs[i], 0, sizeof(ctxs[i]));
	ctxs[i].npu = npu;
	ctxs[i].fd = npu_raw_open(npu);
	if (ctxs[i].fd < 0)
		fz_fail("open npu %d: %d", npu, ctxs[i].fd);
	if (npu_raw_info(ctxs[i].fd, &info))
		fz_fail("GET_INFO of a new file on npu %d", npu);
	ctxs[i].events_off = info.events_offset;
	ctxs[i].events_size = info.events_size;
}

/*
 * A forked child holds every file of the worker: only GET_INFO may work,
 * every other ioctl of the driver, the DRM core's handle ioctls
 * (GEM_CLOSE, PRIME export and import) and every mmap must be refused
 * with -EPERM.
 */
static void op_foreign(void)
{
	pid_t pid;
	int status;

	stats->foreign++;
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		struct fz_ctx *c = any_ctx();
		uint8_t arg[128] = { 0 };
		static const unsigned long cmds[] = {
			DRM_IOCTL_NPU_DMA_MEM_ALLOC, DRM_IOCTL_GEM_CLOSE,
			DRM_IOCTL_PRIME_HANDLE_TO_FD, DRM_IOCTL_PRIME_FD_TO_HANDLE,
			DRM_IOCTL_NPU_DMA_HOST_REGISTER, DRM_IOCTL_NPU_DMA_HOST_UNREGISTER,
			DRM_IOCTL_NPU_DMA_QUEUE_CREATE, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY,
			DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE,
			DRM_IOCTL_NPU_DMA_GRAPH_CREATE, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY,
		};
		unsigned long cmd = cmds[below(sizeof(cmds) / sizeof(cmds[0]))];
		int ret;

		if (!c)
			_exit(0);
		if (cmd == DRM_IOCTL_GEM_CLOSE || cmd == DRM_IOCTL_PRIME_HANDLE_TO_FD) {
			if (c->nr_alloc)
				memcpy(arg, &c->alloc[0].handle, 4);
		} else if (cmd == DRM_IOCTL_PRIME_FD_TO_HANDLE && nr_dmabufs)
			memcpy(arg + 8, &dmabufs[0].fd, 4);
		else if (c->nr_q)
			memcpy(arg, &c->q[0].id, 4);
		if (chance(50))
			mutate_struct(arg, 64);
		ret = ioctl(c->fd, cmd, arg) < 0 ? -errno : 0;
		if (ret != -EPERM) {
			fprintf(stderr, "t_fuzz: foreign ioctl %#lx gave %d\n", cmd, ret);
			_exit(4);
		}
		if (mmap(NULL, c->events_size, PROT_READ, MAP_SHARED, c->fd,
			 (off_t)c->events_off) != MAP_FAILED || errno != EPERM) {
			fprintf(stderr, "t_fuzz: foreign mmap of the event table not refused"
				" with EPERM (errno %d)\n", errno);
			_exit(4);
		}
		/*
		 * A queue the worker still tracks may be gone (destroyed by the
		 * racer, or unmapped and destroyed): its offset is then no
		 * object's (-EINVAL) or, reused, another file's (-EACCES).
		 * Alive, it is the opener's (-EPERM). Never mapped.
		 */
		if (c->nr_q && (mmap(NULL, c->q[0].map_size, PROT_READ, MAP_SHARED, c->fd,
				     (off_t)c->q[0].map_off) != MAP_FAILED ||
				(errno != EPERM && errno != EINVAL && errno != EACCES))) {
			fprintf(stderr, "t_fuzz: foreign mmap of a queue not refused (errno %d)\n",
				errno);
			_exit(4);
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		fz_fail("a forked process could use the worker's file (status %#x)", status);
}

/*
 * The largest of @n ids, 4 bytes each @stride bytes apart from @first,
 * read while the worker changes them. Ids and handles are allocated
 * lowest free first (xa_alloc, idr_alloc), so the next create is likely
 * to give one just above.
 */
/*
 * A forked child execs, with one of the worker's files inherited: the
 * test binary, whose main() then checks what an inheriting process may
 * do (fz_exec_child()), or /bin/true. The files are opened O_CLOEXEC:
 * the child clears it on its copy of the descriptor.
 */
static void op_exec(struct fz_ctx *c)
{
	struct fz_queue *q = c->nr_q ? &c->q[below(c->nr_q)] : NULL;
	const char *prog = chance(80) ? "/proc/self/exe" : "/bin/true";
	char env[128], *envp[] = { env, NULL };
	char *argv[] = { "t_fuzz", NULL };
	int status;
	pid_t pid;

	snprintf(env, sizeof(env), FZ_EXEC_ENV "=%d,%u,%" PRIu64 ",%zu", c->fd,
		 q ? q->id : 0, q ? q->map_off : 0, q ? q->map_size : 0);
	stats->execs++;
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		fcntl(c->fd, F_SETFD, 0);
		execve(prog, argv, envp);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		fz_fail("a child exec'd with the file inherited: status %#x", status);
}

static uint32_t top_id(const void *first, int n, size_t stride, int max)
{
	const volatile uint8_t *p = first;
	uint32_t top = 0, v;
	int i;

	for (i = 0; i < n && i < max; i++) {
		v = *(const volatile uint32_t *)(p + (size_t)i * stride);
		if (v > top)
			top = v;
	}
	return top;
}

/* Queue ids are global: one above the largest any file of the worker has. */
static uint32_t top_queue(void)
{
	uint32_t top = 0, v;
	int i;

	for (i = 0; i < MAX_CTX; i++) {
		v = top_id(&ctxs[i].q[0].id, *(volatile int *)&ctxs[i].nr_q,
			   sizeof(ctxs[i].q[0]), MAX_Q);
		if (v > top)
			top = v;
	}
	return top;
}

/*
 * Destroy or free what the worker's create is about to return, so that
 * it goes between the create's publishing of the object and its
 * copy-out: the graph, GEM handle or queue id just above the largest
 * known (or a small one), the address HOST_REGISTER is pinning.
 */
static void racer_guess(struct fz_ctx *c, int fd, int k)
{
	union {
		struct npu_dma_graph_destroy g;
		struct drm_gem_close f;
		struct npu_dma_queue_destroy d;
		struct npu_dma_host_unregister u;
	} a;
	uint32_t top, imp;

	memset(&a, 0, sizeof(a));
	stats->guesses++;
	switch (k % 4) {
	case 0:
		top = top_id(c->graph, *(volatile int *)&c->nr_graph, sizeof(c->graph[0]),
			     MAX_GRAPH);
		a.g.graph_id = k & 4 ? 1 + (uint32_t)(k >> 3) % 8 : top + 1 + (k >> 3) % 2;
		ioctl(fd, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY, &a);
		break;
	case 1:
		top = top_id(&c->alloc[0].handle, *(volatile int *)&c->nr_alloc,
			     sizeof(c->alloc[0]), MAX_ALLOC);
		imp = top_id(c->imported, *(volatile int *)&c->nr_imported,
			     sizeof(c->imported[0]), MAX_HANDLES);
		a.f.handle = (top > imp ? top : imp) + 1 + (uint32_t)(k >> 3) % 3;
		ioctl(fd, DRM_IOCTL_GEM_CLOSE, &a);
		break;
	case 2:
		a.d.queue_id = top_queue() + 1 + (uint32_t)(k >> 3) % 2;
		ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &a);
		break;
	default:
		a.u.addr = next_reg;
		ioctl(fd, DRM_IOCTL_NPU_DMA_HOST_UNREGISTER, &a);
		break;
	}
}

static void *racer(void *arg)
{
	uint64_t st = (uintptr_t)arg;

	while (!stop_racer) {
		struct fz_ctx *c = &ctxs[(st = st * 6364136223846793005ULL + 1) >> 33 & (MAX_CTX - 1)];
		/* One read of each count: the worker changes them meanwhile. */
		int fd = c->fd, k = (int)(st >> 40), nq = *(volatile int *)&c->nr_q;
		int na = *(volatile int *)&c->nr_alloc, nr = *(volatile int *)&c->nr_reg;
		union {
			struct npu_dma_queue_submit s;
			struct npu_dma_queue_destroy d;
			struct npu_dma_barrier_release b;
			struct drm_gem_close f;
			struct npu_dma_host_unregister u;
			struct npu_dma_info i;
		} a;

		if (fd < 0)
			continue;
		memset(&a, 0, sizeof(a));
		switch ((st >> 20) % 12) {
		case 0:
		case 1:
		case 2:
			a.s.queue_id = nq > 0 ? c->q[k % nq].id : 1;
			ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &a);
			break;
		case 3:
			a.b.queue_id = nq > 0 ? c->q[k % nq].id : 1;
			a.b.seq = (uint64_t)k % 8;
			ioctl(fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &a);
			break;
		case 4:
			if (k % 8 == 0) {
				a.d.queue_id = nq > 0 ? c->q[k % nq].id : 1;
				ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &a);
			}
			break;
		case 5:
			a.f.handle = na > 0 ? c->alloc[k % na].handle : (uint32_t)k % 16;
			ioctl(fd, DRM_IOCTL_GEM_CLOSE, &a);
			break;
		case 6:
			a.u.addr = nr > 0 ? c->reg[k % nr].addr : 0;
			ioctl(fd, DRM_IOCTL_NPU_DMA_HOST_UNREGISTER, &a);
			break;
		case 7:
			ioctl(fd, DRM_IOCTL_NPU_DMA_GET_INFO, &a);
			break;
		default:
			racer_guess(c, fd, k);
			break;
		}
	}
	return NULL;
}

#define PARK_QUEUES	(2 * MAX_CTX)

/* Stop @q at a HOST_BARRIER that nobody releases but park_worker(). */
static void park_queue(struct npu_raw_queue *q)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_HOST_BARRIER };

	if (q->ctrl->sq_tail - q->ctrl->sq_head >= q->entries)
		return;
	npu_raw_push(q, &d);
	fz_ioctl(q->fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &(struct npu_dma_queue_submit){
		.queue_id = q->id });
}

/*
 * Up to two parked queues on a new file of a simulated NPU (edu cards
 * copy too little at a time), each with the file's allocation into
 * @dev: how many.
 */
static int park_file(struct npu_raw_queue *q, uint64_t *dev)
{
	int i, n = 1 + (int)below(2), npu = (int)below(nr_npus), fd;
	uint64_t mem;

	if (infos[npu].backend == NPU_DMA_BACKEND_EDU)
		return 0;
	fd = npu_raw_open(npu);
	if (fd < 0 || npu_raw_alloc(fd, BUF_LEN, 0, &mem, NULL))
		fz_fail("parked round: open or alloc on npu %d", npu);
	for (i = 0; i < n; i++) {
		if (npu_raw_queue_create(fd, 64, &q[i]))
			fz_fail("parked round: QUEUE_CREATE on npu %d", npu);
		dev[i] = mem;
		park_queue(&q[i]);
	}
	return n;
}

/*
 * A parked round: up to four files with queues parked at host barriers,
 * fed single pageable copies (one host buffer may be the
 * userfaultfd-backed one) and doorbells until the budgets refuse them
 * with -EAGAIN; now and then a barrier is released, and the queue parked
 * again behind what it ran. One thread rings: the parent's bound on the
 * pins (fz_pin_bound()) counts on it.
 */
static void park_worker(int teardown)
{
	struct npu_raw_queue q[PARK_QUEUES];
	uint64_t dev[PARK_QUEUES], qdev;
	struct timespec t0, t;
	int i, nq = 0, files = 1 + (int)below(MAX_CTX);

	for (i = 0; i < files; i++)
		nq += park_file(&q[nq], &dev[nq]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (nq) {
		struct npu_raw_queue *p = &q[below(nq)];
		struct npu_dma_desc d;
		__u64 addr, size;
		uint64_t b;

		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > 1000)
			break;
		stats->ops++;
		qdev = dev[p - q];
		host_range(&addr, &size, BUF_LEN);
		if (chance(50))
			d = npu_raw_copy(qdev, addr, size,
					 NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
		else
			d = npu_raw_copy(addr, qdev, size,
					 NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
		if (p->ctrl->sq_tail - p->ctrl->sq_head < p->entries - 2) {
			npu_raw_push(p, &d);
			stats->descs++;
		}
		fz_ioctl(p->fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT,
			 &(struct npu_dma_queue_submit){ .queue_id = p->id });
		b = __atomic_load_n(&p->ctrl->barrier_seq, __ATOMIC_ACQUIRE);
		if (b && chance(3)) {
			npu_raw_release(p, b);
			park_queue(p);
		}
	}
	if (teardown)
		for (i = 0; i < nq; i++)
			if (!i || q[i].fd != q[i - 1].fd)
				close(q[i].fd);
	_exit(0);
}

/*
 * One round's worker: @teardown, close everything before exiting; @uffd,
 * how one host buffer's faults are served; @park, a parked round.
 */
static void worker(uint64_t seed, int teardown, enum fz_uffd_mode uffd, int park)
{
	pthread_t racer_thread;
	struct sigaction sa = { .sa_handler = on_alarm };
	struct sigaction sf = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO };
	struct timespec t0, t;
	int i, op;

	rng_state = seed;
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGSEGV, &sf, NULL);
	sigaction(SIGBUS, &sf, NULL);
	for (i = 0; i < MAX_CTX; i++)
		ctxs[i].fd = -1;
	arena = mmap(NULL, ARENA, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		     -1, 0);
	if (arena == MAP_FAILED)
		fz_fail("mmap: %d", errno);
	for (i = 0; i < NR_BUFS; i++) {
		bufs[i].p = arena + ARENA / 2 + i * (BUF_LEN + PAGE);
		if (mmap(bufs[i].p, BUF_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE |
			 MAP_ANONYMOUS | MAP_POPULATE | MAP_FIXED, -1, 0) == MAP_FAILED)
			fz_fail("mmap: %d", errno);
		bufs[i].mapped = 1;
	}
	ro_page = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro_page == MAP_FAILED)
		fz_fail("mmap: %d", errno);
	edge = bufs[NR_BUFS - 1].p + BUF_LEN + PAGE;
	if (mmap(edge, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_FIXED, -1, 0) == MAP_FAILED)
		fz_fail("mmap: %d", errno);
	uffd_buf = (int)below(NR_BUFS);
	if (fz_uffd_buffer(bufs[uffd_buf].p, BUF_LEN, uffd, rnd(), &stats->uffd_faults))
		uffd_buf = -1;
	if (park)
		park_worker(teardown);
	op_open();
	if (chance(30)) {
		sigset_t all, old;

		/* The racer takes no signals: alarms are for the main thread. */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		racing = !pthread_create(&racer_thread, NULL, racer, (void *)(uintptr_t)rnd());
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		stats->races += racing;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct fz_ctx *c = any_ctx();

		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > 1000)
			break;
		stats->ops++;
		if (!c) {
			op_open();
			continue;
		}
		op = (int)below(100);
		cur_op = op;
		if (op < 4)
			op_open();
		else if (op < 8)
			op_info(c);
		else if (op < 18)
			op_alloc(c);
		else if (op < 24)
			op_free(c);
		else if (op < 34)
			op_register(c);
		else if (op < 38)
			op_unregister(c);
		else if (op < 46)
			op_queue_create(c);
		else if (op < 49)
			op_queue_destroy(c);
		else if (op < 69)
			op_submit(c);
		else if (op < 72)
			op_graph_create(c);
		else if (op < 73)
			op_graph_destroy(c);
		else if (op < 75)
			op_graph_replay(c);
		else if (op < 79)
			op_barrier(c);
		else if (op < 81)
			op_bad_cmd(c);
		else if (op < 83)
			op_drm_core(c);
		else if (op < 84)
			op_prime_roundtrip(c);
		else if (op < 86)
			op_close_eventfd(c);
		else if (op < 90)
			op_wait(c);
		else if (op < 94)
			op_munmap();
		else if (op < 97)
			op_mmap_events(c);
		else if (op < 98)
			op_foreign();
		else if (op < 99 && chance(20))
			op_exec(c);
		else if (chance(30))
			close_ctx(c);
	}
	if (racing) {
		stop_racer = 1;
		/* Not joined: it may sit in a destroy; _exit ends it. */
	}
	if (teardown)
		for (i = 0; i < MAX_CTX; i++)
			if (ctxs[i].fd >= 0)
				close_ctx(&ctxs[i]);
	_exit(0);
}

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *s = getenv(name);

	return s && *s ? strtoull(s, NULL, 0) : def;
}

/* fz_pin_bound() of the last parked round, for the summary. */
static long park_bound;

START_TEST(test_fuzz)
{
	struct timespec now;
	uint64_t seed, seconds, round = 0;
	int have_uffd = fz_uffd_probe();
	struct fz_res res;
	struct t_state start;
	time_t end;

	nr_npus = t_find_npus(infos, MAX_NPUS);
	ck_assert_int_gt(nr_npus, 0);
	clock_gettime(CLOCK_REALTIME, &now);
	seed = env_u64("NPU_FUZZ_SEED", (uint64_t)now.tv_sec * 1000003ULL ^ (uint64_t)now.tv_nsec);
	seconds = env_u64("NPU_FUZZ_SECONDS", 45);
	printf("t_fuzz: seed 0x%016" PRIx64 ", %" PRIu64 " s, %d NPUs"
	       " (replay: NPU_FUZZ_SEED=0x%016" PRIx64 ")\n", seed, seconds, nr_npus, seed);
	stats = mmap(NULL, sizeof(*stats), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(stats, MAP_FAILED);
	t_state_get(&start, nr_npus);
	fz_res_get(&res);
	end = time(NULL) + (time_t)seconds;
	rng_state = seed;
	while (time(NULL) < end) {
		uint64_t rseed = rnd();
		int teardown = chance(50), kill_ms = chance(35) ? (int)below(1000) : -1;
		int status, tight = chance(25);
		/* Drawn whether or not this kernel has them: seeds replay anywhere. */
		int uffd = chance(15), never = chance(25), late_kill = 200 + (int)below(800);
		int park = chance(12);
		enum fz_uffd_mode umode = !uffd || !have_uffd ? FZ_UFFD_NONE :
					  never ? FZ_UFFD_NEVER : FZ_UFFD_SLOW;
		struct fz_round r = {
			.n = ++round, .seed = rseed, .park = park,
			.unit = BUF_LEN / PAGE + 1,	/* park_worker()'s largest copy */
		};
		pid_t pid;

		/* Faults never served hold the worker until it is killed. */
		if (umode == FZ_UFFD_NEVER && kill_ms < 0)
			kill_ms = late_kill;
		/* Under the defaults a parked round would not meet the budget. */
		tight |= park;
		r.kill_ms = kill_ms;
		fz_set_budgets(tight);
		stats->tight += tight;
		stats->parked += park;
		stats->uffd_rounds += umode != FZ_UFFD_NONE;
		stats->uffd_never += umode == FZ_UFFD_NEVER;
		r.pins = start.pins;
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0)
			worker(rseed, teardown, umode, park);
		status = fz_wait_worker(pid, &r, &stats->pin_peak);
		if (park)
			park_bound = fz_pin_bound(r.unit);
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && kill_ms >= 0)
			stats->killed++;
		else if (!WIFEXITED(status) || WEXITSTATUS(status))
			ck_abort_msg("round %" PRIu64 " (seed 0x%016" PRIx64
				     ") worker status %#x: %s", round, rseed, status,
				     stats->fail);
		if (!t_state_back(&start) || !fz_res_back(&res))
			ck_abort_msg("round %" PRIu64 " (seed 0x%016" PRIx64
				     ") left state behind", round, rseed);
	}
	stats->rounds = round;
	fz_set_budgets(0);
	fz_check_npus_work(nr_npus);
	printf("t_fuzz: %" PRIu64 " rounds (%" PRIu64 " killed), %" PRIu64 " ops, %"
	       PRIu64 " ioctls (%" PRIu64 " succeeded), %" PRIu64
	       " descriptors, %" PRIu64 " graphs, %" PRIu64 " GEM_CLOSEs, %" PRIu64
	       " PRIME calls (%" PRIu64 " dma-bufs), %" PRIu64 " munmaps, %" PRIu64
	       " eventfds closed under queues, %" PRIu64 " foreign-process probes, %"
	       PRIu64 " rounds with a racing thread (%" PRIu64 " guesses of ids being"
	       " created), %" PRIu64 " arguments in read-only pages, %" PRIu64
	       " batches, %" PRIu64 " rounds under tight budgets, %" PRIu64
	       " rounds with a userfaultfd buffer (%" PRIu64 " never served, %" PRIu64
	       " faults served), %" PRIu64 " execs with a file inherited, %" PRIu64
	       " parked rounds (at most %ld pages pinned of %ld), job slab %s;"
	       " nothing leaked\n", stats->rounds,
	       stats->killed, stats->ops, stats->ioctls, stats->ioctl_ok, stats->descs,
	       stats->graphs, stats->gem_closes, stats->prime, stats->prime_ok, stats->munmaps,
	       stats->efd_closed, stats->foreign, stats->races, stats->guesses,
	       stats->ro_args, stats->batches, stats->tight, stats->uffd_rounds,
	       stats->uffd_never, stats->uffd_faults, stats->execs, stats->parked,
	       stats->pin_peak, park_bound, res.jobs >= 0 ? "checked" : "not checked");
}
END_TEST

int main(void)
{
	const char *exec_arg = getenv(FZ_EXEC_ENV);
	Suite *s;
	TCase *tc;

	/* A child the worker exec'd with one of its files. */
	if (exec_arg)
		return fz_exec_child(exec_arg);
	s = suite_create("t_fuzz");
	tc = tcase_create("fuzz");
	if (geteuid() != 0 || !npu_raw_present())
		return T_EXIT_SKIP;
	tcase_set_timeout(tc, (double)env_u64("NPU_FUZZ_SECONDS", 45) + 240);
	tcase_add_test(tc, test_fuzz);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
