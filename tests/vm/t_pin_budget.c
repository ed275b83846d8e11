// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: what a queue may hold consumed and not completed
 * (kernel/npu_dma_budget.c), on a sim NPU, through the raw ABI.
 *
 * - The queue's worker never pins: a pageable copy published behind a
 *   HOST_BARRIER without a doorbell stays in the ring, unpinned, after
 *   the barrier is released and the queue went idle; the doorbell then
 *   consumes and runs it.
 * - A queue parked at a barrier takes pageable copies only up to
 *   queue_pinned_mb (set to 1 MiB here): the doorbell beyond it returns
 *   -EAGAIN, consumes nothing and pins nothing; after the barrier, a
 *   doorbell takes the rest. A side longer than the limit completes
 *   with -E2BIG; GET_INFO's max_pin_len follows the parameter.
 * - A parked queue takes queue_max_jobs descriptors (set to 8): the
 *   doorbell consumes what fits and succeeds, and the queue picks the
 *   rest up by itself once the barrier is released.
 * - A doorbell pinning a userfaultfd-backed buffer nobody serves blocks
 *   its caller, and only it: SIGKILL ends the wait, the process exits,
 *   nothing stays pinned. The same for HOST_REGISTER of such a buffer;
 *   registering one whose faults are served works, and copies from it
 *   carry the bytes the handler served (kernel/npu_dma_pin.c).
 * The module parameters are put back after each test.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define PARAMS		"/sys/module/npu_dma/parameters/"
#define PAGE		4096
#define CHUNK		(256 * 1024)	/* 64 pages */
#define NCHUNKS		8	/* 2 MiB in all */
#define MIB		(1024 * 1024)

static int sim = -1;

static void param_set(const char *name, unsigned int val)
{
	char path[128], text[16];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	snprintf(text, sizeof(text), "%u", val);
	ck_assert_int_eq(t_write_file(path, text), 0);
}

/* Also the suite's teardown, outside any test: no Check assertion. */
static void params_default(void)
{
	static const char *const defaults[][2] = {
		{ "queue_pinned_mb", "1024" }, { "file_pinned_mb", "2048" },
		{ "total_pinned_mb", "4096" }, { "queue_max_jobs", "16384" },
		{ "file_max_jobs", "65536" },
	};
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		snprintf(path, sizeof(path), PARAMS "%s", defaults[i][0]);
		t_write_file(path, defaults[i][1]);
	}
}

static void *map_buf(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

static uint32_t sq_head(const struct npu_raw_queue *q)
{
	return __atomic_load_n(&q->ctrl->sq_head, __ATOMIC_ACQUIRE);
}

static int doorbell(struct npu_raw_queue *q)
{
	struct npu_dma_queue_submit s = { .queue_id = q->id };

	return npu_raw_ioctl(q->fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &s);
}

/* Push a HOST_BARRIER, ring, and wait until the queue is parked at it. */
static uint64_t park(struct npu_raw_queue *q)
{
	struct npu_dma_desc b = { .opcode = NPU_DMA_OP_HOST_BARRIER };
	uint64_t seq = npu_raw_push(q, &b);

	ck_assert_int_eq(doorbell(q), 1);
	ck_assert_uint_eq(npu_raw_wait_barrier(q, 10000), seq);
	return seq;
}

static struct npu_dma_desc h2d(uint64_t dev, const void *host, uint64_t len)
{
	return npu_raw_copy(dev, (uintptr_t)host, len,
			    NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
}

static struct npu_dma_desc d2h(void *host, uint64_t dev, uint64_t len)
{
	return npu_raw_copy((uintptr_t)host, dev, len,
			    NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
}

START_TEST(test_worker_never_pins)
{
	struct npu_dma_desc d;
	struct npu_raw_queue q;
	uint8_t *src, *back;
	uint64_t dev, bseq, seq;
	uint32_t handle, tail;
	long pins;
	int fd;

	fd = npu_raw_open(sim);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, CHUNK, 0, &dev, &handle), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 64, &q), 0);
	src = map_buf(CHUNK);
	back = map_buf(CHUNK);
	memset(src, 0x5a, CHUNK);

	bseq = park(&q);
	pins = t_pins_held();
	d = h2d(dev, src, CHUNK);
	seq = npu_raw_push(&q, &d);
	tail = q.ctrl->sq_tail;
	ck_assert_int_eq(npu_raw_release(&q, bseq), 0);
	ck_assert_int_eq(npu_raw_wait(&q, bseq, 10000), 0);
	/* The worker looked at the ring, found pageable work, and left it. */
	for (int i = 0; i < 100 &&
	     !(__atomic_load_n(&q.ctrl->flags, __ATOMIC_ACQUIRE) &
	       NPU_DMA_QUEUE_S_NEED_WAKEUP); i++)
		usleep(10000);
	usleep(50000);
	ck_assert_uint_ne(q.ctrl->flags & NPU_DMA_QUEUE_S_NEED_WAKEUP, 0);
	ck_assert_uint_eq(sq_head(&q), tail - 1);
	ck_assert_uint_eq(q.ctrl->completed_seq, bseq);
	ck_assert_int_eq(t_pins_held(), pins);

	/* The owner's doorbell pins and runs it. */
	ck_assert_int_eq(doorbell(&q), 1);
	ck_assert_int_eq(npu_raw_wait(&q, seq, 10000), 0);
	d = d2h(back, dev, CHUNK);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	ck_assert_int_eq(memcmp(src, back, CHUNK), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 0);

	npu_raw_queue_destroy(&q);
	ck_assert_int_eq(npu_raw_free(fd, handle), 0);
	close(fd);
	munmap(src, CHUNK);
	munmap(back, CHUNK);
}
END_TEST

