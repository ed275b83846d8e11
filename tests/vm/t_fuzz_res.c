// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_fuzz: the parent's side of a round (budgets, waiting for and killing
 * the worker, the bound on a parked round's pins) and the resource
 * oracles it adds to struct t_state's; the userfaultfd-backed buffer of
 * some rounds; the program of a child the worker execs with one of its
 * files inherited. See t_fuzz.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_fuzz.h"
#include "t_state.h"
#include "t_vm.h"

#define FZ_PAGE		4096UL
/* Not in every libc's headers: userfaultfd(2)'s "user-mode faults only". */
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY	1
#endif

#define JOB_SLAB	"/sys/kernel/slab/npu_dma_job"

/* userfaultfd(2)'s flags that work here; -1 until probed, -2 if none do. */
static int uffd_flags = -1;

static int uffd_open(int flags)
{
	struct uffdio_api api = { .api = UFFD_API };
	int fd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | flags);

	if (fd < 0)
		return -errno;
	if (ioctl(fd, UFFDIO_API, &api)) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	return fd;
}

int fz_uffd_probe(void)
{
	int fd;

	if (uffd_flags != -1)
		return uffd_flags >= 0;
	fd = uffd_open(0);
	uffd_flags = 0;
	/*
	 * With vm.unprivileged_userfaultfd=0 and no CAP_SYS_PTRACE only
	 * user-mode faults may be handled: the driver's pins then fault
	 * with -EFAULT, which is worth fuzzing too.
	 */
	if (fd == -EPERM) {
		fd = uffd_open(UFFD_USER_MODE_ONLY);
		uffd_flags = UFFD_USER_MODE_ONLY;
	}
	if (fd < 0) {
		printf("t_fuzz: userfaultfd unavailable (%s): no buffer is backed by one\n",
		       strerror(-fd));
		uffd_flags = -2;
		return 0;
	}
	close(fd);
	if (uffd_flags)
		printf("t_fuzz: userfaultfd for user-mode faults only: the driver's pins"
		       " of its buffers fault\n");
	return 1;
}

struct fz_uffd {
	int fd;
	uint64_t st;		/* the server's own generator (an LCG) */
	volatile uint64_t *faults;
};

static struct fz_uffd uffd = { .fd = -1 };

/* Serve every missing fault with a page of a pattern, sometimes late. */
static void *uffd_server(void *arg)
{
	static uint8_t page[FZ_PAGE] __attribute__((aligned(FZ_PAGE)));
	struct fz_uffd *u = arg;
	size_t i;

	for (i = 0; i < sizeof(page); i++)
		page[i] = (uint8_t)(i * 13);
	for (;;) {
		struct uffdio_copy copy = { .src = (uintptr_t)page, .len = FZ_PAGE };
		struct uffd_msg m;

		if (read(u->fd, &m, sizeof(m)) != sizeof(m)) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return NULL;
		}
		if (m.event != UFFD_EVENT_PAGEFAULT)
			continue;
		u->st = u->st * 6364136223846793005ULL + 1;
		if (u->st >> 63)
			usleep((useconds_t)((u->st >> 33) % 20000));
		copy.dst = m.arg.pagefault.address & ~(FZ_PAGE - 1);
		/* EEXIST: served meanwhile; ENOENT: unmapped meanwhile. */
		ioctl(u->fd, UFFDIO_COPY, &copy);
		(*u->faults)++;
	}
}

int fz_uffd_buffer(void *p, size_t len, enum fz_uffd_mode mode, uint64_t seed,
		   volatile uint64_t *faults)
{
	struct uffdio_register reg = {
		.range = { .start = (uintptr_t)p, .len = len },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	sigset_t all, old;
	pthread_t t;
	int ret;

	if (mode == FZ_UFFD_NONE || !fz_uffd_probe())
		return -EOPNOTSUPP;
	/* Empty, so that every page's first touch is a missing fault. */
	if (mmap(p, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		 -1, 0) == MAP_FAILED)
		return -errno;
	uffd.fd = uffd_open(uffd_flags);
	if (uffd.fd < 0)
		return uffd.fd;
	if (ioctl(uffd.fd, UFFDIO_REGISTER, &reg)) {
		ret = -errno;
		close(uffd.fd);
		return ret;
	}
	if (mode == FZ_UFFD_NEVER)
		return 0;
	uffd.st = seed;
	uffd.faults = faults;
	/* Signals are for the worker's main thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = -pthread_create(&t, NULL, uffd_server, &uffd);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/*
 * The driver's budgets of outstanding work (module parameters): tight
 * for some rounds, so that doorbells run into them (-EAGAIN, held-back
 * work picked up later), the defaults otherwise. Tight rounds also turn
 * the pin cache off: the pages it keeps between copies are bounded by
 * pin_cache_mb a file, not by the budgets fz_pin_bound() checks.
 */
void fz_set_budgets(int tight)
{
	static const char *const names[] = {
		"queue_max_jobs", "file_max_jobs", "queue_pinned_mb",
		"file_pinned_mb", "total_pinned_mb", "pin_cache_mb",
	};
	static const char *const vals[2][6] = {
		{ "16384", "65536", "1024", "2048", "4096", "256" },
		{ "16", "64", "1", "2", "3", "0" },
	};
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "/sys/module/npu_dma/parameters/%s",
			 names[i]);
		ck_assert_int_eq(t_write_file(path, vals[tight][i]), 0);
	}
}

