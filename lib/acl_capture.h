/* SPDX-License-Identifier: MIT */
/*
 * libacl internals: stream capture into graphs (acl_capture.c).
 */
#ifndef ACL_CAPTURE_H
#define ACL_CAPTURE_H

#include "acl_stream.h"

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
/* In a forked child: the lock again, no capture active (acl_fork.c). */
void acl_capture_forked(void);

#endif /* ACL_CAPTURE_H */
