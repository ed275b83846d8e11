// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: isolation between processes.
 *
 * An owner process holds device memory (with a pattern in it), a host
 * registration and a queue parked at a barrier on one NPU. Another
 * process, under another uid, the same uid or root, opens every NPU and
 * tries to free, read, write, fill, 2-D-copy and wait on all of it, by
 * the owner's exact addresses and ids and by guessing (the device address
 * space is predictable: mem_base of each NPU); each attempt must fail with
 * its errno, and afterwards the owner finds its memory intact and its
 * queue working.
 *
 * A file used by any process but its opener (inherited through fork, or
 * received over a UNIX socket): GET_INFO works, every other ioctl of the
 * driver, GEM_CLOSE and PRIME export of the opener's memory, and every
 * mmap return -EPERM, the opener keeps working, and when the last holder
 * closes it everything is released.
 *
 * Device node permissions: the NPUs' DRM render nodes (accel nodes where
 * the kernel has them) as devtmpfs creates them are root's; given to a
 * group the way packaging/udev/70-npu-dma.rules does, a member of the
 * group opens them and a process outside it gets -EACCES.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define MAX_NPUS	8
#define OWN_LEN		(64 << 10)
#define UID_A		1000
#define UID_B		1001
#define NPU_GID		4711	/* stands in for the udev rule's group "npu" */

static int nr_npus;
static struct npu_dma_info infos[MAX_NPUS];

/* What the owner tells the other process (all of it guessable anyway). */
struct owner_info {
	int npu;
	uint32_t queue_id;
	uint32_t handle;		/* GEM handle of dev in the owner's file */
	uint64_t dev, dev_size;
	uint64_t reg, reg_size;
	uint64_t mmap_offset;		/* of a queue area nobody mapped */
	uint64_t events_offset, events_size;
};

static void find_npus(void)
{
	nr_npus = t_find_npus(infos, MAX_NPUS);
}

static void *anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

/* The NPUs' DRM nodes: every test leaves them as it found them. */
static struct npu_node nodes[MAX_NPUS];
static struct stat node_st[MAX_NPUS];

static void nodes_save(void)
{
	int i;

	find_npus();
	for (i = 0; i < nr_npus; i++) {
		ck_assert(t_npu_find(i, &nodes[i]));
		ck_assert_int_eq(stat(nodes[i].node, &node_st[i]), 0);
	}
}

static void nodes_set(uid_t uid, gid_t gid, mode_t mode)
{
	int i;

	for (i = 0; i < nr_npus; i++) {
		ck_assert_int_eq(chown(nodes[i].node, uid, gid), 0);
		ck_assert_int_eq(chmod(nodes[i].node, mode), 0);
	}
}

static void nodes_restore(void)
{
	int i;

	for (i = 0; i < nr_npus; i++)
		if (chown(nodes[i].node, node_st[i].st_uid, node_st[i].st_gid) ||
		    chmod(nodes[i].node, node_st[i].st_mode & 07777))
			perror(nodes[i].node);
}

static void become(uid_t uid, gid_t gid, int with_npu_group)
{
	gid_t groups[1] = { NPU_GID };

	if (uid == 0)
		return;
	ck_assert_int_eq(setgroups(with_npu_group, groups), 0);
	ck_assert_int_eq(setresgid(gid, gid, gid), 0);
	ck_assert_int_eq(setresuid(uid, uid, uid), 0);
}

static int run_err(struct npu_raw_queue *q, struct npu_dma_desc d)
{
	return npu_raw_run(q, &d);
}

/*
 * The owner: memory with a pattern, a registration, a queue parked at a
 * barrier; publishes them on up, waits for a byte on down, then checks
 * everything is as it left it. Exit status 0 if so.
 */
