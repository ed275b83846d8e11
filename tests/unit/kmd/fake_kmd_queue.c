// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fake command layer's queues (see fake_kmd.h): what a doorbell
 * consumes is copied out of the ring once and checked as the driver
 * checks it (fields, addresses against the file's allocations and
 * registrations, batches), then run in order: a HOST_BARRIER parks the
 * queue until BARRIER_RELEASE, a WAIT until the queue it names got there;
 * completion and errors are published in the control area and the
 * eventfd is signalled, as the driver does.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fake_kmd_priv.h"

/* ---- validating and resolving descriptors -------------------------------- */

static bool fake_registered(const struct fake_file *f, uint64_t addr,
			    uint64_t len)
{
	const struct fake_reg *r;

	for (r = f->regs; r; r = r->next)
		if (addr >= r->addr && len <= r->addr + r->size - addr &&
		    addr - r->addr < r->size)
			return true;
	return false;
}

/* The allocation holding [addr, addr + len) that @f may name, or NULL. */
struct fake_alloc *fake_alloc_covering(const struct fake_file *f,
					      uint64_t addr, uint64_t len,
					      bool peers)
{
	const struct fake_npu *mine = f->npu;
	struct fake_alloc *a;
	int i;

	for (i = 0; i < fake_nnpus; i++) {
		struct fake_npu *n = &fake_npus[i];

		if (n != mine && (!peers || !((mine->cfg.peers >> n->cfg.index) & 1)))
			continue;
		for (a = n->allocs; a; a = a->next) {
			/* Closed handles are named by no new descriptor. */
			if (!a->handle || (n == mine && a->file != f))
				continue;
			if (addr >= a->addr && addr - a->addr < a->size &&
			    len <= a->size - (addr - a->addr))
				return a;
		}
	}
	return NULL;
}

uint8_t *fake_dev_ptr(const struct fake_alloc *a, uint64_t addr)
{
	return a->npu->mem + (addr - a->npu->mem_base);
}

/*
 * Resolve one side of a transfer into a host pointer: registered or
 * pageable host memory, or device memory of the file (or of a peer). A
 * device side is held by the job until it completes.
 */
static int fake_resolve(const struct fake_file *f, uint64_t addr, uint64_t len,
			bool host, bool pageable, uint8_t **p,
			struct fake_alloc **hold)
{
	struct fake_alloc *a;

	if (addr + len < addr)
		return -EFAULT;
	if (host) {
		if (!pageable && !fake_registered(f, addr, len))
			return -EFAULT;
		*p = (uint8_t *)(uintptr_t)addr;
		return 0;
	}
	if (pageable)
		return -EINVAL;
	a = fake_alloc_covering(f, addr, len, true);
	if (!a)
		return -EFAULT;
	a->refs++;
	*hold = a;
	*p = fake_dev_ptr(a, addr);
	return 0;
}

static int fake_prepare_sides(const struct fake_file *f, struct fake_job *j,
			      uint64_t sspan, uint64_t dspan)
{
	uint16_t fl = j->d.flags;
	int err = 0;

	if (sspan)
		err = fake_resolve(f, j->d.src, sspan, fl & NPU_DMA_DESC_F_SRC_HOST,
				   fl & NPU_DMA_DESC_F_SRC_PAGEABLE, &j->src,
				   &j->hold[0]);
	else if (fl & (NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE))
		err = -EINVAL;
	if (!err)
		err = fake_resolve(f, j->d.dst, dspan, fl & NPU_DMA_DESC_F_DST_HOST,
				   fl & NPU_DMA_DESC_F_DST_PAGEABLE, &j->dst,
				   &j->hold[1]);
	return err;
}

static int fake_prepare_copy(const struct fake_file *f, struct fake_job *j)
{
	const struct npu_dma_desc *d = &j->d;

	if (!d->len || d->len > f->npu->cfg.max_copy_len || d->value ||
	    d->src_pitch || d->dst_pitch)
		return -EINVAL;
	return fake_prepare_sides(f, j, d->len, d->len);
}

static int fake_prepare_2d(const struct fake_file *f, struct fake_job *j)
{
	const struct npu_dma_desc *d = &j->d;

	if (!d->len || !d->height || d->height > (1U << 16) || d->value ||
	    d->src_pitch < d->len || d->dst_pitch < d->len ||
	    d->src_pitch > (1ULL << 24) || d->dst_pitch > (1ULL << 24))
		return -EINVAL;
	return fake_prepare_sides(f, j, (d->height - 1) * d->src_pitch + d->len,
				  (d->height - 1) * d->dst_pitch + d->len);
}

