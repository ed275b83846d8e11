// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: device-to-device copies across NPUs through the raw ABI. Every
 * ordered pair of NPUs: the queue's engine reads a peer's memory and
 * writes a peer's memory, byte-exact; pairs that are not peers (edu and
 * sim) and another process's peer memory are refused; when an edu NPU is
 * unbound, copies naming its memory fail and the others keep working;
 * when an edu NPU is pulled off the PCI bus while its peer's copies read
 * and write its memory, the copies already submitted finish byte-exact,
 * later ones fail with -EFAULT, nothing leaks and a rescan brings it back.
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
	ck_assert_int_eq(npu_raw_alloc(n->fd, 64 * 1024, NPU_DMA_MEM_NORMAL_ONLY, &n->dev,
				       NULL), 0);
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

/* Host -> n's memory at offset @off -> host through n's engine, 2 KiB. */
static void round_trip(struct npu *n, uint64_t off, uint32_t seed)
{
	uint8_t *buf = host(4096);
	struct npu_dma_desc d;

	t_pattern_fill(buf, 2048, seed);
	d = npu_raw_copy(n->dev + off, (uintptr_t)buf, 2048, SRC_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&n->q, &d), 0);
	d = npu_raw_copy((uintptr_t)buf + 2048, n->dev + off, 2048, DST_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&n->q, &d), 0);
	ck_assert_uint_eq(t_pattern_check(buf + 2048, 2048, seed), 2048);
	munmap(buf, 4096);
}

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
	T_SKIP_UNLESS(a >= 0, "no peer-enabled NPU pair");
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
	ck_assert_int_eq(t_npu_attr(npu, "pci_address", buf, size), 0);
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
	uint64_t dev;

	for (i = 0; i < nr_npus; i++) {
		if (infos[i].backend != NPU_DMA_BACKEND_EDU)
			continue;
		if (a < 0)
			a = i;
		else if (b < 0)
			b = i;
	}
	T_SKIP_UNLESS(b >= 0, "fewer than two edu NPUs");
	npu_open(&na, a);
	npu_open(&nb, b);
	d = npu_raw_copy(na.dev, nb.dev, 4096, 0);
	ck_assert_int_eq(npu_raw_run(&na.q, &d), 0);

	pci_address(b, addr, sizeof(addr));
	snprintf(path, sizeof(path), "%s/unbind", drv);
	ck_assert_int_eq(t_write_file(path, addr), 0);
	ck_assert(!t_npu_find(b, NULL));

	ck_assert_int_eq(npu_raw_run(&na.q, &d), -EFAULT);
	d = npu_raw_copy(nb.dev, na.dev, 4096, 0);
	ck_assert_int_eq(npu_raw_run(&na.q, &d), -EFAULT);
	ck_assert_int_eq(npu_raw_alloc(nb.fd, 4096, 0, &dev, NULL), -ENODEV);
	/* a itself still copies, byte-exact. */
	round_trip(&na, 4096, 77);
	close(nb.fd);
	munmap(nb.q.map, nb.q.map_size);
	close(nb.q.efd);

	snprintf(path, sizeof(path), "%s/bind", drv);
	ck_assert_int_eq(t_write_file(path, addr), 0);
	/* Its number was free again: the NPU comes back under it. */
	ck_assert(t_npu_wait(b, 5000));
	pci_address(b, path, sizeof(path));
	ck_assert_str_eq(path, addr);
	npu_close(&na);
}
END_TEST

/*
 * The first edu NPU opened in @ne and the first sim NPU in @ns, which
 * imports a 4 KiB buffer of @ne's as a dma-buf. Return: the edu NPU's
 * index, or -1 (none opened) without both; *@handle and *@dev: the
 * import in @ns.
 */
static int import_edu_buf(struct npu *ne, struct npu *ns, uint32_t *handle,
			  uint64_t *dev)
{
	struct drm_prime_handle ph = { .flags = DRM_CLOEXEC | DRM_RDWR };
	struct npu_dma_mem_info mi = { 0 };
	int e = -1, s = -1, i;
	uint64_t eaddr;

	for (i = 0; i < nr_npus; i++) {
		if (infos[i].backend == NPU_DMA_BACKEND_EDU && e < 0)
			e = i;
		if (infos[i].backend == NPU_DMA_BACKEND_SIM && s < 0)
			s = i;
	}
	if (e < 0 || s < 0)
		return -1;
	npu_open(ne, e);
	npu_open(ns, s);
	ck_assert_int_eq(npu_raw_alloc(ne->fd, 4096, NPU_DMA_MEM_NORMAL_ONLY, &eaddr,
				       &ph.handle), 0);
	ck_assert_int_eq(npu_raw_ioctl(ne->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), 0);
	ph.handle = 0;
	ck_assert_int_eq(npu_raw_ioctl(ns->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph), 0);
	close(ph.fd);
	mi.handle = ph.handle;
	ck_assert_int_eq(npu_raw_ioctl(ns->fd, DRM_IOCTL_NPU_DMA_MEM_INFO, &mi), 0);
	*handle = ph.handle;
	*dev = mi.dev_addr;
	return e;
}

