// SPDX-License-Identifier: MIT
/*
 * libacl: the client of one driver queue (Documentation/uapi.rst), which
 * reaches the kernel through the command layer (acl_kmd.c).
 *
 * Submission: write descriptors at sq_tail, publish the tail with a
 * store-release, ring the doorbell (QUEUE_SUBMIT), which consumes them
 * all, so the ring is empty again after every doorbell.
 *
 * Completion: completed_seq (load-acquire), then the eventfd. Several
 * threads may wait on one ring; only one of them at a time reads the
 * eventfd (reading consumes the signal another waiter might need) and
 * wakes the others through a condition variable after each round.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl_ring.h"
#include "acl_kmd.h"

/* ACL_STREAM_FAST_SYNC waiters spin this long before sleeping (us). */
#define ACL_SPIN_DEFAULT_US	100
/*
 * Any waiter polls this long (us) while the stream's runner serves a
 * host task: a host function's release comes a few us after it returns,
 * sooner than the eventfd's wake-up, and a wake-up just before the next
 * launch costs that launch as much again (Documentation/performance.md,
 * "Waiters poll while the runner serves the stream").
 */
#define ACL_HOST_SPIN_DEFAULT_US	50
/* Polls of the completion word between two reads of the clock. */
#define ACL_SPIN_CHECK		64
/*
 * Inline doorbells a stream rings before it waits again: past this, the
 * caller is issuing a burst, which rides on an awake worker at no system
 * call per copy (acl_ring_flags()).
 */
#define ACL_INLINE_STREAK	4

static inline void acl_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

/* A poller looks at completed_seq at least this often (safety net). */
#define ACL_POLL_SLICE_MS	200
/* A wait for the driver's budgets to admit more work, between doorbells. */
#define ACL_BUDGET_WAIT_MS	1

static int acl_ring_map(struct acl_ring *r, const struct npu_dma_queue_create *c)
{
	size_t ring_end = NPU_DMA_QUEUE_RING_OFFSET +
			  (size_t)r->entries * sizeof(struct npu_dma_desc);
	int err;

	/* The ring must fit the area the driver gives us. */
	if (c->mmap_size < ring_end)
		return -EPROTO;
	err = acl_kmd_mmap(r->fd, c->mmap_offset, (size_t)c->mmap_size,
			   PROT_READ | PROT_WRITE, &r->map);
	if (err)
		return err;
	r->map_size = (size_t)c->mmap_size;
	r->ctrl = r->map;
	r->ring = (struct npu_dma_desc *)((char *)r->map +
					  NPU_DMA_QUEUE_RING_OFFSET);
	return 0;
}

static void acl_ring_init_sync(struct acl_ring *r)
{
	pthread_condattr_t ca;

	pthread_mutex_init(&r->lock, NULL);
	pthread_mutex_init(&r->wait_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->wait_cond, &ca);
	pthread_condattr_destroy(&ca);
}

/*
 * How long a waiter polls the completion word before it sleeps on the
 * eventfd: ACL_WAIT_SPIN_US if set (every queue), else, for a stream
 * created with ACL_STREAM_FAST_SYNC, ACL_SPIN_DEFAULT_US where there is a
 * CPU to spare (spinning on the only CPU delays the work), else 0. Not
 * by default: where the CPUs are shared (a guest on a busy host), a
 * spinning waiter is preempted instead of the work it waits for
 * (Documentation/performance.md, "Spinning by default", has the figures).
 */
