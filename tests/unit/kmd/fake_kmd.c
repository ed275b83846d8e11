// SPDX-License-Identifier: GPL-2.0-only
/*
 * A fake of libacl's command layer: see fake_kmd.h. This file: the test
 * controls, the pretend NPUs and their files, device memory, host
 * registrations, graphs, mmap and close; fake_kmd_queue.c: descriptors
 * and queues. One lock serialises everything; descriptors run in the
 * thread that rings the doorbell (or releases a barrier, or calls
 * fake_kmd_run()), in queue order.
 *
 * What the fake shares with the library is shared as with the driver: a
 * queue's area and the event table are memfds, mapped by the fake for
 * itself and by the library through acl_kmd_mmap(), so the library's
 * stores to sq_tail and loads of completed_seq cross real shared
 * mappings, and a mapping outlives the queue until it is unmapped.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fake_kmd_priv.h"

pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t fake_progress = PTHREAD_COND_INITIALIZER;
struct fake_npu fake_npus[FAKE_MAX_NPUS];
int fake_nnpus;
struct fake_file *fake_files;
uint32_t fake_next_queue = 1;
uint64_t fake_next_offset = 1ULL << 32;	/* GEM fake offsets are large */
static unsigned int fake_ncalls[FAKE_OP_COUNT];
static int fake_fail[FAKE_OP_COUNT];
bool fake_held, fake_is_busy;

/* ---- test controls --------------------------------------------------- */

int fake_npu_add(const struct fake_npu_cfg *cfg)
{
	struct fake_npu *n;
	void *mem;

	pthread_mutex_lock(&fake_lock);
	if (fake_nnpus == FAKE_MAX_NPUS) {
		pthread_mutex_unlock(&fake_lock);
		return -1;
	}
	n = &fake_npus[fake_nnpus];
	n->cfg = *cfg;
	if (!n->cfg.abi_version)
		n->cfg.abi_version = NPU_DMA_ABI_VERSION;
	if (!n->cfg.mem_size)
		n->cfg.mem_size = 16ULL << 20;
	if (!n->cfg.max_queue_entries)
		n->cfg.max_queue_entries = 1024;
	if (!n->cfg.max_copy_len)
		n->cfg.max_copy_len = 1ULL << 20;
	if (!n->cfg.max_event_slots)
		n->cfg.max_event_slots = 64;
	if (cfg->path)
		snprintf(n->path, sizeof(n->path), "%s", cfg->path);
	else
		snprintf(n->path, sizeof(n->path), "/fake/dri/renderD%u",
			 128 + cfg->index);
	n->cfg.path = n->path;
	snprintf(n->pci, sizeof(n->pci), "%s",
		 cfg->pci_address ? cfg->pci_address : "");
	n->cfg.pci_address = NULL;
	/* Far apart, so a device address names its NPU. */
	n->mem_base = (uint64_t)(cfg->index + 1) << 36;
	mem = mmap(NULL, n->cfg.mem_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED) {
		pthread_mutex_unlock(&fake_lock);
		return -1;
	}
	n->mem = mem;
	fake_nnpus++;
	pthread_mutex_unlock(&fake_lock);
	return 0;
}

unsigned int fake_kmd_calls(enum fake_kmd_op op)
{
	unsigned int n;

	pthread_mutex_lock(&fake_lock);
	n = fake_ncalls[op];
	pthread_mutex_unlock(&fake_lock);
	return n;
}

void fake_kmd_fail_next(enum fake_kmd_op op, int err)
{
	pthread_mutex_lock(&fake_lock);
	fake_fail[op] = err;
	pthread_mutex_unlock(&fake_lock);
}

static struct fake_npu *fake_npu_by_index(uint32_t index)
{
	int i;

	for (i = 0; i < fake_nnpus; i++)
		if (fake_npus[i].cfg.index == index)
			return &fake_npus[i];
	return NULL;
}

unsigned int fake_npu_handles(uint32_t index)
{
	struct fake_npu *n;
	struct fake_alloc *a;
	unsigned int c = 0;

	pthread_mutex_lock(&fake_lock);
	n = fake_npu_by_index(index);
	for (a = n ? n->allocs : NULL; a; a = a->next)
		c += a->handle != 0;
	pthread_mutex_unlock(&fake_lock);
	return c;
}

