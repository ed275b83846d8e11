// SPDX-License-Identifier: MIT
/*
 * libacl: CANN's IPC memory: device memory shared between processes by
 * a key string (aclrtIpcMem*).
 *
 * The driver keeps the shares and decides who may import one
 * (DRM_IOCTL_NPU_DMA_IPC_*, Documentation/security.rst): this file turns
 * its 128-bit keys into CANN's key strings and back, and remembers what
 * this process exported and imported, so that aclrtIpcMemClose() knows
 * which of the two a key is and a second import of one key returns the
 * same pointer (counted, as CANN's importers close each import).
 *
 * A key string is "npu<N>:<32 hex digits>": N is the driver's index of
 * the NPU that holds the memory, so an importer knows which device to
 * open; the digits are the driver's key. The importer's pointer is in
 * that device's reservation, at the exporter's device address.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_kmd.h"
#include "acl_device.h"
#include "acl_mem.h"

/* CANN's key buffers are 65 bytes; ours are shorter, with their NUL. */
#define ACL_IPC_KEY_MIN_LEN	65U
#define ACL_IPC_KEY_MAX		48

struct acl_ipc_entry {
	char key[ACL_IPC_KEY_MAX];
	uint64_t k[2];
	struct acl_device *dev;
	uint64_t gen;			/* dev->gen when made: stale after a reset */
	uint64_t dev_addr;
	void *ptr;
	bool exported;
	int refs;			/* imports: aclrtIpcMemImportByKey() calls */
};

static pthread_mutex_t acl_ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_ipc_entry *acl_ipc;
static size_t acl_ipc_n, acl_ipc_cap;

void acl_key_format(char *buf, size_t size, const char *prefix, int phys,
		    const uint64_t k[2])
{
	snprintf(buf, size, "%s%d:%016" PRIx64 "%016" PRIx64, prefix, phys,
		 k[0], k[1]);
}

int acl_key_parse(const char *key, const char *prefix, int *phys,
		  uint64_t k[2])
{
	size_t plen = strlen(prefix);
	char hi[17], canon[ACL_IPC_KEY_MAX];
	const char *colon;
	char *end;
	long n;

	if (!key || strncmp(key, prefix, plen) ||
	    strnlen(key, ACL_IPC_KEY_MAX) >= ACL_IPC_KEY_MAX)
		return -1;
	n = strtol(key + plen, &end, 10);
	colon = end;
	if (end == key + plen || *colon != ':' || n < 0 || n >= ACL_MAX_DEVICES ||
	    strlen(colon + 1) != 32)
		return -1;
	memcpy(hi, colon + 1, 16);
	hi[16] = 0;
	k[0] = strtoull(hi, NULL, 16);
	k[1] = strtoull(colon + 17, NULL, 16);
	*phys = (int)n;
	/* Only the one spelling we hand out (no signs, spaces or case). */
	acl_key_format(canon, sizeof(canon), prefix, *phys, k);
	return strcmp(canon, key) ? -1 : 0;
}

aclError acl_signal_import(const uint64_t k[2], const char *key,
			   const char *what, struct acl_device **dev,
			   uint32_t *id)
{
	struct npu_dma_ipc_import m = {
		.key = { k[0], k[1] }, .flags = NPU_DMA_IPC_IMPORT_F_SIGNAL,
	};
	struct acl_context *ctx = acl_current_ctx();
	int err;

	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	err = acl_kmd_ipc_import(ctx->dev->fd, &m);
	if (err == -EACCES)
		return acl_err(ACL_ERROR_RT_NO_PERMISSION,
			       "key=%s: this process is not on the %s's import list",
			       key, what);
	if (err == -ENOENT || err == -EINVAL)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "key=%s names no shared %s (destroyed, or its "
			       "process exited)", key, what);
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_IPC_IMPORT");
	*dev = ctx->dev;
	*id = m.handle;
	return ACL_SUCCESS;
}

