// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: device memory shared as dma-buf (PRIME), foreign dma-bufs
 * imported, on every NPU of the guest (edu and sim).
 *
 * - Export to vgem, a driver that is not ours: vgem imports the buffer
 *   (attaching and mapping it for its device) and hands back the same
 *   dma-buf; the dma-buf's CPU mapping shows what the NPU's DMA wrote
 *   (sim; an edu card's memory is not mapped for the CPU and says so).
 * - Import from vgem: a vgem dumb buffer, imported into an NPU, gets an
 *   address of the NPU's import window; a copy into it shows in vgem's
 *   own CPU mapping, and a copy out of it reads what vgem's mapping wrote.
 * - Import of another NPU's buffer: a foreign import too, byte-exact.
 * - Across processes: a forked child imports the parent's buffer at the
 *   same device address and copies through it; the exporter closing its
 *   handle, or dying, leaves the importer working; the memory comes back
 *   when the last holder is gone. The importer also runs as this
 *   program exec'd, and started apart (a daemon) that finds us by a named
 *   socket and gets the dma-buf over it.
 * - A udmabuf (a memfd's pages, one huge page too) as copy source and
 *   destination (the sanitizer kernel only).
 * - MEM_INFO refuses bad handles and reserved fields.
 * - A sim NPU's allocation (backed as it is touched) imported into
 *   another sim NPU over its memory cgroup's limit: the import works or
 *   fails with -ENOMEM, and the kernel does not warn.
 * Every test ends with pins, memory, queues and files as they began.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/udmabuf.h>
#include <xf86drm.h>

#include "t_apart.h"
#include "t_share.h"

#define LEN		(64 * 1024)
#define EDU_LEN		4096	/* an edu DMA is slow: one page */

static size_t len_of(int npu)
{
	return is_sim(npu) ? LEN : EDU_LEN;
}

static int prime_export(int fd, uint32_t handle)
{
	struct drm_prime_handle ph = { .handle = handle,
				       .flags = DRM_CLOEXEC | DRM_RDWR, .fd = -1 };

	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph), 0);
	ck_assert_int_ge(ph.fd, 0);
	return ph.fd;
}

static int prime_import(int fd, int buf, uint32_t *handle)
{
	struct drm_prime_handle ph = { .fd = buf };
	int ret = npu_raw_ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph);

	*handle = ph.handle;
	return ret;
}

static struct npu_dma_mem_info mem_info(int fd, uint32_t handle)
{
	struct npu_dma_mem_info mi = { .handle = handle };

	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_MEM_INFO, &mi), 0);
	return mi;
}

/* One copy between two device addresses of the file: 0 or error. */
static int copy_dev(struct npu_raw_queue *q, uint64_t dst, uint64_t src,
		    size_t len)
{
	struct npu_dma_desc d = npu_raw_copy(dst, src, len, 0);

	return npu_raw_run(q, &d);
}

/* The card node of vgem: an fd, or -1. */
static int vgem_find(void)
{
	glob_t g;
	size_t i;
	int fd = -1;

	if (glob("/dev/dri/card*", 0, NULL, &g))
		return -1;
	for (i = 0; i < g.gl_pathc && fd < 0; i++) {
		drmVersionPtr v;

		fd = open(g.gl_pathv[i], O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (!v || strcmp(v->name, "vgem")) {
			close(fd);
			fd = -1;
		}
		drmFreeVersion(v);
	}
	globfree(&g);
	return fd;
}

/*
 * vgem's node, loading the module if need be (the sanitizer kernel has
 * it built in, and no modules of its own): an fd, or -1 (skip).
 */
static int vgem_open(void)
{
	int fd = vgem_find();

	if (fd >= 0 || system("modprobe vgem 2>/dev/null"))
		return fd;
	return vgem_find();
}

/* A vgem dumb buffer of @len bytes, mapped: its handle into *@handle. */
static unsigned char *vgem_buffer(int vfd, size_t len, uint32_t *handle)
{
	struct drm_mode_create_dumb c = { .width = len / 4, .height = 1, .bpp = 32 };
	struct drm_mode_map_dumb m = { 0 };
	void *p;

	ck_assert_int_eq(drmIoctl(vfd, DRM_IOCTL_MODE_CREATE_DUMB, &c), 0);
	ck_assert_uint_ge(c.size, len);
	m.handle = c.handle;
	ck_assert_int_eq(drmIoctl(vfd, DRM_IOCTL_MODE_MAP_DUMB, &m), 0);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, vfd, m.offset);
	ck_assert_ptr_ne(p, MAP_FAILED);
	*handle = c.handle;
	return p;
}