static uint64_t acl_spin_default_ns(bool fast_sync)
{
	const char *env = getenv("ACL_WAIT_SPIN_US");
	long long us;

	if (env && *env) {
		us = strtoll(env, NULL, 10);
		return us > 0 ? (uint64_t)us * 1000 : 0;
	}
	if (!fast_sync || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return 0;
	return ACL_SPIN_DEFAULT_US * 1000ULL;
}

/*
 * How long a waiter polls while the runner serves the stream: what
 * ACL_WAIT_SPIN_US says if set, else ACL_HOST_SPIN_DEFAULT_US where the
 * runner has a CPU of its own. Unlike polling for the NPU, this waits
 * for a thread of the same process that is running, not for work
 * another CPU may have to be taken from.
 */
static uint64_t acl_host_spin_default_ns(void)
{
	const char *env = getenv("ACL_WAIT_SPIN_US");

	if ((env && *env) || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return acl_spin_default_ns(false);
	return ACL_HOST_SPIN_DEFAULT_US * 1000ULL;
}

void acl_ring_set_fast_sync(struct acl_ring *r)
{
	r->spin_ns = acl_spin_default_ns(true);
}

/* ACL_ASYNC_INLINE=0 turns it off, to measure what it gains. */
void acl_ring_set_async_inline(struct acl_ring *r, uint64_t max_bytes)
{
	const char *env = getenv("ACL_ASYNC_INLINE");

	r->async_inline = !env || strcmp(env, "0");
	r->inline_bytes = max_bytes;
}

/* ACL_SUBMIT_HELP=0 turns it off, to measure what it gains. */
void acl_ring_set_help(struct acl_ring *r)
{
	const char *env = getenv("ACL_SUBMIT_HELP");

	r->help = !env || strcmp(env, "0");
}

void acl_ring_set_sync_inline(struct acl_ring *r, uint64_t max_bytes)
{
	r->async_inline = true;
	r->inline_bytes = max_bytes;
}

struct acl_ring *acl_ring_create(int fd, uint32_t entries, int *err)
{
	struct npu_dma_queue_create c = { .entries = entries };
	struct acl_ring *r = calloc(1, sizeof(*r));

	if (!r) {
		*err = -ENOMEM;
		return NULL;
	}
	r->fd = fd;
	r->entries = entries;
	r->refs = 1;
	r->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->efd < 0) {
		*err = -errno;
		goto err_free;
	}
	c.eventfd = r->efd;
	*err = acl_kmd_queue_create(fd, &c);
	if (*err)
		goto err_close;
	r->id = c.queue_id;
	*err = acl_ring_map(r, &c);
	if (*err)
		goto err_destroy;
	/* A kernel that asks for doorbells says so on a new, idle queue. */
	r->lazy_doorbell = r->ctrl->flags & NPU_DMA_QUEUE_S_NEED_WAKEUP;
	r->spin_ns = acl_spin_default_ns(false);
	r->host_spin_ns = acl_host_spin_default_ns();
	acl_ring_init_sync(r);
	return r;

err_destroy:
	acl_kmd_queue_destroy(fd, c.queue_id);
err_close:
	close(r->efd);
err_free:
	free(r);
	return NULL;
}

void acl_ring_shutdown(struct acl_ring *r)
{
	pthread_mutex_lock(&r->lock);
	if (!r->destroyed) {
		/* Blocks until the queue's work is done; fails harmlessly
		 * once the device fd is closed (the kernel drained it). */
		acl_kmd_queue_destroy(r->fd, r->id);
		r->destroyed = true;
	}
	pthread_mutex_unlock(&r->lock);
}

void acl_ring_get(struct acl_ring *r)
{
	__atomic_add_fetch(&r->refs, 1, __ATOMIC_RELAXED);
}

void acl_ring_put(struct acl_ring *r)
{
	if (__atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL))
		return;
	acl_ring_shutdown(r);
	/* The area outlives the queue: completed_seq stays readable. */
	munmap(r->map, r->map_size);
	close(r->efd);
	pthread_cond_destroy(&r->wait_cond);
	pthread_mutex_destroy(&r->wait_lock);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

/*
 * Wait, up to a slice, for the queue to complete more than it had: what
 * the driver's budgets held back (QUEUE_SUBMIT in npu_dma_accel.h) fits
 * once earlier work retires. Return: 0 (progress or not), or -ENODEV.
 */
static int acl_ring_wait_progress(struct acl_ring *r)
{
	int ret = acl_ring_wait(r, acl_ring_completed(r) + 1,
				ACL_BUDGET_WAIT_MS);

	return ret == -ETIMEDOUT ? 0 : ret;
}

/*
 * QUEUE_SUBMIT with @flags until no pageable descriptor is left behind:
 * the driver pins pageable memory only in a doorbell, and only as much
 * as its budgets admit (-EAGAIN: ring again once earlier copies
 * completed).
 */
static int acl_ring_doorbell_flags(struct acl_ring *r, uint32_t flags)
{
	int ret;

	while ((ret = acl_kmd_queue_submit(r->fd, r->id, flags)) == -EAGAIN) {
		ret = acl_ring_wait_progress(r);
		if (ret)
			return ret;
	}
	return ret < 0 ? ret : 0;
}

int acl_ring_doorbell(struct acl_ring *r)
{
	return acl_ring_doorbell_flags(r, r->submit_flags);
}

/* Free slots: what the kernel has not consumed yet still holds its slot. */
static uint32_t acl_ring_room(const struct acl_ring *r, uint32_t tail)
{
	return r->entries - (tail - __atomic_load_n(&r->ctrl->sq_head,
						    __ATOMIC_ACQUIRE));
}

/*
 * Room for @burst slots after @tail: a doorbell consumes what the
 * driver's budgets admit, the queue the rest as its work completes.
 */
static int acl_ring_make_room(struct acl_ring *r, uint32_t tail, size_t burst)
{
	int ret = acl_ring_doorbell(r);

	while (!ret && acl_ring_room(r, tail) < burst) {
		ret = acl_ring_wait_progress(r);
		if (!ret)
			ret = acl_ring_doorbell(r);
	}
	return ret;
}

static bool acl_descs_pageable(const struct npu_dma_desc *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (d[i].flags & (NPU_DMA_DESC_F_SRC_PAGEABLE |
				  NPU_DMA_DESC_F_DST_PAGEABLE))
			return true;
	return false;
}

/*
 * Work the driver may run in a stream's doorbell: event records, NOPs,
 * host barriers (the doorbell parks the queue at one and publishes it)
 * and copies and fills of at most @max bytes in all. Anything else (a
 * WAIT, a batch, a graph) goes to the worker.
 */
static bool acl_descs_inline(const struct npu_dma_desc *d, size_t n,
			     uint64_t max)
{
	uint64_t bytes = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		switch (d[i].opcode) {
		case NPU_DMA_OP_COPY:
		case NPU_DMA_OP_FILL:
			bytes += d[i].len;
			break;
		case NPU_DMA_OP_COPY_2D:
			bytes += (uint64_t)d[i].len * d[i].height;
			break;
		case NPU_DMA_OP_EVENT_RECORD:
		case NPU_DMA_OP_NOP:
		case NPU_DMA_OP_HOST_BARRIER:	/* parks at once */
			break;
		default:
			return false;
		}
		if (bytes > max)
			return false;
	}
	return true;
}

