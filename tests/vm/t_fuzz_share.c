// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_fuzz's operations on memory that leaves its file (t_fuzz_worker.h):
 *
 * - MEM_INFO of live, imported, closed and guessed handles;
 * - PRIME imports of our dma-bufs (of this NPU and of others), of vgem's
 *   (when the kernel has vgem) and of fds that are no dma-buf (an
 *   eventfd, a memfd, a pipe, /dev/null, the DRM file itself, numbers
 *   that are not fds), which must be refused;
 * - IPC shares by key: exports of whole allocations, of parts, of
 *   windows running past an allocation's end or starting before it;
 *   pid lists naming us, our parent, init, a reaped child, a thread of
 *   ours, zero and negative numbers, too many, through a bad pointer;
 *   imports of our own keys (into the exporting file: -EEXIST), of other
 *   files' and NPUs' keys, of revoked and random keys, twice; closes of
 *   exports, of imports, of random addresses;
 * - children that open their own file and import a key (allowed or
 *   not), then copy from it after the exporter freed it, revoked it, or
 *   closed its file.
 *
 * The worker's copies name the imported windows (dev_range()), and its
 * racer closes shares and imports and imports keys beside it. Without a
 * racer, every answer whose outcome the worker can know is checked: a
 * window inside an allocation exports, one past it does not; an import
 * works exactly when the pid list or NO_PID_CHECK allows it, and gives
 * the exporter's window; each import is closed once. When a round
 * cleans up, it closes every import it made (share_close_all()).
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "npu_raw.h"
#include "t_fuzz_worker.h"

#define OLD_KEYS	8

/* Keys revoked, or of memory freed or files closed: none imports. */
static uint64_t old_keys[OLD_KEYS][2];
static int nr_old;
/* A child of the worker, reaped: its number names no process (or a later one). */
static pid_t dead_pid;
/* Descriptors that are no dma-buf. */
static int junk[5];
static int nr_junk;
/* A dma-buf of vgem's, or -1. */
static int vgem_buf = -1;
/* A thread of the worker that only sleeps: its tid is no process's. */
static pid_t idle_tid;

/* vgem's node among the card nodes: an fd, or -1. */
static int vgem_node(void)
{
	glob_t g;
	size_t i;
	int fd = -1;

	if (glob("/dev/dri/card*", 0, NULL, &g))
		return -1;
	for (i = 0; i < g.gl_pathc && fd < 0; i++) {
		char name[16] = "";
		struct drm_version v = { .name_len = sizeof(name) - 1, .name = name };

		fd = open(g.gl_pathv[i], O_RDWR | O_CLOEXEC);
		if (fd >= 0 && (ioctl(fd, DRM_IOCTL_VERSION, &v) || strcmp(name, "vgem"))) {
			close(fd);
			fd = -1;
		}
	}
	globfree(&g);
	return fd;
}

/* A 64 KiB dumb buffer of vgem's as a dma-buf (the parent loaded vgem). */
static int vgem_dmabuf(void)
{
	struct drm_mode_create_dumb c = { .width = 16384, .height = 1, .bpp = 32 };
	struct drm_prime_handle ph = { .flags = DRM_CLOEXEC | DRM_RDWR, .fd = -1 };
	int fd = vgem_node();

	if (fd < 0)
		return -1;
	if (!ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c)) {
		ph.handle = c.handle;
		if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph))
			ph.fd = -1;
	}
	close(fd);
	return ph.fd;
}

static void *idle_thread(void *arg)
{
	(void)arg;
	idle_tid = (pid_t)syscall(SYS_gettid);
	for (;;)
		pause();
	return NULL;
}

void fz_share_setup(void)
{
	sigset_t all, old;
	pthread_t t;
	int p[2];
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0 || waitpid(pid, NULL, 0) != pid)
		fz_fail("fork for a dead pid: %d", errno);
	dead_pid = pid;
	nr_junk = 0;
	junk[nr_junk++] = eventfd(0, EFD_CLOEXEC);
	junk[nr_junk++] = memfd_create("t_fuzz", MFD_CLOEXEC);
	junk[nr_junk++] = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (pipe2(p, O_CLOEXEC))
		fz_fail("pipe: %d", errno);
	junk[nr_junk++] = p[0];
	junk[nr_junk++] = p[1];
	vgem_buf = vgem_dmabuf();
	if (vgem_buf >= 0)
		stats->vgem = 1;
	/* Signals are for the main thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (pthread_create(&t, NULL, idle_thread, NULL))
		fz_fail("pthread_create: %d", errno);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	while (!*(volatile pid_t *)&idle_tid)
		sched_yield();
}

static void key_retire(const uint64_t key[2])
{
	memcpy(old_keys[nr_old++ % OLD_KEYS], key, sizeof(old_keys[0]));
}

static void drop_share(struct fz_ctx *c, int i)
{
	key_retire(c->share[i].key);
	c->share[i] = c->share[--c->nr_share];
}

void share_forget(struct fz_ctx *c, uint64_t addr, uint64_t size)
{
	int i;

	for (i = c->nr_share - 1; i >= 0; i--)
		if (c->share[i].addr >= addr && c->share[i].addr - addr < size)
			drop_share(c, i);
}

/*
 * A handle @c did not track was closed: it may have been an allocation
 * whose MEM_ALLOC answer was lost (-EFAULT on the copy-out), and a share
 * exported at a guessed address may lie in it. The kernel revoked those;
 * forget every share outside the allocations @c knows.
 */
