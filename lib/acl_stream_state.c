// SPDX-License-Identifier: MIT
/*
 * libacl: stream-state hooks (aclrtRegStreamStateCallback). A process-
 * wide list of named hooks, run after a stream is created and before
 * one is destroyed. They are called with no libacl lock held, from a
 * copy of the list, so a hook may call libacl, even (un)register hooks.
 */
#include <stdlib.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_stream.h"

struct acl_state_hook {
	char *name;
	aclrtStreamStateCallback fn;
	void *args;
	struct acl_state_hook *next;
};

static pthread_mutex_t acl_hooks_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_state_hook *acl_hooks;	/* under acl_hooks_lock */
static size_t acl_nhooks;			/* under acl_hooks_lock */

static struct acl_state_hook **acl_hook_find(const char *name)
{
	struct acl_state_hook **pp;

	for (pp = &acl_hooks; *pp; pp = &(*pp)->next)
		if (!strcmp((*pp)->name, name))
			return pp;
	return pp;
}

static aclError acl_hook_add(const char *name, aclrtStreamStateCallback fn,
			     void *args)
{
	struct acl_state_hook **pp = acl_hook_find(name), *h;

	/* CANN: "repeated registration is not supported". */
	if (*pp)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "regName=\"%s\" is already registered", name);
	h = calloc(1, sizeof(*h));
	if (h)
		h->name = strdup(name);
	if (!h || !h->name) {
		free(h);
		return acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a hook");
	}
	h->fn = fn;
	h->args = args;
	*pp = h;
	acl_nhooks++;
	return ACL_SUCCESS;
}

/* Removing a name that is not registered is not an error (CANN). */
static void acl_hook_del(const char *name)
{
	struct acl_state_hook **pp = acl_hook_find(name), *h = *pp;

	if (!h)
		return;
	*pp = h->next;
	acl_nhooks--;
	free(h->name);
	free(h);
}

ACL_FUNC_VISIBILITY aclError
aclrtRegStreamStateCallback(const char *regName,
			    aclrtStreamStateCallback callback, void *args)
{
	aclError ret = ACL_SUCCESS;

	ACL_ENTER();
	if (!regName)
		return acl_err(ACL_ERROR_INVALID_PARAM, "regName is NULL");
	pthread_mutex_lock(&acl_hooks_lock);
	if (callback)
		ret = acl_hook_add(regName, callback, args);
	else
		acl_hook_del(regName);
	pthread_mutex_unlock(&acl_hooks_lock);
	return ret;
}

void acl_stream_notify(struct acl_stream *s, aclrtStreamState state)
{
	struct acl_state_hook *h, *copy;
	size_t n = 0, i;

	pthread_mutex_lock(&acl_hooks_lock);
	if (!acl_nhooks) {
		pthread_mutex_unlock(&acl_hooks_lock);
		return;
	}
	copy = calloc(acl_nhooks, sizeof(*copy));
	for (h = acl_hooks; copy && h; h = h->next)
		copy[n++] = *h;
	pthread_mutex_unlock(&acl_hooks_lock);
	/* Out of memory: the hooks miss this change, the stream is fine. */
	for (i = 0; i < n; i++)
		copy[i].fn(s, state, copy[i].args);
	free(copy);
}

void acl_stream_hooks_forked(void)
{
	pthread_mutex_init(&acl_hooks_lock, NULL);
}
