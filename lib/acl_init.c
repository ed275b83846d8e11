// SPDX-License-Identifier: MIT
/*
 * libacl: process-wide state. aclInit/aclFinalize are reference counted
 * and may be repeated; devices are enumerated on first need (most CANN
 * calls do not require aclInit) and again after a finalize, so a changed
 * ASCEND_RT_VISIBLE_DEVICES takes effect at the next init.
 *
 * The driver's nodes are probed once per process (acl_kmd_probe(): libdrm
 * and /dev/accel) and kept by the NPU's index, which GET_INFO reports and
 * which is what ASCEND_RT_VISIBLE_DEVICES and the peer masks name. A node
 * that speaks another ABI version, whose GET_INFO fails, or whose index
 * libacl cannot represent is refused, with a message at every enumeration
 * and aclInit failing. A cached node that no longer answers as its NPU
 * (module reloaded, NPU replugged) is looked for again when opened.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_kmd.h"
#include "acl_device.h"
#include "acl_mem.h"

struct acl_global acl_g = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

/* Why a node of the driver is not used. */
enum acl_refusal_kind {
	ACL_REFUSE_ABI = 1,		/* another ABI version */
	ACL_REFUSE_INFO,		/* GET_INFO failed */
	ACL_REFUSE_INDEX,		/* index >= ACL_MAX_DEVICES */
	ACL_REFUSE_DUP,			/* a second node with one index */
};

struct acl_refusal {
	enum acl_refusal_kind kind;
	char path[ACL_KMD_PATH_MAX];
	int err;			/* INFO */
	uint32_t abi;			/* ABI */
	uint32_t index;			/* INDEX, DUP */
};

/*
 * What the last probe found, under acl_g.lock: the node of each NPU
 * index ("" if none), the nodes refused, and the first node that could
 * not be opened at all (for the message when no NPU is found).
 */
static struct acl_nodes {
	bool probed;
	char path[ACL_MAX_DEVICES][ACL_KMD_PATH_MAX];
	struct acl_refusal refused[ACL_MAX_DEVICES];
	int nrefused;			/* entries in refused[] */
	int nhard;			/* of them, those aclInit fails for */
	int nunopened;			/* nodes that could not be opened */
	char unopened_path[ACL_KMD_PATH_MAX];
	int unopened_err;
} acl_nodes;

int acl_parse_visible(const char *env, const bool *present, int npresent,
		      int *phys, int max)
{
	bool used[ACL_MAX_DEVICES] = { false };
	const char *s = env;
	int n = 0;

	while (*s && n < max) {
		char *end;
		long v;

		while (isspace((unsigned char)*s))
			s++;
		if (!isdigit((unsigned char)*s))
			break;
		v = strtol(s, &end, 10);
		if (v >= npresent || v >= ACL_MAX_DEVICES || !present[v] ||
		    used[v])
			break;
		used[v] = true;
		phys[n++] = (int)v;
		s = end;
		while (isspace((unsigned char)*s))
			s++;
		if (*s != ',')
			break;
		s++;
	}
	return n;
}

static void acl_nodes_refuse(enum acl_refusal_kind kind,
			     const struct acl_kmd_node *node)
{
	struct acl_refusal *r;

	if (acl_nodes.nrefused == ACL_MAX_DEVICES)
		return;
	r = &acl_nodes.refused[acl_nodes.nrefused++];
	r->kind = kind;
	snprintf(r->path, sizeof(r->path), "%s", node->path);
	r->err = node->err;
	r->abi = node->info.abi_version;
	r->index = node->info.index;
	/* A node going away (unplug) is no reason to fail aclInit. */
	if (kind != ACL_REFUSE_DUP && !(kind == ACL_REFUSE_INFO &&
					node->err == -ENODEV))
		acl_nodes.nhard++;
}

/* Sort one probed node into the table, or refuse it. */
static void acl_nodes_add(const struct acl_kmd_node *node)
{
	uint32_t idx = node->info.index;

	if (!node->ours) {
		if (!acl_nodes.nunopened++) {
			snprintf(acl_nodes.unopened_path,
				 sizeof(acl_nodes.unopened_path), "%s", node->path);
			acl_nodes.unopened_err = node->err;
		}
	} else if (node->err) {
		acl_nodes_refuse(ACL_REFUSE_INFO, node);
	} else if (node->info.abi_version != NPU_DMA_ABI_VERSION) {
		acl_nodes_refuse(ACL_REFUSE_ABI, node);
	} else if (idx >= ACL_MAX_DEVICES) {
		acl_nodes_refuse(ACL_REFUSE_INDEX, node);
	} else if (acl_nodes.path[idx][0]) {
		acl_nodes_refuse(ACL_REFUSE_DUP, node);
	} else {
		snprintf(acl_nodes.path[idx], sizeof(acl_nodes.path[idx]), "%s",
			 node->path);
	}
}