void share_forget_untracked(struct fz_ctx *c)
{
	int i, j;

	for (i = c->nr_share - 1; i >= 0; i--) {
		for (j = 0; j < c->nr_alloc; j++)
			if (c->share[i].addr - c->alloc[j].addr < c->alloc[j].size)
				break;
		if (j == c->nr_alloc)
			drop_share(c, i);
	}
}

/*
 * @c's file is closed: its shares are forgotten, not counted dead. The
 * file (and its shares) lives on while a mapping of one of its queues
 * does (drop_queue() leaves some mapped).
 */
void share_forget_ctx(struct fz_ctx *c)
{
	c->nr_share = 0;
	c->nr_mapped = 0;
	c->nr_named = 0;
	c->unsure = 0;
}

int share_dev_range(struct fz_ctx *c, uint64_t len, uint64_t *addr)
{
	struct fz_reg *r;
	int n = c->nr_mapped + c->nr_named, i;

	if (!n)
		return 0;
	i = (int)below(n);
	r = i < c->nr_mapped ? &c->mapped[i] : &c->named[i - c->nr_mapped];
	*addr = len >= r->size ? r->addr : r->addr + below(r->size - len + 1);
	return 1;
}

/* IPC_CLOSE of the share @key, or with NULL, of the import at @addr. */
static int ipc_close(int fd, const void *key, uint64_t addr)
{
	struct npu_dma_ipc_close cl = {
		.flags = key ? NPU_DMA_IPC_CLOSE_EXPORT : NPU_DMA_IPC_CLOSE_IMPORT,
		.dev_addr = addr,
	};

	if (key)
		memcpy(cl.key, key, sizeof(cl.key));
	stats->ipc++;
	return fz_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_CLOSE, &cl);
}

/* Close @c's import @i: it must go, once. */
static void close_mapped(struct fz_ctx *c, int i)
{
	uint64_t addr = c->mapped[i].addr;
	int ret = ipc_close(c->fd, NULL, addr);

	if (!racing && !c->unsure && ret)
		fz_fail("IPC_CLOSE of import %#llx: %d", (unsigned long long)addr, ret);
	if (!ret)
		stats->ipc_closed++;
	c->mapped[i] = c->mapped[--c->nr_mapped];
	if (chance(20)) {
		ret = ipc_close(c->fd, NULL, addr);
		if (!racing && ret != -ENOENT)
			fz_fail("IPC_CLOSE of import %#llx again: %d",
				(unsigned long long)addr, ret);
	}
}

void share_close_all(struct fz_ctx *c)
{
	while (c->nr_mapped)
		close_mapped(c, 0);
}

int dmabuf_importable(int fd, int from_npu, int npu)
{
	off_t size = lseek(fd, 0, SEEK_END);

	/*
	 * A sim NPU's import reaches the pages as they are used; an edu
	 * NPU's maps them all for its DMA, backing each (charged to the
	 * allocation's memory cgroup, as touching them would be): not above
	 * 64 MiB, or one import would fill the guest.
	 */
	return from_npu == npu || infos[npu].backend != NPU_DMA_BACKEND_EDU || size < 0 ||
	       size <= 64 << 20;
}

/*
 * The handle's place: a live allocation's is its own, an imported one's
 * is remembered for copies, a closed one has none.
 */
static void op_mem_info(struct fz_ctx *c)
{
	struct npu_dma_mem_info mi = { 0 };
	int how = (int)below(100), live = -1, imp = 0, closed = 0, mutated, ret;

	if (c->nr_alloc && how < 40) {
		live = (int)below(c->nr_alloc);
		mi.handle = c->alloc[live].handle;
	} else if (c->nr_imported && how < 65) {
		mi.handle = c->imported[below(c->nr_imported)];
		imp = 1;
	} else if (c->nr_closed && how < 80) {
		mi.handle = c->closed[below(c->nr_closed)];
		closed = !tracked_handle(c, mi.handle);
	} else {
		mi.handle = chance(70) ? (uint32_t)below(64) : (uint32_t)interesting(1);
	}
	stats->mem_info++;
	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_MEM_INFO, &mi, sizeof(mi), &mutated);
	if (!ret && imp && c->nr_named < MAX_NAMED) {
		c->named[c->nr_named].addr = mi.dev_addr;
		c->named[c->nr_named++].size = mi.size;
	}
	if (mutated || racing)
		return;
	/* An allocation's only flag: placed in huge pages, then 2 MiB aligned. */
	if (live >= 0 && (ret || mi.dev_addr != c->alloc[live].addr ||
			  mi.size != c->alloc[live].size ||
			  (mi.flags & ~NPU_DMA_MEM_INFO_F_HUGE) ||
			  (mi.flags && (mi.dev_addr | mi.size) % (2ULL << 20))))
		fz_fail("MEM_INFO of allocation %#llx+%#llx: %d, %#llx+%#llx flags %#x",
			(unsigned long long)c->alloc[live].addr,
			(unsigned long long)c->alloc[live].size, ret,
			(unsigned long long)mi.dev_addr, (unsigned long long)mi.size, mi.flags);
	if (imp && (ret || !mi.size || mi.size % PAGE))
		fz_fail("MEM_INFO of imported handle %u: %d, size %#llx", mi.handle, ret,
			(unsigned long long)mi.size);
	if (closed && ret != -ENOENT)
		fz_fail("MEM_INFO of closed handle %u: %d", mi.handle, ret);
}

