// SPDX-License-Identifier: GPL-2.0-only
/*
 * t_fuzz's operations that put work on the objects: descriptors on the
 * rings, barriers, graphs, unknown commands, the DRM core's ioctls and
 * PRIME, eventfds, waits, mappings, files opened, held by other
 * processes and inherited through exec (t_fuzz_worker.h).
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

/* An address of length len in device memory this process may name. */
static uint64_t dev_range(struct fz_ctx *c, uint64_t len)
{
	struct fz_ctx *o = c;
	struct fz_alloc *a;
	uint64_t addr;

	/* Sometimes a window imported by key, or an imported handle's. */
	if (chance(10) && share_dev_range(c, len, &addr))
		return addr;
	/* Sometimes a peer's or another file's allocation. */
	if (chance(15))
		o = any_ctx();
	if (!o->nr_alloc)
		return infos[c->npu].mem_base + below(16) * PAGE;
	a = &o->alloc[below(o->nr_alloc)];
	if (len >= a->size)
		return a->addr;
	return a->addr + below(a->size - len + 1);
}

/* A host address for len bytes; sets the HOST/PAGEABLE flag bits. */
static uint64_t host_side(struct fz_ctx *c, uint64_t len, uint16_t host,
			  uint16_t pageable, uint16_t *flags)
{
	__u64 addr, size;

	*flags |= host;
	if (c->nr_reg && chance(60)) {
		struct fz_reg *r = &c->reg[below(c->nr_reg)];

		if (len >= r->size)
			return r->addr;
		return r->addr + below(r->size - len + 1);
	}
	*flags |= pageable;
	host_range(&addr, &size, len);
	return addr;
}

static uint32_t some_queue_id(struct fz_ctx *c)
{
	struct fz_ctx *o = chance(70) ? c : any_ctx();

	if (!o->nr_q)
		return (uint32_t)interesting(1);
	return o->q[below(o->nr_q)].id;
}

/*
 * REDUCE: a random operation and type over whole elements, both sides
 * in device memory, aligned as the driver wants them (where dev_range()
 * lands): mostly; an edu NPU refuses it anyway (-EOPNOTSUPP).
 */
static void reduce_desc(struct fz_ctx *c, uint64_t len, struct npu_dma_desc *d)
{
	static const uint8_t size[NPU_DMA_REDUCE_NR_TYPES] = {
		1, 1, 2, 2, 4, 4, 2, 2, 4
	};
	uint32_t type = (uint32_t)below(NPU_DMA_REDUCE_NR_TYPES);
	uint64_t mask = size[type] - 1;

	d->value = NPU_DMA_REDUCE_VALUE(below(NPU_DMA_REDUCE_NR_OPS), type);
	d->len = (len + mask) & ~mask;
	d->src = dev_range(c, d->len) & ~mask;
	d->dst = chance(10) ? d->src : dev_range(c, d->len) & ~mask;
}