/* The entry of @key that is still valid (acl_ipc_lock held), or NULL. */
static struct acl_ipc_entry *acl_ipc_find(const char *key)
{
	size_t i = 0;

	while (i < acl_ipc_n) {
		struct acl_ipc_entry *e = &acl_ipc[i];

		/* The device was reset or finalized: its file took the share. */
		if (!acl_device_is_open(e->dev) || e->gen != e->dev->gen) {
			acl_ipc[i] = acl_ipc[--acl_ipc_n];
			continue;
		}
		if (!strcmp(e->key, key))
			return e;
		i++;
	}
	return NULL;
}

static void acl_ipc_drop(struct acl_ipc_entry *e)
{
	*e = acl_ipc[--acl_ipc_n];
}

static aclError acl_ipc_add(const struct acl_ipc_entry *e)
{
	if (acl_ipc_n == acl_ipc_cap) {
		size_t cap = acl_ipc_cap ? 2 * acl_ipc_cap : 16;
		struct acl_ipc_entry *n = realloc(acl_ipc, cap * sizeof(*n));

		if (!n)
			return acl_err(ACL_ERROR_BAD_ALLOC, "no memory for key %s",
				       e->key);
		acl_ipc = n;
		acl_ipc_cap = cap;
	}
	acl_ipc[acl_ipc_n++] = *e;
	return ACL_SUCCESS;
}

void acl_ipc_forked(void)
{
	/* Another thread may have been changing the table: not freed. */
	pthread_mutex_init(&acl_ipc_lock, NULL);
	acl_ipc = NULL;
	acl_ipc_n = 0;
	acl_ipc_cap = 0;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size,
						     char *key, size_t len,
						     uint64_t flags)
{
	struct npu_dma_ipc_export x = { 0 };
	struct acl_ipc_entry e = { 0 };
	struct acl_device *dev;
	aclError ret;
	int err;

	ACL_ENTER();
	if (!devPtr || !key)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr=%p key=%p: NULL",
			       devPtr, (void *)key);
	if (!size)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size=0");
	if (len < ACL_IPC_KEY_MIN_LEN)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "len=%zu: the key buffer needs %u bytes", len,
			       ACL_IPC_KEY_MIN_LEN);
	if (flags > ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flags=%#" PRIx64 " is not an export flag", flags);
	dev = acl_va_find(devPtr);
	if (!dev || !acl_device_is_open(dev))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "devPtr=%p is not device memory of this process",
			       devPtr);
	x.dev_addr = acl_dev_addr(dev, devPtr);
	x.size = size;
	if (flags & ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
		x.flags = NPU_DMA_IPC_F_NO_PID_CHECK;

	pthread_mutex_lock(&acl_ipc_lock);
	err = acl_kmd_ipc_export(dev->fd, &x);
	if (err == -EFAULT || err == -EINVAL) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "devPtr=%p size=%zu is not inside one allocation "
			      "of this process", devPtr, size);
	} else if (err) {
		ret = acl_err_sys(err, "DRM_IOCTL_NPU_DMA_IPC_EXPORT");
	} else {
		e.k[0] = x.key[0];
		e.k[1] = x.key[1];
		acl_key_format(e.key, sizeof(e.key), "npu", dev->phys, e.k);
		e.dev = dev;
		e.gen = dev->gen;
		e.dev_addr = x.dev_addr;
		e.ptr = devPtr;
		e.exported = true;
		ret = acl_ipc_add(&e);
		if (ret) {
			struct npu_dma_ipc_close c = {
				.key = { e.k[0], e.k[1] },
				.flags = NPU_DMA_IPC_CLOSE_EXPORT,
			};

			acl_kmd_ipc_close(dev->fd, &c);
		}
	}
	pthread_mutex_unlock(&acl_ipc_lock);
	if (!ret)
		snprintf(key, len, "%s", e.key);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key,
						     int32_t *pid, size_t num)
{
	struct acl_ipc_entry *e;
	aclError ret = ACL_SUCCESS;
	size_t i;
	int err;

	ACL_ENTER();
	if (!key || !pid)
		return acl_err(ACL_ERROR_INVALID_PARAM, "key=%p pid=%p: NULL",
			       (const void *)key, (void *)pid);
	if (!num || num > NPU_DMA_IPC_MAX_PIDS)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "num=%zu is out of range [1, %u]", num,
			       NPU_DMA_IPC_MAX_PIDS);
	for (i = 0; i < num; i++)
		if (pid[i] <= 0)
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "pid[%zu]=%d is no process id", i, pid[i]);
	pthread_mutex_lock(&acl_ipc_lock);
	e = acl_ipc_find(key);
	if (!e || !e->exported) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "key=%.64s is not a key this process exported", key);
	} else {
		err = acl_kmd_ipc_set_pids(e->dev->fd, e->k, pid, (uint32_t)num);
		if (err == -ESRCH)
			ret = acl_err(ACL_ERROR_INVALID_PARAM,
				      "pid: one of the %zu ids names no process", num);
		else if (err == -ENOSPC)
			ret = acl_err(ACL_ERROR_INVALID_PARAM,
				      "num=%zu: key=%s would allow more than %u processes",
				      num, key, NPU_DMA_IPC_MAX_PIDS);
		else if (err)
			ret = acl_err_sys(err, "DRM_IOCTL_NPU_DMA_IPC_SET_PIDS");
	}
	pthread_mutex_unlock(&acl_ipc_lock);
	return ret;
}

