/* SPDX-License-Identifier: MIT */
/*
 * libacl internals: the objects behind the opaque CANN handles (devices,
 * contexts, streams, events), the process-wide state and the per-thread
 * state. Nothing here is ABI.
 */
#ifndef ACL_OBJECTS_H
#define ACL_OBJECTS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/npu_dma_accel.h>

#include "acl/acl.h"

#define ACL_MAX_DEVICES		64	/* npu_dma_info.peers is a u64 mask */
#define ACL_RING_ENTRIES	1024	/* descriptors per stream ring */
#define ACL_SYNC_RINGS		4	/* library queues for synchronous copies */
#define ACL_SYNC_RING_ENTRIES	256	/* descriptors per library ring */
#define ACL_MSG_LEN		1024	/* aclGetRecentErrMsg() buffer */
#define ACL_PAGE_SIZE		4096UL
#define ACL_HUGE_PAGE_SIZE	(2UL << 20)	/* the driver's huge device pages */

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

struct acl_ring;

/* The threads an application subscribes to a stream (acl_callback.c). */
enum acl_sub_kind {
	ACL_SUB_REPORT,			/* aclrtSubscribeReport: callbacks */
	ACL_SUB_HOSTFUNC,		/* aclrtSubscribeHostFunc: host functions */
	ACL_SUB_KINDS
};

struct acl_stream {
	uint32_t pad[4];		/* keeps magic clear of malloc's free list */
	uint32_t magic;
	uint32_t flags;			/* ACL_STREAM_* at creation */
	uint32_t priority;
	int32_t id;
	uint64_t gen;			/* its device's gen at creation */
	struct acl_context *ctx;
	struct acl_ring *ring;
	uint32_t errors_seen;		/* ring error_count already reported */
	uint32_t errors_base;		/* ring error_count at the last abort */
	bool aborted;			/* atomic: abort not reported by a sync yet */
	struct acl_stream *next;	/* in ctx->streams, under dev->lock */
	struct acl_graph *graph;	/* capture in progress, under ring->lock */
	struct acl_hostq *hostq;	/* host-task runner (acl_callback.c) */
	/* Subscribed threads, by enum acl_sub_kind, under acl_sub_lock. */
	struct acl_sub *sub[ACL_SUB_KINDS];
	/* Set by aclrtSetStreamFailureMode()/Attribute (acl_stream_ctl.c). */
	uint64_t fail_mode;		/* ACL_*_ON_FAILURE set on this stream */
	uint32_t overflow;		/* ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK */
	uint32_t tag;			/* ACL_STREAM_ATTR_USER_CUSTOM_TAG */
	uint32_t cache_op;		/* ACL_STREAM_ATTR_CACHE_OP_INFO */
	/* aclrtSetStreamResLimit (acl_reslimit.c), atomic: */
	uint32_t res_limit[2];		/* by aclrtDevResLimitType */
	uint32_t res_set;		/* which of them are set */
};

struct acl_context {
	uint32_t pad[4];
	uint32_t magic;
	bool is_default;
	uint64_t gen;			/* its device's gen at creation */
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
	int refs;			/* atomic: the handle + queued host tasks */
	pthread_mutex_t lock;		/* protects the record state below */
	struct acl_ring *ring;		/* ring of the last record, or NULL */
	uint64_t seq;			/* its EVENT_RECORD sequence number */
	bool captured;			/* last record went into a capture */
	uint64_t rec_gen;		/* bumped by every record (or capture) */
	/* ACL_EVENT_RECORD_* / ACL_EVENT_WAIT_* of the first such call, or -1 */
	uint32_t rec_flag, wait_flag;
	struct acl_evwait *waits;	/* stream waits on it not seen done */
	uint32_t nwaits, wcap;
	/* IPC (acl_event_ipc.c): the driver's signal, 0 until shared. */
	uint32_t sig;
	bool ipc_opened;		/* opened from another process's handle */
	uint64_t ipc_key[2];		/* exported: the key, to revoke */
};

/* A stream's wait on an event: done once @ring completed @seq. */
struct acl_evwait {
	struct acl_ring *ring;		/* a reference */
	uint64_t seq;
};

/*
 * What libacl holds device memory for (aclrtGetMemUsageInfo's
 * components): every MEM_ALLOC is charged to one of them from its answer
 * to its GEM_CLOSE (acl_memusage.c).
 */
enum acl_mem_use {
	ACL_MEM_USE_APP,		/* aclrtMalloc* */
	ACL_MEM_USE_VMM,		/* aclrtMallocPhysical */
	ACL_MEM_USE_MEMPOOL,		/* chunks of stream-ordered pools */
	ACL_MEM_USE_NR
};

/* Bytes held per component on one opening of a device, and the high water. */
struct acl_mem_usage {
	uint64_t cur[ACL_MEM_USE_NR];
	uint64_t peak[ACL_MEM_USE_NR];
};

/*
 * Device memory this process allocated on one NPU: device address ->
 * GEM handle, which aclrtFree() closes, and what it was charged (the
 * driver's size, to @use). Open addressing, linear probing; handle 0
 * (never a GEM handle) marks a free slot.
 */
struct acl_mem_entry {
	uint64_t addr;
	uint64_t size;
	uint32_t handle;
	uint32_t use;			/* enum acl_mem_use */
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
	uint32_t res_limit[2];		/* aclrtSetDeviceResLimit, by type */
	uint32_t res_set;		/* which of them are set (until reset) */
	/* Protects mem and usage, and orders mem's ioctls. */
	pthread_mutex_t mem_lock;
	struct acl_mem_table mem;	/* allocations of the open file */
	struct acl_mem_usage usage;	/* the same, per component */
};

struct acl_global {
	pthread_mutex_t lock;		/* protects everything below */
	int init_refs;			/* aclInit references */
	uint64_t gen_counter;		/* atomic: the last device gen given */
	/*
	 * Atomic. In a forked child: every gen up to this one was given
	 * out before the (last) fork(), so an object carrying one is the
	 * parent's (acl_fork.c). 0 in a process that is no fork's child.
	 */
	uint64_t fork_gen;
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

#endif /* ACL_OBJECTS_H */