/*
 * PRIME import of a dma-buf of ours (this NPU's: the same memory, not
 * flagged imported; another NPU's: flagged), of vgem's (flagged), or of
 * an fd that is no dma-buf (refused).
 */
static void op_prime_import(struct fz_ctx *c)
{
	struct drm_prime_handle ph = { .fd = -1 };
	struct npu_dma_mem_info mi = { 0 };
	int how = (int)below(100), foreign = -1, ret;

	if (nr_dmabufs && how < 40) {
		int i = (int)below(nr_dmabufs);

		ph.fd = dmabufs[i].fd;
		foreign = dmabufs[i].npu != c->npu;
		if (!dmabuf_importable(ph.fd, dmabufs[i].npu, c->npu))
			return;
	} else if (vgem_buf >= 0 && how < 65) {
		ph.fd = vgem_buf;
		foreign = 1;
	} else if (how < 85) {
		ph.fd = junk[below(nr_junk)];
	} else if (how < 92) {
		ph.fd = c->fd;
	} else {
		ph.fd = chance(50) ? -1 : 100000 + (int)below(1000);
	}
	stats->prime++;
	ret = fz_ioctl(c->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph);
	if (foreign < 0) {
		if (!ret)
			fz_fail("PRIME import of fd %d, no dma-buf, gave handle %u", ph.fd,
				ph.handle);
		stats->junk_fds++;
		return;
	}
	if (ret)
		return;		/* a window full, or memory the engine cannot reach */
	stats->imports += foreign;
	note_import(c, ph.handle);
	mi.handle = ph.handle;
	stats->mem_info++;
	ret = fz_ioctl(c->fd, DRM_IOCTL_NPU_DMA_MEM_INFO, &mi);
	if (racing)
		return;
	if (ret || !!(mi.flags & NPU_DMA_MEM_INFO_F_IMPORTED) != foreign)
		fz_fail("MEM_INFO of a dma-buf imported from %s: %d, flags %#x",
			foreign ? "elsewhere" : "this NPU", ret, mi.flags);
	if (c->nr_named < MAX_NAMED) {
		c->named[c->nr_named].addr = mi.dev_addr;
		c->named[c->nr_named++].size = mi.size;
	}
}

/* Export a window of an allocation: inside it (works), or not (refused). */
static void op_ipc_export(struct fz_ctx *c)
{
	struct npu_dma_ipc_export e = { 0 };
	struct fz_share *s;
	int fits = 0, out = 0, mutated, ret;
	uint64_t off, end;

	if (c->nr_alloc && chance(90)) {
		struct fz_alloc *a = &c->alloc[below(c->nr_alloc)];

		off = below(a->size);
		switch (below(6)) {
		case 0:
		case 1:
			e.dev_addr = a->addr;
			e.size = a->size;
			fits = 1;
			break;
		case 2:
		case 3:
			e.dev_addr = a->addr + off;
			e.size = 1 + below(a->size - off);
			fits = 1;
			break;
		case 4:
			/* Its last page goes past the allocation's end. */
			e.dev_addr = a->addr + off;
			e.size = a->size - off + 1 + below(2 * PAGE);
			out = 1;
			break;
		default:
			/*
			 * It starts in the page before the allocation and ends
			 * in it: never in one allocation (the page before may
			 * be another's).
			 */
			e.dev_addr = a->addr - 1 - below(PAGE);
			e.size = a->addr - e.dev_addr + 1 + below(a->size);
			out = a->addr > PAGE;
			break;
		}
	} else {
		e.dev_addr = interesting(infos[c->npu].mem_base);
		e.size = chance(20) ? 0 : 1 + below(1 << 20);
	}
	e.flags = (chance(50) ? NPU_DMA_IPC_F_NO_PID_CHECK : 0) |
		  (chance(30) ? NPU_DMA_IPC_F_KEY64 : 0);
	stats->ipc++;
	mutated = 0;
	ret = chance(50) ? fz_ioctl(c->fd, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &e) :
	      fz_call(c->fd, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &e, sizeof(e), &mutated);
	if (!mutated && !racing && fits && ret)
		fz_fail("IPC_EXPORT of %#llx+%#llx, in an allocation: %d",
			(unsigned long long)e.dev_addr, (unsigned long long)e.size, ret);
	if (!mutated && !racing && out && ret != -EFAULT)
		fz_fail("IPC_EXPORT of %#llx+%#llx, past its allocation: %d",
			(unsigned long long)e.dev_addr, (unsigned long long)e.size, ret);
	if (ret)
		return;
	/* It worked: @e is what the kernel read and wrote. */
	if ((!e.key[0] && !e.key[1]) || ((e.flags & NPU_DMA_IPC_F_KEY64) && e.key[1]))
		fz_fail("IPC_EXPORT flags %#x gave key %#llx:%#llx", e.flags,
			(unsigned long long)e.key[0], (unsigned long long)e.key[1]);
	stats->ipc_exports++;
	if (c->nr_share == MAX_SHARES) {
		ret = ipc_close(c->fd, c->share[0].key, 0);
		if (ret && !racing)
			fz_fail("IPC_CLOSE of a share: %d", ret);
		drop_share(c, 0);
	}
	s = &c->share[c->nr_share++];
	memcpy(s->key, e.key, sizeof(s->key));
	s->addr = e.dev_addr & ~(PAGE - 1);
	end = (e.dev_addr + e.size + PAGE - 1) & ~(PAGE - 1);
	s->size = end - s->addr;
	s->anyone = !!(e.flags & NPU_DMA_IPC_F_NO_PID_CHECK);
	s->self = 0;
	s->pids_unknown = 0;
	s->nr_pids = 0;
}