static void owner(int npu, uid_t uid, int up, int down)
{
	uint8_t *host = anon(2 * OWN_LEN);
	struct npu_raw_queue q;
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_HOST_BARRIER };
	struct owner_info oi = { .npu = npu };
	struct npu_dma_info info;
	uint64_t bseq;
	char c;
	int fd;

	become(uid, uid, 0);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	oi.events_offset = info.events_offset;
	oi.events_size = info.events_size;
	ck_assert_int_eq(npu_raw_alloc(fd, OWN_LEN, NPU_DMA_MEM_NORMAL_ONLY, &oi.dev,
				       &oi.handle), 0);
	oi.dev_size = OWN_LEN;
	ck_assert_int_eq(npu_raw_register(fd, host, 2 * OWN_LEN, 0), 0);
	oi.reg = (uintptr_t)host;
	oi.reg_size = 2 * OWN_LEN;
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	oi.queue_id = q.id;
	oi.mmap_offset = 0;
	t_pattern_fill(host, OWN_LEN, 0x15);
	ck_assert_int_eq(run_err(&q, npu_raw_copy(oi.dev, oi.reg, OWN_LEN,
						   NPU_DMA_DESC_F_SRC_HOST)), 0);
	/* A queue with work parked behind a barrier, for the other to poke. */
	bseq = npu_raw_push(&q, &d);
	ck_assert_int_ge(npu_raw_submit(&q), 0);
	{
		struct npu_dma_queue_create qc = { .entries = 16, .eventfd = -1 };

		ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &qc), 0);
		oi.mmap_offset = qc.mmap_offset;
	}
	ck_assert_int_eq(write(up, &oi, sizeof(oi)), (ssize_t)sizeof(oi));
	ck_assert_int_eq(read(down, &c, 1), 1);

	/* Still parked, released only by us; then memory read back intact. */
	ck_assert_uint_eq(q.ctrl->barrier_seq, bseq);
	ck_assert_uint_lt(q.ctrl->completed_seq, bseq);
	{
		struct npu_dma_barrier_release b = { .queue_id = q.id, .seq = bseq };

		ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &b), 0);
	}
	ck_assert_int_eq(npu_raw_wait(&q, bseq, 60000), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 0);
	ck_assert_int_eq(run_err(&q, npu_raw_copy(oi.reg + OWN_LEN, oi.dev, OWN_LEN,
						   NPU_DMA_DESC_F_DST_HOST)), 0);
	ck_assert_uint_eq(t_pattern_check(host + OWN_LEN, OWN_LEN, 0x15), OWN_LEN);
	ck_assert_int_eq(npu_raw_free(fd, oi.handle), 0);
	npu_raw_queue_destroy(&q);
	close(fd);
	_exit(0);
}