/*
 * The doorbell's flags for @n descriptors @d. On a stream, small work
 * on an idle queue runs in the doorbell (the driver decides whether the
 * queue is idle): waking the queue's worker and then the waiter costs
 * two cross-CPU wake-ups, 100 to 150 us under TCG, against a few us of
 * copying (Documentation/performance.md, "Small-copy latency"). But a
 * burst of asynchronous work is cheaper on an awake worker: a doorbell
 * per call there costs a system call and the copy in the caller, where
 * riding on the worker costs neither. So after ACL_INLINE_STREAK inline
 * doorbells with no wait between them the worker is woken as before,
 * until the caller waits on the stream again (acl_ring_wait_for()).
 */
static uint32_t acl_ring_flags(struct acl_ring *r,
			       const struct npu_dma_desc *d, size_t n)
{
	uint32_t streak = __atomic_load_n(&r->streak, __ATOMIC_RELAXED);

	if (!r->async_inline || streak >= ACL_INLINE_STREAK ||
	    !acl_descs_inline(d, n, r->inline_bytes))
		return r->submit_flags;
	__atomic_store_n(&r->streak, streak + 1, __ATOMIC_RELAXED);
	return r->submit_flags | NPU_DMA_SUBMIT_F_INLINE;
}

/*
 * After publishing @n descriptors @d up to @tail: ring the doorbell only
 * if the queue is idle (NEED_WAKEUP) or they name pageable memory, which
 * only a doorbell pins; a working queue picks the others up by itself,
 * so a busy stream costs no system call per copy.
 */