static int fake_prepare_fill(const struct fake_file *f, struct fake_job *j)
{
	const struct npu_dma_desc *d = &j->d;

	if ((d->fill_size != 1 && d->fill_size != 2 && d->fill_size != 4) ||
	    !d->len || d->len % d->fill_size || d->len > f->npu->cfg.max_copy_len ||
	    d->src || d->src_pitch || d->dst_pitch)
		return -EINVAL;
	return fake_prepare_sides(f, j, 0, d->len);
}

/* The 8-byte word at device address @addr of @f's own memory, held. */
static int fake_word(const struct fake_file *f, uint64_t addr,
		     struct fake_alloc **hold)
{
	struct fake_alloc *a;

	if (addr % 8)
		return -EINVAL;
	a = fake_alloc_covering(f, addr, 8, false);
	if (!a)
		return -EFAULT;
	a->refs++;
	*hold = a;
	return 0;
}

static int fake_prepare_indirect(const struct fake_file *f, struct fake_job *j)
{
	const struct npu_dma_desc *d = &j->d;
	int err;

	if (d->flags || !d->len == !d->value || d->len > f->npu->cfg.max_copy_len)
		return -EINVAL;
	err = fake_word(f, d->src, &j->hold[0]);
	if (!err)
		err = fake_word(f, d->dst, &j->hold[1]);
	if (!err && !d->len)
		err = fake_word(f, d->value, &j->hold[2]);
	return err;
}

/* Check @j as the driver does at the doorbell; resolve what it names. */
int fake_prepare(const struct fake_file *f, struct fake_job *j)
{
	const struct npu_dma_desc *d = &j->d;

	if (d->opcode > NPU_DMA_OP_MAX || d->flags & ~NPU_DMA_DESC_FLAGS_MASK ||
	    d->reserved || (d->opcode != NPU_DMA_OP_FILL && d->fill_size) ||
	    (d->opcode != NPU_DMA_OP_COPY_2D && d->height) ||
	    (d->opcode != NPU_DMA_OP_WAIT && d->wait_queue))
		return -EINVAL;
	switch (d->opcode) {
	case NPU_DMA_OP_COPY:
		return fake_prepare_copy(f, j);
	case NPU_DMA_OP_COPY_2D:
		return fake_prepare_2d(f, j);
	case NPU_DMA_OP_FILL:
		return fake_prepare_fill(f, j);
	case NPU_DMA_OP_COPY_INDIRECT:
		return fake_prepare_indirect(f, j);
	case NPU_DMA_OP_EVENT_RECORD:
		return d->flags || d->dst >= f->npu->cfg.max_event_slots ? -EINVAL : 0;
	case NPU_DMA_OP_WAIT:
		if (d->flags)
			return -EINVAL;
		return fake_queue_any(d->wait_queue) ? 0 : -ENOENT;
	case NPU_DMA_OP_GRAPH:
		return -EINVAL;		/* expanded by the caller; never nested */
	default:			/* NOP, HOST_BARRIER, batch markers */
		return d->flags ? -EINVAL : 0;
	}
}

void fake_job_free(struct fake_job *j)
{
	int i;

	for (i = 0; i < 3; i++)
		fake_alloc_put(j->hold[i]);
	free(j);
}

/* ---- running ------------------------------------------------------------ */

static void fake_run_2d(const struct fake_job *j)
{
	uint32_t r;

	for (r = 0; r < j->d.height; r++)
		memmove(j->dst + r * j->d.dst_pitch, j->src + r * j->d.src_pitch,
			j->d.len);
}

static void fake_run_fill(const struct fake_job *j)
{
	uint64_t i;

	for (i = 0; i < j->d.len; i += j->d.fill_size)
		memcpy(j->dst + i, &j->d.value, j->d.fill_size);	/* little endian */
}

static void fake_run_event(const struct fake_queue *q, const struct fake_job *j)
{
	struct npu_dma_event_slot *s = &q->file->slots[j->d.dst];

	s->timestamp_ns = fake_now_ns();
	s->queue_id = q->id;
	__atomic_store_n(&s->seq, j->seq, __ATOMIC_RELEASE);
}