/* Every way of naming the owner's memory from this NPU's file fails. */
static void attack_npu(int j, const struct owner_info *oi)
{
	const uint16_t dh = NPU_DMA_DESC_F_DST_HOST, sh = NPU_DMA_DESC_F_SRC_HOST;
	uint8_t *space = anon(6 * OWN_LEN), *host = space;
	struct npu_dma_info *inf = &infos[j];
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint64_t mine, a, step;
	uint32_t mine_h, h;
	int fd, n = 0;

	/*
	 * Forked from the same parent, this process may map its buffer at
	 * the owner's address: skip past it, so that what we name there is
	 * the owner's registration and not one of our own. Three slots of
	 * 2 * OWN_LEN: the owner's range meets two at most.
	 */
	while ((uintptr_t)host < oi->reg + oi->reg_size &&
	       (uintptr_t)host + 2 * OWN_LEN > oi->reg)
		host += 2 * OWN_LEN;
	fd = npu_raw_open(j);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(npu_raw_alloc(fd, 4096, NPU_DMA_MEM_NORMAL_ONLY, &mine, &mine_h), 0);
	ck_assert_int_eq(npu_raw_register(fd, host, OWN_LEN, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(fd, 64, &q), 0);

	/*
	 * Free: handles are per file, so the owner's handle number names
	 * nothing here but, at most, our own allocation. Every other small
	 * handle (the owner's among them) and its address are refused.
	 */
	for (h = 1; h <= 64; h++)
		if (h != mine_h)
			ck_assert_int_eq(npu_raw_free(fd, h), -EINVAL);
	ck_assert_int_eq(npu_raw_free(fd, (uint32_t)oi->dev), -EINVAL);
	/* Read, write, fill, 2-D copy the owner's memory (same NPU or peer). */
	ck_assert_int_eq(run_err(&q, npu_raw_copy((uintptr_t)host, oi->dev, 64, dh)), -EFAULT);
	ck_assert_int_eq(run_err(&q, npu_raw_copy(oi->dev, (uintptr_t)host, 64, sh)), -EFAULT);
	ck_assert_int_eq(run_err(&q, npu_raw_copy(mine, oi->dev, 64, 0)), -EFAULT);
	ck_assert_int_eq(run_err(&q, npu_raw_copy(oi->dev, mine, 64, 0)), -EFAULT);
	d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_FILL, .fill_size = 1,
				   .dst = oi->dev, .len = 64, .value = 0xee };
	ck_assert_int_eq(npu_raw_run(&q, &d), -EFAULT);
	d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_COPY_2D, .height = 2,
				   .src = oi->dev, .dst = mine, .len = 16,
				   .src_pitch = 32, .dst_pitch = 16 };
	ck_assert_int_eq(npu_raw_run(&q, &d), -EFAULT);
	/* Pageable host memory: the device side is still the owner's. */
	ck_assert_int_eq(run_err(&q, npu_raw_copy((uintptr_t)host + OWN_LEN, oi->dev, 64,
						   dh | NPU_DMA_DESC_F_DST_PAGEABLE)), -EFAULT);

	/* Guessing: every page of the owner's allocation, a sweep of the NPU. */
	for (a = oi->dev; a < oi->dev + oi->dev_size; a += 4096, n++)
		ck_assert_int_eq(run_err(&q, npu_raw_copy((uintptr_t)host, a, 1, dh)), -EFAULT);
	step = inf->mem_size / 128 > 4096 ? inf->mem_size / 128 : 4096;
	for (a = inf->mem_base; a < inf->mem_base + inf->mem_size; a += step, n++) {
		if (a >= mine && a < mine + 4096)
			continue;
		ck_assert_int_eq(run_err(&q, npu_raw_copy((uintptr_t)host, a, 1, dh)), -EFAULT);
		ck_assert_int_eq(run_err(&q, npu_raw_copy(a, (uintptr_t)host, 1, sh)), -EFAULT);
	}
	ck_assert_int_gt(n, 16);

	/* The owner's registration is not ours, whatever lives at that address. */
	ck_assert_int_eq(npu_raw_unregister(fd, (void *)(uintptr_t)oi->reg), -EINVAL);
	ck_assert_int_eq(run_err(&q, npu_raw_copy(mine, oi->reg, 64, sh)), -EFAULT);
	ck_assert_int_eq(run_err(&q, npu_raw_copy(oi->reg, mine, 64, dh)), -EFAULT);

	/* The owner's queue: no submit, destroy, release, wait or mapping. */
	{
		struct npu_dma_queue_submit s = { .queue_id = oi->queue_id };
		struct npu_dma_queue_destroy x = { .queue_id = oi->queue_id };
		struct npu_dma_barrier_release b = { .queue_id = oi->queue_id, .seq = 2 };

		ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &s), -ENOENT);
		ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &x), -ENOENT);
		ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &b), -ENOENT);
	}
	d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_WAIT, .wait_queue = oi->queue_id,
				   .value = 1 };
	ck_assert_int_eq(npu_raw_run(&q, &d), -ENOENT);
	/*
	 * The owner's queue area and event table: GEM fake offsets of the
	 * owner's NPU, which another file may not map (-EACCES). On another
	 * NPU the numbers are that NPU's own offsets and name nothing of the
	 * owner's.
	 */
	if (j == oi->npu) {
		ck_assert_ptr_eq(mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				      (off_t)oi->mmap_offset), MAP_FAILED);
		ck_assert_int_eq(errno, EACCES);
		ck_assert_ptr_eq(mmap(NULL, oi->events_size, PROT_READ, MAP_SHARED, fd,
				      (off_t)oi->events_offset), MAP_FAILED);
		ck_assert_int_eq(errno, EACCES);
	}

	/* Our own memory still works: the refusals were not blanket ones. */
	t_pattern_fill(host, 4096, 0x33);
	ck_assert_int_eq(run_err(&q, npu_raw_copy(mine, (uintptr_t)host, 4096, sh)), 0);
	ck_assert_int_eq(run_err(&q, npu_raw_copy((uintptr_t)host + 4096, mine, 4096, dh)), 0);
	ck_assert_uint_eq(t_pattern_check(host + 4096, 4096, 0x33), 4096);
	npu_raw_queue_destroy(&q);
	close(fd);
	munmap(space, 6 * OWN_LEN);
}

