// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: device memory shared by key (DRM_IOCTL_NPU_DMA_IPC_*), the
 * driver's half of CANN's IPC memory, on edu and sim NPUs.
 *
 * - A child on the share's pid list imports it at the exporter's device
 *   address and copies through it both ways, byte-exact; only the window
 *   is reachable; a child not on the list gets -EACCES and no memory;
 *   without the pid check any process may import.
 * - fork+exec: the importer is a new program image (this test, run again
 *   with --import), given the key on its command line.
 * - The exporter revoking the key, freeing the memory or being killed
 *   leaves existing imports working and refuses new ones.
 * - Double import, import on another NPU, closing an import with copies
 *   queued, pid lists of other files, bad arguments.
 * - The exporting file importing its own share as a second handle, and
 *   closing it: its allocation stays its own. A handle import of a key
 *   nobody shares: -ENOENT.
 * Every test ends with pins, memory, queues and files as they began.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t_share.h"

#define LEN		(64 * 1024)
#define EDU_LEN		4096	/* an edu DMA is slow: one page */

static size_t len_of(int npu)
{
	return is_sim(npu) ? LEN : EDU_LEN;
}

/* The exporter's side: a file, a queue, an allocation holding @seed. */
struct exporter {
	int fd;
	struct npu_raw_queue q;
	uint64_t dev;
	uint32_t handle;
	size_t len;
};

static void exporter_open(struct exporter *e, int npu, unsigned int seed)
{
	unsigned char *p;

	e->len = len_of(npu);
	p = malloc(e->len);
	e->fd = npu_raw_open(npu);
	ck_assert_int_ge(e->fd, 0);
	ck_assert_int_eq(npu_raw_queue_create(e->fd, 16, &e->q), 0);
	ck_assert_int_eq(npu_raw_alloc(e->fd, e->len, NPU_DMA_MEM_NORMAL_ONLY,
				       &e->dev, &e->handle), 0);
	pattern(p, e->len, seed);
	ck_assert_int_eq(host_copy(&e->q, e->dev, p, e->len, 1), 0);
	free(p);
}

static void exporter_close(struct exporter *e)
{
	npu_raw_queue_destroy(&e->q);
	close(e->fd);
}

static int ipc_export(int fd, uint64_t addr, uint64_t size, uint32_t flags,
		      uint64_t key[2])
{
	struct npu_dma_ipc_export x = { .dev_addr = addr, .size = size,
					.flags = flags };
	int ret = npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &x);

	key[0] = x.key[0];
	key[1] = x.key[1];
	return ret;
}

static int ipc_set_pid(int fd, const uint64_t key[2], pid_t pid)
{
	int32_t p = pid;
	struct npu_dma_ipc_set_pids s = { .key = { key[0], key[1] },
					  .pids = (uintptr_t)&p, .count = 1 };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_SET_PIDS, &s);
}

static int ipc_import(int fd, const uint64_t key[2], uint64_t *addr,
		      uint64_t *size)
{
	struct npu_dma_ipc_import m = { .key = { key[0], key[1] } };
	int ret = npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &m);

	*addr = m.dev_addr;
	*size = m.size;
	return ret;
}

static int ipc_close_import(int fd, uint64_t addr)
{
	struct npu_dma_ipc_close c = { .dev_addr = addr,
				       .flags = NPU_DMA_IPC_CLOSE_IMPORT };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_CLOSE, &c);
}

static int ipc_revoke(int fd, const uint64_t key[2])
{
	struct npu_dma_ipc_close c = { .key = { key[0], key[1] },
				       .flags = NPU_DMA_IPC_CLOSE_EXPORT };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_CLOSE, &c);
}

/*
 * The importer: import @key on NPU @npu and expect @want_addr (or, with
 * @want_err, that error and no memory at @want_addr); check the bytes of
 * seed @seed, write seed @seed + 1. An exit status: 0 when all held.
 */
