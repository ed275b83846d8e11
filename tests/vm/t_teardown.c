// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: teardown while in use (t_limits has the limits, the first kill
 * and the lost interrupt).
 *
 * - kill -9 of processes with large copies running, on every NPU and
 *   every kind of copy (registered, pageable, device to device, peer):
 *   NPU_FAULT_KILLS iterations in all, 100 on request, 16 by default
 *   (make check: each of 4 NPUs with each kind once);
 * - close() of a file whose queues hold queued, parked (barrier) and
 *   waiting work;
 * - munmap() of registered and pageable memory while copies use it: the
 *   copies finish (the pages stay pinned), nothing is left pinned after;
 * - removal of an edu PCI device in use: its file says -ENODEV (the
 *   driver's ioctls and the DRM core's), its queue is marked dead, its
 *   existing mappings stay readable, the other NPUs copy byte-exact, a
 *   PCI rescan brings it back under the same NPU number;
 * - rmmod refused while a file is held by a child, sits in flight in a
 *   UNIX socket, or copies run; it works once all is gone.
 *
 * After each: pins balanced, device memory and client lists back.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define MAX_NPUS	8
#define MOD		"npu_dma"

static int nr_npus;
static struct npu_dma_info infos[MAX_NPUS];

static void find_npus(void)
{
	nr_npus = t_find_npus(infos, MAX_NPUS);
}

static int is_edu(int npu)
{
	return infos[npu].backend == NPU_DMA_BACKEND_EDU;
}

static void *anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* A peer of npu other than itself, or -1. */
static int peer_of(int npu)
{
	int j;

	for (j = 0; j < nr_npus; j++)
		if (j != npu && (infos[npu].peers >> j & 1))
			return j;
	return -1;
}

/*
 * The victim: copies of kind (0 registered H2D, 1 pageable D2H, 2 device
 * to device, 3 peer read) of len bytes, as many as the ring takes; says
 * "running" on up, then waits to be killed.
 */