static int acl_ring_kick(struct acl_ring *r, uint32_t tail,
			 const struct npu_dma_desc *d, size_t n)
{
	int ret;

	if (r->lazy_doorbell && !acl_descs_pageable(d, n)) {
		/* Pairs with the kernel's barrier between setting the flag
		 * and its last look at sq_tail. */
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (!(__atomic_load_n(&r->ctrl->flags, __ATOMIC_RELAXED) &
		      NPU_DMA_QUEUE_S_NEED_WAKEUP))
			return 0;
	}
	ret = acl_ring_doorbell_flags(r, acl_ring_flags(r, d, n));
	if (ret && __atomic_load_n(&r->ctrl->sq_head, __ATOMIC_ACQUIRE) == tail)
		ret = 0;	/* the queue's worker took them meanwhile */
	return ret;
}

/* Sequence numbers @n descriptors take: a GRAPH takes one per task. */
static uint64_t acl_descs_seqs(const struct npu_dma_desc *d, size_t n)
{
	uint64_t seqs = 0;
	size_t i;

	for (i = 0; i < n; i++)
		seqs += d[i].opcode == NPU_DMA_OP_GRAPH && d[i].len ? d[i].len : 1;
	return seqs;
}

int acl_ring_submit_one(struct acl_ring *r, const struct npu_dma_desc *d,
			uint64_t *seq)
{
	uint32_t tail = r->ctrl->sq_tail;
	int ret;

	if (r->destroyed)
		return -ENOENT;
	if (d->opcode == NPU_DMA_OP_GRAPH || !acl_ring_room(r, tail))
		return acl_ring_submit_locked(r, d, 1, seq, seq);
	r->ring[tail & (r->entries - 1)] = *d;
	__atomic_store_n(&r->ctrl->sq_tail, tail + 1, __ATOMIC_RELEASE);
	ret = acl_ring_kick(r, tail + 1, d, 1);
	if (ret) {
		/* Nothing consumed: take it back. */
		__atomic_store_n(&r->ctrl->sq_tail, tail, __ATOMIC_RELEASE);
		return ret;
	}
	*seq = ++r->seq;
	return 0;
}

int acl_ring_submit_locked(struct acl_ring *r, const struct npu_dma_desc *d,
			   size_t n, uint64_t *first, uint64_t *last)
{
	uint32_t tail = r->ctrl->sq_tail;
	uint64_t start = r->seq + 1;
	size_t i = 0;
	int ret;

	if (r->destroyed)
		return -ENOENT;
	while (i < n) {
		size_t burst = n - i < r->entries ? n - i : r->entries;
		size_t k;

		if (acl_ring_room(r, tail) < burst) {
			ret = acl_ring_make_room(r, tail, burst);
			if (ret && i)
				break;	/* the caller learns what went in */
			if (ret)
				return ret;
		}
		for (k = 0; k < burst; k++)
			r->ring[(tail + k) & (r->entries - 1)] = d[i + k];
		tail += (uint32_t)burst;
		__atomic_store_n(&r->ctrl->sq_tail, tail, __ATOMIC_RELEASE);
		ret = acl_ring_kick(r, tail, d + i, burst);
		if (ret) {
			/* Nothing consumed: take the burst back. */
			tail -= (uint32_t)burst;
			__atomic_store_n(&r->ctrl->sq_tail, tail,
					 __ATOMIC_RELEASE);
			if (i)
				break;
			return ret;
		}
		r->seq += acl_descs_seqs(d + i, burst);
		i += burst;
	}
	*first = start;
	*last = r->seq;
	return i == n ? 0 : -EIO;
}

uint64_t acl_ring_completed(const struct acl_ring *r)
{
	return __atomic_load_n(&r->ctrl->completed_seq, __ATOMIC_ACQUIRE);
}

uint64_t acl_ring_last_seq(struct acl_ring *r)
{
	uint64_t seq;

	pthread_mutex_lock(&r->lock);
	seq = r->seq;
	pthread_mutex_unlock(&r->lock);
	return seq;
}