/*
 * A live share of a file of the worker, or NULL: more often another
 * file's on @c's NPU (one @c may import), else any file's.
 */
static struct fz_share *some_share(struct fz_ctx *c, struct fz_ctx **owner)
{
	struct fz_ctx *o = NULL;
	int i, start = (int)below(MAX_CTX);

	if (chance(60))
		for (i = 0; i < MAX_CTX && !o; i++) {
			struct fz_ctx *x = &ctxs[(start + i) % MAX_CTX];

			if (x != c && x->fd >= 0 && x->npu == c->npu && x->nr_share)
				o = x;
		}
	for (i = 0; i < MAX_CTX && !o; i++) {
		struct fz_ctx *x = &ctxs[(start + i) % MAX_CTX];

		if (x->fd >= 0 && x->nr_share)
			o = x;
	}
	if (!o)
		return NULL;
	*owner = o;
	return &o->share[below(o->nr_share)];
}

/* A key nobody shares now, into @key: revoked, one bit off a live one, or random. */
static void dead_key(struct fz_ctx *c, void *key)
{
	uint64_t k[2];

	if (nr_old && chance(50)) {
		memcpy(k, old_keys[below(nr_old < OLD_KEYS ? nr_old : OLD_KEYS)], sizeof(k));
	} else if (c->nr_share && chance(50)) {
		memcpy(k, c->share[below(c->nr_share)].key, sizeof(k));
		k[below(2)] ^= 1ULL << below(64);
	} else {
		k[0] = chance(80) ? rnd() : 0;
		k[1] = chance(50) ? rnd() : 0;
	}
	memcpy(key, k, sizeof(k));
}

/* The error an entry of a pid list gets: 0, or 1 if it cannot be known. */
static int pid_error(pid_t p)
{
	if (p <= 0)
		return -EINVAL;
	if (p == getpid() || p == getppid() || p == 1 || p == idle_tid)
		return 0;
	return 1;	/* a reaped child's number, or a random one */
}

/*
 * SET_PIDS on a share of ours (with our pid, the share opens to us), of
 * another file (-ENOENT), or a dead key; pids live, dead, of a thread,
 * zero or negative; counts of 0 or over the limit; bad pointers.
 */
static void op_ipc_set_pids(struct fz_ctx *c)
{
	struct npu_dma_ipc_set_pids sp = { 0 };
	struct fz_share *s = NULL;
	struct fz_ctx *o = NULL;
	pid_t pids[8];
	int n = 1 + (int)below(8), i, want = 0, self = 0, mutated, ret;

	if (c->nr_share && chance(75)) {
		s = &c->share[below(c->nr_share)];
		memcpy(sp.key, s->key, sizeof(sp.key));
	} else if ((s = some_share(c, &o)) && o != c) {
		memcpy(sp.key, s->key, sizeof(sp.key));
		s = NULL;
	} else {
		s = NULL;
		dead_key(c, sp.key);
	}
	for (i = 0; i < n; i++) {
		switch (below(12)) {
		case 0: case 1: case 2: case 3:
			pids[i] = getpid();
			break;
		case 4:
			pids[i] = getppid();
			break;
		case 5:
			pids[i] = 1;
			break;
		case 6:
			pids[i] = dead_pid;
			break;
		case 7:
			pids[i] = idle_tid;
			break;
		case 8:
			pids[i] = -(pid_t)below(3);
			break;
		case 9:
			pids[i] = (pid_t)interesting(1);
			break;
		default:
			pids[i] = getpid();
			break;
		}
		self |= pids[i] == getpid();
		if (!want)
			want = pid_error(pids[i]);
	}
	sp.pids = (uintptr_t)pids;
	sp.count = (uint32_t)n;
	switch (below(20)) {
	case 0:
		sp.count = chance(50) ? 0 : NPU_DMA_IPC_MAX_PIDS + 1 + (uint32_t)below(4);
		want = -EINVAL;
		break;
	case 1:
		/* The first pid straddles the edge of the mapped memory. */
		sp.pids = (uintptr_t)(edge + PAGE - 2);
		want = -EFAULT;
		break;
	case 2:
		sp.pids = 0;
		want = -EFAULT;
		break;
	}
	if (!want && !s)
		want = -ENOENT;
	if (!want && s->pids_unknown)
		want = 1;	/* its count is unknown: -ENOSPC or not */
	if (!want && s->nr_pids + n > NPU_DMA_IPC_MAX_PIDS)
		want = -ENOSPC;
	stats->ipc++;
	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_IPC_SET_PIDS, &sp, sizeof(sp), &mutated);
	if (!ret && s && !mutated) {
		s->nr_pids += n;
		s->self |= self;
	} else if (!ret && s) {
		s->pids_unknown = 1;	/* a read-only copy, or a mutation, went in */
	}
	if (!mutated && !racing && want != 1 && ret != want)
		fz_fail("IPC_SET_PIDS of %d pids (first %d) on %s: %d, not %d", n, pids[0],
			s ? "our share" : "no share of ours", ret, want);
}