static void victim(int npu, int kind, size_t len, int up)
{
	const uint16_t sh = NPU_DMA_DESC_F_SRC_HOST, dh = NPU_DMA_DESC_F_DST_HOST;
	uint8_t *reg = anon(len), *pageable = anon(len);
	int fd = npu_raw_open(npu), pfd = -1, peer = peer_of(npu), i;
	uint64_t dev, dev2, pdev = 0;
	struct npu_raw_queue q;
	struct npu_dma_desc d;

	if (fd < 0 || npu_raw_alloc(fd, 2 * len, NPU_DMA_MEM_HUGE_FIRST, &dev, NULL) ||
	    npu_raw_register(fd, reg, len, 0) || npu_raw_queue_create(fd, 16, &q))
		_exit(1);
	dev2 = dev + len;
	if (kind == 3 && peer >= 0) {
		pfd = npu_raw_open(peer);
		if (pfd < 0 || npu_raw_alloc(pfd, len, NPU_DMA_MEM_HUGE_FIRST, &pdev, NULL))
			_exit(1);
	}
	for (i = 0; i < 8; i++) {
		switch (kind) {
		case 0:
			d = npu_raw_copy(dev, (uintptr_t)reg, len, sh);
			break;
		case 1:
			d = npu_raw_copy((uintptr_t)pageable, dev, len,
					 dh | NPU_DMA_DESC_F_DST_PAGEABLE);
			break;
		case 2:
			d = npu_raw_copy(dev2, dev, len, 0);
			break;
		default:
			d = pdev ? npu_raw_copy(dev, pdev, len, 0)
				 : npu_raw_copy(dev, (uintptr_t)pageable, len,
						sh | NPU_DMA_DESC_F_SRC_PAGEABLE);
			break;
		}
		npu_raw_push(&q, &d);
	}
	if (npu_raw_submit(&q) < 0)
		_exit(1);
	if (write(up, "r", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static int env_int(const char *name, int def)
{
	const char *s = getenv(name);

	return s && *s ? atoi(s) : def;
}

START_TEST(test_kill_during_large_copies)
{
	int total = env_int("NPU_FAULT_KILLS", 16), it, st;
	unsigned int seed = 12345;
	struct t_state start;
	int per_kind[4] = { 0 };

	t_state_get(&start, nr_npus);
	for (it = 0; it < total; it++) {
		int npu = it % nr_npus, kind = (it / nr_npus) % 4, up[2];
		size_t len = is_edu(npu) ? 64 << 10 : 32 << 20;
		pid_t pid;
		char c;

		ck_assert_int_eq(pipe(up), 0);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			close(up[0]);
			victim(npu, kind, len, up[1]);
		}
		close(up[1]);
		ck_assert_msg(read(up[0], &c, 1) == 1, "victim %d on npu %d did not start",
			      kind, npu);
		close(up[0]);
		sleep_ms((int)(rand_r(&seed) % 150));
		ck_assert_int_eq(kill(pid, SIGKILL), 0);
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
		per_kind[kind]++;
		ck_assert_msg(t_state_back(&start), "iteration %d: npu %d kind %d leaked",
			      it, npu, kind);
	}
	printf("t_teardown: %d kills (registered %d, pageable %d, d2d %d, peer %d)"
	       " on %d NPUs, nothing leaked\n", total, per_kind[0], per_kind[1],
	       per_kind[2], per_kind[3], nr_npus);
}
END_TEST

/* close() with queued, parked and waiting work on several queues. */
START_TEST(test_close_with_queued_work)
{
	int npu = _i, fd, i;
	size_t len;
	uint8_t *buf;
	struct npu_raw_queue q[3];
	struct npu_dma_desc d;
	struct t_state start;
	uint64_t dev;

	if (npu >= nr_npus)
		return;
	len = is_edu(npu) ? 16 << 10 : 16 << 20;
	buf = anon(len);
	t_state_get(&start, nr_npus);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_HUGE_FIRST, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_register(fd, buf, len, 0), 0);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q[i]), 0);
	/* Queue 0: copies; queue 1: parked at a barrier; queue 2: waits on 1. */
	for (i = 0; i < 8; i++) {
		d = npu_raw_copy(i & 1 ? (uintptr_t)buf : dev, i & 1 ? dev : (uintptr_t)buf,
				 len, i & 1 ? NPU_DMA_DESC_F_DST_HOST : NPU_DMA_DESC_F_SRC_HOST);
		npu_raw_push(&q[0], &d);
	}
	d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_HOST_BARRIER };
	npu_raw_push(&q[1], &d);
	d = npu_raw_copy(dev, (uintptr_t)buf, 4096, NPU_DMA_DESC_F_SRC_HOST);
	npu_raw_push(&q[1], &d);
	d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_WAIT, .wait_queue = q[1].id,
				   .value = 2 };
	npu_raw_push(&q[2], &d);
	d = npu_raw_copy((uintptr_t)buf, dev, 4096, NPU_DMA_DESC_F_DST_HOST);
	npu_raw_push(&q[2], &d);
	for (i = 0; i < 3; i++)
		ck_assert_int_ge(npu_raw_submit(&q[i]), 0);
	/* The queues stay mapped: close alone must stop and release the lot. */
	close(fd);
	for (i = 0; i < 3; i++)
		close(q[i].efd);
	/* The areas stay mapped and usable memory until munmap. */
	q[0].ctrl->sq_tail += 3;
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(munmap(q[i].map, q[i].map_size), 0);
	munmap(buf, len);
	ck_assert(t_state_back(&start));
}
END_TEST

/*
 * munmap() of the memory copies are using, registered and pageable: the
 * pins hold the pages, so the copies complete without error.
 */
