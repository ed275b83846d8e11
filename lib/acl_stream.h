/* SPDX-License-Identifier: MIT */
/*
 * libacl internals: streams (acl_stream.c) and their control
 * (acl_stream_ctl.c), and the host bookkeeping a submission carries.
 */
#ifndef ACL_STREAM_H
#define ACL_STREAM_H

#include "acl_objects.h"

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
/* Tell the driver @s->priority (acl_stream_ctl.c). */
aclError acl_stream_apply_priority(struct acl_stream *s);
/* Run the aclrtRegStreamStateCallback() hooks for @s, no lock held. */
void acl_stream_notify(struct acl_stream *s, aclrtStreamState state);
/* In a forked child: the hooks' lock again (acl_fork.c). */
void acl_stream_hooks_forked(void);

/*
 * A descriptor of a submission that needs host-side bookkeeping: a
 * HOST_BARRIER run by the stream's host-task runner, or an EVENT_RECORD
 * whose event learns the record's (ring, seq).
 */
enum acl_ref_kind {
	ACL_REF_HOST_TASK = 1,
	ACL_REF_EVENT = 2,
	/* ACL_EVENT_RECORD_EXTERNAL: the event learns replays, not the capture */
	ACL_REF_EVENT_EXTERNAL = 3,
};

struct acl_ref {
	size_t idx;			/* index of the descriptor */
	enum acl_ref_kind kind;
	struct acl_htask *task;		/* HOST_TASK: template, copied */
	struct acl_event *ev;		/* EVENT, EVENT_EXTERNAL */
};

/* Is @s capturing? (unlocked peek, for the API-edge checks) */
bool acl_stream_capturing(struct acl_stream *s);
/* The error (107027) of a call a capturing stream refuses. */
aclError acl_stream_captured_err(struct acl_stream *s);

/* acl_event_ipc.c: IPC events' records, waits and end. */
int acl_event_ipc_record(struct acl_event *e, struct acl_stream *s);
aclError acl_event_ipc_wait(struct acl_event *e, struct acl_stream *s);
int acl_event_ipc_sync(struct acl_event *e, int32_t timeout_ms, bool query);
void acl_event_ipc_destroy(struct acl_event *e);

#endif /* ACL_STREAM_H */