static void gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close gc = { .handle = handle };

	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc), 0);
}

START_TEST(test_export_to_vgem)
{
	int npu = _i, fd, vfd, buf, back;
	size_t len = len_of(npu);
	unsigned char *src = malloc(len), *map;
	struct npu_raw_queue q;
	uint64_t dev;
	uint32_t h, vh;
	struct stat s1, s2;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	vfd = vgem_open();
	T_SKIP_UNLESS(vfd >= 0, "no vgem in this kernel");
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	pattern(src, len, 3);
	ck_assert_int_eq(host_copy(&q, dev, src, len, 1), 0);

	buf = prime_export(fd, h);
	ck_assert_int_eq(mem_info(fd, h).dev_addr, dev);
	/* vgem attaches and maps it; its handle exports the same dma-buf. */
	ck_assert_int_eq(prime_import(vfd, buf, &vh), 0);
	back = -1;
	ck_assert_int_eq(drmPrimeHandleToFD(vfd, vh, DRM_CLOEXEC, &back), 0);
	ck_assert_int_eq(fstat(buf, &s1), 0);
	ck_assert_int_eq(fstat(back, &s2), 0);
	ck_assert_uint_eq(s1.st_ino, s2.st_ino);

	map = mmap(NULL, len, PROT_READ, MAP_SHARED, buf, 0);
	if (is_sim(npu)) {
		ck_assert_ptr_ne(map, MAP_FAILED);
		ck_assert_int_eq(memcmp(map, src, len), 0);
		/* A later DMA shows in the mapping too. */
		pattern(src, len, 11);
		ck_assert_int_eq(host_copy(&q, dev, src, len, 1), 0);
		ck_assert_int_eq(memcmp(map, src, len), 0);
		munmap(map, len);
	} else {
		ck_assert_ptr_eq(map, MAP_FAILED);
		ck_assert_int_eq(errno, EOPNOTSUPP);
	}

	/* The exporter frees first: vgem still holds the buffer. */
	gem_close(fd, h);
	close(buf);
	close(back);
	gem_close(vfd, vh);
	npu_raw_queue_destroy(&q);
	close(fd);
	close(vfd);
	free(src);
}
END_TEST