static int importer(int npu, const uint64_t key[2], uint64_t want_addr,
		    size_t len, unsigned int seed, int want_err)
{
	unsigned char *want = malloc(len), *got = calloc(1, len);
	struct npu_raw_queue q;
	uint64_t addr, size;
	int fd = npu_raw_open(npu), ret;

	if (fd < 0 || npu_raw_queue_create(fd, 16, &q))
		return 10;
	ret = ipc_import(fd, key, &addr, &size);
	if (want_err)
		return ret == want_err && addr == 0 &&
		       host_copy(&q, want_addr, got, len, 0) == -EFAULT ? 0 : 11;
	if (ret || addr != want_addr || size < len)
		return 12;
	pattern(want, len, seed);
	if (host_copy(&q, addr, got, len, 0) || memcmp(want, got, len))
		return 13;
	/* Only the window: a byte past it is no address of this file. */
	if (host_copy(&q, addr + size, got, 1, 0) != -EFAULT)
		return 14;
	pattern(want, len, seed + 1);
	if (host_copy(&q, addr, want, len, 1))
		return 15;
	if (ipc_close_import(fd, addr) || host_copy(&q, addr, got, len, 0) != -EFAULT)
		return 16;
	npu_raw_queue_destroy(&q);
	close(fd);
	return 0;
}

/* Fork; the child waits for the go byte, then runs importer(). */
static pid_t spawn_importer(int *go, int npu, const uint64_t key[2],
			    uint64_t addr, size_t len, unsigned int seed,
			    int want_err)
{
	int p[2];
	pid_t pid;
	char c;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(9);
		_exit(importer(npu, key, addr, len, seed, want_err));
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

static int child_status(pid_t pid, int go)
{
	int st;

	ck_assert_int_eq(write(go, "g", 1), 1);
	close(go);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* The exporter holds seed @seed + 1 now: the importer's write. */
static void check_seed(struct exporter *e, unsigned int seed)
{
	unsigned char *want = malloc(e->len), *got = malloc(e->len);

	pattern(want, e->len, seed);
	ck_assert_int_eq(host_copy(&e->q, e->dev, got, e->len, 0), 0);
	ck_assert_int_eq(memcmp(want, got, e->len), 0);
	free(want);
	free(got);
}

START_TEST(test_allowed_child)
{
	int npu = _i, go;
	struct exporter e;
	uint64_t key[2];
	pid_t pid;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	exporter_open(&e, npu, 3);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, e.len, 0, key), 0);
	ck_assert(key[0] || key[1]);
	pid = spawn_importer(&go, npu, key, e.dev, e.len, 3, 0);
	ck_assert_int_eq(ipc_set_pid(e.fd, key, pid), 0);
	ck_assert_int_eq(child_status(pid, go), 0);
	check_seed(&e, 4);
	ck_assert_int_eq(ipc_revoke(e.fd, key), 0);
	ck_assert_int_eq(ipc_revoke(e.fd, key), -ENOENT);
	exporter_close(&e);
}
END_TEST

START_TEST(test_not_allowed)
{
	int npu = _i, go, go2;
	struct exporter e;
	uint64_t key[2];
	pid_t pid, other;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	exporter_open(&e, npu, 5);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, e.len, 0, key), 0);
	/* Nobody on the list: refused. */
	pid = spawn_importer(&go, npu, key, e.dev, e.len, 5, -EACCES);
	ck_assert_int_eq(child_status(pid, go), 0);
	/* Another process on the list: still refused. */
	other = spawn_importer(&go2, npu, key, e.dev, e.len, 5, 0);
	ck_assert_int_eq(ipc_set_pid(e.fd, key, other), 0);
	pid = spawn_importer(&go, npu, key, e.dev, e.len, 5, -EACCES);
	ck_assert_int_eq(child_status(pid, go), 0);
	ck_assert_int_eq(child_status(other, go2), 0);
	/* The exporter itself is not on the list either. */
	{
		uint64_t a, s;

		ck_assert_int_eq(ipc_import(e.fd, key, &a, &s), -EACCES);
	}
	exporter_close(&e);
}
END_TEST