/* Count what @fn counts over the files of NPU @index. */
static unsigned int fake_npu_count(uint32_t index,
				   unsigned int (*fn)(const struct fake_file *))
{
	struct fake_file *f;
	unsigned int c = 0;

	pthread_mutex_lock(&fake_lock);
	for (f = fake_files; f; f = f->next)
		if (f->npu->cfg.index == index)
			c += fn(f);
	pthread_mutex_unlock(&fake_lock);
	return c;
}

static unsigned int fake_one(const struct fake_file *f)
{
	(void)f;
	return 1;
}

unsigned int fake_file_queues(const struct fake_file *f)
{
	const struct fake_queue *q;
	unsigned int c = 0;

	for (q = f->queues; q; q = q->next)
		c++;
	return c;
}

static unsigned int fake_file_regs(const struct fake_file *f)
{
	const struct fake_reg *r;
	unsigned int c = 0;

	for (r = f->regs; r; r = r->next)
		c++;
	return c;
}

unsigned int fake_npu_files(uint32_t index)
{
	return fake_npu_count(index, fake_one);
}

unsigned int fake_npu_queues(uint32_t index)
{
	return fake_npu_count(index, fake_file_queues);
}

unsigned int fake_npu_registrations(uint32_t index)
{
	return fake_npu_count(index, fake_file_regs);
}

/* ---- locking and lookup ---------------------------------------------- */

/* Lock, count the call, take an injected failure: 0 or its -errno. */
int fake_begin(enum fake_kmd_op op)
{
	int err;

	pthread_mutex_lock(&fake_lock);
	fake_ncalls[op]++;
	err = fake_fail[op];
	fake_fail[op] = 0;
	return err;
}

int fake_end(int ret)
{
	pthread_mutex_unlock(&fake_lock);
	return ret;
}

struct fake_file *fake_file_of(int fd)
{
	struct fake_file *f;

	for (f = fake_files; f && f->fd != fd; f = f->next)
		;
	return f;
}

/* Queue @id of @f; one being destroyed only if @dying. */
struct fake_queue *fake_queue_find(const struct fake_file *f, uint32_t id,
					  bool dying)
{
	struct fake_queue *q;

	for (q = f->queues; q && q->id != id; q = q->next)
		;
	return q && (dying || !q->dying) ? q : NULL;
}

struct fake_queue *fake_queue_of(const struct fake_file *f, uint32_t id)
{
	return fake_queue_find(f, id, false);
}

/* Any live queue of the process (WAIT names queues of other files too). */
struct fake_queue *fake_queue_any(uint32_t id)
{
	struct fake_file *f;
	struct fake_queue *q;

	for (f = fake_files; f; f = f->next)
		if ((q = fake_queue_of(f, id)))
			return q;
	return NULL;
}

uint64_t fake_round(uint64_t v, uint64_t to)
{
	return (v + to - 1) & ~(to - 1);
}

uint64_t fake_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void fake_signal(const struct fake_queue *q)
{
	uint64_t one = 1;

	if (q->efd >= 0 && write(q->efd, &one, sizeof(one)) < 0)
		return;		/* counter full: the waiter is awake anyway */
}

/* A shared memfd of @size bytes mapped for the fake: 0 or -errno. */
int fake_shm(size_t size, int *memfd, void **map)
{
	int fd = memfd_create("fake-npu", MFD_CLOEXEC);
	void *p;

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return -ENOMEM;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return -ENOMEM;
	}
	*memfd = fd;
	*map = p;
	return 0;
}

/* ---- enumeration, files, GET_INFO -------------------------------------- */