START_TEST(test_import_from_vgem)
{
	int npu = _i, fd, vfd, buf;
	size_t len = len_of(npu);
	unsigned char *host = malloc(len), *vmap_;
	struct npu_dma_mem_info mi;
	struct npu_raw_queue q;
	uint32_t h, vh;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	vfd = vgem_open();
	T_SKIP_UNLESS(vfd >= 0, "no vgem in this kernel");
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	vmap_ = vgem_buffer(vfd, len, &vh);
	ck_assert_int_eq(drmPrimeHandleToFD(vfd, vh, DRM_CLOEXEC | DRM_RDWR, &buf), 0);

	ck_assert_int_eq(prime_import(fd, buf, &h), 0);
	mi = mem_info(fd, h);
	ck_assert_uint_eq(mi.flags, NPU_DMA_MEM_INFO_F_IMPORTED);
	ck_assert_uint_ge(mi.size, len);
	ck_assert_uint_ne(mi.dev_addr, 0);
	/* Outside the NPU's memory: the import window. */
	ck_assert(mi.dev_addr < infos[npu].mem_base ||
		  mi.dev_addr >= infos[npu].mem_base + infos[npu].mem_size);

	/* NPU -> vgem, read through vgem's own mapping. */
	pattern(host, len, 5);
	ck_assert_int_eq(host_copy(&q, mi.dev_addr, host, len, 1), 0);
	ck_assert_int_eq(memcmp(vmap_, host, len), 0);
	/* vgem -> NPU: what vgem's mapping wrote. */
	pattern(vmap_, len, 9);
	memset(host, 0, len);
	ck_assert_int_eq(host_copy(&q, mi.dev_addr, host, len, 0), 0);
	ck_assert_int_eq(memcmp(vmap_, host, len), 0);
	/* One byte past its end is no address of the file. */
	ck_assert_int_eq(host_copy(&q, mi.dev_addr + mi.size - 1, host, 2, 0), -EFAULT);

	/* vgem lets go first: the import still holds the buffer. */
	munmap(vmap_, len);
	gem_close(vfd, vh);
	close(buf);
	ck_assert_int_eq(host_copy(&q, mi.dev_addr, host, len, 0), 0);
	gem_close(fd, h);
	ck_assert_int_eq(host_copy(&q, mi.dev_addr, host, len, 0), -EFAULT);
	npu_raw_queue_destroy(&q);
	close(fd);
	close(vfd);
	free(host);
}
END_TEST

/*
 * Two files of one edu NPU import the same buffer of a sim NPU: both
 * copies through it are byte-exact, and (under CONFIG_DMA_API_DEBUG) the
 * engine's syncs of the pieces find one mapping to name, not two.
 */