START_TEST(test_parked_queue_pins_within_budget)
{
	struct npu_dma_desc d;
	struct npu_dma_info info;
	struct npu_raw_queue q;
	uint64_t dev, bseq, last = 0;
	uint32_t handle, head;
	uint8_t *src, *big;
	long pins;
	int fd, i, fit = MIB / CHUNK;

	param_set("queue_pinned_mb", 1);
	fd = npu_raw_open(sim);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	ck_assert_uint_eq(info.max_pin_len, MIB);
	ck_assert_int_eq(npu_raw_alloc(fd, NCHUNKS * CHUNK, 0, &dev, &handle), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 64, &q), 0);
	src = map_buf(NCHUNKS * CHUNK);
	for (i = 0; i < NCHUNKS * CHUNK; i++)
		src[i] = (uint8_t)(i * 7 + i / CHUNK);

	bseq = park(&q);
	pins = t_pins_held();
	/* Four 64-page copies fill the 256 pages; the fifth waits. */
	for (i = 0; i < NCHUNKS; i++) {
		d = h2d(dev + (uint64_t)i * CHUNK, src + (size_t)i * CHUNK, CHUNK);
		last = npu_raw_push(&q, &d);
		head = sq_head(&q);
		if (i < fit) {
			ck_assert_int_eq(doorbell(&q), 1);
			ck_assert_uint_eq(sq_head(&q), head + 1);
		} else {
			ck_assert_int_eq(doorbell(&q), -EAGAIN);
			ck_assert_uint_eq(sq_head(&q), head);
		}
	}
	ck_assert_int_eq(t_pins_held(), pins + fit * (CHUNK / PAGE));

	/* Once the barrier and the first copies are done, the rest fit. */
	ck_assert_int_eq(npu_raw_release(&q, bseq), 0);
	ck_assert_int_eq(npu_raw_wait(&q, bseq + fit, 10000), 0);
	ck_assert_int_eq(doorbell(&q), NCHUNKS - fit);
	ck_assert_int_eq(npu_raw_wait(&q, last, 10000), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 0);
	q.rung = q.ctrl->sq_tail;
	big = map_buf(NCHUNKS * CHUNK);
	/* A side longer than the limit, or as long but unaligned (one page
	 * more), completes with -E2BIG; as long and aligned, it runs. */
	d = d2h(big, dev, NCHUNKS * CHUNK);
	ck_assert_int_eq(npu_raw_run(&q, &d), -E2BIG);
	d = d2h(big + 8, dev, MIB);
	ck_assert_int_eq(npu_raw_run(&q, &d), -E2BIG);
	d = d2h(big, dev, MIB);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	d = d2h(big + MIB, dev + MIB, MIB);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	ck_assert_int_eq(memcmp(src, big, NCHUNKS * CHUNK), 0);

	npu_raw_queue_destroy(&q);
	ck_assert_int_eq(npu_raw_free(fd, handle), 0);
	close(fd);
	ck_assert_int_eq(t_pins_held(), pins);
	munmap(src, NCHUNKS * CHUNK);
	munmap(big, NCHUNKS * CHUNK);
	params_default();
}
END_TEST