START_TEST(test_munmap_during_dma)
{
	int npu = _i, fd, i;
	size_t len;
	uint8_t *reg, *pageable;
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	struct t_state start;
	uint64_t dev, seq = 0;

	if (npu >= nr_npus)
		return;
	len = is_edu(npu) ? 16 << 10 : 32 << 20;
	reg = anon(len);
	pageable = anon(len);
	t_state_get(&start, nr_npus);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_HUGE_FIRST, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_register(fd, reg, len, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	t_pattern_fill(reg, len, 9);
	for (i = 0; i < 6; i++) {
		switch (i % 3) {
		case 0:
			d = npu_raw_copy(dev, (uintptr_t)reg, len, NPU_DMA_DESC_F_SRC_HOST);
			break;
		case 1:
			d = npu_raw_copy((uintptr_t)reg, dev, len, NPU_DMA_DESC_F_DST_HOST);
			break;
		default:
			d = npu_raw_copy((uintptr_t)pageable, dev, len,
					 NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
			break;
		}
		seq = npu_raw_push(&q, &d);
	}
	ck_assert_int_ge(npu_raw_submit(&q), 0);
	/* Pull both mappings away while the engine works on them. */
	ck_assert_int_eq(munmap(reg, len), 0);
	ck_assert_int_eq(munmap(pageable, len), 0);
	ck_assert_uint_lt(q.ctrl->completed_seq, seq);
	ck_assert_int_eq(npu_raw_wait(&q, seq, 120000), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 0);
	/* The registration still holds its pages until unregistered. */
	ck_assert_int_lt(t_pins_held(), start.pins + 1 + (long)(len / 4096));
	ck_assert_int_gt(t_pins_held(), start.pins);
	ck_assert_int_eq(npu_raw_unregister(fd, reg), 0);
	npu_raw_queue_destroy(&q);
	close(fd);
	ck_assert(t_state_back(&start));
}
END_TEST

/* ---- PCI removal of an edu device in use ---- */

static int edu_npu(void)
{
	int j;

	for (j = 0; j < nr_npus; j++)
		if (is_edu(j))
			return j;
	return -1;
}

static int sim_npu(void)
{
	int j;

	for (j = 0; j < nr_npus; j++)
		if (!is_edu(j))
			return j;
	return -1;
}

/* One byte-exact round trip through npu's engine. */
static void round_trip(int npu, uint32_t seed)
{
	uint8_t *buf = anon(8192);
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint64_t dev;
	int fd = npu_raw_open(npu);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 4096, NPU_DMA_MEM_NORMAL_ONLY, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_register(fd, buf, 8192, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	t_pattern_fill(buf, 4096, seed);
	d = npu_raw_copy(dev, (uintptr_t)buf, 4096, NPU_DMA_DESC_F_SRC_HOST);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	d = npu_raw_copy((uintptr_t)buf + 4096, dev, 4096, NPU_DMA_DESC_F_DST_HOST);
	ck_assert_int_eq(npu_raw_run(&q, &d), 0);
	ck_assert_uint_eq(t_pattern_check(buf + 4096, 4096, seed), 4096);
	npu_raw_queue_destroy(&q);
	close(fd);
	munmap(buf, 8192);
}

static void backends(char *out, size_t size)
{
	char b[16];
	size_t n = 0;
	int j;

	out[0] = 0;
	for (j = 0; j < MAX_NPUS; j++) {
		if (t_npu_attr(j, "backend", b, sizeof(b)))
			break;
		n += (size_t)snprintf(out + n, size - n, "%s%s", j ? " " : "", b);
		if (n >= size)
			break;
	}
}

START_TEST(test_pci_remove_in_use)
{
	int npu = edu_npu(), other = sim_npu(), fd, i;
	char pci[64], path[128], before[128], after[128];
	uint8_t *buf = anon(64 << 10);
	struct npu_dma_queue_create qc = { .entries = 16, .eventfd = -1 };
	struct npu_dma_desc d, rec = { .opcode = NPU_DMA_OP_EVENT_RECORD, .dst = 3 };
	struct npu_dma_event_slot *ev;
	struct drm_version ver = { 0 };
	struct npu_dma_info info;
	struct npu_raw_queue q;
	struct t_state start;
	uint64_t dev, dev2, rec_seq;
	uint32_t h;
	size_t ev_size;
	off_t dead_off;
	void *p;

	T_SKIP_UNLESS(npu >= 0, "no edu NPU");
	backends(before, sizeof(before));
	t_state_get(&start, nr_npus);
	ck_assert_int_eq(t_npu_attr(npu, "pci_address", pci, sizeof(pci)), 0);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 64 << 10, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	ck_assert_int_eq(npu_raw_register(fd, buf, 64 << 10, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &qc), 0);
	ev = npu_raw_map_events(fd, &ev_size);
	ck_assert_ptr_ne(ev, MAP_FAILED);
	rec_seq = npu_raw_push(&q, &rec);
	ck_assert_int_eq(npu_raw_submit(&q), 1);
	ck_assert_int_eq(npu_raw_wait(&q, rec_seq, 20000), 0);
	ck_assert_uint_eq(ev[3].seq, rec_seq);
	for (i = 0; i < 4; i++) {
		d = npu_raw_copy(dev, (uintptr_t)buf, 64 << 10, NPU_DMA_DESC_F_SRC_HOST);
		npu_raw_push(&q, &d);
	}
	ck_assert_int_ge(npu_raw_submit(&q), 0);

	/* Pull the card out from under the running copies. */
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/remove", pci);
	ck_assert_int_eq(t_write_file(path, "1"), 0);
	ck_assert(!t_exists("/sys/bus/pci/devices/%s", pci));

	ck_assert(!t_npu_find(npu, NULL));
	ck_assert_uint_ne(q.ctrl->flags & NPU_DMA_QUEUE_S_DEAD, 0);
	/* The mappings made before stay readable, with what they held. */
	ck_assert_uint_eq(ev[3].seq, rec_seq);
	ck_assert_uint_eq(ev[3].queue_id, q.id);
	ck_assert_uint_ge(q.ctrl->completed_seq, rec_seq);
	ck_assert_int_eq(npu_raw_alloc(fd, 4096, 0, &dev2, NULL), -ENODEV);
	ck_assert_int_eq(npu_raw_free(fd, h), -ENODEV);
	ck_assert_int_eq(npu_raw_submit(&q), -ENODEV);
	ck_assert_int_eq(npu_raw_info(fd, &info), -ENODEV);
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_VERSION, &ver), -ENODEV);
	dead_off = (off_t)qc.mmap_offset;
	qc.queue_id = qc.mmap_offset = qc.mmap_size = 0;
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &qc), -ENODEV);
	/* The dead queue's area cannot be mapped again. */
	p = mmap(NULL, q.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, dead_off);
	ck_assert(p == MAP_FAILED);
	/* The other NPUs do not notice. */
	for (i = 0; i < nr_npus; i++)
		if (i != npu)
			round_trip(i, 100 + (uint32_t)i);
	npu_raw_queue_destroy(&q);
	ck_assert_int_eq(munmap(ev, ev_size), 0);
	ck_assert_int_eq(close(fd), 0);

	/* Rescan: the card comes back under its old number. */
	ck_assert_int_eq(t_write_file("/sys/bus/pci/rescan", "1"), 0);
	ck_assert(t_npu_wait(npu, 5000));
	backends(after, sizeof(after));
	ck_assert_str_eq(after, before);
	ck_assert_int_eq(t_npu_attr(npu, "pci_address", path, sizeof(path)), 0);
	ck_assert_str_eq(path, pci);
	round_trip(npu, 7);
	if (other >= 0)
		round_trip(other, 8);
	ck_assert(t_state_back(&start));
}
END_TEST

