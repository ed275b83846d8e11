// SPDX-License-Identifier: MIT
/*
 * libacl: process-wide state. aclInit/aclFinalize are reference counted
 * and may be repeated; devices are enumerated on first need (most CANN
 * calls do not require aclInit) and again after a finalize, so a changed
 * ASCEND_RT_VISIBLE_DEVICES takes effect at the next init.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl_internal.h"

struct acl_global acl_g = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

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

void acl_enumerate_locked(void)
{
	bool present[ACL_MAX_DEVICES];
	int phys[ACL_MAX_DEVICES];
	const char *env = getenv("ASCEND_RT_VISIBLE_DEVICES");
	int i, n = 0;

	if (acl_g.enumerated)
		return;
	for (i = 0; i < ACL_MAX_DEVICES; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/dev/npu_dma%d", i);
		present[i] = access(path, F_OK) == 0;
	}
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

		if (!dev->gen)	/* first use of this slot */
			pthread_mutex_init(&dev->lock, NULL);
		dev->id = i;
		dev->phys = phys[i];
		dev->fd = -1;
	}
	__atomic_store_n(&acl_g.ndev, n, __ATOMIC_RELEASE);
	acl_g.enumerated = true;
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

	ACL_ENTER();
	if (configPath && *configPath) {
		ret = acl_check_config(configPath);
		if (ret)
			return ret;
	}
	pthread_mutex_lock(&acl_g.lock);
	if (acl_g.init_refs++)
		ret = acl_err(ACL_ERROR_REPEAT_INITIALIZE,
			      "already initialized (benign)");
	acl_enumerate_locked();
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