START_TEST(test_import_twice_on_one_npu)
{
	int a = nr_npus - 1, b = 0, fa, f[2], buf, i;
	unsigned char src[EDU_LEN], dst[EDU_LEN];
	struct npu_raw_queue qa, q[2];
	struct npu_dma_mem_info mi;
	uint32_t h, ih[2];
	uint64_t dev;

	T_SKIP_UNLESS(nr_npus > 1 && is_sim(a) && !is_sim(b), "needs edu and sim NPUs");
	fa = npu_raw_open(a);
	ck_assert_int_eq(npu_raw_queue_create(fa, 16, &qa), 0);
	ck_assert_int_eq(npu_raw_alloc(fa, EDU_LEN, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	pattern(src, EDU_LEN, 25);
	ck_assert_int_eq(host_copy(&qa, dev, src, EDU_LEN, 1), 0);
	buf = prime_export(fa, h);
	for (i = 0; i < 2; i++) {
		f[i] = npu_raw_open(b);
		ck_assert_int_eq(npu_raw_queue_create(f[i], 16, &q[i]), 0);
		ck_assert_int_eq(prime_import(f[i], buf, &ih[i]), 0);
	}
	for (i = 0; i < 2; i++) {
		mi = mem_info(f[i], ih[i]);
		memset(dst, 0, sizeof(dst));
		ck_assert_int_eq(host_copy(&q[i], mi.dev_addr + 5, dst, 331, 0), 0);
		ck_assert_int_eq(memcmp(src + 5, dst, 331), 0);
	}
	for (i = 0; i < 2; i++) {
		gem_close(f[i], ih[i]);
		npu_raw_queue_destroy(&q[i]);
		close(f[i]);
	}
	close(buf);
	gem_close(fa, h);
	npu_raw_queue_destroy(&qa);
	close(fa);
}
END_TEST

/* NPU @a's buffer imported by NPU @b (another of ours: a foreign import). */
START_TEST(test_import_from_another_npu)
{
	int a, b = -1, fa, fb, buf;
	unsigned char *src, *dst;
	struct npu_raw_queue qa, qb;
	struct npu_dma_mem_info mi;
	uint64_t dev;
	uint32_t h, ih;
	size_t len;

	/*
	 * The last NPU is a sim NPU in every guest with more than one. It
	 * exports to NPU 0 (edu), to the NPU before it (sim), and imports
	 * from NPU 0: an edu card's memory has no kernel mapping, so the sim
	 * engine reaches it by bus address.
	 */
	a = nr_npus - 1;
	if (is_sim(a))
		b = _i == 1 ? a - 1 : 0;
	T_SKIP_UNLESS(b >= 0 && b != a && nr_npus > 1, "needs a sim NPU and another");
	if (_i == 2) {
		a = b;
		b = nr_npus - 1;
	}
	len = is_sim(a) && is_sim(b) ? LEN : EDU_LEN;
	src = malloc(len);
	dst = calloc(1, len);
	fa = npu_raw_open(a);
	fb = npu_raw_open(b);
	ck_assert_int_eq(npu_raw_queue_create(fa, 16, &qa), 0);
	ck_assert_int_eq(npu_raw_queue_create(fb, 16, &qb), 0);
	ck_assert_int_eq(npu_raw_alloc(fa, len, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	pattern(src, len, 21);
	ck_assert_int_eq(host_copy(&qa, dev, src, len, 1), 0);

	buf = prime_export(fa, h);
	ck_assert_int_eq(prime_import(fb, buf, &ih), 0);
	mi = mem_info(fb, ih);
	ck_assert_uint_eq(mi.flags, NPU_DMA_MEM_INFO_F_IMPORTED);
	ck_assert_uint_ne(mi.dev_addr, dev);
	ck_assert_int_eq(host_copy(&qb, mi.dev_addr, dst, len, 0), 0);
	ck_assert_int_eq(memcmp(src, dst, len), 0);
	/* NPU b writes, NPU a reads it back from its own memory. */
	pattern(src, len, 23);
	ck_assert_int_eq(host_copy(&qb, mi.dev_addr, src, len, 1), 0);
	ck_assert_int_eq(host_copy(&qa, dev, dst, len, 0), 0);
	ck_assert_int_eq(memcmp(src, dst, len), 0);
	/* The import's address means nothing to the exporting NPU's file. */
	ck_assert_int_eq(host_copy(&qa, mi.dev_addr, dst, len, 0), -EFAULT);

	gem_close(fa, h);
	close(buf);
	ck_assert_int_eq(host_copy(&qb, mi.dev_addr, dst, len, 0), 0);
	ck_assert_int_eq(memcmp(src, dst, len), 0);
	gem_close(fb, ih);
	npu_raw_queue_destroy(&qa);
	npu_raw_queue_destroy(&qb);
	close(fa);
	close(fb);
	free(src);
	free(dst);
}
END_TEST

/* Child: import @buf on NPU @npu, check it holds seed @seed, write @next. */
static int child_use(int npu, int buf, uint64_t want_addr, size_t len,
		     unsigned int seed, unsigned int next)
{
	unsigned char *want = malloc(len), *got = calloc(1, len);
	struct npu_dma_mem_info mi = { 0 };
	struct npu_raw_queue q;
	int fd = npu_raw_open(npu);
	uint32_t h;

	if (fd < 0 || npu_raw_queue_create(fd, 16, &q) || prime_import(fd, buf, &h))
		return 10;
	mi.handle = h;
	if (npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_MEM_INFO, &mi) ||
	    mi.dev_addr != want_addr || mi.flags)
		return 11;
	pattern(want, len, seed);
	if (host_copy(&q, mi.dev_addr, got, len, 0) || memcmp(want, got, len))
		return 12;
	pattern(want, len, next);
	if (host_copy(&q, mi.dev_addr, want, len, 1))
		return 13;
	return 0;
}

/* The exporter frees its handle before a forked importer copies. */
START_TEST(test_share_with_child)
{
	int npu = _i, fd, buf;
	size_t len = len_of(npu);
	unsigned char *host = malloc(len);
	struct npu_raw_queue q;
	uint64_t dev;
	uint32_t h;
	pid_t pid;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	pattern(host, len, 31);
	ck_assert_int_eq(host_copy(&q, dev, host, len, 1), 0);
	buf = prime_export(fd, h);

	/* Same process, same file: the same handle comes back. */
	{
		uint32_t again;

		ck_assert_int_eq(prime_import(fd, buf, &again), 0);
		ck_assert_uint_eq(again, h);
	}

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(child_use(npu, buf, dev, len, 31, 33));
	ck_assert_int_eq(t_apart_wait(pid), 0);
	memset(host, 0, len);
	ck_assert_int_eq(host_copy(&q, dev, host, len, 0), 0);
	{
		unsigned char *want = malloc(len);

		pattern(want, len, 33);
		ck_assert_int_eq(memcmp(host, want, len), 0);
		free(want);
	}

	/* Freed by its owner: the dma-buf keeps it for the next importer. */
	gem_close(fd, h);
	ck_assert_int_eq(host_copy(&q, dev, host, len, 0), -EFAULT);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(child_use(npu, buf, dev, len, 33, 35));
	ck_assert_int_eq(t_apart_wait(pid), 0);
	close(buf);
	npu_raw_queue_destroy(&q);
	close(fd);
	free(host);
}
END_TEST

/*
 * The importer of test_share_apart, this program run again: it finds
 * the exporter by the socket at @path, gets the buffer's address and
 * the dma-buf, and reports child_use()'s status.
 */
static int importer_apart(int npu, size_t len, const char *path)
{
	int s = t_apart_connect(path), buf;
	uint64_t dev;
	char st;

	if (s < 0 || t_apart_recv(s, &dev, sizeof(dev)))
		return 30;
	buf = t_recv_fd(s);
	if (buf < 0)
		return 31;
	st = (char)child_use(npu, buf, dev, len, 71, 73);
	close(buf);
	return t_apart_send(s, &st, 1) ? 32 : 0;
}

/*
 * A dma-buf between two processes: an importer we fork and exec, or one
 * started apart (a daemon) that gets the fd over a named UNIX socket.
 */
START_TEST(test_share_apart)
{
	int npu = _i >> 1, how = _i & 1, fd, buf, ls, c;
	size_t len = len_of(npu);
	unsigned char *host = malloc(len), *want = malloc(len);
	char path[108], n[16], l[32], st = -1;
	char *argv[] = { "t_prime", "--import", n, l, path, NULL };
	struct npu_raw_queue q;
	uint64_t dev;
	uint32_t h;
	pid_t pid;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	pattern(want, len, 71);
	ck_assert_int_eq(host_copy(&q, dev, want, len, 1), 0);
	buf = prime_export(fd, h);
	ls = t_apart_listen(path, sizeof(path));
	snprintf(n, sizeof(n), "%d", npu);
	snprintf(l, sizeof(l), "%zu", len);
	pid = t_apart_spawn(argv, how);
	c = t_apart_accept(ls, path);
	ck_assert_int_eq(t_apart_send(c, &dev, sizeof(dev)), 0);
	ck_assert_int_eq(t_send_fd(c, buf), 0);
	close(buf);
	ck_assert_int_eq(t_apart_recv(c, &st, 1), 0);
	ck_assert_int_eq(st, 0);
	close(c);
	if (how == T_APART_EXEC)
		ck_assert_int_eq(t_apart_wait(pid), 0);
	/* Its bytes, in our memory. */
	ck_assert_int_eq(host_copy(&q, dev, host, len, 0), 0);
	pattern(want, len, 73);
	ck_assert_int_eq(memcmp(host, want, len), 0);
	gem_close(fd, h);
	npu_raw_queue_destroy(&q);
	close(fd);
	free(host);
	free(want);
}
END_TEST

/* The exporting process dies; the importer it sent the fd to goes on. */
START_TEST(test_exporter_dies)
{
	int npu = _i, sv[2], buf, fd;
	size_t len = len_of(npu);
	struct npu_dma_mem_info mi;
	unsigned char *host = malloc(len), *want = malloc(len);
	struct npu_raw_queue q;
	uint32_t h;
	pid_t pid;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct npu_raw_queue cq;
		uint64_t dev;
		int cfd = npu_raw_open(npu);

		pattern(want, len, 41);
		if (cfd < 0 || npu_raw_queue_create(cfd, 16, &cq) ||
		    npu_raw_alloc(cfd, len, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h) ||
		    host_copy(&cq, dev, want, len, 1))
			_exit(20);
		/* Dies holding everything: its files close at exit. */
		_exit(t_send_fd(sv[1], prime_export(cfd, h)) ? 21 : 0);
	}
	close(sv[1]);
	buf = t_recv_fd(sv[0]);
	ck_assert_int_ge(buf, 0);
	ck_assert_int_eq(t_apart_wait(pid), 0);
	close(sv[0]);

	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(prime_import(fd, buf, &h), 0);
	close(buf);
	mi = mem_info(fd, h);
	ck_assert_int_eq(host_copy(&q, mi.dev_addr, host, len, 0), 0);
	pattern(want, len, 41);
	ck_assert_int_eq(memcmp(host, want, len), 0);
	gem_close(fd, h);
	npu_raw_queue_destroy(&q);
	close(fd);
	free(host);
	free(want);
}
END_TEST

/*
 * A udmabuf: pages of a sealed memfd as a dma-buf (not in Debian's
 * kernel; the sanitizer kernel has it). Its fd, or -1 (skip).
 */
static int udmabuf_create(int memfd, size_t len)
{
	struct udmabuf_create c = { .memfd = memfd, .flags = UDMABUF_FLAGS_CLOEXEC,
				    .offset = 0, .size = len };
	int dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC), buf;

	if (dev < 0)
		return -1;
	buf = ioctl(dev, UDMABUF_CREATE, &c);
	close(dev);
	ck_assert_int_ge(buf, 0);
	return buf;
}

/*
 * Host memory as a dma-buf: a source and a destination of the NPU.
 * memfd holds len bytes; the first span of them is copied each way.
 */
static void udmabuf_round_trip(int npu, int memfd, size_t len, size_t span)
{
	unsigned char *host = malloc(span), *m;
	struct npu_dma_mem_info mi;
	struct npu_raw_queue q;
	int fd, buf;
	uint64_t dev;
	uint32_t h, ih;

	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	pattern(m, span, 51);
	buf = udmabuf_create(memfd, len);
	if (buf < 0) {
		munmap(m, len);
		close(memfd);
		free(host);
		t_skip("no /dev/udmabuf in this kernel");
		return;
	}
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(prime_import(fd, buf, &ih), 0);
	close(buf);
	mi = mem_info(fd, ih);
	ck_assert_uint_eq(mi.flags, NPU_DMA_MEM_INFO_F_IMPORTED);
	ck_assert_uint_eq(mi.size, len);

	/* memfd -> device memory -> host: the memfd's bytes. */
	ck_assert_int_eq(npu_raw_alloc(fd, span, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	ck_assert_int_eq(copy_dev(&q, dev, mi.dev_addr, span), 0);
	ck_assert_int_eq(host_copy(&q, dev, host, span, 0), 0);
	ck_assert_int_eq(memcmp(host, m, span), 0);
	/* And the other way: the NPU writes the memfd's pages. */
	pattern(host, span, 53);
	ck_assert_int_eq(host_copy(&q, dev, host, span, 1), 0);
	ck_assert_int_eq(copy_dev(&q, mi.dev_addr, dev, span), 0);
	ck_assert_int_eq(memcmp(host, m, span), 0);

	/* The memfd's mapping and fd go first: the import holds the pages. */
	munmap(m, len);
	close(memfd);
	ck_assert_int_eq(host_copy(&q, mi.dev_addr, host, span, 0), 0);
	pattern(m = malloc(span), span, 53);
	ck_assert_int_eq(memcmp(host, m, span), 0);
	free(m);
	gem_close(fd, ih);
	gem_close(fd, h);
	npu_raw_queue_destroy(&q);
	close(fd);
	free(host);
}

START_TEST(test_udmabuf)
{
	int npu = _i, memfd;
	size_t len = len_of(npu);

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	memfd = memfd_create("t_prime", MFD_ALLOW_SEALING | MFD_CLOEXEC);
	ck_assert_int_ge(memfd, 0);
	ck_assert_int_eq(ftruncate(memfd, len), 0);
	ck_assert_int_eq(fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK), 0);
	udmabuf_round_trip(npu, memfd, len, len);
}
END_TEST

#define HUGE_LEN	(2UL << 20)
#define HUGEPAGES	"/proc/sys/vm/nr_hugepages"

static long hugepages_get(void)
{
	FILE *f = fopen(HUGEPAGES, "r");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static void hugepages_set(long n)
{
	FILE *f = fopen(HUGEPAGES, "w");

	ck_assert_ptr_nonnull(f);
	fprintf(f, "%ld\n", n);
	ck_assert_int_eq(fclose(f), 0);
}

/*
 * A huge page is one scatterlist segment of 2 MiB, longer than the 64 KiB
 * the DMA API assumes of a device that states no limit: mapping it for an
 * NPU must not trip CONFIG_DMA_API_DEBUG's segment check (the sanitizer
 * kernel, the only one with udmabuf, has it on).
 */
START_TEST(test_udmabuf_huge_page)
{
	int npu = _i, memfd;
	long was = hugepages_get();

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	T_SKIP_UNLESS(access("/dev/udmabuf", F_OK) == 0,
		      "no /dev/udmabuf in this kernel");
	T_SKIP_UNLESS(was >= 0, "no huge pages in this kernel");
	hugepages_set(was + 1);
	if (hugepages_get() != was + 1) {
		hugepages_set(was);
		t_skip("no free huge page");
		return;
	}
	memfd = memfd_create("t_prime", MFD_ALLOW_SEALING | MFD_CLOEXEC |
			     MFD_HUGETLB);
	ck_assert_int_ge(memfd, 0);
	ck_assert_int_eq(ftruncate(memfd, HUGE_LEN), 0);
	ck_assert_int_eq(fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK), 0);
	udmabuf_round_trip(npu, memfd, HUGE_LEN, len_of(npu));
	hugepages_set(was);
}
END_TEST

START_TEST(test_mem_info_refuses)
{
	int fd = npu_raw_open(0);
	struct npu_dma_mem_info mi = { .handle = 12345 };
	uint64_t dev;
	uint32_t h;

	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_MEM_INFO, &mi), -ENOENT);
	ck_assert_int_eq(npu_raw_alloc(fd, 4096, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	mi = (struct npu_dma_mem_info){ .handle = h, .reserved[1] = 1 };
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_MEM_INFO, &mi), -EINVAL);
	mi = (struct npu_dma_mem_info){ .handle = h, .flags = 1 };
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_MEM_INFO, &mi), -EINVAL);
	mi = mem_info(fd, h);
	ck_assert_uint_eq(mi.dev_addr, dev);
	ck_assert_uint_eq(mi.size, 4096);
	ck_assert_uint_eq(mi.flags, 0);
	gem_close(fd, h);
	/* Huge pages are reported as such. */
	ck_assert_int_eq(npu_raw_alloc(fd, 2 << 20, NPU_DMA_MEM_HUGE_ONLY, &dev, &h), 0);
	mi = mem_info(fd, h);
	ck_assert_uint_eq(mi.flags, NPU_DMA_MEM_INFO_F_HUGE);
	ck_assert_uint_eq(mi.dev_addr % (2 << 20), 0);
	/* A garbage fd imports nothing. */
	ck_assert_int_lt(prime_import(fd, 1000, &h), 0);
	close(fd);
}
END_TEST

