/* SPDX-License-Identifier: MIT */
/*
 * libacl internals: the objects behind the opaque CANN handles, and the
 * helpers the acl_*.c files share. Nothing here is ABI.
 *
 * Layering (top to bottom):
 *   acl_{init,device,context,stream,event,mem,copy}.c  the aclrt* entry points
 *   acl_kind.c, acl_va.c, acl_error.c, acl_host.c       pure logic (unit tested)
 *   acl_ring.c                                          the raw queue client
 *   acl_kmd.c                                           the command layer: the
 *                                                       only file that reaches
 *                                                       the kernel (libdrm)
 *   <drm/npu_dma_accel.h>                               the kernel ABI
 *
 * Locking, outermost first: acl_g.lock (init state, enumeration, device
 * open/close) -> acl_device.lock (contexts, streams, event slots, sync
 * rings of one device) -> acl_host.lock (host regions) -> acl_ring.lock
 * (one ring's submission side) -> acl_ring.wait_lock (its waiters).
 * acl_device.mem_lock (the allocation table) is a leaf: nothing else is
 * taken under it.
 */
#ifndef ACL_INTERNAL_H
#define ACL_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <drm/npu_dma_accel.h>

#include "acl/acl.h"
#include "acl_kmd.h"

#define ACL_MAX_DEVICES		64	/* npu_dma_info.peers is a u64 mask */
#define ACL_RING_ENTRIES	1024	/* descriptors per stream ring */
#define ACL_SYNC_RINGS		4	/* library queues for synchronous copies */
#define ACL_MSG_LEN		1024	/* aclGetRecentErrMsg() buffer */
#define ACL_PAGE_SIZE		4096UL

/* Handle magics: cleared on destroy, so a stale handle is usually caught. */
#define ACL_CTX_MAGIC		0x61636c63U	/* "aclc" */
#define ACL_STREAM_MAGIC	0x61636c73U	/* "acls" */
#define ACL_EVENT_MAGIC		0x61636c65U	/* "acle" */

struct acl_device;
struct acl_context;
struct acl_graph;
struct acl_hostq;
struct acl_notify;
struct acl_sub;

/* ---- acl_ring.c: one kernel queue ------------------------------------ */

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
	pthread_mutex_t lock;		/* protects tail, seq: the push side */
	uint64_t seq;			/* last sequence number pushed */
	pthread_mutex_t wait_lock;	/* protects polling */
	pthread_cond_t wait_cond;	/* a poller finished a round */
	bool polling;			/* one waiter reads the eventfd */
	bool destroyed;			/* QUEUE_DESTROY was issued */
	bool lazy_doorbell;		/* kernel has NEED_WAKEUP: ring only if set */
	uint32_t submit_flags;		/* QUEUE_SUBMIT's flags (F_INLINE) */
	uint64_t spin_ns;		/* waiters poll this long, then sleep */
};

struct acl_ring *acl_ring_create(int fd, uint32_t entries, int *err);
/* Waiters spin before sleeping (ACL_STREAM_FAST_SYNC streams). */
void acl_ring_set_fast_sync(struct acl_ring *r);
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
uint64_t acl_ring_last_seq(struct acl_ring *r);
/* Wait until @seq completed: 0, -ETIMEDOUT, or -ENODEV (NPU gone). */
int acl_ring_wait(struct acl_ring *r, uint64_t seq, int32_t timeout_ms);
/*
 * Wait until the queue parks at HOST_BARRIER @seq: 0; 1 if it went past
 * without a release (failed or aborted); -ETIMEDOUT or -ENODEV.
 */
int acl_ring_wait_barrier(struct acl_ring *r, uint64_t seq, int32_t timeout_ms);
/* BARRIER_RELEASE of @seq: 0 or -errno. */
int acl_ring_barrier_release(struct acl_ring *r, uint64_t seq);
/* Error (-errno) of a failed descriptor in [first, last], or 0. */
int acl_ring_error_in(const struct acl_ring *r, uint64_t first, uint64_t last);
uint32_t acl_ring_error_count(const struct acl_ring *r);
int acl_ring_last_error(const struct acl_ring *r);

/* ---- devices, contexts, streams, events ------------------------------ */

