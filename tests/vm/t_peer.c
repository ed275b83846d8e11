// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: device-to-device copies across NPUs through the raw ABI. Every
 * ordered pair of NPUs: the queue's engine reads a peer's memory and
 * writes a peer's memory, byte-exact; pairs that are not peers (edu and
 * sim) and another process's peer memory are refused; when an edu NPU is
 * unbound, copies naming its memory fail and the others keep working.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define MAX_NPUS 8
#define LEN (24 * 1024 + 123)	/* crosses pages, not a multiple of any */

static int nr_npus;
static struct npu_dma_info infos[MAX_NPUS];

static void find_npus(void)
{
	nr_npus = t_find_npus(infos, MAX_NPUS);
}

static int is_peer(int a, int b)
{
	return (infos[a].peers >> b) & 1;
}

struct npu {
	int fd;
	uint64_t dev;
	struct npu_raw_queue q;
};

static void npu_open(struct npu *n, int index)
{
	n->fd = npu_raw_open(index);
	ck_assert_int_ge(n->fd, 0);
	ck_assert_int_eq(npu_raw_alloc(n->fd, 64 * 1024, NPU_DMA_MEM_NORMAL_ONLY, &n->dev), 0);
	ck_assert_int_eq(npu_raw_queue_create(n->fd, 16, &n->q), 0);
}

static void npu_close(struct npu *n)
{
	npu_raw_queue_destroy(&n->q);
	close(n->fd);
}

static uint8_t *host(size_t len)
{
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

static const uint16_t SRC_PAGEABLE = NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE;
static const uint16_t DST_PAGEABLE = NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE;

/*
 * Data goes host -> b, then a's queue pulls b -> a (peer read) and pushes
 * a -> b + 32 KiB (peer write), then host <- b + 32 KiB.
 */
START_TEST(test_pair)
{
	int a = _i / MAX_NPUS, b = _i % MAX_NPUS;
	uint8_t *in = host(LEN), *out = host(LEN);
	struct npu_dma_desc d;
	struct npu na, nb;
	uint32_t seed = 1000 + _i;

	if (a >= nr_npus || b >= nr_npus || a == b)
		return;
	npu_open(&na, a);
	npu_open(&nb, b);
	t_pattern_fill(in, LEN, seed);
	d = npu_raw_copy(nb.dev + 5, (uintptr_t)in, LEN, SRC_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&nb.q, &d), 0);

	d = npu_raw_copy(na.dev + 1, nb.dev + 5, LEN, 0);
	if (!is_peer(a, b)) {
		ck_assert_int_eq(npu_raw_run(&na.q, &d), -EFAULT);
		d = npu_raw_copy(nb.dev, na.dev, 8, 0);
		ck_assert_int_eq(npu_raw_run(&na.q, &d), -EFAULT);
		goto out;
	}
	ck_assert_int_eq(npu_raw_run(&na.q, &d), 0);
	d = npu_raw_copy(nb.dev + 32 * 1024, na.dev + 1, LEN, 0);
	ck_assert_int_eq(npu_raw_run(&na.q, &d), 0);
	d = npu_raw_copy((uintptr_t)out, nb.dev + 32 * 1024, LEN, DST_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&nb.q, &d), 0);
	ck_assert_msg(t_pattern_check(out, LEN, seed) == LEN,
		      "npu%d <-> npu%d: differs at %zu", a, b,
		      t_pattern_check(out, LEN, seed));
	/* A 2-D copy and a fill into peer memory, by a's engine. */
	d = (struct npu_dma_desc){
		.opcode = NPU_DMA_OP_FILL, .fill_size = 2, .dst = nb.dev + 4096,
		.len = 4096, .value = 0xbeef,
	};
	ck_assert_int_eq(npu_raw_run(&na.q, &d), 0);
	d = (struct npu_dma_desc){
		.opcode = NPU_DMA_OP_COPY_2D, .height = 4, .src = nb.dev + 4096,
		.dst = na.dev + 8192, .len = 100, .src_pitch = 128, .dst_pitch = 100,
	};
	ck_assert_int_eq(npu_raw_run(&na.q, &d), 0);
	d = npu_raw_copy((uintptr_t)out, na.dev + 8192, 400, DST_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&na.q, &d), 0);
	ck_assert_uint_eq(((uint16_t *)out)[0], 0xbeef);
	ck_assert_uint_eq(((uint16_t *)out)[199], 0xbeef);
	/* Past the end of the peer allocation. */
	d = npu_raw_copy(na.dev, nb.dev + 64 * 1024 - 8, 16, 0);
	ck_assert_int_eq(npu_raw_run(&na.q, &d), -EFAULT);
out:
	npu_close(&na);
	npu_close(&nb);
	munmap(in, LEN);
	munmap(out, LEN);
}
END_TEST