/* Does @c name [addr, addr + size) already (an import of it, or any handle of another's)? */
static int maps_window(const struct fz_ctx *c, uint64_t addr, uint64_t size)
{
	int i;

	if (c->nr_imported || c->unsure)
		return 1;	/* maybe: an imported handle's alias */
	for (i = 0; i < c->nr_mapped; i++)
		if (c->mapped[i].addr < addr + size && addr < c->mapped[i].addr + c->mapped[i].size)
			return 1;
	return 0;
}

/* Is [addr, addr + size) a whole allocation of @o? */
static int whole_alloc(const struct fz_ctx *o, uint64_t addr, uint64_t size)
{
	int i;

	for (i = 0; i < o->nr_alloc; i++)
		if (o->alloc[i].addr == addr && o->alloc[i].size == size)
			return 1;
	return 0;
}

/*
 * What IPC_IMPORT of @s (of @o's) into @c must answer, or 1 if that
 * cannot be known.
 */
static int import_want(struct fz_ctx *c, struct fz_ctx *o, const struct fz_share *s,
		       int handle)
{
	int xdev = o->npu != c->npu, denied = !s->anyone && !s->self;

	if (denied && s->pids_unknown)
		return 1;	/* our pid may be on the list after all */
	/* Either answer when both hold: which comes first is the driver's choice. */
	if (xdev && denied)
		return 1;
	if (xdev)
		return -EXDEV;
	if (denied)
		return -EACCES;
	if (handle && !whole_alloc(o, s->addr, s->size))
		return -EINVAL;
	if (o == c)
		return -EEXIST;	/* the exporter holds it already */
	/*
	 * Another worker's share: the driver says -EEXIST when the
	 * allocation's file is ours. A seed (0x000661c1356fe926, round 18)
	 * met that with shares the model files under another worker; until
	 * the model knows why, either answer (t_ipc tests both exactly).
	 */
	if (handle)
		return 1;
	return maps_window(c, s->addr, s->size) ? 1 : 0;
}

static void add_mapped(struct fz_ctx *c, uint64_t addr, uint64_t size)
{
	if (c->nr_mapped == MAX_MAPPED)
		close_mapped(c, (int)below(MAX_MAPPED));
	c->mapped[c->nr_mapped].addr = addr;
	c->mapped[c->nr_mapped++].size = size;
}

/* Import a share (ours, another file's, another NPU's) or a dead key, maybe twice. */
static void op_ipc_import(struct fz_ctx *c)
{
	struct npu_dma_ipc_import im = { 0 };
	struct fz_share *s = NULL;
	struct fz_ctx *o = NULL;
	int want = -ENOENT, handle = chance(25), mutated, ret;

	if (chance(70) && (s = some_share(c, &o))) {
		memcpy(im.key, s->key, sizeof(im.key));
		want = import_want(c, o, s, handle);
	} else {
		dead_key(c, im.key);
	}
	im.flags = handle ? NPU_DMA_IPC_IMPORT_F_HANDLE : 0;
	stats->ipc++;
	mutated = 0;
	ret = chance(50) ? fz_ioctl(c->fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &im) :
	      fz_call(c->fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &im, sizeof(im), &mutated);
	if (ret == -EFAULT) {
		/* Maybe made, and its answer not written: a handle or a window we do not know. */
		c->nr_closed = 0;
		c->unsure = 1;
	}
	if (!mutated && !racing && want != 1 && ret != want)
		fz_fail("IPC_IMPORT%s of %s: %d, not %d", handle ? " (handle)" : "",
			!s ? "a dead key" : o == c ? "our own share" : "another file's share",
			ret, want);
	if (!mutated && (ret == -EACCES || ret == -EXDEV || ret == -ENOENT))
		stats->ipc_refused++;
	if (ret)
		return;
	stats->ipc_imports++;
	if (s && !mutated && !racing && (im.dev_addr != s->addr || im.size != s->size))
		fz_fail("IPC_IMPORT of %#llx+%#llx gave %#llx+%#llx",
			(unsigned long long)s->addr, (unsigned long long)s->size,
			(unsigned long long)im.dev_addr, (unsigned long long)im.size);
	if (im.flags & NPU_DMA_IPC_IMPORT_F_HANDLE) {
		note_import(c, im.handle);
		return;
	}
	add_mapped(c, im.dev_addr, im.size);
	/* Twice into one file: it names the window already. */
	if (chance(20)) {
		memset(&im.handle, 0, sizeof(im) - offsetof(struct npu_dma_ipc_import, handle));
		im.flags = 0;
		ret = fz_ioctl(c->fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &im);
		if (!ret)
			add_mapped(c, im.dev_addr, im.size);
		if (!racing && ret != -EEXIST)
			fz_fail("IPC_IMPORT of a window imported already: %d", ret);
	}
}

