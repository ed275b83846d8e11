/* SPDX-License-Identifier: MIT */
/*
 * libacl internals: one kernel queue (acl_ring.c), the raw queue client
 * under every stream and every library ring.
 */
#ifndef ACL_RING_H
#define ACL_RING_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <drm/npu_dma_accel.h>

struct acl_ring {
	int refs;			/* atomic; the owner and every event */
	int fd;				/* device fd (not owned) */
	int efd;			/* eventfd signalled on completions */
	uint32_t id;			/* kernel queue id, unique system-wide */
	uint32_t entries;
	void *map;
	size_t map_size;
	struct npu_dma_queue_ctrl *ctrl;
	struct npu_dma_desc *ring;
	pthread_mutex_t lock;		/* protects tail, seq: the submit side */
	uint64_t seq;			/* last sequence number submitted */
	pthread_mutex_t wait_lock;	/* protects polling */
	pthread_cond_t wait_cond;	/* a poller finished a round */
	bool polling;			/* one waiter reads the eventfd */
	bool destroyed;			/* QUEUE_DESTROY was issued */
	bool lazy_doorbell;		/* kernel has NEED_WAKEUP: ring only if set */
	uint32_t submit_flags;		/* QUEUE_SUBMIT's flags (F_INLINE) */
	bool async_inline;		/* small doorbells may run inline */
	uint64_t inline_bytes;		/* ... moving at most this many bytes */
	uint32_t streak;		/* atomic: inline doorbells since a wait */
	uint64_t spin_ns;		/* waiters poll this long, then sleep */
	bool help;			/* waiters run work not started yet */
	/*
	 * atomic: seq of the HOST_BARRIER the runner is serving, or 0;
	 * ACL_HOST_BUSY_EARLY while it runs a task that has none yet
	 */
	uint64_t host_busy;
	uint64_t host_spin_ns;		/* waiters poll that long meanwhile */
};

/* acl_ring.host_busy: a task started before its stream reached it. */
#define ACL_HOST_BUSY_EARLY	UINT64_MAX

struct acl_ring *acl_ring_create(int fd, uint32_t entries, int *err);
/* Waiters spin before sleeping (ACL_STREAM_FAST_SYNC streams). */
void acl_ring_set_fast_sync(struct acl_ring *r);
/*
 * A stream's doorbells on an idle queue ask the driver to run small work
 * inline (records, NOPs, copies and fills of at most @max_bytes in all),
 * until a burst shows: see acl_ring_flags().
 */
void acl_ring_set_async_inline(struct acl_ring *r, uint64_t max_bytes);
/*
 * A ring only synchronous calls use, each waiting for its work: every
 * doorbell moving at most @max_bytes asks the driver to run it inline.
 */
void acl_ring_set_sync_inline(struct acl_ring *r, uint64_t max_bytes);
/*
 * A waiter for work the queue's worker has not started asks the driver
 * to run it (NPU_DMA_SUBMIT_F_HELP) rather than wait for the worker to
 * wake: where the CPU copies (sim).
 */
void acl_ring_set_help(struct acl_ring *r);
void acl_ring_get(struct acl_ring *r);
void acl_ring_put(struct acl_ring *r);
/* Destroy the kernel queue (waits for its work); the mapping stays. */
void acl_ring_shutdown(struct acl_ring *r);
/*
 * Push @n descriptors and ring the doorbell. Caller holds r->lock.
 * Return: 0 or -errno; @first and @last get the sequence numbers used,
 * also when only some went in (-EIO); untouched when none did.
 */
int acl_ring_submit_locked(struct acl_ring *r, const struct npu_dma_desc *d,
			   size_t n, uint64_t *first, uint64_t *last);
/*
 * acl_ring_submit_locked() for one descriptor, the fast path of an
 * asynchronous copy, without the burst loop. @seq: its sequence number.
 */
int acl_ring_submit_one(struct acl_ring *r, const struct npu_dma_desc *d,
			uint64_t *seq);
uint64_t acl_ring_completed(const struct acl_ring *r);
/*
 * Everything submitted has completed and the queue takes work (neither
 * stopped, nor dead, nor destroyed). Caller holds r->lock.
 */
bool acl_ring_idle(const struct acl_ring *r);
uint64_t acl_ring_last_seq(struct acl_ring *r);
/*
 * Wait until @seq completed: 0, -ETIMEDOUT, -ENODEV (NPU gone) or
 * -ESHUTDOWN (the queue is stopped short of it).
 */
int acl_ring_wait(struct acl_ring *r, uint64_t seq, int32_t timeout_ms);
/*
 * Wait until the queue parks at HOST_BARRIER @seq: 0; 1 if it went past
 * without a release (failed or aborted); -ETIMEDOUT, -ENODEV or
 * -ESHUTDOWN.
 */
int acl_ring_wait_barrier(struct acl_ring *r, uint64_t seq, int32_t timeout_ms);
/* QUEUE_CTL @op (NPU_DMA_QUEUE_CTL_*) with @value: 0 or -errno. */
int acl_ring_ctl(struct acl_ring *r, uint32_t op, uint32_t value);
/* BARRIER_RELEASE of @seq: 0 or -errno. */
int acl_ring_barrier_release(struct acl_ring *r, uint64_t seq);
/*
 * The stream's runner serves HOST_BARRIER @seq (the queue parked at it)
 * until it released it, 0: waiters poll rather than sleep meanwhile.
 */
static inline void acl_ring_set_host_busy(struct acl_ring *r, uint64_t seq)
{
	__atomic_store_n(&r->host_busy, seq, __ATOMIC_RELEASE);
}

/* Error (-errno) of a failed descriptor in [first, last], or 0. */
int acl_ring_error_in(const struct acl_ring *r, uint64_t first, uint64_t last);
uint32_t acl_ring_error_count(const struct acl_ring *r);
int acl_ring_last_error(const struct acl_ring *r);

/* CLOCK_MONOTONIC in ns: the clock of the waits' deadlines. */
static inline uint64_t acl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Poll @done(@arg) for up to @ns, reading the clock every few polls
 * only: true as soon as it holds, false if it did not within @ns.
 */
bool acl_spin(bool (*done)(const void *arg), const void *arg, uint64_t ns);

/*
 * Ring @r's doorbell now, whatever the queue's state: the driver takes
 * what was published (a SIGNAL's record number is taken then). 0 or
 * -errno.
 */
int acl_ring_doorbell(struct acl_ring *r);

#endif /* ACL_RING_H */