static bool acl_ring_dead(const struct acl_ring *r)
{
	return __atomic_load_n(&r->ctrl->flags, __ATOMIC_ACQUIRE) &
	       NPU_DMA_QUEUE_S_DEAD;
}

/* Stopped (QUEUE_CTL STOP): what it completed is all it will, until an abort. */
static bool acl_ring_stopped(const struct acl_ring *r)
{
	return __atomic_load_n(&r->ctrl->flags, __ATOMIC_ACQUIRE) &
	       NPU_DMA_QUEUE_S_STOPPED;
}

bool acl_ring_idle(const struct acl_ring *r)
{
	return !r->destroyed && acl_ring_completed(r) >= r->seq &&
	       !acl_ring_dead(r) && !acl_ring_stopped(r);
}

/* One poll round on the eventfd, by the one polling waiter. */
static int acl_ring_poll_once(struct acl_ring *r, int ms)
{
	struct pollfd p = { .fd = r->efd, .events = POLLIN };
	uint64_t v;
	int n = poll(&p, 1, ms);

	if (n < 0 && errno != EINTR)
		return -errno;
	if (n > 0 && read(r->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return -errno;
	return 0;
}

static int acl_ms_left(uint64_t deadline)
{
	uint64_t now = acl_now_ns();

	if (!deadline)
		return ACL_POLL_SLICE_MS;
	if (now >= deadline)
		return 0;
	if (deadline - now > (uint64_t)ACL_POLL_SLICE_MS * 1000000)
		return ACL_POLL_SLICE_MS;
	return (int)((deadline - now + 999999) / 1000000);
}

static void acl_cond_wait_ms(struct acl_ring *r, int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += (long)ms * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	pthread_cond_timedwait(&r->wait_cond, &r->wait_lock, &ts);
}

static bool acl_ring_reached(const struct acl_ring *r, uint64_t seq)
{
	return acl_ring_completed(r) >= seq;
}

/* The queue is parked at HOST_BARRIER @seq, or went past it. */
static bool acl_ring_at_barrier(const struct acl_ring *r, uint64_t seq)
{
	return __atomic_load_n(&r->ctrl->barrier_seq, __ATOMIC_ACQUIRE) == seq ||
	       acl_ring_completed(r) >= seq;
}

bool acl_spin(bool (*done)(const void *arg), const void *arg, uint64_t ns)
{
	uint64_t end;
	unsigned int i;

	if (!ns)
		return false;
	end = acl_now_ns() + ns;
	do {
		for (i = 0; i < ACL_SPIN_CHECK; i++) {
			if (done(arg))
				return true;
			acl_cpu_relax();
		}
	} while (acl_now_ns() < end);
	return done(arg);
}

struct acl_spin_seq {
	const struct acl_ring *r;
	bool (*done)(const struct acl_ring *r, uint64_t seq);
	uint64_t seq;
};

static bool acl_spin_seq_done(const void *arg)
{
	const struct acl_spin_seq *w = arg;

	return w->done(w->r, w->seq);
}

static bool acl_ring_host_busy(const struct acl_ring *r)
{
	return __atomic_load_n(&r->host_busy, __ATOMIC_ACQUIRE);
}

/* Done, or the runner let go of the queue: polling gains no more. */
static bool acl_spin_host_done(const void *arg)
{
	const struct acl_spin_seq *w = arg;

	return w->done(w->r, w->seq) || !acl_ring_host_busy(w->r);
}

/*
 * Poll @done for up to @r->spin_ns: a completion that comes within it
 * is seen without the eventfd's wake-up, which costs more than a short
 * copy. Then, while the stream's runner serves a host task, for up to
 * @r->host_spin_ns more, or until it released the queue.
 */
static bool acl_ring_spin(struct acl_ring *r,
			  bool (*done)(const struct acl_ring *, uint64_t),
			  uint64_t seq)
{
	struct acl_spin_seq w = { .r = r, .done = done, .seq = seq };

	if (acl_spin(acl_spin_seq_done, &w, r->spin_ns))
		return true;
	if (!r->host_spin_ns || !acl_ring_host_busy(r))
		return false;
	acl_spin(acl_spin_host_done, &w, r->host_spin_ns);
	return done(r, seq);
}

/* Wait until @done(r, seq), sharing the eventfd with the other waiters. */
static int acl_ring_wait_for(struct acl_ring *r,
			     bool (*done)(const struct acl_ring *, uint64_t),
			     uint64_t seq, int32_t timeout_ms)
{
	uint64_t deadline = 0;
	int ret = 0;

	/* The caller waits: small work may run inline again. */
	__atomic_store_n(&r->streak, 0, __ATOMIC_RELAXED);
	if (done(r, seq) || (timeout_ms && acl_ring_spin(r, done, seq)))
		return 0;
	if (timeout_ms >= 0)
		deadline = acl_now_ns() + (uint64_t)timeout_ms * 1000000ULL;
	pthread_mutex_lock(&r->wait_lock);
	while (!ret && !done(r, seq)) {
		int ms = acl_ms_left(deadline);

		if (acl_ring_dead(r))
			ret = -ENODEV;
		else if (acl_ring_stopped(r))
			ret = -ESHUTDOWN;
		else if (!ms)
			ret = -ETIMEDOUT;
		else if (r->polling)
			acl_cond_wait_ms(r, ms);
		else {
			r->polling = true;
			pthread_mutex_unlock(&r->wait_lock);
			ret = acl_ring_poll_once(r, ms);
			pthread_mutex_lock(&r->wait_lock);
			r->polling = false;
			pthread_cond_broadcast(&r->wait_cond);
		}
	}
	pthread_mutex_unlock(&r->wait_lock);
	return ret;
}

int acl_ring_wait(struct acl_ring *r, uint64_t seq, int32_t timeout_ms)
{
	/*
	 * A waiter that is going to block anyway offers to run what the
	 * worker has not started (the driver declines if it has, or if the
	 * work is large); not while the queue is parked at a host task,
	 * whose release starts what follows it. An error is left for the
	 * wait: it is the doorbell of whoever published the work that
	 * reports it.
	 */
	if (r->help && timeout_ms && !acl_ring_reached(r, seq) &&
	    !acl_ring_host_busy(r))
		acl_kmd_queue_submit(r->fd, r->id, NPU_DMA_SUBMIT_F_HELP);
	return acl_ring_wait_for(r, acl_ring_reached, seq, timeout_ms);
}

int acl_ring_wait_barrier(struct acl_ring *r, uint64_t seq, int32_t timeout_ms)
{
	int ret = acl_ring_wait_for(r, acl_ring_at_barrier, seq, timeout_ms);

	if (ret)
		return ret;
	return acl_ring_completed(r) >= seq ? 1 : 0;
}

int acl_ring_ctl(struct acl_ring *r, uint32_t op, uint32_t value)
{
	return acl_kmd_queue_ctl(r->fd, r->id, op, value);
}

int acl_ring_barrier_release(struct acl_ring *r, uint64_t seq)
{
	return acl_kmd_barrier_release(r->fd, r->id, seq);
}

int acl_ring_error_in(const struct acl_ring *r, uint64_t first, uint64_t last)
{
	const struct npu_dma_queue_ctrl *c = r->ctrl;
	uint64_t seq;

	if (!__atomic_load_n(&c->error_count, __ATOMIC_ACQUIRE))
		return 0;
	seq = __atomic_load_n(&c->last_error_seq, __ATOMIC_ACQUIRE);
	if (seq >= first && seq <= last)
		return c->last_error ? c->last_error : -EIO;
	seq = __atomic_load_n(&c->error_seq, __ATOMIC_ACQUIRE);
	if (seq >= first && seq <= last)
		return c->error ? c->error : -EIO;
	return 0;
}

uint32_t acl_ring_error_count(const struct acl_ring *r)
{
	return __atomic_load_n(&r->ctrl->error_count, __ATOMIC_ACQUIRE);
}

int acl_ring_last_error(const struct acl_ring *r)
{
	int e = __atomic_load_n(&r->ctrl->last_error, __ATOMIC_ACQUIRE);

	return e ? e : -EIO;
}