/*
 * This process in a new memory cgroup whose memory.max is @headroom
 * bytes above what it uses; its directory into @dir. 0, or -1 without
 * cgroup2's memory controller.
 */
static int memcg_enter(char *dir, size_t len, uint64_t headroom)
{
	char path[192], val[32], cur[32];

	if (!t_exists("/sys/fs/cgroup/cgroup.controllers") &&
	    mount("none", "/sys/fs/cgroup", "cgroup2", 0, NULL))
		return -1;
	if (t_write_file("/sys/fs/cgroup/cgroup.subtree_control", "+memory"))
		return -1;
	snprintf(dir, len, "/sys/fs/cgroup/t_prime.%d", (int)getpid());
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	ck_assert_int_eq(t_write_file(path, "0"), 0);
	snprintf(path, sizeof(path), "%s/memory.current", dir);
	ck_assert_int_eq(t_read_file(path, cur, sizeof(cur)), 0);
	snprintf(val, sizeof(val), "%llu", strtoull(cur, NULL, 10) + (unsigned long long)headroom);
	snprintf(path, sizeof(path), "%s/memory.max", dir);
	ck_assert_int_eq(t_write_file(path, val), 0);
	return 0;
}

/*
 * A sim NPU's memory is backed as it is touched, charged to the memory
 * cgroup. Importing an allocation into another sim NPU must not back
 * every page at once (t_fuzz found the exporter's vmap doing so, and
 * dma_buf_vmap() warning when that failed): 256 MiB under a memory.max
 * 64 MiB above the group's use. The import works (or fails with
 * -ENOMEM), and the kernel does not warn.
 */
