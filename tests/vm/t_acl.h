/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared bits of the libacl VM tests: finding an edu and a sim NPU,
 * and assertions that print aclGetRecentErrMsg() when a call fails.
 */
#ifndef T_ACL_H
#define T_ACL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "t_vm.h"

/* Assert an acl call returns @want; on mismatch show the error message. */
#define T_ACL_EQ(call, want)						\
	do {								\
		aclError _r = (call);					\
		const char *_m = _r != (want) ? aclGetRecentErrMsg() : NULL; \
		ck_assert_msg(_r == (want), "%s = %d, want %d (%s)", #call, \
			      _r, (int)(want), _m ? _m : "no message");	\
	} while (0)

#define T_ACL_OK(call) T_ACL_EQ(call, ACL_SUCCESS)

/*
 * Logical id of the first NPU with backend @name ("edu" or "sim"), or -1.
 * Without ASCEND_RT_VISIBLE_DEVICES, logical ids follow the NPU index
 * (GET_INFO's index, sysfs npu_index).
 */
static inline int t_acl_find(const char *name)
{
	uint32_t n = 0, i;
	char buf[16];

	if (aclrtGetDeviceCount(&n))
		return -1;
	for (i = 0; i < n; i++)
		if (!t_npu_attr((int)i, "backend", buf, sizeof(buf)) &&
		    !strcmp(buf, name))
			return (int)i;
	return -1;
}

/*
 * Loop tests run once per backend: index 0 = edu, 1 = sim. Set the
 * device of loop index @i; false (the test skipped: t_skip()) when the
 * guest has no such NPU.
 */
static inline bool t_acl_use_backend(int i, int *dev)
{
	static const char *const backends[] = { "edu", "sim" };

	*dev = t_acl_find(backends[i]);
	if (*dev < 0) {
		t_skip("no %s NPU", backends[i]);
		return false;
	}
	T_ACL_OK(aclrtSetDevice(*dev));
	return true;
}

/* Expect the recent error message to mention @needle (and consume it). */
static inline void t_acl_msg_has(const char *needle)
{
	const char *m = aclGetRecentErrMsg();

	ck_assert_msg(m && strstr(m, needle), "message \"%s\" lacks \"%s\"",
		      m ? m : "(null)", needle);
}

/* A host function that holds its stream until the test opens it. */
struct t_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int open;
};

static inline void t_gate_init(struct t_gate *g)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->open = 0;
}

static inline void t_gate_fn(void *p)
{
	struct t_gate *g = p;

	pthread_mutex_lock(&g->lock);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

static inline void t_gate_open(struct t_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = 1;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

#endif /* T_ACL_H */