/*
 * Whatever happened, the removed card is back before the next test, and
 * in its place: a rescanned device joins the end of the PCI device list,
 * so a later module load would number it after the other edu card. Remove
 * every edu card, then one rescan adds them back in slot order.
 */
static void rescan(void)
{
	char pci[MAX_NPUS][64], b[16], path[640];
	int i, n = 0;

	t_write_file("/sys/bus/pci/rescan", "1");
	sleep_ms(200);
	for (i = 0; i < MAX_NPUS; i++)
		if (!t_npu_attr(i, "backend", b, sizeof(b)) && !strcmp(b, "edu") &&
		    !t_npu_attr(i, "pci_address", pci[n], sizeof(pci[n])))
			n++;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/remove", pci[i]);
		t_write_file(path, "1");
	}
	t_write_file("/sys/bus/pci/rescan", "1");
	for (i = 0; i < nr_npus; i++)
		t_npu_wait(i, 5000);
}

/* ---- rmmod while in use ---- */

/* Whatever the test did, the module is loaded for the next one. */
static void loaded_again(void)
{
	if (!t_module_loaded(MOD) && t_module_load(t_ko(), t_default_args()))
		fprintf(stderr, "t_teardown: cannot load %s again\n", t_ko());
}

START_TEST(test_unload_while_in_use)
{
	int npu = sim_npu() >= 0 ? sim_npu() : 0, fd, sv[2], up[2], st;
	size_t len = is_edu(npu) ? 64 << 10 : 32 << 20;
	uint8_t *buf = anon(len);
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint64_t dev, seq = 0;
	pid_t pid;
	char c;
	int i;

	/* Copies running. */
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_HUGE_FIRST, &dev, NULL), 0);
	ck_assert_int_eq(npu_raw_register(fd, buf, len, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	t_pattern_fill(buf, len, 3);
	for (i = 0; i < 8; i++) {
		d = npu_raw_copy(dev, (uintptr_t)buf, len, NPU_DMA_DESC_F_SRC_HOST);
		seq = npu_raw_push(&q, &d);
	}
	ck_assert_int_ge(npu_raw_submit(&q), 0);
	ck_assert_int_eq(t_module_unload(MOD), -EWOULDBLOCK);
	ck_assert_int_eq(npu_raw_wait(&q, seq, 120000), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 0);
	ck_assert_int_eq(t_module_unload(MOD), -EWOULDBLOCK);

	/* The file held only by a child (ours closed, queue unmapped). */
	ck_assert_int_eq(pipe(up), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(up[1]);
		while (read(up[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(up[0]);
	npu_raw_queue_destroy(&q);
	close(fd);
	ck_assert_int_eq(t_module_unload(MOD), -EWOULDBLOCK);
	close(up[1]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);

	/* The file in flight in a UNIX socket, received by nobody. */
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	ck_assert_int_eq(t_send_fd(sv[0], fd), 0);
	close(fd);
	ck_assert_int_eq(t_module_unload(MOD), -EWOULDBLOCK);
	close(sv[0]);
	close(sv[1]);

	/* Everything gone: it unloads (socket garbage may take a moment). */
	for (i = 0; i < 500 && t_module_unload(MOD) == -EWOULDBLOCK; i++)
		sleep_ms(10);
	ck_assert(!t_module_loaded(MOD));
	ck_assert_int_eq(t_module_load(t_ko(), t_default_args()), 0);
	find_npus();
	munmap(buf, len);
}
END_TEST

static Suite *fault2_suite(void)
{
	Suite *s = suite_create("t_teardown");
	TCase *tk = tcase_create("kill");
	TCase *tc = tcase_create("close");
	TCase *tp = tcase_create("pci");
	TCase *tu = tcase_create("unload");

	tcase_set_timeout(tk, 900);
	tcase_add_unchecked_fixture(tk, find_npus, NULL);
	tcase_add_test(tk, test_kill_during_large_copies);
	suite_add_tcase(s, tk);

	tcase_set_timeout(tc, 300);
	tcase_add_unchecked_fixture(tc, find_npus, NULL);
	tcase_add_loop_test(tc, test_close_with_queued_work, 0, MAX_NPUS);
	tcase_add_loop_test(tc, test_munmap_during_dma, 0, MAX_NPUS);
	suite_add_tcase(s, tc);

	tcase_set_timeout(tp, 300);
	tcase_add_unchecked_fixture(tp, find_npus, rescan);
	tcase_add_test(tp, test_pci_remove_in_use);
	suite_add_tcase(s, tp);

	tcase_set_timeout(tu, 300);
	tcase_add_unchecked_fixture(tu, find_npus, loaded_again);
	tcase_add_test(tu, test_unload_while_in_use);
	suite_add_tcase(s, tu);
	return s;
}

int main(void)
{
	if (geteuid() != 0 || !npu_raw_present())
		return T_EXIT_SKIP;
	return t_run_suite(fault2_suite());
}