/* COPY_INDIRECT: the words are read now, after all earlier work. */
static int fake_run_indirect(const struct fake_queue *q, const struct fake_job *j)
{
	const struct npu_dma_desc *d = &j->d;
	uint64_t src, dst, len = d->len;
	struct fake_alloc *sa, *da;

	memcpy(&src, fake_dev_ptr(j->hold[0], d->src), 8);
	memcpy(&dst, fake_dev_ptr(j->hold[1], d->dst), 8);
	if (!len)
		memcpy(&len, fake_dev_ptr(j->hold[2], d->value), 8);
	src += d->src_pitch;
	dst += d->dst_pitch;
	if (!len)
		return 0;
	if (len > q->file->npu->cfg.max_copy_len)
		return -EINVAL;
	sa = fake_alloc_covering(q->file, src, len, false);
	da = fake_alloc_covering(q->file, dst, len, false);
	if (!sa || !da)
		return -EFAULT;
	memmove(fake_dev_ptr(da, dst), fake_dev_ptr(sa, src), len);
	return 0;
}

/* Do what @j says: 0 or the -errno it fails with. */
static int fake_exec(const struct fake_queue *q, const struct fake_job *j)
{
	switch (j->d.opcode) {
	case NPU_DMA_OP_COPY:
		memmove(j->dst, j->src, j->d.len);
		return 0;
	case NPU_DMA_OP_COPY_2D:
		fake_run_2d(j);
		return 0;
	case NPU_DMA_OP_FILL:
		fake_run_fill(j);
		return 0;
	case NPU_DMA_OP_EVENT_RECORD:
		fake_run_event(q, j);
		return 0;
	case NPU_DMA_OP_COPY_INDIRECT:
		return fake_run_indirect(q, j);
	default:
		return 0;
	}
}

/* Publish @j's completion (in order) and free it. */
static void fake_complete(struct fake_queue *q, struct fake_job *j)
{
	struct npu_dma_queue_ctrl *c = q->ctrl;

	if (j->status) {
		if (!c->error_seq) {
			c->error_seq = j->seq;
			c->error = j->status;
		}
		c->last_error_seq = j->seq;
		c->last_error = j->status;
		__atomic_store_n(&c->error_count, c->error_count + 1,
				 __ATOMIC_RELEASE);
	}
	__atomic_store_n(&c->completed_seq, j->seq, __ATOMIC_RELEASE);
	fake_job_free(j);
}

static struct fake_job *fake_pop(struct fake_queue *q)
{
	struct fake_job *j = q->jobs;

	q->jobs = j->next;
	if (!q->jobs)
		q->jobs_tail = &q->jobs;
	return j;
}

/*
 * A complete batch at the head of @q: the members run in reverse order
 * ("any order"), so a library that relied on their order would show it;
 * the batch completes as a unit.
 */
static void fake_run_batch(struct fake_queue *q)
{
	struct fake_job *j, *v[8192];
	size_t n = 0, i;

	for (j = q->jobs->next; j && j->batch_member && n < 8192; j = j->next) {
		v[n++] = j;
		if (j->d.opcode == NPU_DMA_OP_BATCH_END)
			break;
	}
	for (i = n; i-- > 0;)
		if (!v[i]->status && v[i]->d.opcode != NPU_DMA_OP_BATCH_END)
			v[i]->status = fake_exec(q, v[i]);
	fake_complete(q, fake_pop(q));		/* BATCH_BEGIN */
	for (i = 0; i < n; i++)
		fake_complete(q, fake_pop(q));
}

/* May @j run now? A barrier until released, a WAIT until its queue got there. */
static bool fake_ready(struct fake_queue *q, const struct fake_job *j)
{
	const struct fake_queue *t;

	if (j->status)
		return true;
	if (j->d.opcode == NPU_DMA_OP_HOST_BARRIER && q->released != j->seq) {
		if (q->ctrl->barrier_seq != j->seq) {
			__atomic_store_n(&q->ctrl->barrier_seq, j->seq,
					 __ATOMIC_RELEASE);
			fake_signal(q);
		}
		return false;
	}
	if (j->d.opcode == NPU_DMA_OP_WAIT) {
		t = fake_queue_any(j->d.wait_queue);
		return !t || t->ctrl->completed_seq >= j->d.value;
	}
	return true;
}

/* Run @q's jobs in order until one must wait: did any complete? */
static bool fake_queue_run(struct fake_queue *q)
{
	bool progress = false;
	struct fake_job *j;

	while (q->jobs) {
		j = q->jobs;
		if (!fake_ready(q, j))
			break;
		progress = true;
		if (j->d.opcode == NPU_DMA_OP_HOST_BARRIER)
			__atomic_store_n(&q->ctrl->barrier_seq, 0, __ATOMIC_RELEASE);
		if (j->d.opcode == NPU_DMA_OP_BATCH_BEGIN && !j->status &&
		    j->next && j->next->batch_member) {
			fake_run_batch(q);
			continue;
		}
		if (!j->status)
			j->status = fake_exec(q, j);
		fake_complete(q, fake_pop(q));
	}
	return progress;
}