/* Close what import_edu_buf() opened; bind edu NPU @e again. */
static void import_edu_close(struct npu *ne, struct npu *ns, uint32_t handle,
			     int e, const char *addr)
{
	char path[128], drv[] = "/sys/bus/pci/drivers/npu_dma_edu";
	struct drm_gem_close gc = { .handle = handle };

	ck_assert_int_eq(npu_raw_ioctl(ns->fd, DRM_IOCTL_GEM_CLOSE, &gc), 0);
	npu_close(ns);
	close(ne->fd);
	munmap(ne->q.map, ne->q.map_size);
	close(ne->q.efd);

	snprintf(path, sizeof(path), "%s/bind", drv);
	ck_assert_int_eq(t_write_file(path, addr), 0);
	ck_assert(t_npu_wait(e, 5000));
}

/* Unbind edu NPU @e from the driver; its PCI address in @addr. */
static void unbind_edu(int e, char *addr, size_t size)
{
	pci_address(e, addr, size);
	ck_assert_int_eq(t_write_file("/sys/bus/pci/drivers/npu_dma_edu/unbind",
				      addr), 0);
	ck_assert(!t_npu_find(e, NULL));
}

/*
 * A sim NPU imports an edu NPU's buffer as a dma-buf (its engine reaches
 * the card's pages by bus address); the card is then unbound, its memory
 * freed with it: copies through the import fail, nothing reads a freed
 * page (the sanitizer kernel would say), and the import closes cleanly.
 */
START_TEST(test_import_of_unbound_edu)
{
	struct npu_dma_desc d;
	struct npu ne, ns;
	uint64_t idev;
	uint32_t h;
	char addr[64];
	int e = import_edu_buf(&ne, &ns, &h, &idev);

	T_SKIP_UNLESS(e >= 0, "needs an edu and a sim NPU");
	d = npu_raw_copy(ns.dev, idev, 4096, 0);
	ck_assert_int_eq(npu_raw_run(&ns.q, &d), 0);

	unbind_edu(e, addr, sizeof(addr));
	ck_assert_int_eq(npu_raw_run(&ns.q, &d), -ENODEV);
	d = npu_raw_copy(idev, ns.dev, 4096, 0);
	ck_assert_int_eq(npu_raw_run(&ns.q, &d), -ENODEV);
	import_edu_close(&ne, &ns, h, e, addr);
}
END_TEST

/*
 * As above, for a batch: its members copy from the import, validated
 * while the card is there and held behind a barrier until it is gone.
 * They fail with -ENODEV when they run, as a single copy does; they
 * used to join the batch's shared walk without holding the card's
 * memory, and the sim engine read it after the unbind had freed it.
 */
START_TEST(test_import_batch_of_unbound_edu)
{
	uint64_t idev, last, bseq;
	struct npu_dma_desc d[5];
	struct npu ne, ns;
	uint32_t h, errs;
	char addr[64];
	int e = import_edu_buf(&ne, &ns, &h, &idev);

	T_SKIP_UNLESS(e >= 0, "needs an edu and a sim NPU");
	errs = ns.q.ctrl->error_count;
	d[0] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_HOST_BARRIER };
	d[1] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_BATCH_BEGIN };
	d[2] = npu_raw_copy(ns.dev, idev, 2048, 0);
	d[3] = npu_raw_copy(ns.dev + 2048, idev + 2048, 2048, 0);
	d[4] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_BATCH_END };
	last = npu_raw_push_n(&ns.q, d, 5);
	ck_assert_int_eq(npu_raw_submit(&ns.q), 5);
	bseq = npu_raw_wait_barrier(&ns.q, 30000);
	ck_assert_uint_eq(bseq, last - 4);

	unbind_edu(e, addr, sizeof(addr));
	ck_assert_int_eq(npu_raw_release(&ns.q, bseq), 0);
	ck_assert_int_eq(npu_raw_wait(&ns.q, last, 30000), 0);
	ck_assert_uint_eq(ns.q.ctrl->error_count - errs, 2);
	ck_assert_int_eq(ns.q.ctrl->last_error, -ENODEV);
	round_trip(&ns, 8192, 611);
	import_edu_close(&ne, &ns, h, e, addr);
}
END_TEST