/* A descriptor that should pass validation, given what the worker holds. */
static void valid_desc(struct fz_ctx *c, struct fz_queue *q, struct npu_dma_desc *d)
{
	uint64_t cap = is_edu(c) ? 4096 : 256 << 10;
	uint64_t len = 1 + below(chance(70) ? 512 : cap);
	int dir = (int)below(3);

	memset(d, 0, sizeof(*d));
	d->opcode = (uint8_t)below(NPU_DMA_OP_MAX + 1);
	switch (d->opcode) {
	case NPU_DMA_OP_COPY:
		d->len = len;
		d->src = dir == 0 ? host_side(c, len, NPU_DMA_DESC_F_SRC_HOST,
					      NPU_DMA_DESC_F_SRC_PAGEABLE, &d->flags)
				  : dev_range(c, len);
		d->dst = dir == 1 ? host_side(c, len, NPU_DMA_DESC_F_DST_HOST,
					      NPU_DMA_DESC_F_DST_PAGEABLE, &d->flags)
				  : dev_range(c, len);
		break;
	case NPU_DMA_OP_COPY_2D:
		d->len = 1 + below(64);
		/* Now and then tall: thousands of narrow rows. */
		d->height = 1 + (uint32_t)below(chance(10) && !is_edu(c) ? 4096 : 8);
		d->src_pitch = d->len + below(64);
		d->dst_pitch = d->len + below(64);
		d->src = dir == 0 ? host_side(c, d->src_pitch * d->height,
					      NPU_DMA_DESC_F_SRC_HOST,
					      NPU_DMA_DESC_F_SRC_PAGEABLE, &d->flags)
				  : dev_range(c, d->src_pitch * d->height);
		d->dst = dir == 1 ? host_side(c, d->dst_pitch * d->height,
					      NPU_DMA_DESC_F_DST_HOST,
					      NPU_DMA_DESC_F_DST_PAGEABLE, &d->flags)
				  : dev_range(c, d->dst_pitch * d->height);
		break;
	case NPU_DMA_OP_FILL:
		d->fill_size = (uint8_t)(1U << below(3));
		d->len = (len + 3) & ~3ULL;
		d->value = rnd() & ((1ULL << (8 * d->fill_size)) - 1);
		d->dst = dir == 1 ? host_side(c, d->len, NPU_DMA_DESC_F_DST_HOST,
					      NPU_DMA_DESC_F_DST_PAGEABLE, &d->flags)
				  : dev_range(c, d->len);
		break;
	case NPU_DMA_OP_COPY_INDIRECT:
		/* Words wherever copies left them: most fail when they run. */
		d->src = dev_range(c, 24) & ~7ULL;
		d->dst = chance(50) ? d->src + 8 : dev_range(c, 8) & ~7ULL;
		if (chance(50))
			d->value = d->src + 16;
		else
			d->len = len;
		if (chance(30))
			d->src_pitch = rnd();
		break;
	case NPU_DMA_OP_REDUCE:
		reduce_desc(c, len, d);
		break;
	case NPU_DMA_OP_EVENT_RECORD:
		d->dst = below(infos[c->npu].max_event_slots);
		break;
	case NPU_DMA_OP_WAIT:
		d->wait_queue = some_queue_id(c);
		d->value = below(4);
		break;
	case NPU_DMA_OP_HOST_BARRIER:
		/* Parks the queue until released: keep them rare. */
		if (chance(70))
			d->opcode = NPU_DMA_OP_NOP;
		break;
	default:
		break;
	}
	(void)q;
}

/* Make a host destination outside the arena point into it. */
static void keep_writes_in_arena(struct npu_dma_desc *d)
{
	uint64_t span = d->len;

	if (!(d->flags & NPU_DMA_DESC_F_DST_HOST) || d->dst >= 1ULL << 47)
		return;
	if (d->opcode == NPU_DMA_OP_COPY_2D && d->height &&
	    __builtin_mul_overflow(d->dst_pitch, (uint64_t)d->height - 1, &span))
		return;		/* wraps: the kernel must refuse it */
	if (d->opcode == NPU_DMA_OP_COPY_2D && __builtin_add_overflow(span, d->len, &span))
		return;
	if (in_arena(d->dst, span))
		return;
	if (span > ARENA / 2) {
		d->len = ARENA / 4;
		d->height = d->height ? 1 : 0;
	}
	d->dst = (uintptr_t)arena + d->dst % (ARENA / 2);
}

/*
 * A complete batch at the tail: BATCH_BEGIN, up to 300 members (copies,
 * 2-D copies and fills, host memory included; now and then one invalid),
 * BATCH_END, all published with one doorbell. Return the new tail.
 */
static uint32_t write_batch(struct fz_ctx *c, struct fz_queue *q, uint32_t tail)
{
	struct npu_dma_desc *ring = (void *)((char *)q->map + NPU_DMA_QUEUE_RING_OFFSET);
	uint32_t room = q->entries - 2, n = 1 + (uint32_t)below(room < 300 ? room : 300);
	struct npu_dma_desc d;
	uint32_t i;

	if (is_edu(c) && n > 4)
		n = 4;
	memset(&d, 0, sizeof(d));
	d.opcode = NPU_DMA_OP_BATCH_BEGIN;
	ring[tail++ & (q->entries - 1)] = d;
	for (i = 0; i < n; i++) {
		do
			valid_desc(c, q, &d);
		while (d.opcode != NPU_DMA_OP_COPY && d.opcode != NPU_DMA_OP_COPY_2D &&
		       d.opcode != NPU_DMA_OP_FILL && d.opcode != NPU_DMA_OP_NOP);
		if (chance(2))
			mutate_struct(&d, sizeof(d));
		keep_writes_in_arena(&d);
		ring[tail++ & (q->entries - 1)] = d;
	}
	memset(&d, 0, sizeof(d));
	d.opcode = NPU_DMA_OP_BATCH_END;
	ring[tail++ & (q->entries - 1)] = d;
	stats->descs += n + 2;
	stats->batches++;
	return tail;
}