/* Run every queue until nothing moves; wake whoever waits for progress. */
void fake_pump(void)
{
	struct fake_file *f;
	struct fake_queue *q;
	bool any;

	do {
		any = false;
		for (f = fake_files; f; f = f->next) {
			for (q = f->queues; q; q = q->next) {
				if (fake_queue_run(q)) {
					any = true;
					fake_signal(q);
				}
			}
		}
	} while (any);
	pthread_cond_broadcast(&fake_progress);
}

/* ---- the doorbell ------------------------------------------------------- */

static struct fake_job *fake_job_new(struct fake_queue *q,
				     const struct npu_dma_desc *d)
{
	struct fake_job *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->d = *d;
	j->seq = ++q->seq;
	j->status = fake_prepare(q->file, j);
	return j;
}

struct fake_jobs {
	struct fake_job **v;
	size_t n, cap;
};

static int fake_jobs_add(struct fake_jobs *l, struct fake_job *j)
{
	if (!j)
		return -ENOMEM;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct fake_job **v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			fake_job_free(j);
			return -ENOMEM;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = j;
	return 0;
}

/* A GRAPH descriptor: its tasks, each with its own sequence number. */
static int fake_expand_graph(struct fake_queue *q, const struct npu_dma_desc *d,
			     struct fake_jobs *l)
{
	const struct fake_graph *g;
	uint64_t i, n = d->len ? d->len : 1;
	int err = 0, status = 0;

	for (g = q->file->graphs; g && g->id != d->value; g = g->next)
		;
	if (!g)
		status = -ENOENT;
	else if (d->len != g->n || d->flags || d->src || d->dst)
		status = -EINVAL;
	for (i = 0; !err && i < n; i++) {
		struct fake_job *j;

		if (status) {
			struct npu_dma_desc nop = { .opcode = NPU_DMA_OP_NOP };

			j = fake_job_new(q, &nop);
			if (j)
				j->status = status;
		} else {
			j = fake_job_new(q, &g->d[i]);
		}
		err = fake_jobs_add(l, j);
	}
	return err;
}

/* The driver's batch rules, over one doorbell's jobs. */
static void fake_mark_batches(struct fake_jobs *l)
{
	size_t i, k;

	for (i = 0; i < l->n; i++) {
		if (l->v[i]->d.opcode != NPU_DMA_OP_BATCH_BEGIN || l->v[i]->status)
			continue;
		for (k = i + 1; k < l->n; k++)
			if (l->v[k]->d.opcode == NPU_DMA_OP_BATCH_BEGIN ||
			    l->v[k]->d.opcode == NPU_DMA_OP_BATCH_END)
				break;
		if (k == l->n || l->v[k]->d.opcode != NPU_DMA_OP_BATCH_END ||
		    l->v[k]->status) {
			l->v[i]->status = -EINVAL;
			continue;
		}
		for (i++; i <= k; i++) {
			uint8_t op = l->v[i]->d.opcode;

			l->v[i]->batch_member = true;
			if (i < k && !l->v[i]->status && op != NPU_DMA_OP_COPY &&
			    op != NPU_DMA_OP_COPY_2D && op != NPU_DMA_OP_FILL &&
			    op != NPU_DMA_OP_NOP)
				l->v[i]->status = -EINVAL;
		}
		i = k;
	}
	for (i = 0; i < l->n; i++)
		if (l->v[i]->d.opcode == NPU_DMA_OP_BATCH_END &&
		    !l->v[i]->batch_member && !l->v[i]->status)
			l->v[i]->status = -EINVAL;
}