/* The first two edu NPUs (peers of each other) in *a and *b: 0 if none. */
static int edu_pair(int *a, int *b)
{
	int i;

	*a = -1;
	*b = -1;
	for (i = 0; i < nr_npus; i++) {
		if (infos[i].backend != NPU_DMA_BACKEND_EDU)
			continue;
		if (*a < 0)
			*a = i;
		else if (*b < 0)
			*b = i;
	}
	return *b >= 0;
}

/*
 * Pull edu NPU b off the PCI bus while a's queue holds peer copies of
 * b's memory: L (6 KiB, b -> a, three edu chunks of 0.2 s, most likely
 * running) ahead of a host barrier, and behind it C1 (b -> a, a peer
 * read) and C2 (a -> b, a peer write), certainly run after the removal.
 * All three were validated by the doorbell before it, so each holds b's
 * allocation and with it b's memory (Documentation/driver.rst,
 * "Lifetimes"): they complete without error and the bytes read arrive.
 * C3, submitted behind the barrier after the removal, and C4, run after
 * the release, name memory of a removed NPU: -EFAULT ("Peer copies").
 */
START_TEST(test_peer_pci_removed_during_copies)
{
	int a, b, s = -1, i;
	char pci[64], path[128];
	uint8_t *in = host(6144), *buf = host(8192);
	struct npu_dma_desc d[4];
	struct npu na, nb, ns;
	struct t_state start;
	uint64_t seq_c2, seq_c3, bseq, dev;
	uint32_t errs, failed;

	T_SKIP_UNLESS(edu_pair(&a, &b), "no edu pair");
	for (i = 0; i < nr_npus && s < 0; i++)
		if (infos[i].backend != NPU_DMA_BACKEND_EDU)
			s = i;
	pci_address(b, pci, sizeof(pci));
	t_state_get(&start, nr_npus);
	npu_open(&na, a);
	npu_open(&nb, b);
	t_pattern_fill(in, 6144, 600);
	d[0] = npu_raw_copy(nb.dev, (uintptr_t)in, 6144, SRC_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&nb.q, &d[0]), 0);

	errs = na.q.ctrl->error_count;
	d[0] = npu_raw_copy(na.dev, nb.dev, 6144, 0);			/* L */
	d[1] = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_HOST_BARRIER };
	d[2] = npu_raw_copy(na.dev + 16384, nb.dev + 2048, 2048, 0);	/* C1 */
	d[3] = npu_raw_copy(nb.dev + 32768, na.dev, 2048, 0);		/* C2 */
	seq_c2 = npu_raw_push_n(&na.q, d, 4);
	ck_assert_int_eq(npu_raw_submit(&na.q), 4);

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/remove", pci);
	ck_assert_int_eq(t_write_file(path, "1"), 0);
	printf("t_peer: npu%d removed with %llu of a's 4 descriptors done\n", b,
	       (unsigned long long)(na.q.ctrl->completed_seq - (seq_c2 - 4)));
	ck_assert(!t_exists("/sys/bus/pci/devices/%s", pci));
	ck_assert(!t_npu_find(b, NULL));
	ck_assert_int_eq(npu_raw_alloc(nb.fd, 4096, 0, &dev, NULL), -ENODEV);

	d[0] = npu_raw_copy(na.dev + 20480, nb.dev, 2048, 0);		/* C3 */
	seq_c3 = npu_raw_push(&na.q, &d[0]);
	ck_assert_int_eq(npu_raw_submit(&na.q), 1);
	bseq = npu_raw_wait_barrier(&na.q, 30000);
	ck_assert_uint_eq(bseq, seq_c2 - 2);
	ck_assert_int_eq(npu_raw_release(&na.q, bseq), 0);
	ck_assert_int_eq(npu_raw_wait(&na.q, seq_c3, 30000), 0);
	/*
	 * b's memory went with it: C1 and C2, held behind the barrier, fail
	 * with -ENODEV when they run, C3 is refused (-EFAULT). L either ran
	 * before the removal, which waits for it, or started after and
	 * failed as C1 did; it is never cut short.
	 */
	failed = na.q.ctrl->error_count - errs;
	ck_assert_msg(failed == 3 || failed == 4, "%u descriptors failed", failed);
	printf("t_peer: the copy running at the removal %s\n",
	       failed == 3 ? "finished" : "had not started and failed");
	/* Retired in order: C1 (or L) first, C3 last. */
	ck_assert_uint_eq(errs, 0);
	ck_assert_int_eq(na.q.ctrl->error, -ENODEV);
	ck_assert_uint_eq(na.q.ctrl->last_error_seq, seq_c3);
	ck_assert_int_eq(na.q.ctrl->last_error, -EFAULT);
	d[0] = npu_raw_copy(nb.dev + 32768, na.dev, 2048, 0);		/* C4 */
	ck_assert_int_eq(npu_raw_run(&na.q, &d[0]), -EFAULT);

	/* What L read from b arrived, every byte, if it ran. */
	memset(buf, 0, 8192);
	d[0] = npu_raw_copy((uintptr_t)buf, na.dev, 6144, DST_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&na.q, &d[0]), 0);
	if (failed == 3)
		ck_assert_uint_eq(t_pattern_check(buf, 6144, 600), 6144);
	/* C1 did not run: its destination is still zero. */
	memset(buf, 0xa5, 2048);
	d[0] = npu_raw_copy((uintptr_t)buf, na.dev + 16384, 2048, DST_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&na.q, &d[0]), 0);
	ck_assert_uint_eq(t_bytes_check(buf, 2048, 0), 2048);
	/* The other NPUs keep working. */
	round_trip(&na, 40960, 601);
	if (s >= 0) {
		npu_open(&ns, s);
		round_trip(&ns, 0, 602);
		npu_close(&ns);
	}
	npu_close(&nb);

	/*
	 * Rescan: b is the later of the two edu cards, so joining the end
	 * of the PCI device list keeps their order (and NPU numbers).
	 */
	ck_assert_int_eq(t_write_file("/sys/bus/pci/rescan", "1"), 0);
	ck_assert(t_npu_wait(b, 5000));
	pci_address(b, path, sizeof(path));
	ck_assert_str_eq(path, pci);
	npu_open(&nb, b);
	round_trip(&nb, 0, 603);
	/* Peers again: a's engine writes L's bytes into the new b. */
	t_pattern_fill(in, 6144, 600);
	d[0] = npu_raw_copy(na.dev + 16384, (uintptr_t)in + 2048, 2048, SRC_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&na.q, &d[0]), 0);
	d[0] = npu_raw_copy(nb.dev + 4096, na.dev + 16384, 2048, 0);
	ck_assert_int_eq(npu_raw_run(&na.q, &d[0]), 0);
	memset(buf, 0, 8192);
	d[0] = npu_raw_copy((uintptr_t)buf, nb.dev + 4096, 2048, DST_PAGEABLE);
	ck_assert_int_eq(npu_raw_run(&nb.q, &d[0]), 0);
	ck_assert_int_eq(memcmp(buf, in + 2048, 2048), 0);
	npu_close(&nb);
	npu_close(&na);
	munmap(in, 6144);
	munmap(buf, 8192);
	ck_assert(t_state_back(&start));
}
END_TEST

