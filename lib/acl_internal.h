/* SPDX-License-Identifier: MIT */
/*
 * libacl internals, all of them: the headers below, split by concern,
 * each naming the files that implement it. The library's files include
 * the headers they use; this one is the map, and the door for the unit
 * tests. Nothing here is ABI.
 *
 * Layering (top to bottom):
 *   the aclrt* entry points        acl_init.c acl_device.c acl_context.c
 *                                  acl_stream.c acl_stream_ctl.c
 *                                  acl_stream_state.c acl_event.c acl_mem.c
 *                                  acl_memusage.c
 *                                  acl_host.c acl_peer.c acl_copy.c
 *                                  acl_copy2d.c acl_batch.c acl_indirect.c
 *                                  acl_fill.c acl_callback.c acl_value.c
 *                                  acl_notify.c acl_capture.c acl_sysinfo.c
 *                                  acl_version.c acl_error.c
 *   fork() handlers                acl_fork.c
 *   pure logic (unit tested)       acl_kind.c acl_va.c acl_error.c
 *                                  acl_host.c
 *   the one submission path        acl_submit.c (acl_submit.h)
 *   the raw queue client           acl_ring.c (acl_ring.h)
 *   the command layer, the only    acl_kmd.c (acl_kmd.h)
 *   file that reaches the kernel
 *   the kernel ABI                 <drm/npu_dma_accel.h>
 *
 * Headers:
 *   acl_objects.h  the objects behind the handles, process and thread state
 *   acl_error.h    error codes and messages
 *   acl_device.h   finding NPUs, devices, library rings, contexts, fork
 *   acl_stream.h   streams, stream control, submission bookkeeping
 *   acl_htask.h    host tasks (callbacks, value write/wait, notifies)
 *   acl_capture.h  stream capture
 *   acl_mem.h      device pointers, host regions, peers, allocations
 *   acl_copy.h     pointer classes, kind rules, planned transfers
 *   acl_submit.h   the one submission path and its two runners
 *   acl_ring.h     one kernel queue
 *   acl_kmd.h      the command layer
 *
 * Locking, outermost first: acl_g.lock (init state, enumeration, device
 * open/close) -> acl_device.lock (contexts, streams, event slots, sync
 * rings of one device) -> acl_host_lock (host regions) -> acl_ring.lock
 * (one ring's submission side) -> acl_ring.wait_lock (its waiters).
 * acl_device.mem_lock (the allocation table, the memory usage counters)
 * is a leaf: nothing else is taken under it.
 */
#ifndef ACL_INTERNAL_H
#define ACL_INTERNAL_H

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_ring.h"
#include "acl_kmd.h"
#include "acl_device.h"
#include "acl_stream.h"
#include "acl_htask.h"
#include "acl_capture.h"
#include "acl_mem.h"
#include "acl_copy.h"
#include "acl_submit.h"

#endif /* ACL_INTERNAL_H */