static void attacker(const struct owner_info *oi, uid_t uid)
{
	int j;

	become(uid, uid, 0);
	for (j = 0; j < nr_npus; j++) {
		/* edu copies cost 100 ms each: the sweep runs on the owner's NPU. */
		if (infos[j].backend == NPU_DMA_BACKEND_EDU && j != oi->npu)
			continue;
		attack_npu(j, oi);
	}
	_exit(0);
}

static void owner_vs_other(int npu, uid_t owner_uid, uid_t other_uid)
{
	struct owner_info oi;
	struct t_state start;
	int up[2], down[2], st;
	pid_t po, pa;

	t_state_get(&start, nr_npus);
	nodes_set(0, 0, 0666);
	ck_assert_int_eq(pipe(up), 0);
	ck_assert_int_eq(pipe(down), 0);
	po = fork();
	ck_assert_int_ge(po, 0);
	if (po == 0)
		owner(npu, owner_uid, up[1], down[0]);
	ck_assert_int_eq(read(up[0], &oi, sizeof(oi)), (ssize_t)sizeof(oi));
	pa = fork();
	ck_assert_int_ge(pa, 0);
	if (pa == 0)
		attacker(&oi, other_uid);
	ck_assert_int_eq(waitpid(pa, &st, 0), pa);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "other process: status %#x", st);
	ck_assert_int_eq(write(down[1], "x", 1), 1);
	ck_assert_int_eq(waitpid(po, &st, 0), po);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "owner: status %#x", st);
	nodes_restore();
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
	ck_assert(t_state_back(&start));
}

static int npu_for(int i)
{
	/* Loop index i: one edu NPU (if any) and one sim NPU. */
	uint32_t want = i ? NPU_DMA_BACKEND_SIM : NPU_DMA_BACKEND_EDU;
	int j;

	for (j = 0; j < nr_npus; j++)
		if (infos[j].backend == want)
			return j;
	return -1;
}

START_TEST(test_other_uid)
{
	int npu = npu_for(_i);

	if (npu >= 0)
		owner_vs_other(npu, UID_A, UID_B);
}
END_TEST

START_TEST(test_same_uid)
{
	int npu = npu_for(_i);

	if (npu >= 0)
		owner_vs_other(npu, UID_A, UID_A);
}
END_TEST

START_TEST(test_root_is_no_exception)
{
	int npu = npu_for(_i);

	if (npu >= 0)
		owner_vs_other(npu, UID_A, 0);
}
END_TEST

/*
 * A process that holds the opener's file but is not the opener: only
 * GET_INFO. GEM_CLOSE, which frees device memory in ABI v2, and a PRIME
 * export or import are refused like the driver's own ioctls. Returns 0
 * if every check held (it runs in a child).
 */