/* Fill n slots at the tail with descriptors; return the new tail. */
static uint32_t write_descs(struct fz_ctx *c, struct fz_queue *q, uint32_t tail, int n)
{
	struct npu_dma_queue_ctrl *ctrl = q->map;
	struct npu_dma_desc *ring = (void *)((char *)q->map + NPU_DMA_QUEUE_RING_OFFSET);
	struct npu_dma_desc d;
	int i;

	for (i = 0; i < n; i++) {
		int how = (int)below(100);

		valid_desc(c, q, &d);
		if (how < 35)
			mutate_struct(&d, sizeof(d));
		else if (how < 45)
			random_bytes(&d, sizeof(d));
		else if (how < 50)
			d.opcode = (uint8_t)rnd();
		keep_writes_in_arena(&d);
		ring[tail & (q->entries - 1)] = d;
		tail++;
	}
	(void)ctrl;
	stats->descs += n;
	return tail;
}

void op_submit(struct fz_ctx *c)
{
	struct npu_dma_queue_submit s = { 0 };
	struct npu_dma_queue_ctrl *ctrl;
	struct fz_queue *q;
	uint32_t tail;
	int mutated, n;

	if (!c->nr_q)
		return;
	q = &c->q[below(c->nr_q)];
	s.queue_id = q->id;
	/* Half the doorbells ask for small work to run in them, some to help. */
	s.flags = (chance(50) ? NPU_DMA_SUBMIT_F_INLINE : 0) |
		  (chance(25) ? NPU_DMA_SUBMIT_F_HELP : 0);
	if (q->map) {
		ctrl = q->map;
		tail = ctrl->sq_tail;
		n = 1 + (int)below(q->entries < 8 ? q->entries : 8);
		if (is_edu(c) && n > 2)
			n = 2;
		if (q->entries >= 8 && chance(10))
			tail = write_batch(c, q, tail);
		else
			tail = write_descs(c, q, tail, n);
		switch (below(20)) {
		case 0:
			tail = (uint32_t)rnd();
			break;
		case 1:
			tail = ctrl->sq_head + q->entries + 1 + (uint32_t)below(4);
			break;
		case 2:
			tail = ctrl->sq_head - 1 - (uint32_t)below(4);
			break;
		case 3:
			/* Kernel-owned fields: it must not believe them. */
			ctrl->sq_head = (uint32_t)rnd();
			ctrl->completed_seq = rnd();
			break;
		}
		__atomic_store_n(&ctrl->sq_tail, tail, __ATOMIC_RELEASE);
	}
	fz_call(c->fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &s, sizeof(s), &mutated);
}

void op_barrier(struct fz_ctx *c)
{
	struct npu_dma_barrier_release b = { 0 };
	struct fz_queue *q;
	int mutated;

	if (!c->nr_q)
		return;
	q = &c->q[below(c->nr_q)];
	b.queue_id = q->id;
	if (q->map)
		b.seq = ((struct npu_dma_queue_ctrl *)q->map)->barrier_seq;
	if (!b.seq || chance(20))
		b.seq = below(64);
	fz_call(c->fd, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, &b, sizeof(b), &mutated);
}

/* SET_PRIORITY's answer when nothing was mutated: a bad value or a gone queue. */
static void check_priority(const struct npu_dma_queue_ctl *a, int ret)
{
	int want = a->value > NPU_DMA_QUEUE_PRIO_LOWEST ? -EINVAL : 0;

	if (ret != want && ret != -ENOENT && ret != -ENODEV)
		fz_fail("QUEUE_CTL SET_PRIORITY %u: %d", a->value, ret);
}

