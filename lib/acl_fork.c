// SPDX-License-Identifier: MIT
/*
 * libacl: fork(). A child forked after the library was used starts with
 * a clean runtime (Documentation/libacl.rst, "fork"):
 *
 *  - Nothing of the parent's is used: its devices' DRM files are closed
 *    in the child (the driver refuses a file to anyone but its opener,
 *    and the parent's file must be released when the parent closes it,
 *    not when a child exits), its contexts, streams, rings, events,
 *    sync rings and allocation tables are forgotten, never freed or
 *    touched (the driver's mappings are VM_DONTCOPY: the rings and event
 *    tables are not even there; helper threads do not exist). What the
 *    application still holds of them is recognised, and refused with
 *    107017 (handles) or 107000 (device pointers), by the generation
 *    test every handle goes through anyway: devices get a new gen when
 *    the child opens them, and every gen up to acl_g.fork_gen is the
 *    parent's, which the message says.
 *  - aclrtSetDevice and everything after it work as in a new process:
 *    the child opens its own file, and reserves its own device-pointer
 *    ranges (the parent's stay reserved, so its pointers still fault on
 *    the host and are told apart, acl_va.c).
 *  - aclInit's state is inherited (the child is initialized if its
 *    parent was); acl host memory (aclrtMallocHost, registrations)
 *    describes the child's copy of those pages and is pinned on the
 *    child's devices when a copy there first names it.
 *
 * Locks: every lock of the library that the child keeps using is
 * initialised again in the child, where the threads that may have held
 * it at fork() do not exist. The one state the child keeps and that
 * other threads change, the host-region table, is made consistent by
 * holding its lock across fork() (a leaf lock, held only for short,
 * non-blocking work: never waits for the device or a callback). No lock
 * that can be held while waiting for work is taken at fork(), so a host
 * callback may fork (or a thread fork while another syncs).
 */
#include <pthread.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_kmd.h"
#include "acl_device.h"
#include "acl_stream.h"
#include "acl_htask.h"
#include "acl_capture.h"
#include "acl_mem.h"

static void acl_fork_prepare(void)
{
	pthread_mutex_lock(&acl_host_lock);
}

static void acl_fork_parent(void)
{
	pthread_mutex_unlock(&acl_host_lock);
}

/*
 * Forget the parent's @dev: close the child's copy of its file, drop
 * what hangs off it without touching it (it may be half-changed by a
 * thread that is not here, or not mapped here).
 */
static void acl_device_forked(struct acl_device *dev)
{
	int fd = dev->fd;

	dev->fd = -1;
	acl_kmd_close(fd);
	dev->refcnt = 0;
	/* The parent's streams of it still name it, and so its device. */
	memset(&dev->defctx, 0, sizeof(dev->defctx));
	dev->defctx.dev = dev;
	dev->contexts = NULL;
	dev->slots = NULL;
	dev->slots_size = 0;
	dev->slot_map = NULL;
	memset(dev->sync, 0, sizeof(dev->sync));
	dev->nsync = 0;
	dev->peer_on = 0;
	memset(&dev->mem, 0, sizeof(dev->mem));
	memset(&dev->usage, 0, sizeof(dev->usage));
	acl_va_inherit(dev);
}

static void acl_fork_child(void)
{
	int i, n = acl_g.ndev;

	pthread_mutex_init(&acl_g.lock, NULL);
	for (i = 0; i < ACL_MAX_DEVICES; i++) {
		pthread_mutex_init(&acl_g.dev[i].lock, NULL);
		pthread_mutex_init(&acl_g.dev[i].mem_lock, NULL);
	}
	__atomic_store_n(&acl_g.fork_gen,
			 __atomic_load_n(&acl_g.gen_counter, __ATOMIC_RELAXED),
			 __ATOMIC_RELAXED);
	for (i = 0; i < n; i++)
		acl_device_forked(&acl_g.dev[i]);
	acl_host_forked();
	acl_htask_forked();
	acl_notify_forked();
	acl_capture_forked();
	acl_stream_hooks_forked();
	acl_ipc_forked();
	acl_vmm_forked();
	acl_mempool_forked();
	acl_allocator_forked();
	acl_tls.ctx = NULL;
	acl_tls.ctx_gen = 0;
}

__attribute__((constructor)) static void acl_fork_register(void)
{
	pthread_atfork(acl_fork_prepare, acl_fork_parent, acl_fork_child);
}

bool acl_gen_inherited(uint64_t gen)
{
	return gen && gen <= __atomic_load_n(&acl_g.fork_gen, __ATOMIC_RELAXED);
}

aclError acl_err_stale(const char *name, const void *handle, uint64_t gen,
		       const char *what)
{
	if (acl_gen_inherited(gen))
		return acl_err(ACL_ERROR_RT_INVALID_HANDLE,
			       "%s=%p is %s %s of the parent process: a process "
			       "forked after it was created cannot use it (create "
			       "its own after aclrtSetDevice)", name, handle,
			       strchr("aeiou", what[0]) ? "an" : "a", what);
	return acl_err(ACL_ERROR_RT_INVALID_HANDLE, "%s=%p is not a live %s",
		       name, handle, what);
}

aclError acl_err_dev_gone(const char *name, const void *p,
			  const struct acl_device *dev)
{
	if (dev == &acl_va_parent)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s=%p is device memory of the parent process: a "
			       "forked process cannot use it (aclrtMalloc its own "
			       "after aclrtSetDevice)", name, p);
	return acl_err(ACL_ERROR_RT_PARAM_INVALID, "%s=%p: device %d was reset",
		       name, p, dev->id);
}