/* Peer memory allocated by another process is not ours to name. */
START_TEST(test_other_process_peer_memory)
{
	int a = -1, b = -1, i, j, up[2], down[2], status;
	uint64_t addr;
	struct npu_dma_desc d;
	struct npu na;
	pid_t pid;

	for (i = 0; i < nr_npus && a < 0; i++)
		for (j = 0; j < nr_npus; j++)
			if (is_peer(i, j)) {
				a = i;
				b = j;
				break;
			}
	if (a < 0)
		return;
	ck_assert_int_eq(pipe(up), 0);
	ck_assert_int_eq(pipe(down), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct npu nb;

		close(down[1]);
		npu_open(&nb, b);
		if (write(up[1], &nb.dev, sizeof(nb.dev)) != sizeof(nb.dev))
			_exit(1);
		if (read(down[0], &addr, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	ck_assert_int_eq(read(up[0], &addr, sizeof(addr)), sizeof(addr));
	npu_open(&na, a);
	d = npu_raw_copy(na.dev, addr, 64, 0);
	ck_assert_int_eq(npu_raw_run(&na.q, &d), -EFAULT);
	d = npu_raw_copy(addr, na.dev, 64, 0);
	ck_assert_int_eq(npu_raw_run(&na.q, &d), -EFAULT);
	npu_close(&na);
	close(down[1]);
	close(up[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

/* Bus address of an edu NPU, from sysfs. */
static void pci_address(int npu, char *buf, size_t size)
{
	ck_assert_int_eq(t_read_attr(buf, size, "/sys/class/npu_dma/npu_dma%d/pci_address",
				     npu), 0);
}

/*
 * Unbind edu NPU b while this process holds memory on it and copies to
 * and from it through peer a: afterwards copies naming b's memory fail,
 * a's own copies and b's file (-ENODEV) behave, and rebinding brings an
 * NPU back.
 */
START_TEST(test_peer_unbound)
{
	int a = -1, b = -1, i;
	char addr[64], drv[] = "/sys/bus/pci/drivers/npu_dma_edu";
	char path[128];
	struct npu_dma_desc d;
	struct npu na, nb;
	uint8_t *buf = host(4096);
	uint64_t dev;

	for (i = 0; i < nr_npus; i++) {
		if (infos[i].backend != NPU_DMA_BACKEND_EDU)
			continue;
		if (a < 0)
			a = i;
		else if (b < 0)
			b = i;
	}
	if (b < 0)
		return;
	npu_open(&na, a);
	npu_open(&nb, b);
	d = npu_raw_copy(na.dev, nb.dev, 4096, 0);
	ck_assert_int_eq(npu_raw_run(&na.q, &d), 0);

	pci_address(b, addr, sizeof(addr));
	snprintf(path, sizeof(path), "%s/unbind", drv);
	ck_assert_int_eq(t_write_file(path, addr), 0);
	ck_assert(!t_exists("/dev/npu_dma%d", b));

	ck_assert_int_eq(npu_raw_run(&na.q, &d), -EFAULT);
	d = npu_raw_copy(nb.dev, na.dev, 4096, 0);
	ck_assert_int_eq(npu_raw_run(&na.q, &d), -EFAULT);
	ck_assert_int_eq(npu_raw_alloc(nb.fd, 4096, 0, &dev), -ENODEV);
	/* a itself still copies, byte-exact. */
	t_pattern_fill(buf, 4096, 77);
	d = npu_raw_copy(na.dev + 4096, (uintptr_t)buf, 4096, SRC_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&na.q, &d), 0);
	memset(buf, 0, 4096);
	d = npu_raw_copy((uintptr_t)buf, na.dev + 4096, 4096, DST_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&na.q, &d), 0);
	ck_assert_uint_eq(t_pattern_check(buf, 4096, 77), 4096);
	close(nb.fd);
	munmap(nb.q.map, nb.q.map_size);
	close(nb.q.efd);

	snprintf(path, sizeof(path), "%s/bind", drv);
	ck_assert_int_eq(t_write_file(path, addr), 0);
	/* Its number was free again: the NPU comes back under it. */
	ck_assert(t_exists("/dev/npu_dma%d", b));
	npu_close(&na);
}
END_TEST

static Suite *peer_suite(void)
{
	Suite *s = suite_create("t_peer");
	TCase *tc = tcase_create("peer");

	tcase_set_timeout(tc, 300);
	tcase_add_unchecked_fixture(tc, find_npus, NULL);
	tcase_add_loop_test(tc, test_pair, 0, MAX_NPUS * MAX_NPUS);
	tcase_add_test(tc, test_other_process_peer_memory);
	tcase_add_test(tc, test_peer_unbound);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (geteuid() != 0 || !npu_raw_present())
		return T_EXIT_SKIP;
	return t_run_suite(peer_suite());
}