/* The visible device that is the driver's NPU @phys, opened; or NULL. */
static struct acl_device *acl_ipc_device(int phys, const char *key, aclError *ret)
{
	struct acl_device *dev = acl_device_of_phys(phys);

	if (!dev) {
		*ret = acl_err(ACL_ERROR_INVALID_PARAM,
			       "key=%s is on an NPU this process cannot see", key);
		return NULL;
	}
	*ret = acl_device_ensure_open(dev);
	return *ret ? NULL : dev;
}

static aclError acl_ipc_import_err(int err, const char *key)
{
	switch (err) {
	case -ENOENT:
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "key=%s names no shared memory (closed, freed, "
			       "or its process exited)", key);
	case -EACCES:
		return acl_err(ACL_ERROR_RT_NO_PERMISSION,
			       "key=%s: this process (pid %d) is not on its "
			       "import list (aclrtIpcMemSetImportPid)", key,
			       (int)getpid());
	case -EEXIST:
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "key=%s: its memory overlaps memory this process "
			       "already has on that device", key);
	default:
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_IPC_IMPORT");
	}
}

/* A new import of @key on @dev into @e (acl_ipc_lock held). */
static aclError acl_ipc_import(struct acl_device *dev, const char *key,
			       const uint64_t k[2], struct acl_ipc_entry *e)
{
	struct npu_dma_ipc_import m = { .key = { k[0], k[1] } };
	struct acl_va va = acl_dev_va(dev);
	aclError ret;
	int err;

	err = acl_kmd_ipc_import(dev->fd, &m);
	if (err)
		return acl_ipc_import_err(err, key);
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->k[0] = k[0];
	e->k[1] = k[1];
	e->dev = dev;
	e->gen = dev->gen;
	e->dev_addr = m.dev_addr;
	e->ptr = acl_dev_to_va(&va, m.dev_addr);
	e->refs = 1;
	ret = acl_ipc_add(e);
	if (ret) {
		struct npu_dma_ipc_close c = { .dev_addr = m.dev_addr,
					       .flags = NPU_DMA_IPC_CLOSE_IMPORT };

		acl_kmd_ipc_close(dev->fd, &c);
	}
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr,
						    const char *key,
						    uint64_t flags)
{
	struct acl_ipc_entry *e, made = { 0 };
	struct acl_context *ctx;
	struct acl_device *dev;
	aclError ret;
	uint64_t k[2];
	int phys;

	ACL_ENTER();
	if (!devPtr || !key)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr=%p key=%p: NULL",
			       (void *)devPtr, (const void *)key);
	if (flags > ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flags=%#" PRIx64 " is not an import flag", flags);
	if (acl_key_parse(key, "npu", &phys, k))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "key=%.64s is not a key of aclrtIpcMemGetExportKey",
			       key);
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	dev = acl_ipc_device(phys, key, &ret);
	if (!dev)
		return ret;
	if (dev != ctx->dev &&
	    (flags & ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)) {
		ret = acl_peer_enable(ctx->dev, dev);
		if (ret)
			return ret;
	}

	pthread_mutex_lock(&acl_ipc_lock);
	e = acl_ipc_find(key);
	if (e && e->exported) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "key=%s was exported by this process: use its own "
			      "pointer %p", key, e->ptr);
	} else if (e) {
		e->refs++;
		*devPtr = e->ptr;
		ret = ACL_SUCCESS;
	} else {
		ret = acl_ipc_import(dev, key, k, &made);
		if (!ret)
			*devPtr = made.ptr;
	}
	pthread_mutex_unlock(&acl_ipc_lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key)
{
	struct npu_dma_ipc_close c = { 0 };
	struct acl_ipc_entry *e;
	aclError ret = ACL_SUCCESS;
	int err;

	ACL_ENTER();
	if (!key)
		return acl_err(ACL_ERROR_INVALID_PARAM, "key=NULL");
	pthread_mutex_lock(&acl_ipc_lock);
	e = acl_ipc_find(key);
	if (!e) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "key=%.64s is neither exported nor imported by "
			      "this process", key);
	} else if (!e->exported && --e->refs > 0) {
		e = NULL;	/* other imports of it remain open */
	} else if (e->exported) {
		c.key[0] = e->k[0];
		c.key[1] = e->k[1];
		c.flags = NPU_DMA_IPC_CLOSE_EXPORT;
	} else {
		c.dev_addr = e->dev_addr;
		c.flags = NPU_DMA_IPC_CLOSE_IMPORT;
	}
	if (e) {
		err = acl_kmd_ipc_close(e->dev->fd, &c);
		/* -ENOENT: freeing the memory revoked the key already. */
		if (err && err != -ENOENT)
			ret = acl_err_sys(err, "DRM_IOCTL_NPU_DMA_IPC_CLOSE");
		acl_ipc_drop(e);
	}
	pthread_mutex_unlock(&acl_ipc_lock);
	return ret;
}

/*
 * The one attribute is the link between two dies of one package; these
 * NPUs have one link, which is SIO's place: the default.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char *key,
						aclrtIpcMemAttrType type,
						uint64_t attr)
{
	uint64_t k[2];
	int phys;

	ACL_ENTER();
	if (!key)
		return acl_err(ACL_ERROR_INVALID_PARAM, "key=NULL");
	if (acl_key_parse(key, "npu", &phys, k))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "key=%.64s is not a key of aclrtIpcMemGetExportKey",
			       key);
	if (type != ACL_RT_IPC_MEM_ATTR_ACCESS_LINK)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "type=%d is not an IPC memory attribute", (int)type);
	if (attr > ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "attr=%" PRIu64 " is not an access link", attr);
	if (attr != ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO)
		return acl_err(ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED,
			       "attr=%" PRIu64 ": these NPUs have one link "
			       "(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO)", attr);
	return ACL_SUCCESS;
}

/* No hypervisor between this process and the driver: its own pid. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid)
{
	ACL_ENTER();
	if (!pid)
		return acl_err(ACL_ERROR_INVALID_PARAM, "pid=NULL");
	*pid = (int32_t)getpid();
	return ACL_SUCCESS;
}