/* (Re)build the node table from a fresh probe (acl_g.lock held). */
static void acl_nodes_probe_locked(void)
{
	struct acl_kmd_node *v = NULL;
	int i, n, cap = 16;

	for (;;) {
		free(v);
		v = calloc((size_t)cap, sizeof(*v));
		n = v ? acl_kmd_probe(v, cap) : -ENOMEM;
		if (n <= cap)
			break;
		cap = n;	/* more nodes than room: once more, large enough */
	}
	memset(&acl_nodes, 0, sizeof(acl_nodes));
	acl_nodes.probed = true;
	for (i = 0; i < n; i++)
		acl_nodes_add(&v[i]);
	free(v);
}

/* A message for a refused node, in this thread. */
static void acl_refusal_report(const struct acl_refusal *r)
{
	switch (r->kind) {
	case ACL_REFUSE_ABI:
		acl_err(ACL_ERROR_DRV_FAILURE,
			"%s: NPU %u refused: its %s driver speaks ABI version "
			"%u, this libacl speaks version %d (install a matching "
			"kernel module and library)", r->path, r->index,
			NPU_DMA_DRIVER_NAME, r->abi, NPU_DMA_ABI_VERSION);
		break;
	case ACL_REFUSE_INFO:
		acl_err(acl_errno_to_acl(r->err),
			"%s: node of the %s driver refused: "
			"DRM_IOCTL_NPU_DMA_GET_INFO failed: %s", r->path,
			NPU_DMA_DRIVER_NAME, strerror(-r->err));
		break;
	case ACL_REFUSE_INDEX:
		acl_err(ACL_ERROR_DRV_FAILURE,
			"%s: NPU %u refused: libacl handles NPU indexes below %d",
			r->path, r->index, ACL_MAX_DEVICES);
		break;
	case ACL_REFUSE_DUP:
		acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			"%s: ignored: NPU %u already has node %s", r->path,
			r->index, acl_nodes.path[r->index]);
		break;
	}
}

/* Every refusal, and why nothing was found if nothing was. */
static void acl_nodes_report(int ndev)
{
	int i;

	for (i = 0; i < acl_nodes.nrefused; i++)
		acl_refusal_report(&acl_nodes.refused[i]);
	if (ndev || !acl_nodes.nunopened)
		return;
	acl_err(acl_errno_to_acl(acl_nodes.unopened_err),
		"no NPU found: %s could not be opened (%s)%s; is this user in "
		"the group of the NPU nodes?", acl_nodes.unopened_path,
		strerror(-acl_nodes.unopened_err),
		acl_nodes.nunopened > 1 ? ", nor other DRM nodes" : "");
}

int acl_enumerate_locked(void)
{
	bool present[ACL_MAX_DEVICES];
	int phys[ACL_MAX_DEVICES];
	const char *env = getenv("ASCEND_RT_VISIBLE_DEVICES");
	int i, n = 0;

	if (acl_g.enumerated)
		return acl_nodes.nhard;
	if (!acl_nodes.probed)
		acl_nodes_probe_locked();
	for (i = 0; i < ACL_MAX_DEVICES; i++)
		present[i] = acl_nodes.path[i][0] != '\0';
	if (env && *env) {
		n = acl_parse_visible(env, present, ACL_MAX_DEVICES, phys,
				      ACL_MAX_DEVICES);
	} else {
		for (i = 0; i < ACL_MAX_DEVICES; i++)
			if (present[i])
				phys[n++] = i;
	}
	for (i = 0; i < n; i++) {
		struct acl_device *dev = &acl_g.dev[i];

		if (!dev->gen) {	/* first use of this slot */
			pthread_mutex_init(&dev->lock, NULL);
			pthread_mutex_init(&dev->mem_lock, NULL);
		}
		dev->id = i;
		dev->phys = phys[i];
		dev->fd = -1;
	}
	__atomic_store_n(&acl_g.ndev, n, __ATOMIC_RELEASE);
	acl_g.enumerated = true;
	acl_nodes_report(n);
	return acl_nodes.nhard;
}

/*
 * Open @path and check it is NPU @phys of our ABI: 0 with *@fd, or
 * -errno; an ABI mismatch is recorded here (ACL_ERROR_* in *@ret).
 */
static int acl_node_try(const char *path, int phys, int *fd,
			struct npu_dma_info *info, aclError *ret)
{
	int err, f = acl_kmd_open(path);

	if (f < 0)
		return f;
	err = acl_kmd_get_info(f, info);
	if (!err && info->abi_version != NPU_DMA_ABI_VERSION) {
		*ret = acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			       "%s: NPU %d refused: its driver now speaks ABI "
			       "version %u, this libacl version %d", path, phys,
			       info->abi_version, NPU_DMA_ABI_VERSION);
		err = -EPROTO;
	} else if (!err && info->index != (uint32_t)phys) {
		err = -ENODEV;	/* another NPU took the node */
	}
	if (err) {
		acl_kmd_close(f);
		return err;
	}
	*fd = f;
	return 0;
}