/* Whatever the test did, the removed card is back for the next test. */
static void rescan_bus(void)
{
	int i;

	t_write_file("/sys/bus/pci/rescan", "1");
	for (i = 0; i < nr_npus; i++)
		t_npu_wait(i, 5000);
}

static Suite *peer_suite(void)
{
	Suite *s = suite_create("t_peer");
	TCase *tc = tcase_create("peer");
	TCase *tr = tcase_create("remove");

	tcase_set_timeout(tc, 300);
	tcase_add_unchecked_fixture(tc, find_npus, NULL);
	tcase_add_loop_test(tc, test_pair, 0, MAX_NPUS * MAX_NPUS);
	tcase_add_test(tc, test_other_process_peer_memory);
	tcase_add_test(tc, test_peer_unbound);
	tcase_add_test(tc, test_import_of_unbound_edu);
	tcase_add_test(tc, test_import_batch_of_unbound_edu);
	suite_add_tcase(s, tc);

	tcase_set_timeout(tr, 300);
	tcase_add_unchecked_fixture(tr, find_npus, rescan_bus);
	tcase_add_test(tr, test_peer_pci_removed_during_copies);
	suite_add_tcase(s, tr);
	return s;
}

int main(void)
{
	if (geteuid() != 0 || !npu_raw_present())
		return T_EXIT_SKIP;
	return t_run_suite(peer_suite());
}