/* IPC_CLOSE of imports, shares, others' keys, addresses that are no import, bad flags. */
static void op_ipc_close(struct fz_ctx *c)
{
	struct npu_dma_ipc_close cl = { 0 };
	struct fz_share *s;
	struct fz_ctx *o;
	int i, want, mutated, ret;

	switch (below(6)) {
	case 0:
	case 1:
		if (c->nr_mapped)
			close_mapped(c, (int)below(c->nr_mapped));
		return;
	case 2:
		if (!c->nr_share)
			return;
		i = (int)below(c->nr_share);
		ret = ipc_close(c->fd, c->share[i].key, 0);
		if (ret && !racing)
			fz_fail("IPC_CLOSE of our share: %d", ret);
		drop_share(c, i);
		return;
	case 3:
		cl.flags = NPU_DMA_IPC_CLOSE_EXPORT;
		if ((s = some_share(c, &o)) && o != c)
			memcpy(cl.key, s->key, sizeof(cl.key));
		else
			dead_key(c, cl.key);
		want = -ENOENT;
		break;
	case 4:
		/* No import starts there: an allocation, inside a window, anywhere. */
		cl.flags = NPU_DMA_IPC_CLOSE_IMPORT;
		if (c->nr_alloc && chance(40))
			cl.dev_addr = c->alloc[below(c->nr_alloc)].addr;
		else if (c->nr_mapped && chance(50))
			cl.dev_addr = c->mapped[below(c->nr_mapped)].addr + 1 + below(PAGE);
		else if (c->nr_named && chance(50))
			cl.dev_addr = c->named[below(c->nr_named)].addr;
		else
			cl.dev_addr = interesting(infos[c->npu].mem_base);
		want = -ENOENT;
		for (i = 0; i < c->nr_mapped; i++)
			if (c->mapped[i].addr == cl.dev_addr)
				want = 1;
		if (c->unsure)
			want = 1;
		break;
	default:
		/* Neither or both, a key to an import, an address to an export. */
		cl.flags = (uint32_t)below(4);
		if (cl.flags == NPU_DMA_IPC_CLOSE_EXPORT)
			cl.dev_addr = 1 + below(1ULL << 40);
		else if (cl.flags == NPU_DMA_IPC_CLOSE_IMPORT)
			cl.key[below(2)] = 1 + below(1000);
		want = -EINVAL;
		break;
	}
	stats->ipc++;
	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_IPC_CLOSE, &cl, sizeof(cl), &mutated);
	if (!mutated && !racing && want != 1 && ret != want)
		fz_fail("IPC_CLOSE flags %#x of %#llx / key %#llx: %d, not %d", cl.flags,
			(unsigned long long)cl.dev_addr, (unsigned long long)cl.key[0], ret, want);
	if (!ret)
		for (i = 0; i < c->nr_mapped; i++)
			if (c->mapped[i].addr == cl.dev_addr)
				c->mapped[i] = c->mapped[--c->nr_mapped];
}

static int read_int(int fd, int *v)
{
	return read(fd, v, sizeof(*v)) == sizeof(*v) ? 0 : -1;
}

static void write_int(int fd, int v)
{
	if (write(fd, &v, sizeof(v)) != sizeof(v))
		_exit(7);
}

/*
 * The importing child: its own file on the share's NPU; IPC_IMPORT when
 * told (its answer back), a second one (-EEXIST); when told again
 * (the exporter has let go), a copy out of the window (its answer
 * back); then it closes the import, or leaves that to its exit.
 */
static void ipc_child(int npu, const struct fz_share *s, int in, int out, int close_it)
{
	struct npu_dma_ipc_import im = { 0 };
	static uint8_t host[512];
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	int fd, go, ret, i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The worker's files are not the child's to keep open. */
	for (i = 0; i < MAX_CTX; i++)
		if (ctxs[i].fd >= 0)
			close(ctxs[i].fd);
	if (read_int(in, &go))
		_exit(0);
	fd = npu_raw_open(npu);
	if (fd < 0)
		_exit(8);
	memcpy(im.key, s->key, sizeof(im.key));
	ret = npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &im);
	if (!ret) {
		int again;

		memset(&im.handle, 0, sizeof(im) - offsetof(struct npu_dma_ipc_import, handle));
		again = npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &im);
		/* The worker's racer may have revoked the key meanwhile. */
		if (again != -EEXIST && !(racing && again == -ENOENT)) {
			fprintf(stderr, "t_fuzz: a child's second IPC_IMPORT of a key: %d\n",
				again);
			_exit(9);
		}
	}
	write_int(out, ret);
	if (ret) {
		read_int(in, &go);
		write_int(out, 0);
		_exit(0);
	}
	if (read_int(in, &go))
		_exit(0);
	ret = npu_raw_queue_create(fd, 16, &q);
	if (!ret) {
		d = npu_raw_copy((uintptr_t)host, s->addr + s->size - sizeof(host), sizeof(host),
				 NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
		ret = npu_raw_run(&q, &d);
	}
	write_int(out, ret);
	if (close_it && ipc_close(fd, NULL, s->addr))
		_exit(10);
	_exit(0);
}