aclError acl_node_open_locked(int phys, int *fd, struct npu_dma_info *info)
{
	aclError ret = ACL_SUCCESS;
	const char *path;
	int attempt, err = -ENODEV;

	for (attempt = 0; attempt < 2; attempt++) {
		if (attempt)
			acl_nodes_probe_locked();	/* the NPU moved? */
		path = acl_nodes.path[phys];
		if (!*path)
			continue;
		err = acl_node_try(path, phys, fd, info, &ret);
		if (!err)
			return ACL_SUCCESS;
		if (ret)
			return ret;
		/* Only a node that is gone or another NPU's is looked for again. */
		if (err != -ENOENT && err != -ENODEV && err != -ENXIO)
			break;
	}
	if (!*path)
		return acl_err(ACL_ERROR_RT_NO_DEVICE,
			       "NPU %d is no longer present", phys);
	return acl_err(acl_errno_to_acl(err), "opening NPU %d at %s failed: %s",
		       phys, path, strerror(-err));
}

bool acl_node_present(int phys)
{
	bool present;

	if (phys < 0 || phys >= ACL_MAX_DEVICES)
		return false;
	pthread_mutex_lock(&acl_g.lock);
	acl_enumerate_locked();
	present = acl_nodes.path[phys][0] != '\0';
	pthread_mutex_unlock(&acl_g.lock);
	return present;
}

int acl_device_count(void)
{
	int n;

	pthread_mutex_lock(&acl_g.lock);
	acl_enumerate_locked();
	n = acl_g.ndev;
	pthread_mutex_unlock(&acl_g.lock);
	return n;
}

/*
 * The config file is accepted and otherwise ignored (dump, profiling and
 * the like have no meaning for a DMA runtime), but it must be readable
 * and look like JSON with a bounded nesting depth, as CANN checks.
 */
static aclError acl_check_config(const char *path)
{
	int depth = 0, max = 0, c;
	FILE *f = fopen(path, "r");

	if (!f)
		return acl_err(ACL_ERROR_INVALID_FILE, "configPath=\"%s\": %s",
			       path, strerror(errno));
	while ((c = fgetc(f)) != EOF) {
		if (c == '{' || c == '[')
			max = ++depth > max ? depth : max;
		else if (c == '}' || c == ']')
			depth--;
		if (depth < 0)
			break;
	}
	fclose(f);
	if (depth || max > 10)
		return acl_err(ACL_ERROR_PARSE_FILE,
			       "configPath=\"%s\" is not valid JSON (depth %d)",
			       path, max);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath)
{
	aclError ret = ACL_SUCCESS;
	bool fresh;
	int refused;

	ACL_ENTER();
	if (configPath && *configPath) {
		ret = acl_check_config(configPath);
		if (ret)
			return ret;
	}
	pthread_mutex_lock(&acl_g.lock);
	fresh = !acl_g.enumerated;
	refused = acl_enumerate_locked();
	if (refused && !acl_g.init_refs) {
		/* Not initialized: the caller sees why, each time it tries. */
		if (!fresh)
			acl_nodes_report(acl_g.ndev);
		ret = acl_err(ACL_ERROR_DRV_FAILURE,
			      "%d NPU node%s of the %s driver refused (see the "
			      "messages that follow)", refused,
			      refused > 1 ? "s" : "", NPU_DMA_DRIVER_NAME);
	} else if (acl_g.init_refs++) {
		ret = acl_err(ACL_ERROR_REPEAT_INITIALIZE,
			      "already initialized (benign)");
	}
	pthread_mutex_unlock(&acl_g.lock);
	return ret;
}

/* Tear everything down (acl_g.lock held): devices, then host memory. */
void acl_finalize_all_locked(void)
{
	int i;

	for (i = 0; i < acl_g.ndev; i++) {
		acl_device_close_locked(&acl_g.dev[i]);
		acl_va_release(&acl_g.dev[i]);
	}
	acl_va_release_inherited();
	acl_host_release_all();
	__atomic_store_n(&acl_g.ndev, 0, __ATOMIC_RELEASE);
	acl_g.enumerated = false;
	acl_g.init_refs = 0;
	acl_tls.ctx = NULL;
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void)
{
	aclError ret = ACL_SUCCESS;

	ACL_ENTER();
	pthread_mutex_lock(&acl_g.lock);
	if (!acl_g.init_refs)
		ret = acl_err(ACL_ERROR_REPEAT_FINALIZE, "not initialized");
	else
		acl_finalize_all_locked();
	pthread_mutex_unlock(&acl_g.lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount)
{
	aclError ret = ACL_SUCCESS;

	ACL_ENTER();
	pthread_mutex_lock(&acl_g.lock);
	if (!acl_g.init_refs)
		ret = acl_err(ACL_ERROR_REPEAT_FINALIZE, "not initialized");
	else if (!--acl_g.init_refs)
		acl_finalize_all_locked();
	if (refCount)
		*refCount = (uint64_t)acl_g.init_refs;
	pthread_mutex_unlock(&acl_g.lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)
{
	struct aclDataBuffer_impl {
		void *data;
		size_t size;
	} *b = malloc(sizeof(*b));

	if (b) {
		b->data = data;
		b->size = size;
	}
	return (aclDataBuffer *)b;
}

ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)
{
	ACL_ENTER();
	if (!dataBuffer)
		return acl_err(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
	free((void *)dataBuffer);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)
{
	return dataBuffer ? *(void *const *)dataBuffer : NULL;
}