static int foreign_battery(int fd, const struct owner_info *oi)
{
	struct npu_dma_info info;
	struct npu_dma_mem_alloc a = { .size = 4096 };
	struct drm_gem_close f = { .handle = oi->handle };
	struct drm_prime_handle ph = { .handle = oi->handle,
				       .flags = DRM_CLOEXEC | DRM_RDWR, .fd = -1 };
	struct npu_dma_host_register r = { .addr = oi->reg, .size = 4096 };
	struct npu_dma_host_unregister u = { .addr = oi->reg };
	struct npu_dma_queue_create c = { .entries = 16, .eventfd = -1 };
	struct npu_dma_queue_destroy x = { .queue_id = oi->queue_id };
	struct npu_dma_queue_submit s = { .queue_id = oi->queue_id };
	struct npu_dma_barrier_release b = { .queue_id = oi->queue_id, .seq = 1 };
	struct npu_dma_desc gd = { .opcode = NPU_DMA_OP_NOP };
	struct npu_dma_graph_create g = { .descs = (uintptr_t)&gd, .count = 1 };
	struct npu_dma_graph_destroy gx = { .graph_id = 1 };
	struct { unsigned long cmd; void *arg; const char *name; } calls[] = {
		{ DRM_IOCTL_NPU_DMA_MEM_ALLOC, &a, "MEM_ALLOC" },
		{ DRM_IOCTL_GEM_CLOSE, &f, "GEM_CLOSE" },
		{ DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph, "PRIME_HANDLE_TO_FD" },
		{ DRM_IOCTL_NPU_DMA_HOST_REGISTER, &r, "HOST_REGISTER" },
		{ DRM_IOCTL_NPU_DMA_HOST_UNREGISTER, &u, "HOST_UNREGISTER" },
		{ DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &c, "QUEUE_CREATE" },
		{ DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, &x, "QUEUE_DESTROY" },
		{ DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &s, "QUEUE_SUBMIT" },
		{ DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &b, "BARRIER_RELEASE" },
		{ DRM_IOCTL_NPU_DMA_GRAPH_CREATE, &g, "GRAPH_CREATE" },
		{ DRM_IOCTL_NPU_DMA_GRAPH_DESTROY, &gx, "GRAPH_DESTROY" },
	};
	const off_t offs[] = { (off_t)oi->events_offset, (off_t)oi->mmap_offset };
	const size_t sizes[] = { oi->events_size, 8192 };
	uint8_t *buf = anon(4096);
	unsigned int i;
	int bad = 0, ret;
	void *p;

	if (npu_raw_info(fd, &info) || (int)info.index != oi->npu) {
		fprintf(stderr, "foreign: GET_INFO failed\n");
		bad = 1;
	}
	r.addr = (uintptr_t)buf;
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		ret = npu_raw_ioctl(fd, calls[i].cmd, calls[i].arg);
		if (ret != -EPERM) {
			fprintf(stderr, "foreign: %s returned %d, not -EPERM\n", calls[i].name, ret);
			bad = 1;
		}
	}
	if (ph.fd >= 0)
		close(ph.fd);
	for (i = 0; i < 2; i++) {
		p = mmap(NULL, sizes[i], PROT_READ, MAP_SHARED, fd, offs[i]);
		if (p != MAP_FAILED || errno != EPERM) {
			fprintf(stderr, "foreign: mmap at %#lx not refused with EPERM\n",
				(unsigned long)offs[i]);
			bad = 1;
		}
	}
	return bad;
}

/* The opener's resources, made in this process on fd. */
static void make_resources(int fd, int npu, struct owner_info *oi, uint8_t *host,
			   struct npu_raw_queue *q)
{
	struct npu_dma_queue_create c = { .entries = 16, .eventfd = -1 };
	struct npu_dma_info info;

	oi->npu = npu;
	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	oi->events_offset = info.events_offset;
	oi->events_size = info.events_size;
	ck_assert_int_eq(npu_raw_alloc(fd, 4096, NPU_DMA_MEM_NORMAL_ONLY, &oi->dev,
				       &oi->handle), 0);
	ck_assert_int_eq(npu_raw_register(fd, host, 8192, 0), 0);
	oi->reg = (uintptr_t)host;
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, q), 0);
	oi->queue_id = q->id;
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_QUEUE_CREATE, &c), 0);
	oi->mmap_offset = c.mmap_offset;
}

/* The opener still copies byte-exact. */
static void opener_works(struct npu_raw_queue *q, const struct owner_info *oi, uint8_t *host)
{
	t_pattern_fill(host, 4096, 0x42);
	memset(host + 4096, 0, 4096);
	ck_assert_int_eq(run_err(q, npu_raw_copy(oi->dev, oi->reg, 4096,
						  NPU_DMA_DESC_F_SRC_HOST)), 0);
	ck_assert_int_eq(run_err(q, npu_raw_copy(oi->reg + 4096, oi->dev, 4096,
						  NPU_DMA_DESC_F_DST_HOST)), 0);
	ck_assert_uint_eq(t_pattern_check(host + 4096, 4096, 0x42), 4096);
}