/* How the exporter lets go of its share while a child holds an import. */
static void let_go(struct fz_ctx *o, struct fz_share *s)
{
	int i, ret;

	switch (below(4)) {
	case 0:
		break;
	case 1:
		ret = ipc_close(o->fd, s->key, 0);
		if (ret && !racing)
			fz_fail("IPC_CLOSE of a share a child imported: %d", ret);
		drop_share(o, (int)(s - o->share));
		break;
	case 2:
		for (i = 0; i < o->nr_alloc; i++)
			if (s->addr >= o->alloc[i].addr &&
			    s->addr - o->alloc[i].addr < o->alloc[i].size) {
				if (!gem_close(o->fd, o->alloc[i].handle))
					untrack_handle(o, o->alloc[i].handle);
				break;
			}
		break;
	default:
		close_ctx(o);
		break;
	}
}

/*
 * A child imports a share: allowed by NO_PID_CHECK or by its pid, set
 * now, it works; else it is refused with -EACCES. After the exporter
 * lets go of it, the child's copy out of the window still works.
 */
static void op_ipc_child(struct fz_ctx *c)
{
	struct fz_ctx *o = NULL;
	struct fz_share *s = some_share(c, &o), sc;
	int in[2], out[2], allowed, ret, status;
	pid_t pid;

	if (!s)
		return;
	sc = *s;
	if (pipe2(in, O_CLOEXEC))
		return;
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		return;
	}
	stats->ipc_children++;
	pid = fork();
	if (pid == 0) {
		close(in[1]);
		close(out[0]);
		ipc_child(o->npu, &sc, in[0], out[1], chance(50));
	}
	close(in[0]);
	close(out[1]);
	if (pid < 0)
		goto out;
	allowed = s->anyone;
	if (!allowed && chance(60)) {
		struct npu_dma_ipc_set_pids sp = { .pids = (uintptr_t)&pid, .count = 1 };

		memcpy(sp.key, s->key, sizeof(sp.key));
		stats->ipc++;
		ret = fz_ioctl(o->fd, DRM_IOCTL_NPU_DMA_IPC_SET_PIDS, &sp);
		if (ret && !racing)
			fz_fail("IPC_SET_PIDS of a child: %d", ret);
		allowed = !ret;
	}
	write_int(in[1], 1);
	if (read_int(out[0], &ret))
		goto died;
	if (!racing && ret != (allowed ? 0 : -EACCES))
		fz_fail("a child%s on the pid list imported: %d", allowed ? "" : " not", ret);
	stats->ipc_imports += !ret;
	stats->ipc_refused += ret == -EACCES;
	if (!ret)
		let_go(o, s);
	write_int(in[1], 1);
	if (read_int(out[0], &ret))
		goto died;
	if (ret && !racing)
		fz_fail("a child's copy out of its import, the exporter gone: %d", ret);
	stats->held_copies++;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		fz_fail("the importing child: status %#x", status);
out:
	close(in[1]);
	close(out[0]);
	return;
died:
	waitpid(pid, &status, 0);
	fz_fail("the importing child died: status %#x", status);
}

/* Beside the worker: close its shares and imports, import its keys. */
void share_racer(struct fz_ctx *c, int fd, int k)
{
	int ns = *(volatile int *)&c->nr_share, nm = *(volatile int *)&c->nr_mapped;
	union {
		struct npu_dma_ipc_close cl;
		struct npu_dma_ipc_import im;
		struct npu_dma_mem_info mi;
	} a;

	memset(&a, 0, sizeof(a));
	switch (k % 4) {
	case 0:
		if (!ns)
			return;
		memcpy(a.cl.key, c->share[k % ns].key, sizeof(a.cl.key));
		a.cl.flags = NPU_DMA_IPC_CLOSE_EXPORT;
		ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_CLOSE, &a);
		break;
	case 1:
		if (!nm)
			return;
		a.cl.dev_addr = c->mapped[k % nm].addr;
		a.cl.flags = NPU_DMA_IPC_CLOSE_IMPORT;
		ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_CLOSE, &a);
		break;
	case 2:
		/* Another file's key, imported here (closed with the file). */
		c = &ctxs[(k >> 2) % MAX_CTX];
		ns = *(volatile int *)&c->nr_share;
		if (!ns)
			return;
		memcpy(a.im.key, c->share[k % ns].key, sizeof(a.im.key));
		ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &a);
		break;
	default:
		a.mi.handle = (uint32_t)(k >> 2) % 16;
		ioctl(fd, DRM_IOCTL_NPU_DMA_MEM_INFO, &a);
		break;
	}
}

/*
 * VMM_MAP of a handle of the file (an allocation, an import, a guess) at
 * an address of the NPU's window or near it; a mapping made is named by
 * later copies. What is refused must be refused cleanly; what is made
 * lies in the window, whole pages.
 */