static void fake_info(const struct fake_npu *n, struct npu_dma_info *info)
{
	const struct fake_alloc *a;
	uint64_t used = 0;

	for (a = n->allocs; a; a = a->next)
		used += a->size;
	memset(info, 0, sizeof(*info));
	info->size = n->cfg.info_size ?: sizeof(*info);
	info->mem_free_huge = n->cfg.free_huge;
	info->mem_free_1g = n->cfg.free_1g;
	info->abi_version = n->cfg.abi_version;
	info->backend = n->cfg.edu ? NPU_DMA_BACKEND_EDU : NPU_DMA_BACKEND_SIM;
	info->index = n->cfg.index;
	info->nr_channels = 2;
	info->mem_size = n->cfg.mem_size;
	info->mem_free = n->cfg.mem_size - used;
	info->max_copy_len = n->cfg.max_copy_len;
	info->max_2d_pitch = 1ULL << 24;
	info->max_2d_height = 1U << 16;
	info->max_queue_entries = n->cfg.max_queue_entries;
	info->max_event_slots = n->cfg.max_event_slots;
	info->caps = FAKE_ALL_CAPS & ~n->cfg.caps_off;
	info->mem_base = n->mem_base;
	info->peers = n->cfg.peers;
	info->max_graph_tasks = 4096;
	/* Per file; the probe's answer just has to be of the right shape. */
	info->events_size = fake_round((uint64_t)n->cfg.max_event_slots *
				       sizeof(struct npu_dma_event_slot), FAKE_PAGE);
}

int acl_kmd_probe(struct acl_kmd_node *nodes, int max)
{
	int i, err = fake_begin(FAKE_PROBE);

	if (err)
		return fake_end(err);
	for (i = 0; i < fake_nnpus && i < max; i++) {
		struct fake_npu *n = &fake_npus[i];
		struct acl_kmd_node *node = &nodes[i];

		memset(node, 0, sizeof(*node));
		snprintf(node->path, sizeof(node->path), "%s", n->path);
		node->ours = !n->cfg.unopenable;
		node->err = n->cfg.unopenable ? -EACCES : n->cfg.info_err;
		if (node->ours && !node->err)
			fake_info(n, &node->info);
	}
	return fake_end(fake_nnpus);
}

int acl_kmd_open(const char *path)
{
	struct fake_npu *n = NULL;
	struct fake_file *f;
	int i, err = fake_begin(FAKE_OPEN);

	if (err)
		return fake_end(err);
	for (i = 0; i < fake_nnpus; i++)
		if (!strcmp(fake_npus[i].path, path))
			n = &fake_npus[i];
	if (!n)
		return fake_end(-ENOENT);
	if (n->cfg.unopenable)
		return fake_end(-EACCES);
	f = calloc(1, sizeof(*f));
	if (!f)
		return fake_end(-ENOMEM);
	f->npu = n;
	f->opener = getpid();
	f->next_handle = 1;
	f->next_graph = 1;
	f->slots_size = fake_round((uint64_t)n->cfg.max_event_slots *
				   sizeof(struct npu_dma_event_slot), FAKE_PAGE);
	err = fake_shm(f->slots_size, &f->ev_memfd, (void **)&f->slots);
	if (!err) {
		f->fd = eventfd(0, EFD_CLOEXEC);
		if (f->fd < 0) {
			err = -errno;
			munmap(f->slots, f->slots_size);
			close(f->ev_memfd);
		}
	}
	if (err) {
		free(f);
		return fake_end(err);
	}
	f->ev_offset = fake_next_offset;
	fake_next_offset += 1ULL << 32;
	f->next = fake_files;
	fake_files = f;
	return fake_end(f->fd);
}

int acl_kmd_get_info(int fd, struct npu_dma_info *info)
{
	struct fake_file *f;
	int err = fake_begin(FAKE_GET_INFO);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	if (!f)
		return fake_end(-EBADF);
	if (f->npu->cfg.info_err)
		return fake_end(f->npu->cfg.info_err);
	fake_info(f->npu, info);
	info->events_offset = f->ev_offset;
	info->events_size = f->slots_size;
	return fake_end(0);
}

/* ---- device memory and host registrations ------------------------------- */

void fake_alloc_put(struct fake_alloc *a)
{
	struct fake_alloc **pp;

	if (!a || --a->refs)
		return;
	for (pp = &a->npu->allocs; *pp != a; pp = &(*pp)->next)
		;
	*pp = a->next;
	free(a);
}