START_TEST(test_fd_inherited_through_fork)
{
	int npu = npu_for(_i), fd, st;
	uint8_t *host = anon(8192);
	struct npu_raw_queue q;
	struct owner_info oi;
	struct t_state start;
	pid_t pid;

	T_SKIP_UNLESS(npu >= 0, "no NPU for case %d", _i);
	t_state_get(&start, nr_npus);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	make_resources(fd, npu, &oi, host, &q);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(foreign_battery(fd, &oi));
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child: status %#x", st);
	opener_works(&q, &oi, host);
	/* A child of a child, with the parent's file: the same. */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		pid_t g = fork();

		if (g == 0)
			_exit(foreign_battery(fd, &oi));
		_exit(waitpid(g, &st, 0) == g && WIFEXITED(st) ? WEXITSTATUS(st) : 1);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "grandchild: status %#x", st);
	opener_works(&q, &oi, host);
	npu_raw_queue_destroy(&q);
	close(fd);
	ck_assert(t_state_back(&start));
}
END_TEST

/*
 * A receiver that never had the file gets it over a UNIX socket: refused.
 * Then the opener closes its copy; the receiver, now the only holder, is
 * still refused, and its close releases everything.
 */
START_TEST(test_fd_passed_over_unix_socket)
{
	int npu = npu_for(_i), sv[2], fd, st;
	uint8_t *host = anon(8192);
	struct npu_raw_queue q;
	struct owner_info oi;
	struct t_state start;
	char c;
	pid_t pid;

	T_SKIP_UNLESS(npu >= 0, "no NPU for case %d", _i);
	t_state_get(&start, nr_npus);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct owner_info got;
		int rfd, bad;

		close(sv[0]);
		become(UID_B, UID_B, 0);
		if (read(sv[1], &got, sizeof(got)) != sizeof(got))
			_exit(2);
		rfd = t_recv_fd(sv[1]);
		if (rfd < 0)
			_exit(3);
		bad = foreign_battery(rfd, &got);
		if (write(sv[1], "1", 1) != 1 || read(sv[1], &c, 1) != 1)
			_exit(4);
		/* The opener has closed its copy: this is the last one. */
		bad |= foreign_battery(rfd, &got);
		close(rfd);
		if (write(sv[1], "2", 1) != 1)
			_exit(4);
		_exit(bad);
	}
	close(sv[1]);
	fd = npu_raw_open(npu);
	ck_assert_int_ge(fd, 0);
	make_resources(fd, npu, &oi, host, &q);
	ck_assert_int_eq(write(sv[0], &oi, sizeof(oi)), (ssize_t)sizeof(oi));
	ck_assert_int_eq(t_send_fd(sv[0], fd), 0);
	ck_assert_int_eq(read(sv[0], &c, 1), 1);
	opener_works(&q, &oi, host);
	/* Unmap and close: the receiver keeps the file (and the context) alive. */
	munmap(q.map, q.map_size);
	close(q.efd);
	close(fd);
	ck_assert_int_eq(write(sv[0], "c", 1), 1);
	ck_assert_int_eq(read(sv[0], &c, 1), 1);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "receiver: status %#x", st);
	close(sv[0]);
	ck_assert(t_state_back(&start));
}
END_TEST

/*
 * The opener is killed while a child holds its file: the child still
 * cannot use it, and its exit releases everything.
 */
START_TEST(test_opener_dies_first)
{
	int npu = npu_for(_i), pidp[2], alive[2], st;
	struct t_state start;
	pid_t opener, child;

	T_SKIP_UNLESS(npu >= 0, "no NPU for case %d", _i);
	t_state_get(&start, nr_npus);
	/* The orphaned child is reparented to us, so we can reap it. */
	ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	ck_assert_int_eq(pipe(pidp), 0);
	ck_assert_int_eq(pipe(alive), 0);
	opener = fork();
	ck_assert_int_ge(opener, 0);
	if (opener == 0) {
		uint8_t *host = anon(8192);
		struct npu_raw_queue q;
		struct owner_info oi;
		int fd = npu_raw_open(npu);
		char c;

		ck_assert_int_ge(fd, 0);
		make_resources(fd, npu, &oi, host, &q);
		child = fork();
		if (child == 0) {
			/* Wait until the opener is gone (the last writer closes). */
			close(alive[1]);
			while (read(alive[0], &c, 1) > 0)
				;
			_exit(foreign_battery(fd, &oi) ? 1 : 0);
		}
		ck_assert_int_eq(write(pidp[1], &child, sizeof(child)), (ssize_t)sizeof(child));
		kill(getpid(), SIGKILL);
	}
	close(alive[0]);
	close(alive[1]);
	close(pidp[1]);
	ck_assert_int_eq(read(pidp[0], &child, sizeof(child)), (ssize_t)sizeof(child));
	close(pidp[0]);
	ck_assert_int_eq(waitpid(opener, &st, 0), opener);
	ck_assert(WIFSIGNALED(st));
	ck_assert_int_eq(waitpid(child, &st, 0), child);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child: status %#x", st);
	ck_assert(t_state_back(&start));
}
END_TEST