static void op_vmm_map(struct fz_ctx *c)
{
	uint64_t base = NPU_DMA_VMM_BASE(infos[c->npu].mem_base,
					  infos[c->npu].mem_size);
	struct npu_dma_vmm_map m = { 0 };
	int mutated, ret;

	if (c->nr_alloc && chance(60))
		m.handle = c->alloc[below(c->nr_alloc)].handle;
	else if (c->nr_imported && chance(50))
		m.handle = c->imported[below(c->nr_imported)];
	else
		m.handle = (uint32_t)below(64);
	m.va = chance(85) ? base + below(256) * PAGE : interesting(base);
	m.size = chance(85) ? (1 + below(4)) * PAGE : interesting(PAGE);
	m.offset = chance(80) ? below(2) * PAGE : interesting(0);
	stats->vmm++;
	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_VMM_MAP, &m, sizeof(m), &mutated);
	if (ret)
		return;
	stats->vmm_maps++;
	if (!mutated && (m.va < base || m.va % PAGE || m.size % PAGE ||
			 m.va - base >= infos[c->npu].vmm_size))
		fz_fail("VMM_MAP made %#llx+%#llx outside the window at %#llx",
			(unsigned long long)m.va, (unsigned long long)m.size,
			(unsigned long long)base);
	if (c->nr_named < MAX_NAMED) {
		c->named[c->nr_named].addr = m.va;
		c->named[c->nr_named++].size = m.size;
	}
}

/* VMM_UNMAP of a named place (maybe a mapping) or a guess. */
static void op_vmm_unmap(struct fz_ctx *c)
{
	struct npu_dma_vmm_unmap u = { 0 };
	int mutated;

	u.va = c->nr_named && chance(70) ? c->named[below(c->nr_named)].addr :
					   interesting(infos[c->npu].mem_base);
	stats->vmm++;
	fz_call(c->fd, DRM_IOCTL_NPU_DMA_VMM_UNMAP, &u, sizeof(u), &mutated);
}

/*
 * SIGNAL_WAIT on @id: a query, a deadline passed or a few ms away, odd
 * flags. Never a mutated argument: a deadline of "never" on a record
 * parked behind a barrier nobody releases would hang the worker.
 */
static void signal_host_wait(struct fz_ctx *c, uint32_t id)
{
	struct npu_dma_signal_wait w = { .id = id, .flags = (uint32_t)below(4) };
	struct timespec ts;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.timeout_ns = chance(20) ? 0 : (int64_t)ts.tv_sec * 1000000000 +
		       ts.tv_nsec + (int64_t)below(5000000);
	ret = fz_ioctl(c->fd, DRM_IOCTL_NPU_DMA_SIGNAL_WAIT, &w);
	if (w.flags > NPU_DMA_SIGNAL_WAIT_F_QUERY && ret != -EINVAL)
		fz_fail("SIGNAL_WAIT with flags %#x: %d", w.flags, ret);
}

/*
 * Signals: create one (a created one must be destroyable once), share it
 * by key and import it back into this file or not, wait for it from the
 * host, destroy ids made and guessed. Descriptors naming signals come from the worker's random
 * descriptors (opcodes SIGNAL and WAIT_SIGNAL, ids mostly unknown).
 */
static void op_signal(struct fz_ctx *c)
{
	struct npu_dma_signal_create sc = { 0 };
	struct npu_dma_signal_destroy sd = { 0 };
	struct npu_dma_ipc_export x = { .flags = NPU_DMA_IPC_F_SIGNAL };
	struct npu_dma_ipc_import im = { .flags = NPU_DMA_IPC_IMPORT_F_SIGNAL };
	int mutated, ret;

	stats->signals++;
	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_SIGNAL_CREATE, &sc, sizeof(sc), &mutated);
	if (ret) {
		if (!mutated && !racing && ret != -ENOSPC)
			fz_fail("SIGNAL_CREATE: %d", ret);
		return;
	}
	if (chance(30))
		signal_host_wait(c, chance(80) ? sc.id : (uint32_t)below(8));
	x.dev_addr = sc.id;
	if (chance(50))
		x.flags |= NPU_DMA_IPC_F_NO_PID_CHECK;
	if (!fz_call(c->fd, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &x, sizeof(x), &mutated) &&
	    chance(50)) {
		im.key[0] = x.key[0];
		im.key[1] = x.key[1];
		ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &im, sizeof(im), &mutated);
		if (!ret && chance(50)) {
			sd.id = im.handle;
			fz_call(c->fd, DRM_IOCTL_NPU_DMA_SIGNAL_DESTROY, &sd, sizeof(sd),
				&mutated);
		}
	}
	if (chance(30))
		return;	/* left to the file's close */
	sd.id = chance(80) ? sc.id : (uint32_t)below(8);
	ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_SIGNAL_DESTROY, &sd, sizeof(sd), &mutated);
	if (!mutated && !racing && sd.id == sc.id && ret)
		fz_fail("SIGNAL_DESTROY of signal %u just made: %d", sc.id, ret);
}

void op_share(struct fz_ctx *c)
{
	int op = (int)below(100);

	if (op < 6)
		op_vmm_map(c);
	else if (op < 9)
		op_vmm_unmap(c);
	else if (op < 12)
		op_signal(c);
	else if (op < 15)
		op_mem_info(c);
	else if (op < 24)
		op_prime_import(c);
	else if (op < 44)
		op_ipc_export(c);
	else if (op < 54)
		op_ipc_set_pids(c);
	else if (op < 79)
		op_ipc_import(c);
	else if (op < 92)
		op_ipc_close(c);
	else
		op_ipc_child(c);
}