START_TEST(test_parked_queue_jobs_within_budget)
{
	struct npu_dma_desc nop[20] = {};
	struct npu_raw_queue q;
	uint64_t bseq, last;
	int fd;

	param_set("queue_max_jobs", 8);
	fd = npu_raw_open(sim);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 64, &q), 0);
	bseq = park(&q);
	last = npu_raw_push_n(&q, nop, 20);
	/* The barrier and seven more: a success, the rest left published. */
	ck_assert_int_eq(doorbell(&q), 7);
	ck_assert_uint_eq(sq_head(&q), 8);
	ck_assert_int_eq(doorbell(&q), 0);
	ck_assert_uint_eq(sq_head(&q), 8);
	/* The queue takes the rest itself as its work completes. */
	ck_assert_int_eq(npu_raw_release(&q, bseq), 0);
	ck_assert_int_eq(npu_raw_wait(&q, last, 10000), 0);
	ck_assert_uint_eq(sq_head(&q), 21);
	ck_assert_uint_eq(q.ctrl->error_count, 0);
	npu_raw_queue_destroy(&q);
	close(fd);
	params_default();
}
END_TEST

/*
 * @size bytes of anonymous memory whose missing pages are reported to the
 * userfaultfd returned in @uffd; MAP_FAILED if that cannot be set up.
 */
static void *uffd_map(size_t size, int *uffd)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	void *buf;

	*uffd = (int)syscall(__NR_userfaultfd, O_CLOEXEC);
	if (*uffd < 0 || ioctl(*uffd, UFFDIO_API, &api))
		return MAP_FAILED;
	buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (uintptr_t)buf;
	reg.range.len = size;
	if (buf == MAP_FAILED || ioctl(*uffd, UFFDIO_REGISTER, &reg))
		return MAP_FAILED;
	return buf;
}

/* The byte at @off of a page the server fills: its page index and offset. */
static uint8_t served_byte(size_t off)
{
	return (uint8_t)(off / PAGE * 31 + off % PAGE);
}

struct uffd_server {
	int uffd;	/* O_NONBLOCK: poll() of a blocking one says EPOLLERR */
	int stop[2];	/* a byte written to stop[1] ends the server */
	uint8_t *base;
	int served;
};

/* Serves every fault with served_byte() until told to stop. */
static void *uffd_serve(void *arg)
{
	static uint8_t page[PAGE];
	struct uffd_server *u = arg;
	struct pollfd pfd[2] = {
		{ .fd = u->uffd, .events = POLLIN },
		{ .fd = u->stop[0], .events = POLLIN },
	};
	struct uffdio_copy copy = { .src = (uintptr_t)page, .len = PAGE };
	struct uffd_msg m;
	size_t off, i;

	while (poll(pfd, 2, -1) > 0 && !pfd[1].revents) {
		if (read(u->uffd, &m, sizeof(m)) != sizeof(m) ||
		    m.event != UFFD_EVENT_PAGEFAULT)
			continue;
		off = (m.arg.pagefault.address & ~(uint64_t)(PAGE - 1)) -
		      (uintptr_t)u->base;
		for (i = 0; i < PAGE; i++)
			page[i] = served_byte(off + i);
		copy.dst = (uintptr_t)u->base + off;
		if (!ioctl(u->uffd, UFFDIO_COPY, &copy))
			u->served++;
	}
	return NULL;
}