START_TEST(test_no_pid_check)
{
	int npu = _i, go;
	struct exporter e;
	uint64_t key[2];
	pid_t pid;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	exporter_open(&e, npu, 7);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, e.len,
				    NPU_DMA_IPC_F_NO_PID_CHECK, key), 0);
	pid = spawn_importer(&go, npu, key, e.dev, e.len, 7, 0);
	ck_assert_int_eq(child_status(pid, go), 0);
	check_seed(&e, 8);
	exporter_close(&e);
}
END_TEST

/* fork+exec: a new program image imports by the key it was given. */
START_TEST(test_exec_importer)
{
	int npu = _i, p[2], st;
	struct exporter e;
	uint64_t key[2];
	char c, args[4][40];
	pid_t pid;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	exporter_open(&e, npu, 9);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, e.len, 0, key), 0);
	snprintf(args[0], sizeof(args[0]), "%d", npu);
	snprintf(args[1], sizeof(args[1]), "%016" PRIx64 "%016" PRIx64, key[0], key[1]);
	snprintf(args[2], sizeof(args[2]), "%" PRIu64, e.dev);
	snprintf(args[3], sizeof(args[3]), "%zu", e.len);
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		if (read(p[0], &c, 1) != 1)
			_exit(9);
		execl("/proc/self/exe", "t_ipc", "--import", args[0], args[1],
		      args[2], args[3], (char *)NULL);
		_exit(8);
	}
	close(p[0]);
	ck_assert_int_eq(ipc_set_pid(e.fd, key, pid), 0);
	ck_assert_int_eq(write(p[1], "g", 1), 1);
	close(p[1]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	check_seed(&e, 10);
	exporter_close(&e);
}
END_TEST

/* The exporter revokes, frees, or dies: imports stay, new ones are refused. */
START_TEST(test_exporter_goes)
{
	int npu = _i % 3, how = _i / 3, sv[2], st;
	size_t len = len_of(npu);
	unsigned char *want = malloc(len), *got = calloc(1, len);
	struct npu_raw_queue q;
	uint64_t key[2], dev, addr, size;
	pid_t pid;
	int fd;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	ck_assert_int_eq(pipe(sv), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct exporter e;

		exporter_open(&e, npu, 21);
		if (ipc_export(e.fd, e.dev, e.len, NPU_DMA_IPC_F_NO_PID_CHECK, key) ||
		    write(sv[1], key, sizeof(key)) != sizeof(key) ||
		    write(sv[1], &e.dev, sizeof(e.dev)) != sizeof(e.dev))
			_exit(1);
		pause();	/* until killed */
		_exit(2);
	}
	close(sv[1]);
	ck_assert_int_eq(read(sv[0], key, sizeof(key)), sizeof(key));
	ck_assert_int_eq(read(sv[0], &dev, sizeof(dev)), sizeof(dev));
	close(sv[0]);
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(ipc_import(fd, key, &addr, &size), 0);
	ck_assert_uint_eq(addr, dev);
	/* A second import of the same memory into one file: refused. */
	{
		uint64_t a2, s2;

		ck_assert_int_eq(ipc_import(fd, key, &a2, &s2), -EEXIST);
	}
	if (how == 0) {
		ck_assert_int_eq(kill(pid, SIGKILL), 0);
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	}
	pattern(want, len, 21);
	ck_assert_int_eq(host_copy(&q, addr, got, len, 0), 0);
	ck_assert_int_eq(memcmp(want, got, len), 0);
	if (how == 0) {
		/* Its key died with it. */
		ck_assert_int_eq(ipc_close_import(fd, addr), 0);
		ck_assert_int_eq(ipc_import(fd, key, &addr, &size), -ENOENT);
	} else {
		ck_assert_int_eq(kill(pid, SIGKILL), 0);
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert_int_eq(ipc_close_import(fd, addr), 0);
	}
	ck_assert_int_eq(ipc_close_import(fd, addr), -ENOENT);
	npu_raw_queue_destroy(&q);
	close(fd);
	free(want);
	free(got);
}
END_TEST