/* First fit in @n's memory, keeping the list sorted: the address or 0. */
static uint64_t fake_place(struct fake_npu *n, uint64_t size, uint64_t align,
			   struct fake_alloc ***where)
{
	uint64_t at = n->mem_base, end = n->mem_base + n->cfg.mem_size;
	struct fake_alloc **pp;

	for (pp = &n->allocs;; pp = &(*pp)->next) {
		uint64_t limit = *pp ? (*pp)->addr : end;

		at = fake_round(at, align);
		if (at + size <= limit && at + size > at) {
			*where = pp;
			return at;
		}
		if (!*pp)
			return 0;
		at = (*pp)->addr + (*pp)->size;
	}
}

int acl_kmd_mem_alloc(int fd, struct npu_dma_mem_alloc *m)
{
	struct fake_alloc *a, **where;
	struct fake_file *f;
	uint64_t size, align, addr;
	int err = fake_begin(FAKE_MEM_ALLOC);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	if (!f)
		return fake_end(-EBADF);
	if (!m->size || m->policy > NPU_DMA_MEM_POLICY_MAX ||
	    m->flags & ~NPU_DMA_MEM_FLAGS_MASK || m->dev_addr || m->alloc_size ||
	    m->handle || m->pad || m->reserved[0] || m->reserved[1] ||
	    (m->align & (m->align - 1)) || m->align > (1ULL << 30))
		return fake_end(-EINVAL);
	size = fake_round(m->size, m->policy == NPU_DMA_MEM_HUGE_ONLY ?
			  2ULL << 20 : FAKE_PAGE);
	align = m->align > FAKE_PAGE ? m->align : FAKE_PAGE;
	addr = size < m->size ? 0 : fake_place(f->npu, size, align, &where);
	if (!addr)
		return fake_end(-ENOMEM);
	a = calloc(1, sizeof(*a));
	if (!a)
		return fake_end(-ENOMEM);
	a->npu = f->npu;
	a->file = f;
	a->addr = addr;
	a->size = size;
	a->handle = f->next_handle++;
	a->refs = 1;
	a->next = *where;
	*where = a;
	m->dev_addr = addr;
	m->alloc_size = size;
	m->handle = a->handle;
	return fake_end(0);
}

int acl_kmd_gem_close(int fd, uint32_t handle)
{
	struct fake_file *f;
	struct fake_alloc *a;
	int err = fake_begin(FAKE_GEM_CLOSE);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	if (!f)
		return fake_end(-EBADF);
	for (a = f->npu->allocs; a; a = a->next)
		if (a->file == f && handle && a->handle == handle)
			break;
	if (!a)
		return fake_end(-EINVAL);
	a->handle = 0;
	fake_alloc_put(a);	/* jobs still naming it keep it */
	return fake_end(0);
}

int acl_kmd_host_register(int fd, uint64_t addr, uint64_t size, uint32_t flags)
{
	struct fake_file *f;
	struct fake_reg *r;
	int err = fake_begin(FAKE_HOST_REGISTER);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	if (!f)
		return fake_end(-EBADF);
	if (!size || addr + size < addr || flags & ~NPU_DMA_HOST_FLAGS_MASK)
		return fake_end(-EINVAL);
	for (r = f->regs; r; r = r->next)
		if (addr < r->addr + r->size && r->addr < addr + size)
			return fake_end(-EEXIST);
	r = calloc(1, sizeof(*r));
	if (!r)
		return fake_end(-ENOMEM);
	r->addr = addr;
	r->size = size;
	r->next = f->regs;
	f->regs = r;
	return fake_end(0);
}

int acl_kmd_host_unregister(int fd, uint64_t addr)
{
	struct fake_reg **pp, *r;
	struct fake_file *f;
	int err = fake_begin(FAKE_HOST_UNREGISTER);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	if (!f)
		return fake_end(-EBADF);
	for (pp = &f->regs; *pp && (*pp)->addr != addr; pp = &(*pp)->next)
		;
	if (!*pp)
		return fake_end(-EINVAL);
	r = *pp;
	*pp = r->next;
	free(r);
	return fake_end(0);
}

/* ---- graphs ----------------------------------------------------------- */