/* The udev rule's MODE for the nodes, 0660 if the rule is not there. */
static mode_t rule_mode(void)
{
	const char *proj = getenv("NPU_DMA_PROJECT");
	char path[512], buf[2048], *p;
	unsigned int mode = 0660;

	snprintf(path, sizeof(path), "%s/packaging/udev/70-npu-dma.rules", proj ? proj : ".");
	if (t_read_file(path, buf, sizeof(buf)) == 0) {
		p = strstr(buf, "MODE=\"");
		if (p)
			sscanf(p, "MODE=\"%o\"", &mode);
	}
	return (mode_t)mode;
}

static int open_as(int npu, uid_t uid, int in_group)
{
	pid_t pid = fork();
	int st;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct npu_dma_info info;
		uint64_t dev;
		int fd;

		become(uid, uid, in_group);
		fd = npu_raw_open(npu);
		if (fd < 0)
			_exit(fd == -EACCES ? 10 : 11);
		if (npu_raw_info(fd, &info) || npu_raw_alloc(fd, 4096, 0, &dev, NULL))
			_exit(12);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

START_TEST(test_device_node_group)
{
	mode_t mode = rule_mode();

	ck_assert_uint_eq(mode & 0007, 0);	/* the rule gives nothing to others */
	/* As devtmpfs creates them: root only. */
	ck_assert_uint_eq(node_st[0].st_mode & 0077, 0);
	ck_assert_int_eq(open_as(0, UID_A, 0), 10);
	ck_assert_int_eq(open_as(0, UID_A, 1), 10);
	/* As the rule sets them: the group's members may, others may not. */
	nodes_set(0, NPU_GID, mode);
	ck_assert_int_eq(open_as(0, UID_A, 1), 0);
	ck_assert_int_eq(open_as(nr_npus - 1, UID_B, 1), 0);
	ck_assert_int_eq(open_as(0, UID_A, 0), 10);
	ck_assert_int_eq(open_as(nr_npus - 1, UID_B, 0), 10);
	nodes_restore();
}
END_TEST

static Suite *isolation_suite(void)
{
	Suite *s = suite_create("t_isolation");
	TCase *tp = tcase_create("processes");
	TCase *tf = tcase_create("fd");
	TCase *tn = tcase_create("node");

	tcase_set_timeout(tp, 600);
	tcase_add_unchecked_fixture(tp, nodes_save, nodes_restore);
	tcase_add_loop_test(tp, test_other_uid, 0, 2);
	tcase_add_loop_test(tp, test_same_uid, 0, 2);
	tcase_add_loop_test(tp, test_root_is_no_exception, 1, 2);
	suite_add_tcase(s, tp);

	tcase_set_timeout(tf, 120);
	tcase_add_unchecked_fixture(tf, find_npus, NULL);
	tcase_add_loop_test(tf, test_fd_inherited_through_fork, 0, 2);
	tcase_add_loop_test(tf, test_fd_passed_over_unix_socket, 0, 2);
	tcase_add_loop_test(tf, test_opener_dies_first, 1, 2);
	suite_add_tcase(s, tf);

	tcase_set_timeout(tn, 60);
	tcase_add_unchecked_fixture(tn, nodes_save, nodes_restore);
	tcase_add_test(tn, test_device_node_group);
	suite_add_tcase(s, tn);
	return s;
}

int main(void)
{
	if (geteuid() != 0 || !npu_raw_present())
		return T_EXIT_SKIP;
	return t_run_suite(isolation_suite());
}