/* Take what user space published: the count consumed, or -errno. */
static int fake_consume(struct fake_queue *q)
{
	uint32_t tail = __atomic_load_n(&q->ctrl->sq_tail, __ATOMIC_ACQUIRE);
	uint32_t n = tail - q->head, i;
	struct fake_jobs l = { 0 };
	uint64_t seq0 = q->seq;
	int err = 0;

	if (n > q->entries)
		return -EINVAL;
	for (i = 0; !err && i < n; i++) {
		/* Copied out of the ring once, then checked: as the driver. */
		struct npu_dma_desc d = q->ring[(q->head + i) & (q->entries - 1)];

		if (d.opcode == NPU_DMA_OP_GRAPH)
			err = fake_expand_graph(q, &d, &l);
		else
			err = fake_jobs_add(&l, fake_job_new(q, &d));
	}
	if (err) {
		for (i = 0; i < l.n; i++)
			fake_job_free(l.v[i]);
		free(l.v);
		q->seq = seq0;	/* nothing consumed */
		return err;
	}
	fake_mark_batches(&l);
	for (i = 0; i < l.n; i++) {
		*q->jobs_tail = l.v[i];
		q->jobs_tail = &l.v[i]->next;
	}
	free(l.v);
	q->head = tail;
	__atomic_store_n(&q->ctrl->sq_head, tail, __ATOMIC_RELEASE);
	__atomic_store_n(&q->ctrl->submitted_seq, q->seq, __ATOMIC_RELEASE);
	return (int)n;
}

/* Doorbells that asked for F_INLINE. */
static unsigned int fake_inline_bells;

unsigned int fake_kmd_inline_doorbells(void)
{
	return __atomic_load_n(&fake_inline_bells, __ATOMIC_RELAXED);
}

int acl_kmd_queue_submit(int fd, uint32_t queue_id, uint32_t flags)
{
	struct fake_file *f;
	struct fake_queue *q;
	int n = fake_begin(FAKE_QUEUE_SUBMIT);

	if (n)
		return fake_end(n);
	/* F_INLINE and F_HELP only change where the driver runs the work. */
	if (flags & ~(NPU_DMA_SUBMIT_F_INLINE | NPU_DMA_SUBMIT_F_HELP))
		return fake_end(-EINVAL);
	if (flags & NPU_DMA_SUBMIT_F_INLINE)
		__atomic_add_fetch(&fake_inline_bells, 1, __ATOMIC_RELAXED);
	f = fake_file_of(fd);
	q = f ? fake_queue_of(f, queue_id) : NULL;
	if (!q)
		return fake_end(f ? -ENOENT : -EBADF);
	n = fake_consume(q);
	if (n >= 0 && !fake_held)
		fake_pump();
	return fake_end(n);
}

int acl_kmd_barrier_release(int fd, uint32_t queue_id, uint64_t seq)
{
	struct fake_file *f;
	struct fake_queue *q;
	int err = fake_begin(FAKE_BARRIER_RELEASE);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	/* A queue being destroyed waits for its barriers: they may go. */
	q = f ? fake_queue_find(f, queue_id, true) : NULL;
	if (!q)
		return fake_end(f ? -ENOENT : -EBADF);
	if (!seq || q->ctrl->barrier_seq != seq)
		return fake_end(-EINVAL);
	q->released = seq;
	if (!fake_held)
		fake_pump();
	return fake_end(0);
}

void fake_kmd_hold(bool on)
{
	pthread_mutex_lock(&fake_lock);
	fake_held = on;
	if (!on)
		fake_pump();
	pthread_mutex_unlock(&fake_lock);
}

static void fake_set_wakeup(struct fake_queue *q)
{
	uint32_t fl = q->ctrl->flags & ~NPU_DMA_QUEUE_S_NEED_WAKEUP;

	if (!fake_is_busy && (q->file->npu->cfg.caps_off & NPU_DMA_CAP_NEED_WAKEUP) == 0)
		fl |= NPU_DMA_QUEUE_S_NEED_WAKEUP;
	__atomic_store_n(&q->ctrl->flags, fl, __ATOMIC_SEQ_CST);
}

/* Every live queue: consume what it published (a worker's look at the ring). */
static void fake_consume_all(void)
{
	struct fake_file *f;
	struct fake_queue *q;

	for (f = fake_files; f; f = f->next)
		for (q = f->queues; q; q = q->next)
			if (!q->dying)
				fake_consume(q);
}

void fake_kmd_busy(bool on)
{
	struct fake_file *f;
	struct fake_queue *q;

	pthread_mutex_lock(&fake_lock);
	fake_is_busy = on;
	for (f = fake_files; f; f = f->next)
		for (q = f->queues; q; q = q->next)
			fake_set_wakeup(q);
	if (!on) {
		/* Idle again: the last look at sq_tail before sleeping. */
		fake_consume_all();
		if (!fake_held)
			fake_pump();
	}
	pthread_mutex_unlock(&fake_lock);
}

void fake_kmd_run(void)
{
	pthread_mutex_lock(&fake_lock);
	fake_consume_all();
	fake_pump();
	pthread_mutex_unlock(&fake_lock);
}

