// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: a structure-aware fuzzer of everything user space can reach
 * through an NPU's DRM node: every driver ioctl (valid-looking arguments
 * with one field mutated, random bytes, bad pointers, unknown commands
 * and wrong sizes), the DRM core's ioctls a render node allows
 * (GEM_CLOSE of live, closed and random handles, VERSION, GET_CAP, PRIME
 * export and import), memory shared out of a file (MEM_INFO, PRIME
 * imports of other NPUs', vgem's and non-dma-buf fds, IPC shares by key
 * and their importers in other processes: t_fuzz_share.c), the mmap'd rings (valid-looking descriptors with
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
 * Environment: NPU_FUZZ_SEED (replay a run; printed at the start; by
 * default a fixed one, "random" for a new one), NPU_FUZZ_SECONDS
 * (default 45). See Documentation/security.rst.
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
#include "t_fuzz_worker.h"
#include "t_state.h"
#include "t_vm.h"

struct fz_stats *stats;
int nr_npus;
struct npu_dma_info infos[MAX_NPUS];

/* splitmix64: small, fast, and the same sequence on every machine. */
static uint64_t rng_state;

uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

int chance(int percent)
{
	return (int)below(100) < percent;
}

/* Values that sit on the edges validation code tends to get wrong. */
uint64_t interesting(uint64_t near)
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





/* dma-buf fds from PRIME_HANDLE_TO_FD: the npu they came from. */
struct fz_dmabuf dmabufs[MAX_BUFS_OUT];
int nr_dmabufs;


struct fz_ctx ctxs[MAX_CTX];
struct fz_buf bufs[NR_BUFS];
/* The buffer backed by a userfaultfd in this round, or -1. */
int uffd_buf = -1;
/*
 * The host buffers live in the middle of a PROT_NONE arena. The kernel
 * writes host memory wherever a descriptor says, and a mutated one may
 * name any address of the worker: writes are kept inside the arena, so
 * the worker never corrupts itself (a copy running into the guard pages
 * fails with -EFAULT, which is the point).
 */
uint8_t *arena;
/* A page the kernel can read but not write: copy-in works, copy-out fails. */
uint8_t *ro_page;
/* A page followed by an unmapped one: arguments that straddle it fault. */
uint8_t *edge;

void fz_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(stats->fail, sizeof(stats->fail), fmt, ap);
	va_end(ap);
	_exit(3);
}

/* One ioctl, never restarted: an alarm may interrupt a blocking one. */
int fz_ioctl(int fd, unsigned long cmd, void *arg)
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

int cur_op;
/*
 * A second thread of the worker (in some rounds) that races the first:
 * submits, releases, destroys, frees and unregisters by the ids and
 * addresses the worker holds. Then an operation on a tracked resource
 * may find it gone: the checks that expect success are off.
 */
volatile int racing;
static volatile int stop_racer;
/* The address HOST_REGISTER is about to pin, for the racer to unregister. */
volatile uint64_t next_reg;

/* A worker's own memory fault is a fuzzer bug or a broken mapping: say where. */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	snprintf(stats->fail, sizeof(stats->fail), "signal %d code %d at %p in op %d",
		 sig, si->si_code, si->si_addr, cur_op);
	_exit(5);
}