START_TEST(test_import_over_memcg)
{
	uint64_t size = 256ULL << 20, dev;
	int a = -1, b = -1, i, fa, fb, buf, ret;
	char dir[128];
	uint32_t h, ih;

	for (i = 0; i < nr_npus; i++)
		if (is_sim(i) && infos[i].mem_free > size) {
			if (a < 0)
				a = i;
			else if (b < 0)
				b = i;
		}
	T_SKIP_UNLESS(a >= 0 && b >= 0, "needs two sim NPUs");
	T_SKIP_UNLESS(!memcg_enter(dir, sizeof(dir), 64ULL << 20), "no cgroup2 memory controller");
	fa = npu_raw_open(a);
	fb = npu_raw_open(b);
	ck_assert_int_eq(npu_raw_alloc(fa, size, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	buf = prime_export(fa, h);
	ck_assert_int_eq(npu_raw_free(fa, h), 0);
	ret = prime_import(fb, buf, &ih);
	close(buf);
	ck_assert_msg(ret == 0 || ret == -ENOMEM, "import of %llu MiB: %d",
		      (unsigned long long)(size >> 20), ret);
	if (!ret)
		ck_assert_int_eq(npu_raw_free(fb, ih), 0);
	close(fa);
	close(fb);
	ck_assert_int_eq(t_write_file("/sys/fs/cgroup/cgroup.procs", "0"), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *prime_suite(void)
{
	Suite *s = suite_create("prime");
	TCase *tc = tcase_create("prime");

	tcase_set_timeout(tc, 300);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_export_to_vgem, 0, 3);
	tcase_add_loop_test(tc, test_import_from_vgem, 0, 3);
	tcase_add_loop_test(tc, test_import_from_another_npu, 0, 3);
	tcase_add_test(tc, test_import_twice_on_one_npu);
	tcase_add_loop_test(tc, test_share_with_child, 0, 3);
	tcase_add_loop_test(tc, test_exporter_dies, 0, 3);
	tcase_add_loop_test(tc, test_share_apart, 0, 6);
	tcase_add_loop_test(tc, test_udmabuf, 0, 3);
	tcase_add_loop_test(tc, test_udmabuf_huge_page, 0, 3);
	tcase_add_test(tc, test_mem_info_refuses);
	tcase_add_test(tc, test_import_over_memcg);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	int was, ret;

	if (argc == 5 && !strcmp(argv[1], "--import"))
		return importer_apart(atoi(argv[2]), strtoul(argv[3], NULL, 10),
				      argv[4]);
	was = t_vgem_loaded();
	ret = t_run_suite(prime_suite());

	t_vgem_restore(was);
	return ret;
}