struct acl_stream {
	uint32_t pad[4];		/* keeps magic clear of malloc's free list */
	uint32_t magic;
	uint32_t flags;			/* ACL_STREAM_* at creation */
	uint32_t priority;
	int32_t id;
	struct acl_context *ctx;
	struct acl_ring *ring;
	uint32_t errors_seen;		/* ring error_count already reported */
	struct acl_stream *next;	/* in ctx->streams, under dev->lock */
	struct acl_graph *graph;	/* capture in progress, under ring->lock */
	struct acl_hostq *hostq;	/* host-task runner (acl_callback.c) */
	struct acl_sub *sub;		/* report thread, under acl_sub_lock */
	/* Set by aclrtSetStreamFailureMode()/Attribute (acl_stream_ctl.c). */
	uint64_t fail_mode;		/* ACL_*_ON_FAILURE set on this stream */
	uint32_t overflow;		/* ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK */
	uint32_t tag;			/* ACL_STREAM_ATTR_USER_CUSTOM_TAG */
	uint32_t cache_op;		/* ACL_STREAM_ATTR_CACHE_OP_INFO */
};

struct acl_context {
	uint32_t pad[4];
	uint32_t magic;
	bool is_default;
	struct acl_device *dev;
	struct acl_stream *defstream;
	struct acl_stream *streams;	/* created ones, under dev->lock */
	struct acl_context *next;	/* in dev->contexts */
	bool stop_on_failure;		/* atomic; a stream of it is in STOP mode */
};

struct acl_event {
	uint32_t pad[4];
	uint32_t magic;
	uint32_t flags;			/* ACL_EVENT_* (internal default for plain) */
	bool ex;			/* created by aclrtCreateEventExWithFlag */
	struct acl_device *dev;
	uint64_t dev_gen;		/* the device opening the slot belongs to */
	uint32_t slot;
	pthread_mutex_t lock;		/* protects the record state below */
	struct acl_ring *ring;		/* ring of the last record, or NULL */
	uint64_t seq;			/* its EVENT_RECORD sequence number */
	bool captured;			/* last record went into a capture */
};

/*
 * Device memory this process allocated on one NPU: device address ->
 * GEM handle, which aclrtFree() closes. Open addressing, linear probing;
 * handle 0 (never a GEM handle) marks a free slot.
 */
struct acl_mem_entry {
	uint64_t addr;
	uint32_t handle;
};

struct acl_mem_table {
	struct acl_mem_entry *e;
	size_t cap;			/* a power of two, or 0 */
	size_t n;
};

struct acl_device {
	int id;				/* logical id (after ASCEND_RT_VISIBLE_DEVICES) */
	int phys;			/* the driver's index of the NPU (GET_INFO) */
	int fd;				/* -1 while closed */
	uint64_t gen;			/* bumped at every open */
	struct npu_dma_info info;
	uintptr_t va_base;		/* reserved PROT_NONE range, kept until finalize */
	uint64_t va_size;
	const struct npu_dma_event_slot *slots;
	size_t slots_size;
	pthread_mutex_t lock;		/* protects the fields below */
	int refcnt;			/* aclrtSetDevice references */
	struct acl_context defctx;	/* valid while defctx.magic is set */
	struct acl_context *contexts;	/* explicit contexts */
	uint64_t *slot_map;		/* allocated event slots */
	struct acl_ring *sync[ACL_SYNC_RINGS];
	pthread_mutex_t sync_lock[ACL_SYNC_RINGS];
	int nsync;
	int next_stream_id;
	uint64_t peer_on;		/* atomic: logical ids this one may reach */
	pthread_mutex_t mem_lock;	/* protects mem, and orders its ioctls */
	struct acl_mem_table mem;	/* allocations of the open file */
};

struct acl_global {
	pthread_mutex_t lock;		/* protects everything below */
	int init_refs;			/* aclInit references */
	bool enumerated;
	int ndev;
	struct acl_device dev[ACL_MAX_DEVICES];
};

extern struct acl_global acl_g;

/* Per-thread state: error reporting and the current context. */
/*
 * Thread state read on every call lives in static TLS (initial-exec): a
 * read is one %fs-relative load, where the default model for a shared
 * library calls __tls_get_addr() each time. Keep it small: a library
 * loaded by dlopen() takes its static TLS from a reserve of about 1.5 KiB.
 * The message buffers, touched only on errors, stay in acl_error.c.
 */
#define ACL_TLS_FAST __attribute__((tls_model("initial-exec")))

struct acl_tls {
	const char *api;		/* entry point being run, for messages */
	struct acl_context *ctx;	/* current context, or NULL */
	uint64_t ctx_gen;		/* its device's gen when set */
	aclError last_err;		/* aclrtGetLastError() */
};