/* ---- queues --------------------------------------------------------------- */

int acl_kmd_queue_create(int fd, struct npu_dma_queue_create *c)
{
	struct fake_queue *q;
	struct fake_file *f;
	void *area;
	size_t size;
	int err = fake_begin(FAKE_QUEUE_CREATE);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	if (!f)
		return fake_end(-EBADF);
	if (!c->entries || c->entries & (c->entries - 1) ||
	    c->entries > f->npu->cfg.max_queue_entries || c->flags ||
	    c->queue_id || c->mmap_offset || c->mmap_size || c->reserved[0] ||
	    c->reserved[1] || c->reserved[2] || c->reserved[3])
		return fake_end(-EINVAL);
	if (c->eventfd < -1)
		return fake_end(-EBADF);
	if (fake_file_queues(f) >= FAKE_MAX_QUEUES)
		return fake_end(-EBUSY);
	q = calloc(1, sizeof(*q));
	if (!q)
		return fake_end(-ENOMEM);
	size = fake_round(NPU_DMA_QUEUE_RING_OFFSET +
			  (uint64_t)c->entries * sizeof(struct npu_dma_desc), FAKE_PAGE);
	err = fake_shm(size, &q->memfd, &area);
	if (err) {
		free(q);
		return fake_end(err);
	}
	/* The driver takes its own reference on the eventfd. */
	q->efd = c->eventfd >= 0 ? dup(c->eventfd) : -1;
	if (c->eventfd >= 0 && q->efd < 0) {
		munmap(area, size);
		close(q->memfd);
		free(q);
		return fake_end(-EBADF);
	}
	q->id = fake_next_queue++;
	q->file = f;
	q->entries = c->entries;
	q->size = size;
	q->ctrl = area;
	q->ring = (struct npu_dma_desc *)((char *)area + NPU_DMA_QUEUE_RING_OFFSET);
	q->jobs_tail = &q->jobs;
	q->offset = fake_next_offset;
	fake_next_offset += 1ULL << 32;
	fake_set_wakeup(q);
	q->next = f->queues;
	f->queues = q;
	c->queue_id = q->id;
	c->mmap_offset = q->offset;
	c->mmap_size = size;
	return fake_end(0);
}

/* Fail what @q still has, mark it dead, free it (the lock held). */
void fake_queue_free(struct fake_queue *q)
{
	struct fake_queue **pp;

	while (q->jobs) {
		struct fake_job *j = fake_pop(q);

		if (!j->status)
			j->status = -ECANCELED;
		fake_complete(q, j);
	}
	__atomic_or_fetch(&q->ctrl->flags, NPU_DMA_QUEUE_S_DEAD, __ATOMIC_RELEASE);
	fake_signal(q);
	for (pp = &q->file->queues; *pp != q; pp = &(*pp)->next)
		;
	*pp = q->next;
	/* The library's mapping keeps the pages until it unmaps them. */
	munmap(q->ctrl, q->size);
	close(q->memfd);
	if (q->efd >= 0)
		close(q->efd);
	free(q);
}

int acl_kmd_queue_destroy(int fd, uint32_t queue_id)
{
	struct fake_file *f;
	struct fake_queue *q;
	struct timespec until;
	int err = fake_begin(FAKE_QUEUE_DESTROY);

	if (err)
		return fake_end(err);
	f = fake_file_of(fd);
	q = f ? fake_queue_of(f, queue_id) : NULL;
	if (!q)
		return fake_end(f ? -ENOENT : -EBADF);
	/*
	 * The driver waits for the queue's work: run it even while held,
	 * and give a parked queue (a barrier another thread releases) time.
	 */
	q->dying = true;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += FAKE_DESTROY_WAIT_S;
	for (;;) {
		fake_queue_run(q);
		fake_signal(q);
		if (!q->jobs ||
		    pthread_cond_timedwait(&fake_progress, &fake_lock, &until))
			break;
	}
	fake_queue_free(q);
	fake_pump();		/* WAITs on it are over */
	return fake_end(0);
}

/*
 * Not modelled: the fake NPU does not advertise NPU_DMA_CAP_QUEUE_CTL,
 * and answers as a driver without the ioctl would.
 */
int acl_kmd_queue_ctl(int fd, uint32_t queue_id, uint32_t op, uint32_t value)
{
	(void)fd;
	(void)queue_id;
	(void)op;
	(void)value;
	return -ENOTTY;
}