/*
 * QUEUE_CTL: a priority (now and then out of range), an abort, or a stop
 * and the abort that ends it, now and then with a doorbell between them.
 * The stop is never mutated and always ended: a queue left stopped would
 * hold every queue waiting on it, and their destroys.
 */
void op_queue_ctl(struct fz_ctx *c)
{
	struct npu_dma_queue_submit s = { 0 };
	struct npu_dma_queue_ctl a = { 0 };
	int mutated, ret;

	if (!c->nr_q)
		return;
	a.queue_id = s.queue_id = c->q[below(c->nr_q)].id;
	switch (below(4)) {
	case 0:
	case 1:
		a.op = NPU_DMA_QUEUE_CTL_SET_PRIORITY;
		a.value = (uint32_t)below(NPU_DMA_QUEUE_PRIO_LOWEST + 3);
		ret = fz_call(c->fd, DRM_IOCTL_NPU_DMA_QUEUE_CTL, &a, sizeof(a),
			      &mutated);
		if (!mutated)
			check_priority(&a, ret);
		break;
	case 2:
		a.op = NPU_DMA_QUEUE_CTL_ABORT;
		fz_call(c->fd, DRM_IOCTL_NPU_DMA_QUEUE_CTL, &a, sizeof(a), &mutated);
		break;
	default:
		a.op = NPU_DMA_QUEUE_CTL_STOP;
		fz_ioctl(c->fd, DRM_IOCTL_NPU_DMA_QUEUE_CTL, &a);
		if (chance(50))
			fz_ioctl(c->fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &s);
		a.op = NPU_DMA_QUEUE_CTL_ABORT;
		a.seq = 0;
		ret = fz_ioctl(c->fd, DRM_IOCTL_NPU_DMA_QUEUE_CTL, &a);
		if (ret && ret != -ENOENT && ret != -ENODEV && ret != -EINTR)
			fz_fail("QUEUE_CTL ABORT after STOP: %d", ret);
	}
}

/* Make a graph of up to 8 descriptors, some of them broken. */
void op_graph_create(struct fz_ctx *c)
{
	struct npu_dma_graph_create g = { 0 };
	struct npu_dma_desc d[8];
	int i, n = 1 + (int)below(8), mutated;

	for (i = 0; i < n; i++) {
		valid_desc(c, NULL, &d[i]);
		if (chance(10))
			mutate_struct(&d[i], sizeof(d[i]));
		keep_writes_in_arena(&d[i]);
	}
	g.descs = (uintptr_t)d;
	g.count = (uint32_t)n;
	if (fz_call(c->fd, DRM_IOCTL_NPU_DMA_GRAPH_CREATE, &g, sizeof(g), &mutated) ||
	    mutated)
		return;
	if (c->nr_graph == MAX_GRAPH) {
		struct npu_dma_graph_destroy gd = { .graph_id = c->graph[0] };

		ioctl(c->fd, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY, &gd);
		c->graph[0] = c->graph[--c->nr_graph];
		c->graph_len[0] = c->graph_len[c->nr_graph];
	}
	c->graph[c->nr_graph] = g.graph_id;
	c->graph_len[c->nr_graph++] = g.count;
	stats->graphs++;
}

void op_graph_destroy(struct fz_ctx *c)
{
	struct npu_dma_graph_destroy gd = { 0 };
	int i = c->nr_graph ? (int)below(c->nr_graph) : -1, mutated;

	gd.graph_id = i < 0 ? (uint32_t)interesting(1) : c->graph[i];
	/* Kept in the table when it failed: a replay of it must fail too. */
	if (fz_call(c->fd, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY, &gd, sizeof(gd), &mutated) ||
	    i < 0 || mutated)
		return;
	c->graph[i] = c->graph[--c->nr_graph];
	c->graph_len[i] = c->graph_len[c->nr_graph];
}