/* Revoked or freed by the exporter: no new import, the old one works. */
START_TEST(test_revoke_and_free)
{
	int npu = _i;
	struct exporter e;
	uint64_t key[2], key2[2], addr, size;
	size_t len;
	unsigned char *want, *got;
	struct npu_raw_queue q;
	int fd;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	exporter_open(&e, npu, 31);
	len = e.len;
	want = malloc(len);
	got = calloc(1, len);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, len, NPU_DMA_IPC_F_NO_PID_CHECK, key), 0);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, len, NPU_DMA_IPC_F_NO_PID_CHECK, key2), 0);
	ck_assert(key[0] != key2[0] || key[1] != key2[1]);
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(ipc_import(fd, key, &addr, &size), 0);
	ck_assert_int_eq(ipc_revoke(e.fd, key), 0);
	/* The importer's file cannot revoke the exporter's key. */
	ck_assert_int_eq(ipc_revoke(fd, key2), -ENOENT);
	ck_assert_int_eq(ipc_set_pid(fd, key2, getpid()), -ENOENT);
	ck_assert_int_eq(ipc_close_import(fd, addr), 0);
	ck_assert_int_eq(ipc_import(fd, key, &addr, &size), -ENOENT);
	ck_assert_int_eq(ipc_import(fd, key2, &addr, &size), 0);
	/* The owner frees the memory: key2 goes, the import stays. */
	ck_assert_int_eq(npu_raw_free(e.fd, e.handle), 0);
	ck_assert_int_eq(ipc_revoke(e.fd, key2), -ENOENT);
	pattern(want, len, 31);
	ck_assert_int_eq(host_copy(&q, addr, got, len, 0), 0);
	ck_assert_int_eq(memcmp(want, got, len), 0);
	ck_assert_int_eq(ipc_close_import(fd, addr), 0);
	npu_raw_queue_destroy(&q);
	close(fd);
	exporter_close(&e);
	free(want);
	free(got);
}
END_TEST

/* The window: a page inside a larger allocation, nothing around it. */
START_TEST(test_window)
{
	int npu = nr_npus - 1, fd;
	struct exporter e;
	uint64_t key[2], addr, size, dev, pg = 4096;
	struct npu_raw_queue q;
	unsigned char *got = malloc(LEN), *want = malloc(LEN);

	T_SKIP_UNLESS(infos[npu].backend == NPU_DMA_BACKEND_SIM, "needs a sim NPU");
	exporter_open(&e, npu, 41);
	/* Bytes 100..(pg + 99): two whole pages. */
	ck_assert_int_eq(ipc_export(e.fd, e.dev + pg + 100, pg,
				    NPU_DMA_IPC_F_NO_PID_CHECK, key), 0);
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(ipc_import(fd, key, &addr, &size), 0);
	ck_assert_uint_eq(addr, e.dev + pg);
	ck_assert_uint_eq(size, 2 * pg);
	pattern(want, LEN, 41);
	ck_assert_int_eq(host_copy(&q, addr, got, size, 0), 0);
	ck_assert_int_eq(memcmp(want + pg, got, size), 0);
	ck_assert_int_eq(host_copy(&q, addr - 1, got, 1, 0), -EFAULT);
	ck_assert_int_eq(host_copy(&q, addr + size, got, 1, 0), -EFAULT);
	/* Another allocation can take the file's free addresses around it. */
	ck_assert_int_eq(npu_raw_alloc(fd, pg, NPU_DMA_MEM_NORMAL_ONLY, &dev,
				       &(uint32_t){ 0 }), 0);
	ck_assert_int_eq(ipc_close_import(fd, addr), 0);
	npu_raw_queue_destroy(&q);
	close(fd);
	exporter_close(&e);
	free(got);
	free(want);
}
END_TEST