/* Interrupt whatever blocks in the next ms milliseconds. */
void arm(int ms)
{
	struct itimerval it = { .it_value = { ms / 1000, (ms % 1000) * 1000 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

struct fz_ctx *any_ctx(void)
{
	int i, start = (int)below(MAX_CTX);

	for (i = 0; i < MAX_CTX; i++)
		if (ctxs[(start + i) % MAX_CTX].fd >= 0)
			return &ctxs[(start + i) % MAX_CTX];
	return NULL;
}

int is_edu(const struct fz_ctx *c)
{
	return infos[c->npu].backend == NPU_DMA_BACKEND_EDU;
}

/*
 * Mutate one naturally aligned field of an argument structure: pick a
 * 4- or 8-byte word and give it an interesting value.
 */

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
		switch ((st >> 20) % 14) {
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
		case 8:
		case 9:
			share_racer(c, fd, k);
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
	fz_share_setup();
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
		op = (int)below(115);
		cur_op = op;
		if (op >= 100)
			op_share(c);
		else if (op < 4)
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
		else if (op < 78)
			op_barrier(c);
		else if (op < 79)
			op_queue_ctl(c);
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
	/* A clean exit closes every import it made, each once. */
	if (teardown)
		for (i = 0; i < MAX_CTX; i++)
			if (ctxs[i].fd >= 0) {
				share_close_all(&ctxs[i]);
				close_ctx(&ctxs[i]);
			}
	_exit(0);
}

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *s = getenv(name);

	return s && *s ? strtoull(s, NULL, 0) : def;
}

/*
 * make check runs the same rounds every time (a fuzzer that drew a new
 * seed per run would fail CI on whatever it found that day, unrelated
 * to the change under test); NPU_FUZZ_SEED=random draws one from the
 * clock (make fuzz), a number replays one.
 */
#define FZ_DEFAULT_SEED 0x6e70752d646d6101ULL

static uint64_t fz_seed(void)
{
	const char *s = getenv("NPU_FUZZ_SEED");
	struct timespec now;

	if (!s || !*s)
		return FZ_DEFAULT_SEED;
	if (strcmp(s, "random"))
		return strtoull(s, NULL, 0);
	clock_gettime(CLOCK_REALTIME, &now);
	return (uint64_t)now.tv_sec * 1000003ULL ^ (uint64_t)now.tv_nsec;
}

/* fz_pin_bound() of the last parked round, for the summary. */
static long park_bound;

START_TEST(test_fuzz)
{
	uint64_t seed, seconds, round = 0;
	int have_uffd = fz_uffd_probe();
	struct fz_res res;
	struct t_state start;
	time_t end;

	nr_npus = t_find_npus(infos, MAX_NPUS);
	ck_assert_int_gt(nr_npus, 0);
	seed = fz_seed();
	seconds = env_u64("NPU_FUZZ_SECONDS", 45);
	printf("t_fuzz: seed 0x%016" PRIx64 ", %" PRIu64 " s, %d NPUs"
	       " (replay: NPU_FUZZ_SEED=0x%016" PRIx64 ")\n", seed, seconds, nr_npus, seed);
	stats = mmap(NULL, sizeof(*stats), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(stats, MAP_FAILED);
	/* vgem's dma-bufs are imported where the kernel has vgem (as a module). */
	if (system("modprobe vgem >/dev/null 2>&1"))
		printf("t_fuzz: no vgem: no foreign driver's dma-buf is imported\n");
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
	printf("t_fuzz: sharing: %" PRIu64 " MEM_INFOs, %" PRIu64 " dma-bufs of other NPUs%s"
	       " imported, %" PRIu64 " fds that are no dma-buf refused, %" PRIu64
	       " IPC calls, %" PRIu64 " shares, %" PRIu64 " imports by key (%" PRIu64
	       " closed with IPC_CLOSE, the rest with their files), %" PRIu64
	       " imports refused (pid list, key, NPU), %" PRIu64 " importing children, %"
	       PRIu64 " of their copies after the exporter let go\n", stats->mem_info,
	       stats->imports, stats->vgem ? " and vgem" : "", stats->junk_fds, stats->ipc,
	       stats->ipc_exports, stats->ipc_imports, stats->ipc_closed, stats->ipc_refused,
	       stats->ipc_children, stats->held_copies);
	printf("t_fuzz: %" PRIu64 " VMM_MAP/UNMAPs (%" PRIu64 " mappings made), %" PRIu64
	       " signals made, shared and destroyed\n", stats->vmm, stats->vmm_maps,
	       stats->signals);
}
END_TEST

int main(void)
{
	const char *exec_arg = getenv(FZ_EXEC_ENV);
	int was, ret;
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
	was = t_vgem_loaded();
	ret = t_run_suite(s);
	t_vgem_restore(was);
	return ret;
}