/* Every NPU still copies byte-exact after the run. */
void fz_check_npus_work(int nr_npus)
{
	static uint8_t src[8192], dst[8192];
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint64_t dev;
	int i, fd;

	for (i = 0; i < nr_npus; i++) {
		fd = npu_raw_open(i);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(npu_raw_alloc(fd, 4096, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
		ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
		t_pattern_fill(src, 4096, (uint32_t)i + 77);
		memset(dst, 0, sizeof(dst));
		d = npu_raw_copy(dev, (uintptr_t)src, 4096,
				 NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
		ck_assert_int_eq(npu_raw_run(&q, &d), 0);
		d = npu_raw_copy((uintptr_t)dst, dev, 4096,
				 NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
		ck_assert_int_eq(npu_raw_run(&q, &d), 0);
		ck_assert_uint_eq(t_pattern_check(dst, 4096, (uint32_t)i + 77), 4096);
		npu_raw_queue_destroy(&q);
		close(fd);
	}
}

/*
 * What the CPUs may hold back of a vmstat counter: the largest per-CPU
 * "vm stats threshold" of /proc/zoneinfo (a node's counters use its
 * zones' largest) times the CPUs; 125 (mm/vmstat.c's MAX_THRESHOLD) if
 * it does not say.
 */
static long stat_margin(void)
{
	static char buf[1 << 16];
	long cpus = sysconf(_SC_NPROCESSORS_CONF), max = 0, v;
	const char *p = buf;

	if (t_read_file("/proc/zoneinfo", buf, sizeof(buf)))
		return 125 * cpus;
	while ((p = strstr(p, "vm stats threshold:"))) {
		p += strlen("vm stats threshold:");
		if (sscanf(p, "%ld", &v) == 1 && v > max)
			max = v;
	}
	return (max ? max : 125) * cpus;
}

/*
 * Pages are charged to the budgets when a doorbell consumes their copy,
 * before they are pinned, and uncharged after they are unpinned
 * (npu_submit_consume(), npu_queue_retire()): pinned <= charged.
 * npu_dma_budget_fits() admits a unit while the module-wide total stays
 * within total_pinned_mb, or, the total being 0, any one unit: the
 * total stays within max(total_pinned_mb, the largest unit). The
 * per-queue and per-file limits are lower, but an idle queue's first
 * unit skips them, so what all queues and files hold together is
 * bounded by the module-wide total only, not by a limit times the
 * queues or files. That holds while one doorbell runs at a time (two
 * would each count only what was charged before them): a parked round
 * has one thread, and nothing else in the guest pins.
 *
 * The sample is not exact while pins and unpins run: both counters are
 * kept per CPU and folded by stat_refresh, but not at once with the
 * read, so each CPU may still hold back up to its stat threshold of the
 * released count (stat_margin()).
 */
long fz_pin_bound(long unit)
{
	char buf[32];
	long total;

	ck_assert_int_eq(t_read_file("/sys/module/npu_dma/parameters/total_pinned_mb",
				     buf, sizeof(buf)), 0);
	total = atol(buf) * (long)((1 << 20) / FZ_PAGE);
	return (total > unit ? total : unit) + stat_margin();
}

int fz_wait_worker(pid_t pid, const struct fz_round *r, long *peak)
{
	struct timespec ts = { 0, 20 * 1000000L };
	long bound = r->park ? fz_pin_bound(r->unit) : 0, held;
	int status, ticks = 0;

	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (r->kill_ms >= 0 && ticks == r->kill_ms / 20)
			kill(pid, SIGKILL);
		if (++ticks > 3000) {
			kill(pid, SIGKILL);
			ck_abort_msg("round %" PRIu64 " (seed 0x%016" PRIx64 ") hangs",
				     r->n, r->seed);
		}
		/* stat_refresh runs on every CPU: not at every tick. */
		if (r->park && ticks % 3 == 0) {
			held = t_pins_held() - r->pins;
			if (held > *peak)
				*peak = held;
			if (held > bound)
				ck_abort_msg("round %" PRIu64 " (seed 0x%016" PRIx64 "): %ld"
					     " pages pinned, over the budgets' %ld", r->n,
					     r->seed, held, bound);
		}
		nanosleep(&ts, NULL);
	}
	return status;
}

/* The kB of a "Name:" line of /proc/self/status, or -1. */
static long status_kb(const char *buf, const char *name)
{
	const char *p = strstr(buf, name);
	long v = -1;

	if (p)
		sscanf(p + strlen(name), " %ld", &v);
	return v;
}

int fz_res_jobs_counted(void)
{
	static int counted = -1;
	char buf[64];

	if (counted >= 0)
		return counted;
	/* Merged with another cache, its counts would be theirs too. */
	counted = !access("/proc/slabinfo", R_OK) &&
		  !t_read_file(JOB_SLAB "/aliases", buf, sizeof(buf)) && atoi(buf) == 0;
	if (!counted)
		printf("t_fuzz: npu_dma_job slab not countable (not root, or merged):"
		       " its oracle is off\n");
	return counted;
}

/*
 * Objects of the job cache in use. Shrinking first flushes the per-CPU
 * slabs (their free objects would count as active) and drops KASAN's
 * quarantine of the cache.
 */
static long job_objects(void)
{
	static char buf[1 << 17];
	const char *p;
	long active = -1;

	if (!fz_res_jobs_counted())
		return -1;
	t_write_file(JOB_SLAB "/shrink", "1");
	if (t_read_file("/proc/slabinfo", buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "\nnpu_dma_job ");
	if (p)
		sscanf(p + strlen("\nnpu_dma_job "), "%ld", &active);
	return active;
}

void fz_res_get(struct fz_res *r)
{
	char buf[4096];

	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(t_read_file("/proc/self/status", buf, sizeof(buf)), 0);
	r->vm_lck = status_kb(buf, "VmLck:");
	r->vm_pin = status_kb(buf, "VmPin:");
	r->jobs = job_objects();
}

int fz_res_back(const struct fz_res *start)
{
	struct timespec ts = { 0, 50 * 1000000L };
	struct fz_res cur;
	int i;

	for (i = 0; i < 100; i++) {
		fz_res_get(&cur);
		if (cur.vm_lck == start->vm_lck && cur.vm_pin == start->vm_pin &&
		    cur.jobs <= start->jobs)
			return 1;
		nanosleep(&ts, NULL);
	}
	printf("state: VmLck %ld -> %ld kB, VmPin %ld -> %ld kB, npu_dma_job objects"
	       " %ld -> %ld\n", start->vm_lck, cur.vm_lck, start->vm_pin, cur.vm_pin,
	       start->jobs, cur.jobs);
	return 0;
}

/*
 * The exec'd child: "fd,queue,offset,size" names a file of the worker
 * it inherited, one of its queues (0: none) and the queue's area. The
 * rings were not inherited (VM_DONTCOPY, and exec replaced the memory);
 * the file is, and it is not this process's: GET_INFO works, the
 * doorbell is refused with -EPERM, the area does not map.
 */
int fz_exec_child(const char *arg)
{
	struct npu_dma_queue_submit s = { 0 };
	struct npu_dma_info info = { 0 };
	unsigned long long off = 0, size = 0;
	unsigned int qid = 0;
	int fd = -1, ret;
	void *p;

	if (sscanf(arg, "%d,%u,%llu,%llu", &fd, &qid, &off, &size) != 4 ||
	    fcntl(fd, F_GETFD) < 0) {
		fprintf(stderr, "t_fuzz exec: no inherited file (%s)\n", arg);
		return 4;
	}
	ret = npu_raw_info(fd, &info);
	if (ret) {
		fprintf(stderr, "t_fuzz exec: GET_INFO on an inherited file: %d\n", ret);
		return 4;
	}
	s.queue_id = qid;
	ret = ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &s) < 0 ? -errno : 0;
	if (ret != -EPERM) {
		fprintf(stderr, "t_fuzz exec: QUEUE_SUBMIT of queue %u gave %d\n", qid, ret);
		return 4;
	}
	if (size) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
		if (p != MAP_FAILED ||
		    (errno != EPERM && errno != EINVAL && errno != EACCES)) {
			fprintf(stderr, "t_fuzz exec: the queue area mapped (errno %d)\n",
				errno);
			return 4;
		}
	}
	return 0;
}