/* Validate @d as a graph task of @f, as GRAPH_CREATE does. */
static int fake_graph_check(const struct fake_file *f, const struct npu_dma_desc *d)
{
	struct fake_job j = { .d = *d };
	int err, i;

	if (d->opcode == NPU_DMA_OP_GRAPH ||
	    d->flags & (NPU_DMA_DESC_F_SRC_PAGEABLE | NPU_DMA_DESC_F_DST_PAGEABLE))
		return -EINVAL;
	err = fake_prepare(f, &j);
	for (i = 0; i < 3; i++)
		fake_alloc_put(j.hold[i]);
	return err;
}

/* Fake NPUs share no memory between processes: the library's errors. */
int acl_kmd_ipc_export(int fd, struct npu_dma_ipc_export *x)
{
	(void)fd;
	(void)x;
	return -ENOTTY;
}

int acl_kmd_ipc_set_pids(int fd, const uint64_t key[2], const int32_t *pids,
			 uint32_t count)
{
	(void)fd;
	(void)key;
	(void)pids;
	(void)count;
	return -ENOTTY;
}

int acl_kmd_ipc_import(int fd, struct npu_dma_ipc_import *m)
{
	(void)fd;
	(void)m;
	return -ENOTTY;
}

int acl_kmd_ipc_close(int fd, const struct npu_dma_ipc_close *c)
{
	(void)fd;
	(void)c;
	return -ENOTTY;
}

int acl_kmd_signal_create(int fd, uint32_t *id)
{
	(void)fd;
	(void)id;
	return -ENOTTY;
}

int acl_kmd_signal_destroy(int fd, uint32_t id)
{
	(void)fd;
	(void)id;
	return -ENOTTY;
}

int acl_kmd_signal_wait(int fd, uint32_t id, uint32_t flags,
			int64_t deadline_ns)
{
	(void)fd;
	(void)id;
	(void)flags;
	(void)deadline_ns;
	return -ENOTTY;
}

int acl_kmd_vmm_map(int fd, uint64_t va, uint64_t size, uint64_t offset,
		    uint32_t handle)
{
	(void)fd;
	(void)va;
	(void)size;
	(void)offset;
	(void)handle;
	return -ENOTTY;
}

int acl_kmd_vmm_unmap(int fd, uint64_t va)
{
	(void)fd;
	(void)va;
	return -ENOTTY;
}

int acl_kmd_mem_info(int fd, uint32_t handle, uint64_t *addr, uint64_t *size,
		     uint32_t *flags)
{
	(void)fd;
	(void)handle;
	(void)addr;
	(void)size;
	(void)flags;
	return -ENOTTY;
}

int acl_kmd_graph_create(int fd, struct npu_dma_graph_create *c)
{
	const struct npu_dma_desc *src;
	struct fake_graph *g;
	struct fake_file *f;
	uint32_t i, n = 0;
	int err = fake_begin(FAKE_GRAPH_CREATE);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	if (!f)
		return fake_end(-EBADF);
	for (g = f->graphs; g; g = g->next)
		n++;
	if (!c->count || c->count > 4096 || c->flags || c->graph_id ||
	    c->error_index || c->reserved[0] || c->reserved[1])
		return fake_end(-EINVAL);
	if (n >= FAKE_MAX_GRAPHS)
		return fake_end(-EBUSY);
	src = (const struct npu_dma_desc *)(uintptr_t)c->descs;
	for (i = 0; i < c->count; i++) {
		err = fake_graph_check(f, &src[i]);
		if (err) {
			c->error_index = i;
			return fake_end(err);
		}
	}
	g = calloc(1, sizeof(*g));
	if (g)
		g->d = malloc(c->count * sizeof(*g->d));
	if (!g || !g->d) {
		free(g);
		return fake_end(-ENOMEM);
	}
	memcpy(g->d, src, c->count * sizeof(*g->d));
	g->n = c->count;
	g->id = f->next_graph++;
	g->next = f->graphs;
	f->graphs = g;
	c->graph_id = g->id;
	return fake_end(0);
}