/* userfaultfd(2) works here (a kernel may be built without it). */
static bool have_uffd(void)
{
	int fd = (int)syscall(__NR_userfaultfd, O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * HOST_REGISTER of a userfaultfd range works as for any memory: its pages
 * are faulted in through the handler (a FOLL_LONGTERM pin alone cannot
 * wait for one), and a copy from the registration carries what it served.
 */
START_TEST(test_uffd_register_served)
{
	struct uffd_server u = { 0 };
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint64_t dev;
	uint32_t handle;
	uint8_t *back;
	pthread_t th;
	size_t i;
	int fd;

	T_SKIP_UNLESS(have_uffd(), "no userfaultfd in this kernel");
	u.base = uffd_map(CHUNK, &u.uffd);
	ck_assert_ptr_ne(u.base, MAP_FAILED);
	ck_assert_int_eq(fcntl(u.uffd, F_SETFL, O_NONBLOCK), 0);
	ck_assert_int_eq(pipe(u.stop), 0);
	ck_assert_int_eq(pthread_create(&th, NULL, uffd_serve, &u), 0);
	fd = npu_raw_open(sim);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, CHUNK, 0, &dev, &handle), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	back = map_buf(CHUNK);

	ck_assert_int_eq(npu_raw_register(fd, u.base, CHUNK, 0), 0);
	d = npu_raw_copy(dev, (uintptr_t)u.base, CHUNK, NPU_DMA_DESC_F_SRC_HOST);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	d = d2h(back, dev, CHUNK);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	for (i = 0; i < CHUNK; i++)
		ck_assert_msg(back[i] == served_byte(i), "byte %zu: 0x%02x",
			      i, back[i]);
	ck_assert_int_eq(npu_raw_unregister(fd, u.base), 0);

	ck_assert_int_eq(write(u.stop[1], "x", 1), 1);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	close(u.uffd);
	close(u.stop[0]);
	close(u.stop[1]);
	ck_assert_int_eq(u.served, CHUNK / PAGE);
	npu_raw_queue_destroy(&q);
	ck_assert_int_eq(npu_raw_free(fd, handle), 0);
	close(fd);
	munmap(u.base, CHUNK);
	munmap(back, CHUNK);
}
END_TEST

/*
 * The child: pins a buffer whose faults nobody serves, by a pageable copy's
 * doorbell or (@reg) by HOST_REGISTER.
 */
static void uffd_child(int ready, bool reg)
{
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint32_t handle;
	uint64_t dev;
	int fd, uffd;
	void *buf;

	buf = uffd_map(CHUNK, &uffd);
	fd = npu_raw_open(sim);
	if (buf == MAP_FAILED || fd < 0 ||
	    npu_raw_alloc(fd, CHUNK, 0, &dev, &handle) ||
	    npu_raw_queue_create(fd, 64, &q))
		_exit(2);
	d = h2d(dev, buf, CHUNK);
	npu_raw_push(&q, &d);
	if (write(ready, "x", 1) != 1)
		_exit(2);
	if (reg)
		npu_raw_register(fd, buf, CHUNK, 0);
	else
		doorbell(&q);
	_exit(3);	/* the fault was served: nobody does */
}

static void uffd_pin_ends_with_its_owner(bool reg)
{
	int pfd[2], status, i;
	long pins;
	pid_t pid;
	char c;

	pins = t_pins_held();
	ck_assert_int_eq(pipe(pfd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		close(pfd[0]);
		uffd_child(pfd[1], reg);
	}
	close(pfd[1]);
	if (read(pfd[0], &c, 1) != 1) {
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_abort_msg("child failed: status 0x%x", status);
	}
	/* Blocked in the doorbell, in its own context. */
	usleep(300000);
	ck_assert_int_eq(waitpid(pid, &status, WNOHANG), 0);
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	for (i = 0; i < 1000 && waitpid(pid, &status, WNOHANG) == 0; i++)
		usleep(10000);
	ck_assert_msg(i < 1000, "a killed owner stayed in its doorbell");
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(pfd[0]);
	/* Its file was released in a work item: give it a moment. */
	for (i = 0; i < 100 && t_pins_held() != pins; i++)
		usleep(20000);
	ck_assert_int_eq(t_pins_held(), pins);
}

START_TEST(test_uffd_pin_ends_with_its_owner)
{
	T_SKIP_UNLESS(have_uffd(), "no userfaultfd in this kernel");
	uffd_pin_ends_with_its_owner(false);
}
END_TEST

/* The same for a registration: it waits killably, as a user access does. */
START_TEST(test_uffd_register_ends_with_its_owner)
{
	T_SKIP_UNLESS(have_uffd(), "no userfaultfd in this kernel");
	uffd_pin_ends_with_its_owner(true);
}
END_TEST

static Suite *budget_suite(void)
{
	Suite *s = suite_create("t_pin_budget");
	TCase *tc = tcase_create("budget");

	tcase_set_timeout(tc, 120);
	tcase_add_unchecked_fixture(tc, NULL, params_default);
	tcase_add_test(tc, test_worker_never_pins);
	tcase_add_test(tc, test_parked_queue_pins_within_budget);
	tcase_add_test(tc, test_parked_queue_jobs_within_budget);
	tcase_add_test(tc, test_uffd_pin_ends_with_its_owner);
	tcase_add_test(tc, test_uffd_register_served);
	tcase_add_test(tc, test_uffd_register_ends_with_its_owner);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!npu_raw_present())
		return T_EXIT_SKIP;
	sim = t_npu_of(NPU_DMA_BACKEND_SIM);
	if (sim < 0) {
		printf("t_pin_budget: no sim NPU: skipped\n");
		return T_EXIT_SKIP;
	}
	return t_run_suite(budget_suite());
}