/* A GRAPH descriptor for a known graph (or a wrong count) on a queue. */
void op_graph_replay(struct fz_ctx *c)
{
	struct npu_dma_queue_submit sub = { 0 };
	struct npu_dma_queue_ctrl *ctrl;
	struct npu_dma_desc *ring, d = { .opcode = NPU_DMA_OP_GRAPH };
	struct fz_queue *q;
	int i;

	if (!c->nr_q || !c->nr_graph)
		return;
	q = &c->q[below(c->nr_q)];
	if (!q->map)
		return;
	i = (int)below(c->nr_graph);
	d.value = c->graph[i];
	d.len = chance(90) ? c->graph_len[i] : chance(50) ? below(16) : rnd();
	ctrl = q->map;
	ring = (void *)((char *)q->map + NPU_DMA_QUEUE_RING_OFFSET);
	ring[ctrl->sq_tail & (q->entries - 1)] = d;
	__atomic_store_n(&ctrl->sq_tail, ctrl->sq_tail + 1, __ATOMIC_RELEASE);
	sub.queue_id = q->id;
	sub.flags = (chance(30) ? NPU_DMA_SUBMIT_F_INLINE : 0) |
		    (chance(20) ? NPU_DMA_SUBMIT_F_HELP : 0);
	fz_ioctl(c->fd, DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, &sub);
	stats->descs++;
}

/*
 * Commands nobody defined, or defined ones with the wrong size or
 * direction: the driver's range (DRM_COMMAND_BASE up, the ten ioctls and
 * numbers past them) and core numbers past the DRM core's table. The
 * DRM core does not look at the type byte, so any type reaches it.
 */
void op_bad_cmd(struct fz_ctx *c)
{
	uint8_t arg[256];
	unsigned long cmd;
	unsigned int nr;

	random_bytes(arg, sizeof(arg));
	nr = chance(80) ? DRM_COMMAND_BASE + (unsigned int)below(16)
			: 0xe0 + (unsigned int)below(0x20);
	cmd = _IOC((unsigned int)below(4), chance(90) ? DRM_IOCTL_BASE : (unsigned)rnd() & 0xff,
		   nr, (unsigned int)below(sizeof(arg)));
	/* Generic VFS commands (FIOCLEX...) are not ours to fuzz. */
	if (_IOC_TYPE(cmd) == 'T' || _IOC_TYPE(cmd) == 'f' || _IOC_TYPE(cmd) == 0x94)
		return;
	fz_ioctl(c->fd, cmd, arg);
}

/* Keep a dma-buf fd PRIME gave us, or close it if there is no room. */
static void keep_dmabuf(int fd, int npu)
{
	if (nr_dmabufs == MAX_BUFS_OUT) {
		close(fd);
		return;
	}
	dmabufs[nr_dmabufs].fd = fd;
	dmabufs[nr_dmabufs++].npu = npu;
}

void note_import(struct fz_ctx *c, uint32_t h)
{
	unclose(c, h);
	if (tracked_handle(c, h))
		return;
	if (c->nr_imported < MAX_HANDLES)
		c->imported[c->nr_imported++] = h;
	else if (!gem_close(c->fd, h))
		note_closed(c, h);
}

/*
 * The DRM core's ioctls a render node allows: VERSION (it names the
 * driver), GET_CAP, PRIME export of a handle and import of a dma-buf (on
 * the file it came from, where it must come back as the same handle; on
 * another file or NPU), SYNCOBJ_CREATE (no syncobjs here). None may
 * upset the driver or leak: the oracle counts what they hold.
 */
