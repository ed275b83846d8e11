// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_fuzz's operations on the objects a file holds: argument mutation,
 * GET_INFO, allocations and GEM handles, host registrations, queues
 * (t_fuzz_worker.h).
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

void mutate_struct(void *s, size_t size)
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

void random_bytes(void *s, size_t size)
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
int fz_call(int fd, unsigned long cmd, void *s, size_t size, int *mutated)
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

void op_info(struct fz_ctx *c)
{
	struct npu_dma_info info = { 0 };
	int mutated, ret;

	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_GET_INFO, &info, sizeof(info), &mutated);
	if (!mutated && ret && !racing)
		fz_fail("GET_INFO on npu %d: %d", c->npu, ret);
}

/* @h was handed out again (or is live): it is no longer a closed one. */
void unclose(struct fz_ctx *c, uint32_t h)
{
	int i;

	for (i = 0; i < c->nr_closed; i++)
		if (c->closed[i] == h) {
			c->closed[i] = c->closed[--c->nr_closed];
			return;
		}
}

void note_closed(struct fz_ctx *c, uint32_t h)
{
	unclose(c, h);
	if (c->nr_closed == MAX_HANDLES)
		c->closed[below(MAX_HANDLES)] = h;
	else
		c->closed[c->nr_closed++] = h;
}

int gem_close(int fd, uint32_t h)
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

void op_alloc(struct fz_ctx *c)
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

/*
 * Forget handle @h of @c once it is closed: an allocation (and the
 * shares of it the kernel revoked), an import, or one never tracked
 * (an allocation whose handle was lost, its shares with it).
 */
void untrack_handle(struct fz_ctx *c, uint32_t h)
{
	int i;

	if (!tracked_handle(c, h))
		share_forget_untracked(c);
	for (i = 0; i < c->nr_alloc; i++)
		if (c->alloc[i].handle == h) {
			share_forget(c, c->alloc[i].addr, c->alloc[i].size);
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

int tracked_handle(const struct fz_ctx *c, uint32_t h)
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
void op_free(struct fz_ctx *c)
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
void host_range(__u64 *addr, __u64 *size, uint64_t cap)
{
	struct fz_buf *b = &bufs[below(NR_BUFS)];
	uint64_t off = below(BUF_LEN - 1);

	if (chance(25) && uffd_buf >= 0)
		b = &bufs[uffd_buf];

	*size = 1 + below(cap < BUF_LEN - off ? cap : BUF_LEN - off);
	*addr = (uintptr_t)b->p + off;
}

int in_arena(uint64_t addr, uint64_t len)
{
	uint64_t base = (uintptr_t)arena;

	return addr >= base && len <= ARENA && addr - base <= ARENA - len;
}

void op_register(struct fz_ctx *c)
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

void op_unregister(struct fz_ctx *c)
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

void op_queue_create(struct fz_ctx *c)
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

void drop_queue(struct fz_ctx *c, int i)
{
	struct fz_queue *q = &c->q[i];

	if (q->map && chance(70))
		munmap(q->map, q->map_size);
	if (q->efd >= 0)
		close(q->efd);
	c->q[i] = c->q[--c->nr_q];
}

void op_queue_destroy(struct fz_ctx *c)
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