int acl_kmd_graph_destroy(int fd, uint32_t graph_id)
{
	struct fake_graph **pp, *g;
	struct fake_file *f;
	int err = fake_begin(FAKE_GRAPH_DESTROY);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	if (!f)
		return fake_end(-EBADF);
	for (pp = &f->graphs; *pp && (*pp)->id != graph_id; pp = &(*pp)->next)
		;
	if (!*pp)
		return fake_end(-ENOENT);
	g = *pp;
	*pp = g->next;
	free(g->d);
	free(g);
	return fake_end(0);
}

/* ---- mmap and close ------------------------------------------------------ */

int acl_kmd_mmap(int fd, uint64_t offset, size_t size, int prot, void **addr)
{
	struct fake_file *f;
	struct fake_queue *q;
	int memfd = -1;
	void *p;
	int err = fake_begin(FAKE_MMAP);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	if (!f)
		return fake_end(-EBADF);
	if (offset == f->ev_offset) {
		if (prot & PROT_WRITE)
			return fake_end(-EPERM);	/* read-only, as the driver's */
		if (size != f->slots_size)
			return fake_end(-EINVAL);
		memfd = f->ev_memfd;
	}
	for (q = f->queues; memfd < 0 && q; q = q->next) {
		if (q->offset != offset)
			continue;
		if (size != q->size)
			return fake_end(-EINVAL);
		memfd = q->memfd;
	}
	if (memfd < 0)
		return fake_end(-EINVAL);
	p = mmap(NULL, size, prot, MAP_SHARED, memfd, 0);
	/* The driver's areas are VM_DONTCOPY: a forked child has none. */
	if (p != MAP_FAILED)
		madvise(p, size, MADV_DONTFORK);
	if (p == MAP_FAILED)
		return fake_end(-errno);
	*addr = p;
	return fake_end(0);
}

/* ---- sysfs: the attributes the library reads ----------------------- */

static const char *fake_version = "0.1.0";

void fake_kmd_driver_version(const char *version)
{
	pthread_mutex_lock(&fake_lock);
	fake_version = version;
	pthread_mutex_unlock(&fake_lock);
}

static int fake_copy_line(const char *v, char *buf, size_t size)
{
	if (strlen(v) >= size)
		return -ERANGE;
	memcpy(buf, v, strlen(v) + 1);
	return 0;
}

int acl_kmd_attr(int fd, const char *attr, char *buf, size_t size)
{
	struct fake_file *f;
	int err = fake_begin(FAKE_ATTR);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	if (!f)
		return fake_end(-EBADF);
	/* Only what the driver has: pci_address, on PCI NPUs only. */
	if (strcmp(attr, "pci_address") || !f->npu->pci[0])
		return fake_end(-ENOENT);
	return fake_end(fake_copy_line(f->npu->pci, buf, size));
}

int acl_kmd_driver_version(char *buf, size_t size)
{
	int err = fake_begin(FAKE_DRIVER_VERSION);

	if (err)
		return fake_end(err);
	if (!fake_version)
		return fake_end(-ENOENT);
	return fake_end(fake_copy_line(fake_version, buf, size));
}

void acl_kmd_close(int fd)
{
	struct fake_file *f, **pp;
	struct fake_alloc *a, *next;
	struct fake_graph *g;
	struct fake_reg *r;

	fake_begin(FAKE_CLOSE);
	for (pp = &fake_files; *pp && (*pp)->fd != fd; pp = &(*pp)->next)
		;
	f = *pp;
	if (!f) {
		fake_end(0);
		return;
	}
	if (f->opener != getpid()) {
		/* A forked child's copy: the file stays its opener's. */
		*pp = f->next;
		close(f->fd);
		free(f);
		fake_end(0);
		return;
	}
	/* As the driver's release: queues first, then what they used. */
	while (f->queues)
		fake_queue_free(f->queues);
	for (a = f->npu->allocs; a; a = next) {
		next = a->next;
		if (a->file == f && a->handle) {
			a->handle = 0;
			fake_alloc_put(a);
		}
	}
	while ((g = f->graphs)) {
		f->graphs = g->next;
		free(g->d);
		free(g);
	}
	while ((r = f->regs)) {
		f->regs = r->next;
		free(r);
	}
	munmap(f->slots, f->slots_size);
	close(f->ev_memfd);
	*pp = f->next;
	close(f->fd);
	free(f);
	fake_pump();
	fake_end(0);
}