void op_drm_core(struct fz_ctx *c)
{
	/*
	 * Outside the arena, where no descriptor writes: only the name and
	 * desc pointers (never mutated) lead there.
	 */
	static char strs[192];
	struct drm_version v = {
		.name_len = 64, .name = strs,
		.date_len = 64, .date = strs + 64,
		.desc_len = 64, .desc = strs + 128,
	};
	struct drm_get_cap cap = { 0 };
	struct drm_prime_handle ph = { .fd = -1 };
	struct drm_syncobj_create sc = { 0 };
	size_t asked;
	int ret, i;

	switch (below(6)) {
	case 0:
		if (chance(20))
			v.name_len = interesting(7) & 63;
		if (chance(10))
			v.date = (char *)(uintptr_t)interesting(0);
		asked = v.name_len;
		ret = fz_ioctl(c->fd, DRM_IOCTL_VERSION, &v);
		/* It says the name's length, and copies as much as there is room. */
		if (!ret && (v.name_len != strlen(NPU_DMA_DRIVER_NAME) ||
			     memcmp(strs, NPU_DMA_DRIVER_NAME,
				    asked < v.name_len ? asked : v.name_len)))
			fz_fail("DRM_IOCTL_VERSION names '%.7s' (%zu)", strs, (size_t)v.name_len);
		if (ret && v.date == strs + 64 && !racing)
			fz_fail("DRM_IOCTL_VERSION: %d", ret);
		break;
	case 1:
		cap.capability = chance(70) ? below(0x20) : interesting(1);
		fz_ioctl(c->fd, DRM_IOCTL_GET_CAP, &cap);
		break;
	case 2:
	case 3:
		/* Export a live handle, a guessed one, with odd flags. */
		i = c->nr_alloc && chance(80);
		ph.handle = i ? c->alloc[below(c->nr_alloc)].handle : (uint32_t)below(32);
		ph.flags = chance(80) ? DRM_CLOEXEC | DRM_RDWR : (uint32_t)interesting(2);
		stats->prime++;
		if (fz_ioctl(c->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph) || ph.fd < 0)
			break;
		stats->prime_ok++;
		/*
		 * A guessed handle may be an import: its dma-buf is then the
		 * exporter's (vgem's, another NPU's), not @c's NPU's, and
		 * importing it is not the "same NPU" case op_prime_import()
		 * checks. Only our own allocations' are kept.
		 */
		if (i)
			keep_dmabuf(ph.fd, c->npu);
		else
			close(ph.fd);
		break;
	case 4:
		/* Import: on the exporter's file it is the same object again. */
		if (!nr_dmabufs)
			return;
		i = (int)below(nr_dmabufs);
		if (!dmabuf_importable(dmabufs[i].fd, dmabufs[i].npu, c->npu))
			return;
		ph = (struct drm_prime_handle){ .fd = chance(90) ? dmabufs[i].fd : (int)rnd() };
		stats->prime++;
		if (!fz_ioctl(c->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph))
			note_import(c, ph.handle);
		if (chance(30)) {
			close(dmabufs[i].fd);
			dmabufs[i] = dmabufs[--nr_dmabufs];
		}
		break;
	default:
		if (!fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc)) {
			struct drm_syncobj_destroy sd = { .handle = sc.handle };

			fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &sd);
		}
		break;
	}
}

/*
 * Export one of @c's allocations and import it again on the same file:
 * the same handle back (the DRM core's prime lookup), unless the racer
 * closed it meanwhile.
 */
void op_prime_roundtrip(struct fz_ctx *c)
{
	struct drm_prime_handle ph = { .flags = DRM_CLOEXEC | DRM_RDWR, .fd = -1 };
	uint32_t h;

	if (!c->nr_alloc)
		return;
	h = c->alloc[below(c->nr_alloc)].handle;
	ph.handle = h;
	stats->prime++;
	if (fz_ioctl(c->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph) || ph.fd < 0)
		return;		/* export may be refused; the oracle still holds */
	stats->prime_ok++;
	ph.handle = 0;
	if (!fz_ioctl(c->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph) && ph.handle != h && !racing)
		fz_fail("PRIME re-import of handle %u gave handle %u", h, ph.handle);
	keep_dmabuf(ph.fd, c->npu);
}

void op_close_eventfd(struct fz_ctx *c)
{
	struct fz_queue *q;

	if (!c->nr_q)
		return;
	q = &c->q[below(c->nr_q)];
	if (q->efd >= 0) {
		close(q->efd);
		q->efd = -1;
		stats->efd_closed++;
	}
}