extern __thread struct acl_tls acl_tls ACL_TLS_FAST;

/* Entry points name themselves for error messages. */
#define ACL_ENTER() (acl_tls.api = __func__)

/* ---- acl_error.c ----------------------------------------------------- */

/*
 * Record an error: a message "<api>: <text> (<NAME> <code>)" for
 * aclGetRecentErrMsg(), and, for runtime-layer codes (not 100000), the
 * thread's last error. Return: @code.
 */
aclError acl_err(aclError code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Map a negative errno from the driver to an aclError. */
aclError acl_errno_to_acl(int err);
/* Name of an aclError ("ACL_ERROR_RT_PARAM_INVALID"), or "unknown". */
const char *acl_err_name(aclError code);
/* acl_err() for a driver failure: code from @err, message with strerror. */
aclError acl_err_sys(int err, const char *what);
/* Validate a sync-with-timeout argument: 0 or an error already recorded. */
aclError acl_check_timeout(int32_t timeout, const char *name);

/* ---- acl_init.c / acl_device.c --------------------------------------- */

/*
 * Parse ASCEND_RT_VISIBLE_DEVICES: map logical ids to the physical ones
 * present (present[i] true if the driver's NPU of index i was found and
 * accepted). Stops at the first invalid, absent or repeated entry, as
 * CANN does. Return: device count.
 */
int acl_parse_visible(const char *env, const bool *present, int npresent,
		      int *phys, int max);
/*
 * Enumerate the NPUs (caller holds acl_g.lock): the driver's nodes are
 * probed once per process, the visible devices set up again after every
 * finalize. Each node refused (another ABI version, GET_INFO failing)
 * leaves a message. Return: how many were refused.
 */
int acl_enumerate_locked(void);
/*
 * Open the node of NPU @phys (caller holds acl_g.lock), check that it is
 * still that NPU and speaks our ABI: its fd and GET_INFO answer, or an
 * aclError recorded (and nothing left open).
 */
aclError acl_node_open_locked(int phys, int *fd, struct npu_dma_info *info);
int acl_device_count(void);
/*
 * Whether the driver has NPU @phys (its index), visible or not: what the
 * last probe found and accepted.
 */
bool acl_node_present(int phys);
/* Logical id -> device, or NULL with 107001 recorded. */
struct acl_device *acl_device_get(int32_t id);
/* Open @dev if closed (caller holds acl_g.lock): 0 or an aclError. */
aclError acl_device_open_locked(struct acl_device *dev);
void acl_device_close_locked(struct acl_device *dev);
bool acl_device_is_open(const struct acl_device *dev);
/* The sync ring of @dev for this call, locked; or NULL with error. */
struct acl_ring *acl_sync_ring_acquire(struct acl_device *dev, int *slot,
				       aclError *ret);
void acl_sync_ring_release(struct acl_device *dev, int slot);
/*
 * Entries of the shortest library ring an open NPU has (at most
 * ACL_SYNC_RING_ENTRIES, fewer if a driver allows fewer): what one
 * doorbell of a synchronous call can take on whichever NPU runs it.
 */
uint32_t acl_sync_ring_min(void);
/* Wait for every stream of @dev. */
aclError acl_device_sync(struct acl_device *dev, int32_t timeout_ms);
void acl_finalize_all_locked(void);

/* ---- acl_context.c --------------------------------------------------- */

/* The thread's current context, or NULL with 107002 recorded. */
struct acl_context *acl_current_ctx(void);
void acl_set_current(struct acl_context *ctx);
aclError acl_context_init(struct acl_context *ctx, struct acl_device *dev,
			  bool is_default);
void acl_context_fini(struct acl_context *ctx);

/* ---- acl_stream.c ---------------------------------------------------- */

/* Handle -> stream (NULL = current default): NULL with error recorded. */
struct acl_stream *acl_stream_lookup(aclrtStream handle, aclError *ret);
/*
 * The stream a copy or fill is queued on: acl_stream_lookup(), and a
 * stream named by handle must be of the thread's current context (CANN:
 * 107003; no current context 107002).
 */
struct acl_stream *acl_stream_for_task(aclrtStream handle, aclError *ret);
/*
 * The stream other work (event record/wait, host tasks, replays) is
 * queued on: acl_stream_lookup() and acl_capture_check_default().
 */
struct acl_stream *acl_stream_for_work(aclrtStream handle, aclError *ret);
struct acl_stream *acl_stream_new(struct acl_context *ctx, uint32_t priority,
				  uint32_t flags, aclError *ret);
/* Destroy: waits for the queue's work (the kernel does). */
void acl_stream_free(struct acl_stream *s);
/* aclrtCreateStreamWithConfig() without its API name: a new stream. */
aclError acl_create_stream(aclrtStream *stream, uint32_t priority,
			   uint32_t flag);
/* Wait for the stream's work; report a new failure as an aclError. */
aclError acl_stream_sync(struct acl_stream *s, int32_t timeout_ms);
/* Report (once) a failure of the stream's descriptors in [first, last]. */
aclError acl_stream_check_range(struct acl_stream *s, uint64_t first,
				uint64_t last);

/* ---- acl_stream_ctl.c ------------------------------------------------ */

/*
 * ACL_STOP_ON_FAILURE: once a descriptor of @s has failed, new work is
 * refused. Return: the failure's code (recorded) or ACL_SUCCESS.
 */
aclError acl_stream_check_stopped(struct acl_stream *s);
/* Run the aclrtRegStreamStateCallback() hooks for @s, no lock held. */
void acl_stream_notify(struct acl_stream *s, aclrtStreamState state);

/*
 * A descriptor of a submission that needs host-side bookkeeping: a
 * HOST_BARRIER run by the stream's host-task runner, or an EVENT_RECORD
 * whose event learns the record's (ring, seq).
 */
enum acl_ref_kind {
	ACL_REF_HOST_TASK = 1,
	ACL_REF_EVENT = 2,
};

struct acl_ref {
	size_t idx;			/* index of the descriptor */
	enum acl_ref_kind kind;
	struct acl_htask *task;		/* HOST_TASK: template, copied */
	struct acl_event *ev;		/* EVENT */
};

/* Is @s capturing? (unlocked peek, for the API-edge checks) */
bool acl_stream_capturing(struct acl_stream *s);

/* ---- acl_callback.c: host tasks in stream order ----------------------- */

enum acl_htask_kind {
	ACL_HT_CALLBACK = 1,		/* aclrtLaunchCallback */
	ACL_HT_HOST_FUNC,		/* aclrtLaunchHostFunc */
	ACL_HT_VALUE_WRITE,		/* aclrtValueWrite */
	ACL_HT_VALUE_WAIT,		/* aclrtValueWait */
	ACL_HT_NOTIFY_RECORD,		/* aclrtRecordNotify */
	ACL_HT_NOTIFY_WAIT,		/* aclrtWaitAndResetNotify */
};

/* One HOST_BARRIER's host part. */
struct acl_htask {
	enum acl_htask_kind kind;
	bool block;			/* CALLBACK: ACL_CALLBACK_BLOCK */
	void (*fn)(void *arg);
	void *arg;
	struct acl_device *dev;		/* VALUE_*: NPU of @addr */
	uint64_t addr;			/* VALUE_*: device address */
	uint64_t value;			/* VALUE_* */
	uint32_t flag;			/* VALUE_WAIT: ACL_STREAM_WAIT_VALUE_* */
	struct acl_notify *notify;	/* NOTIFY_*: a reference per queued copy */
	/* Set when queued: */
	uint64_t seq;			/* its HOST_BARRIER */
	struct acl_sub *sub;		/* CALLBACK: the thread to run it */
	bool done;			/* CALLBACK: ran (under sub->lock) */
	struct acl_htask *next;
};

/* Start @s's runner thread unless it runs: 0 or -errno. */
int acl_hostq_start(struct acl_stream *s);
/*
 * Copies of the host tasks among @refs, the first descriptor having
 * sequence number @base; NULL with *@err -ENOMEM, or NULL if none.
 */
struct acl_htask *acl_hostq_prepare(struct acl_stream *s,
				    const struct acl_ref *refs, size_t nrefs,
				    uint64_t base, int *err);
/*
 * Hand prepared tasks to the runner, those up to @upto (submitted); free
 * the others. Caller holds s->ring->lock, so tasks arrive in order.
 */
void acl_hostq_commit(struct acl_stream *s, struct acl_htask *list,
		      uint64_t upto);
/* Stop and free @s's runner (after its ring was shut down). */
void acl_hostq_stop(struct acl_stream *s);
/* Detach @s from its report thread (stream destruction). */
void acl_sub_detach(struct acl_stream *s);
/* Queue one host task on @s: HOST_BARRIER plus @t. aclError. */
aclError acl_htask_submit(struct acl_stream *s, const struct acl_htask *t);

/* ---- acl_value.c ----------------------------------------------------- */

/* CANN's ACL_STREAM_WAIT_VALUE_* test of @cur against @value. */
bool acl_value_met(uint64_t cur, uint64_t value, uint32_t flag);
/*
 * Run a VALUE_WRITE / VALUE_WAIT task in a runner, whose private copy
 * ring *@io is created on first use: 0 or -errno.
 */
int acl_value_run(const struct acl_htask *t, struct acl_ring **io);

/* ---- acl_notify.c ---------------------------------------------------- */

void acl_notify_get(struct acl_notify *n);
/* Drop a reference (NULL: nothing); the last one frees the notify. */
void acl_notify_put(struct acl_notify *n);
/* Run a NOTIFY_RECORD / NOTIFY_WAIT task in a runner. */
void acl_notify_run(const struct acl_htask *t);

/* ---- acl_capture.c --------------------------------------------------- */

/* Append to a capture (caller holds the stream's ring lock): 0 or -errno. */
int acl_capture_append(struct acl_graph *g, const struct npu_dma_desc *d,
		       size_t n, const struct acl_ref *refs, size_t nrefs);
/*
 * A pageable host buffer in an async copy on @s: if @s captures, the
 * capture is invalidated and the error returned; if the capture modes
 * forbid this thread unsafe calls, 107041; else ACL_SUCCESS.
 */
aclError acl_capture_reject_pageable(struct acl_stream *s);
/* Do the capture modes forbid a synchronous copy/memset on this thread? */
bool acl_capture_forbids_sync(void);
/*
 * Work for @s: if it is a default stream and an active capture restricts
 * this thread, that capture is invalidated and 107031 returned.
 */
aclError acl_capture_check_default(struct acl_stream *s);
/* End @s's capture, if any, dropping what it recorded (stream teardown). */
void acl_capture_drop(struct acl_stream *s);

/* ---- acl_va.c: device pointers --------------------------------------- */

/*
 * A device pointer is va_base + (dev_addr - mem_base): the reservation is
 * PROT_NONE, so host dereferences fault and host pointers never collide.
 */
struct acl_va {
	uintptr_t base;
	uint64_t size;
	uint64_t mem_base;
};

bool acl_va_contains(const struct acl_va *va, uintptr_t p);
uint64_t acl_va_to_dev(const struct acl_va *va, uintptr_t p);
void *acl_dev_to_va(const struct acl_va *va, uint64_t dev_addr);
int acl_va_reserve(struct acl_device *dev);
void acl_va_release(struct acl_device *dev);
/* Device whose reservation holds @p, or NULL. */
struct acl_device *acl_va_find(const void *p);
uint64_t acl_dev_addr(const struct acl_device *dev, const void *p);

/* ---- acl_host.c: pinned host regions ---------------------------------- */

enum acl_host_kind {
	ACL_HOST_MALLOC = 1,		/* aclrtMallocHost: we own the mapping */
	ACL_HOST_REGISTERED = 2,	/* aclrtHostRegister(V2) */
};

struct acl_host_region {
	uintptr_t addr;
	uint64_t size;
	enum acl_host_kind kind;
	uint32_t flags;			/* ACL_HOST_REG_* (registered ones) */
	uint64_t dev_mask;		/* physical NPUs it is registered on */
	uint64_t dev_gen[ACL_MAX_DEVICES];	/* per NPU: device gen when registered */
};

/* A sorted array of non-overlapping regions; the caller locks. */
struct acl_host_table {
	struct acl_host_region *r;
	size_t n, cap;
	uint64_t gen;			/* bumped by every change; read unlocked */
};

ssize_t acl_host_find(const struct acl_host_table *t, uintptr_t p);
/* Count a change of @t (caller locks): lookups cached before are stale. */
void acl_host_changed(struct acl_host_table *t);
/* Index of a region overlapping [p, p + size), or -1. */
ssize_t acl_host_overlap(const struct acl_host_table *t, uintptr_t p,
			 uint64_t size);
int acl_host_insert(struct acl_host_table *t, const struct acl_host_region *r);
void acl_host_remove(struct acl_host_table *t, size_t i);
void acl_host_table_free(struct acl_host_table *t);

extern pthread_mutex_t acl_host_lock;
extern struct acl_host_table acl_hosts;

/*
 * Make sure [p, p + len) may be named as registered host memory on @dev.
 * Return: true if it lies in one acl region (registered on @dev now),
 * false if it is ordinary (pageable) memory.
 */
bool acl_host_pinned_on(struct acl_device *dev, const void *p, uint64_t len);
/*
 * Lock-free half of acl_host_pinned_on(): true if this thread's last
 * lookup found [p, p + len) in one acl region pinned on @dev, still
 * current. False decides nothing: ask acl_host_pinned_on().
 */
bool acl_host_hit_pinned(const struct acl_device *dev, const void *p,
			 uint64_t len);
/* Does [p, p + len) lie in one acl host region (aclrtMallocHost, registered)? */
bool acl_host_is_acl(const void *p, uint64_t len);
/* Drop the registrations a closing device had. */
void acl_host_forget_device(struct acl_device *dev);
void acl_host_release_all(void);

/* ---- acl_peer.c ------------------------------------------------------ */

/* May @run's engine move @dev's memory (@name=@p, for messages)? */
aclError acl_peer_check(struct acl_device *run, struct acl_device *dev,
			const char *name, const void *p);
/* Drop a reset device's peer grants, both ways; caller holds acl_g.lock. */
void acl_peer_forget(struct acl_device *dev);

/* ---- acl_kind.c: pointer classes and copy kinds ---------------------- */

enum acl_loc {
	ACL_LOC_HOST,			/* acl pinned host memory */
	ACL_LOC_DEVICE,			/* acl device memory */
	ACL_LOC_UNREG,			/* anything else */
};

/*
 * CANN's kind rules (ACL_API.md 5.1): from the classes of both pointers
 * and the kind passed (0..4), the kind to perform. Return: 0 or
 * ACL_ERROR_RT_PARAM_INVALID (kind not allowed for these pointers).
 */
aclError acl_resolve_kind(enum acl_loc src, enum acl_loc dst,
			  aclrtMemcpyKind kind, aclrtMemcpyKind *out);
const char *acl_kind_name(int kind);
enum acl_loc acl_classify(const void *p, struct acl_device **dev);

/*
 * Fill @d with copies of @tmpl (a COPY or FILL whose len is ignored), each
 * of at most @max_len bytes, covering @len bytes from tmpl's addresses.
 * Return: descriptors written (<= @n); the caller goes on with a
 * template advanced by what they cover if @len needs more.
 */
size_t acl_build_descs(struct npu_dma_desc *d, size_t n,
		       const struct npu_dma_desc *tmpl, uint64_t len,
		       uint64_t max_len);

/* ---- acl_mem.c ------------------------------------------------------- */

/* What MEM_ALLOC gets for an aclrtMalloc* request. */
struct acl_alloc_req {
	uint64_t bytes;
	uint64_t align;
	uint32_t policy;		/* NPU_DMA_MEM_* */
	uint32_t flags;			/* NPU_DMA_MEM_F_* */
};

/*
 * CANN's size rule (round to 32 bytes, plus 32 bytes of padding when @pad)
 * and policy mapping; @cfg allows the OR-ed bandwidth/read-only bits of
 * aclrtMallocWithCfg. Return: 0 or ACL_ERROR_INVALID_PARAM (recorded).
 */
aclError acl_malloc_params(size_t size, uint32_t policy, bool pad, bool cfg,
			   struct acl_alloc_req *req);

/* The allocation table (caller locks): 0 or -ENOMEM / -EEXIST. */
int acl_mem_insert(struct acl_mem_table *t, uint64_t addr, uint32_t handle);
/* Remove the allocation starting at @addr: its handle, or 0 if none. */
uint32_t acl_mem_remove(struct acl_mem_table *t, uint64_t addr);
void acl_mem_table_free(struct acl_mem_table *t);
/* A closing device's file took its allocations along: forget them. */
void acl_mem_forget(struct acl_device *dev);

/* ---- acl_copy.c: planned transfers, shared by the copy files ---------- */

/* A copy or fill, planned: what a 1-D call needs to run it. */
struct acl_xfer {
	struct acl_device *dev;		/* NPU that runs it; NULL for H2H */
	struct npu_dma_desc tmpl;	/* opcode, flags, addresses */
	uint64_t len;
	bool pageable;			/* names unregistered host memory */
};

/*
 * Plan a copy of @count bytes: pointer classes, CANN's kind rules, the
 * NPU and the descriptor template. @run is the NPU the caller will run
 * it on (a stream's), or NULL for the device memory's own. aclError
 * (recorded).
 */
aclError acl_plan_copy(struct acl_xfer *x, void *dst, const void *src,
		       size_t count, aclrtMemcpyKind kind, struct acl_device *run);

/*
 * The common copy planned without the general planner: host memory this
 * thread last found pinned on @dev (acl_host_hit_pinned()) and @dev's own
 * memory, any kind up to DEFAULT (CANN forces the kind for this pair),
 * one descriptor. Fills @d and returns true; false when the copy is
 * anything else (nothing recorded: plan it with acl_plan_copy()).
 */
/* Bytes one descriptor may move on @dev (pageable: what the driver pins). */
uint64_t acl_dev_max_len(const struct acl_device *dev, bool pageable);
bool acl_plan_fast(struct npu_dma_desc *d, void *dst, const void *src,
		   size_t count, aclrtMemcpyKind kind, struct acl_device *dev);

/* A pointer and what acl_classify() found it to be. */
struct acl_ptr {
	const void *p;
	enum acl_loc loc;
	struct acl_device *dev;
};

/* acl_plan_copy() for pointers the caller has classified already. */
aclError acl_plan_copy_ptrs(struct acl_xfer *x, const struct acl_ptr *dst,
			    const struct acl_ptr *src, size_t count,
			    aclrtMemcpyKind kind, struct acl_device *run);
/* Plan a FILL of the low byte of @value over @count bytes at @p. */
aclError acl_plan_fill(struct acl_xfer *x, void *p, int32_t value, size_t count,
		       struct acl_device *run);
/* ---- acl_submit.c: the one submission path ---------------------------- */

#define ACL_SYNC_RING_ENTRIES	256	/* descriptors per library ring */

/*
 * May a synchronous @what ("2-D copy") run now: no capture forbids it and
 * the thread has a context? aclError (recorded).
 */
aclError acl_sync_allowed(const char *what);

/**
 * struct acl_work - work on its way to a ring (acl_submit.c)
 * @d: prepared descriptors (NULL when @x is set)
 * @n: how many
 * @unit: doorbell size for @d (0: as the ring takes them), so that a
 *	BATCH_BEGIN ... BATCH_END group laid out on @unit boundaries stays
 *	in one doorbell
 * @refs: descriptors of @d that need host bookkeeping (@nrefs of them)
 * @nrefs: how many
 * @x: or a planned transfer, cut into descriptors of what the NPU moves
 *	in one as it goes
 * @pageable: names pageable host memory: an asynchronous call waits
 */
struct acl_work {
	const struct npu_dma_desc *d;
	size_t n;
	size_t unit;
	const struct acl_ref *refs;
	size_t nrefs;
	const struct acl_xfer *x;
	bool pageable;
};

static inline struct acl_work acl_work_xfer(const struct acl_xfer *x)
{
	return (struct acl_work){ .x = x, .pageable = x->pageable };
}

static inline struct acl_work acl_work_descs(const struct npu_dma_desc *d,
					     size_t n)
{
	return (struct acl_work){ .d = d, .n = n };
}

/*
 * The one way work reaches a stream: if the stream is capturing, the
 * work is appended to the capture; else it is pushed to its ring. Return:
 * 0 or -errno; *@first and *@last are the sequence numbers used (on
 * failure: what went in), both 0 when nothing went to the ring.
 */
int acl_stream_submit(struct acl_stream *s, const struct acl_work *w,
		      uint64_t *first, uint64_t *last);
/*
 * The asynchronous runner of the copy calls: acl_stream_submit(), and,
 * with pageable host memory, return only when the work completed,
 * reporting its failure. aclError (recorded).
 */
aclError acl_submit_async(struct acl_stream *s, const struct acl_work *w);
/*
 * The synchronous runner: @w on one of @dev's library rings, waiting for
 * it. aclError (recorded).
 */
aclError acl_submit_sync(struct acl_device *dev, const struct acl_work *w);
/* @w on @r (a ring of the caller's own) and wait for it: 0 or -errno. */
int acl_ring_submit_wait(struct acl_ring *r, const struct acl_work *w);

/* ---- helpers ---------------------------------------------------------- */

static inline uint64_t acl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif /* ACL_INTERNAL_H */