/* Closing an import with copies queued: they finish, nothing leaks. */
START_TEST(test_close_with_copies_queued)
{
	int npu = nr_npus - 1, fd, i;
	struct exporter e;
	uint64_t key[2], addr, size, seq = 0, dev;
	struct npu_raw_queue q;
	uint32_t h;

	T_SKIP_UNLESS(infos[npu].backend == NPU_DMA_BACKEND_SIM, "needs a sim NPU");
	exporter_open(&e, npu, 51);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, e.len, NPU_DMA_IPC_F_NO_PID_CHECK, key), 0);
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 64, &q), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, e.len, NPU_DMA_MEM_NORMAL_ONLY, &dev, &h), 0);
	ck_assert_int_eq(ipc_import(fd, key, &addr, &size), 0);
	for (i = 0; i < 48; i++) {
		struct npu_dma_desc d = npu_raw_copy(dev, addr, e.len, 0);

		seq = npu_raw_push(&q, &d);
	}
	ck_assert_int_ge(npu_raw_submit(&q), 0);
	ck_assert_int_eq(ipc_close_import(fd, addr), 0);
	ck_assert_int_eq(ipc_revoke(e.fd, key), 0);
	ck_assert_int_eq(npu_raw_free(e.fd, e.handle), 0);
	ck_assert_int_eq(npu_raw_wait(&q, seq, 20000), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 0);
	npu_raw_queue_destroy(&q);
	close(fd);
	exporter_close(&e);
}
END_TEST

START_TEST(test_refusals)
{
	struct exporter e;
	uint64_t key[2], bad[2] = { 1, 2 }, addr, size;
	struct npu_dma_ipc_export x;
	struct npu_dma_ipc_set_pids sp;
	struct npu_dma_ipc_import im;
	struct npu_dma_ipc_close c;
	int32_t pids[2] = { getpid(), 0 };
	int other = -1, fd;

	exporter_open(&e, 0, 61);
	/* Outside any allocation, past its end, zero bytes, bad flags. */
	ck_assert_int_eq(ipc_export(e.fd, e.dev + e.len, 1, 0, key), -EFAULT);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, e.len + 1, 0, key), -EFAULT);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, 0, 0, key), -EINVAL);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, UINT64_MAX, 0, key), -EINVAL);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, e.len, 4, key), -EINVAL);
	x = (struct npu_dma_ipc_export){ .dev_addr = e.dev, .size = 1, .reserved[1] = 1 };
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &x), -EINVAL);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, e.len, 0, key), 0);
	/* Pid lists: none, a dead pid, a zero, too many, a bad pointer. */
	sp = (struct npu_dma_ipc_set_pids){ .key = { key[0], key[1] },
					    .pids = (uintptr_t)pids, .count = 0 };
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_IPC_SET_PIDS, &sp), -EINVAL);
	sp.count = 2;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_IPC_SET_PIDS, &sp), -EINVAL);
	sp.count = NPU_DMA_IPC_MAX_PIDS + 1;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_IPC_SET_PIDS, &sp), -EINVAL);
	sp.count = 1;
	sp.pids = 8;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_IPC_SET_PIDS, &sp), -EFAULT);
	ck_assert_int_eq(ipc_set_pid(e.fd, key, 0x3ffffff0), -ESRCH);
	ck_assert_int_eq(ipc_set_pid(e.fd, bad, getpid()), -ENOENT);
	/* Import: unknown key, output fields set, another NPU's key. */
	ck_assert_int_eq(ipc_import(e.fd, bad, &addr, &size), -ENOENT);
	im = (struct npu_dma_ipc_import){ .key = { key[0], key[1] }, .size = 1 };
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &im), -EINVAL);
	if (nr_npus > 1) {
		other = npu_raw_open(1);
		ck_assert_int_eq(ipc_set_pid(e.fd, key, getpid()), 0);
		ck_assert_int_eq(ipc_import(other, key, &addr, &size), -EXDEV);
		close(other);
	}
	/* Close: neither or both kinds, an address that is no import. */
	c = (struct npu_dma_ipc_close){ .flags = 0 };
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_IPC_CLOSE, &c), -EINVAL);
	c.flags = NPU_DMA_IPC_CLOSE_EXPORT | NPU_DMA_IPC_CLOSE_IMPORT;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_IPC_CLOSE, &c), -EINVAL);
	ck_assert_int_eq(ipc_close_import(e.fd, e.dev), -ENOENT);
	/* Another process's file cannot be used for any of it. */
	fd = npu_raw_open(0);
	ck_assert_int_eq(ipc_revoke(fd, key), -ENOENT);
	close(fd);
	exporter_close(&e);
}
END_TEST