void op_wait(struct fz_ctx *c)
{
	struct fz_queue *q;
	uint64_t v;

	if (!c->nr_q)
		return;
	q = &c->q[below(c->nr_q)];
	if (q->efd >= 0) {
		usleep((useconds_t)below(20000));
		if (read(q->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
			fz_fail("eventfd read: %d", errno);
	}
}

/* Unmap part of a host buffer (registered or not), or map it back. */
void op_munmap(void)
{
	struct fz_buf *b = &bufs[below(NR_BUFS)];
	uint64_t off = below(BUF_LEN / PAGE) * PAGE;
	uint64_t len = (1 + below((BUF_LEN - off) / PAGE)) * PAGE;

	if (chance(50)) {
		munmap(b->p + off, len);
		/*
		 * Plug the hole, or a queue's mapping could land in it and
		 * be zapped by the madvise() below (SIGBUS on the next touch).
		 */
		if (mmap(b->p + off, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
			 MAP_FIXED_NOREPLACE, -1, 0) == MAP_FAILED)
			fz_fail("mmap PROT_NONE: %d", errno);
		b->mapped = 0;
		stats->munmaps++;
	} else if (chance(50)) {
		madvise(b->p + off, len, MADV_DONTNEED);
	} else {
		if (mmap(b->p, BUF_LEN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
			fz_fail("mmap back: %d", errno);
		b->mapped = 1;
	}
}

/*
 * The event table at its fake offset, whole or not, read-write or not;
 * other offsets (0, pages into it, past it, random). Only the exact
 * mapping may work; it is read, then unmapped.
 */
void op_mmap_events(struct fz_ctx *c)
{
	size_t len = chance(60) ? c->events_size : (1 + below(40)) * PAGE;
	int prot = chance(20) ? PROT_READ | PROT_WRITE : PROT_READ;
	off_t off = (off_t)c->events_off;
	void *p;

	switch (below(8)) {
	case 0:
		off = 0;
		break;
	case 1:
		off += (off_t)(below(40) * PAGE);
		break;
	case 2:
		off = (off_t)(below(1 << 20) * PAGE);
		break;
	}
	p = mmap(NULL, len, prot, MAP_SHARED | (chance(10) ? MAP_PRIVATE : 0), c->fd, off);
	if (p == MAP_FAILED)
		return;
	if (off == (off_t)c->events_off && len == c->events_size) {
		volatile uint8_t *v = p;

		if (prot & PROT_WRITE)
			fz_fail("the event table mapped writable");
		(void)v[below(len)];
	}
	munmap(p, len);
}

void close_ctx(struct fz_ctx *c)
{
	while (c->nr_q)
		drop_queue(c, 0);
	close(c->fd);
	c->fd = -1;
	share_forget_ctx(c);
	c->nr_graph = 0;
	c->nr_alloc = 0;
	c->nr_reg = 0;
	c->nr_imported = 0;
	c->nr_closed = 0;
}

void op_open(void)
{
	struct npu_dma_info info;
	struct fz_ctx *o;
	int i, npu = (int)below(nr_npus);

	for (i = 0; i < MAX_CTX; i++)
		if (ctxs[i].fd < 0)
			break;
	if (i == MAX_CTX) {
		/* Close one with whatever it has queued. */
		close_ctx(any_ctx());
		return;
	}
	/* Now and then another file on an NPU in use: files that share memory. */
	if (chance(40) && (o = any_ctx()))
		npu = o->npu;
	memset(&ctxs[i], 0, sizeof(ctxs[i]));
	ctxs[i].npu = npu;
	ctxs[i].fd = npu_raw_open(npu);
	if (ctxs[i].fd < 0)
		fz_fail("open npu %d: %d", npu, ctxs[i].fd);
	if (npu_raw_info(ctxs[i].fd, &info))
		fz_fail("GET_INFO of a new file on npu %d", npu);
	ctxs[i].events_off = info.events_offset;
	ctxs[i].events_size = info.events_size;
}

/*
 * A forked child holds every file of the worker: only GET_INFO may work,
 * every other ioctl of the driver, the DRM core's handle ioctls
 * (GEM_CLOSE, PRIME export and import) and every mmap must be refused
 * with -EPERM.
 */
void op_foreign(void)
{
	pid_t pid;
	int status;

	stats->foreign++;
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		struct fz_ctx *c = any_ctx();
		uint8_t arg[128] = { 0 };
		static const unsigned long cmds[] = {
			DRM_IOCTL_NPU_DMA_MEM_ALLOC, DRM_IOCTL_GEM_CLOSE,
			DRM_IOCTL_PRIME_HANDLE_TO_FD, DRM_IOCTL_PRIME_FD_TO_HANDLE,
			DRM_IOCTL_NPU_DMA_HOST_REGISTER, DRM_IOCTL_NPU_DMA_HOST_UNREGISTER,
			DRM_IOCTL_NPU_DMA_QUEUE_CREATE, DRM_IOCTL_NPU_DMA_QUEUE_DESTROY,
			DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, DRM_IOCTL_NPU_DMA_BARRIER_RELEASE,
			DRM_IOCTL_NPU_DMA_GRAPH_CREATE, DRM_IOCTL_NPU_DMA_GRAPH_DESTROY,
			DRM_IOCTL_NPU_DMA_MEM_INFO, DRM_IOCTL_NPU_DMA_IPC_EXPORT,
			DRM_IOCTL_NPU_DMA_IPC_SET_PIDS, DRM_IOCTL_NPU_DMA_IPC_IMPORT,
			DRM_IOCTL_NPU_DMA_IPC_CLOSE, DRM_IOCTL_NPU_DMA_QUEUE_CTL,
		};
		unsigned long cmd = cmds[below(sizeof(cmds) / sizeof(cmds[0]))];
		int ret;

		if (!c)
			_exit(0);
		if (cmd == DRM_IOCTL_GEM_CLOSE || cmd == DRM_IOCTL_PRIME_HANDLE_TO_FD) {
			if (c->nr_alloc)
				memcpy(arg, &c->alloc[0].handle, 4);
		} else if (cmd == DRM_IOCTL_PRIME_FD_TO_HANDLE && nr_dmabufs)
			memcpy(arg + 8, &dmabufs[0].fd, 4);
		else if (cmd == DRM_IOCTL_NPU_DMA_IPC_IMPORT && c->nr_share)
			memcpy(arg, c->share[0].key, 16);
		else if (c->nr_q)
			memcpy(arg, &c->q[0].id, 4);
		if (chance(50))
			mutate_struct(arg, 64);
		ret = ioctl(c->fd, cmd, arg) < 0 ? -errno : 0;
		if (ret != -EPERM) {
			fprintf(stderr, "t_fuzz: foreign ioctl %#lx gave %d\n", cmd, ret);
			_exit(4);
		}
		if (mmap(NULL, c->events_size, PROT_READ, MAP_SHARED, c->fd,
			 (off_t)c->events_off) != MAP_FAILED || errno != EPERM) {
			fprintf(stderr, "t_fuzz: foreign mmap of the event table not refused"
				" with EPERM (errno %d)\n", errno);
			_exit(4);
		}
		/*
		 * A queue the worker still tracks may be gone (destroyed by the
		 * racer, or unmapped and destroyed): its offset is then no
		 * object's (-EINVAL) or, reused, another file's (-EACCES).
		 * Alive, it is the opener's (-EPERM). Never mapped.
		 */
		if (c->nr_q && (mmap(NULL, c->q[0].map_size, PROT_READ, MAP_SHARED, c->fd,
				     (off_t)c->q[0].map_off) != MAP_FAILED ||
				(errno != EPERM && errno != EINVAL && errno != EACCES))) {
			fprintf(stderr, "t_fuzz: foreign mmap of a queue not refused (errno %d)\n",
				errno);
			_exit(4);
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		fz_fail("a forked process could use the worker's file (status %#x)", status);
}

/*
 * The largest of @n ids, 4 bytes each @stride bytes apart from @first,
 * read while the worker changes them. Ids and handles are allocated
 * lowest free first (xa_alloc, idr_alloc), so the next create is likely
 * to give one just above.
 */
/*
 * A forked child execs, with one of the worker's files inherited: the
 * test binary, whose main() then checks what an inheriting process may
 * do (fz_exec_child()), or /bin/true. The files are opened O_CLOEXEC:
 * the child clears it on its copy of the descriptor.
 */
void op_exec(struct fz_ctx *c)
{
	struct fz_queue *q = c->nr_q ? &c->q[below(c->nr_q)] : NULL;
	const char *prog = chance(80) ? "/proc/self/exe" : "/bin/true";
	char env[128], *envp[] = { env, NULL };
	char *argv[] = { "t_fuzz", NULL };
	int status;
	pid_t pid;

	snprintf(env, sizeof(env), FZ_EXEC_ENV "=%d,%u,%" PRIu64 ",%zu", c->fd,
		 q ? q->id : 0, q ? q->map_off : 0, q ? q->map_size : 0);
	stats->execs++;
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		fcntl(c->fd, F_SETFD, 0);
		execve(prog, argv, envp);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		fz_fail("a child exec'd with the file inherited: status %#x", status);
}