/*
 * The exporting file imports its own share as a handle: refused with
 * -EEXIST, as the file holds the allocation already (CANN forbids the
 * exporting process to import its own shareable handle). A second handle
 * of its own allocation would free the allocation's range at its close
 * (found by t_fuzz). The allocation, its handle and its shares stay.
 */
START_TEST(test_own_handle_import)
{
	struct npu_dma_ipc_import im = { .flags = NPU_DMA_IPC_IMPORT_F_HANDLE };
	struct npu_dma_mem_info mi = { 0 };
	struct exporter e;
	uint64_t key[2], key2[2];
	int npu = _i;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	exporter_open(&e, npu, 61);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, e.len, NPU_DMA_IPC_F_NO_PID_CHECK, key), 0);
	im.key[0] = key[0];
	im.key[1] = key[1];
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &im), -EEXIST);
	ck_assert_uint_eq(im.handle, 0);
	/* The allocation is still the file's, at its address, and still shared. */
	check_seed(&e, 61);
	ck_assert_int_eq(ipc_export(e.fd, e.dev, e.len, 0, key2), 0);
	mi.handle = e.handle;
	ck_assert_int_eq(npu_raw_ioctl(e.fd, DRM_IOCTL_NPU_DMA_MEM_INFO, &mi), 0);
	ck_assert_uint_eq(mi.dev_addr, e.dev);
	ck_assert_int_eq(ipc_revoke(e.fd, key), 0);
	ck_assert_int_eq(npu_raw_free(e.fd, e.handle), 0);
	exporter_close(&e);
}
END_TEST

/*
 * A handle import (NPU_DMA_IPC_IMPORT_F_HANDLE) of a key nobody shares is
 * refused like any other import of it. Found by t_fuzz: the kernel
 * dereferenced the share it did not find (a NULL pointer oops in
 * npu_dma_ipc_import_ioctl(), fixed).
 */
START_TEST(test_handle_import_unknown_key)
{
	struct npu_dma_ipc_import im = {
		.key = { 0x1234567890abcdefULL, 0x0fedcba987654321ULL },
		.flags = NPU_DMA_IPC_IMPORT_F_HANDLE,
	};
	int fd = npu_raw_open(0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &im), -ENOENT);
	close(fd);
}
END_TEST

static Suite *ipc_suite(void)
{
	Suite *s = suite_create("ipc");
	TCase *tc = tcase_create("ipc");

	tcase_set_timeout(tc, 300);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_allowed_child, 0, 3);
	tcase_add_loop_test(tc, test_not_allowed, 0, 3);
	tcase_add_loop_test(tc, test_no_pid_check, 0, 3);
	tcase_add_loop_test(tc, test_exec_importer, 0, 3);
	tcase_add_loop_test(tc, test_exporter_goes, 0, 6);
	tcase_add_loop_test(tc, test_revoke_and_free, 0, 3);
	tcase_add_test(tc, test_window);
	tcase_add_test(tc, test_close_with_copies_queued);
	tcase_add_test(tc, test_refusals);
	tcase_add_loop_test(tc, test_own_handle_import, 0, 3);
	tcase_add_test(tc, test_handle_import_unknown_key);
	suite_add_tcase(s, tc);
	return s;
}

/* t_ipc --import NPU KEY ADDR LEN: the exec'ed importer's side. */
static int exec_importer(char **argv)
{
	uint64_t key[2];
	char hi[17];

	if (strlen(argv[1]) != 32)
		return 7;
	memcpy(hi, argv[1], 16);
	hi[16] = 0;
	key[0] = strtoull(hi, NULL, 16);
	key[1] = strtoull(argv[1] + 16, NULL, 16);
	return importer(atoi(argv[0]), key, strtoull(argv[2], NULL, 10),
			strtoul(argv[3], NULL, 10), 9, 0);
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "--import"))
		return exec_importer(argv + 2);
	return t_run_suite(ipc_suite());
}
