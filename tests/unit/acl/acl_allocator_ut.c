// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_allocator.c: the descriptor setters, what
 * registration requires, that a registration keeps the callbacks as they
 * were when it was made (CANN keeps a copy), per-stream lookup and
 * unregistration, and CANN's code (100000) for every misuse.
 */
#include <check.h>

#include "acl/acl_rt_allocator.h"
#include "acl_ut.h"
#include "t_check.h"

static int obj_a, obj_b;
static char stream_a, stream_b;	/* handles only: nothing looks inside */

static void *alloc_a(aclrtAllocator a, size_t size)
{
	(void)a;
	(void)size;
	return NULL;
}

static void *alloc_b(aclrtAllocator a, size_t size)
{
	(void)a;
	(void)size;
	return &obj_b;
}

static void free_a(aclrtAllocator a, aclrtAllocatorBlock b)
{
	(void)a;
	(void)b;
}

static void *advise_a(aclrtAllocator a, size_t size, aclrtAllocatorAddr addr)
{
	(void)a;
	(void)size;
	return addr;
}

static void *addr_a(aclrtAllocatorBlock b)
{
	return b;
}

/* A descriptor with everything registration needs. */
static aclrtAllocatorDesc full_desc(void)
{
	aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();

	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(aclrtAllocatorSetObjToDesc(d, &obj_a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(d, alloc_a),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetFreeFuncToDesc(d, free_a),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, addr_a),
			 ACL_SUCCESS);
	return d;
}

START_TEST(test_register_get_unregister)
{
	aclrtAllocatorDesc d = full_desc(), got = NULL;
	aclrtAllocatorAllocAdviseFunc adv = advise_a;
	aclrtAllocatorGetAddrFromBlockFunc ga = NULL;
	aclrtAllocatorAllocFunc af = NULL;
	aclrtAllocatorFreeFunc ff = NULL;
	aclrtAllocator obj = NULL;

	ck_assert_int_eq(aclrtAllocatorRegister(&stream_a, d), ACL_SUCCESS);
	/* Changes after registering do not reach the registration. */
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(d, alloc_b),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorGetByStream(&stream_a, &got, &obj, &af,
						   &ff, &adv, &ga),
			 ACL_SUCCESS);
	ck_assert_ptr_eq(got, d);
	ck_assert_ptr_eq(obj, &obj_a);
	ck_assert(af == alloc_a);
	ck_assert(ff == free_a);
	ck_assert(adv == NULL);		/* optional, not set */
	ck_assert(ga == addr_a);
	/* Only the descriptor output is required. */
	ck_assert_int_eq(aclrtAllocatorGetByStream(&stream_a, &got, NULL, NULL,
						   NULL, NULL, NULL),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorGetByStream(&stream_b, &got, NULL, NULL,
						   NULL, NULL, NULL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("is not registered with any allocator");
	/* Registering again replaces, with the callbacks of now. */
	ck_assert_int_eq(aclrtAllocatorSetAllocAdviseFuncToDesc(d, advise_a),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorRegister(&stream_a, d), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorGetByStream(&stream_a, &got, NULL, &af,
						   NULL, &adv, NULL),
			 ACL_SUCCESS);
	ck_assert(af == alloc_b);
	ck_assert(adv == advise_a);
	ck_assert_int_eq(aclrtAllocatorUnregister(&stream_a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorGetByStream(&stream_a, &got, NULL, NULL,
						   NULL, NULL, NULL),
			 ACL_ERROR_INVALID_PARAM);
	/* Unregistering what is not registered is no error (CANN). */
	ck_assert_int_eq(aclrtAllocatorUnregister(&stream_a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorDestroyDesc(d), ACL_SUCCESS);
}
END_TEST

START_TEST(test_register_requires_callbacks)
{
	aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();

	ck_assert_int_eq(aclrtAllocatorRegister(&stream_a, d),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("allocatorDesc->obj is NULL");
	ck_assert_int_eq(aclrtAllocatorSetObjToDesc(d, &obj_a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorRegister(&stream_a, d),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("allocatorDesc->allocFunc is NULL");
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(d, alloc_a),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorRegister(&stream_a, d),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("allocatorDesc->freeFunc is NULL");
	ck_assert_int_eq(aclrtAllocatorSetFreeFuncToDesc(d, free_a),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtAllocatorRegister(&stream_a, d),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("allocatorDesc->getAddrFromBlockFunc is NULL");
	ck_assert_int_eq(aclrtAllocatorDestroyDesc(d), ACL_SUCCESS);
}
END_TEST

START_TEST(test_null_arguments)
{
	aclrtAllocatorDesc d = full_desc(), got;

	ck_assert_int_eq(aclrtAllocatorDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetObjToDesc(NULL, &obj_a),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("allocatorDesc is NULL");
	ck_assert_int_eq(aclrtAllocatorSetObjToDesc(d, NULL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("allocator is NULL");
	ck_assert_int_eq(aclrtAllocatorSetAllocFuncToDesc(d, NULL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("func is NULL");
	ck_assert_int_eq(aclrtAllocatorSetFreeFuncToDesc(d, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetAllocAdviseFuncToDesc(d, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorRegister(NULL, d), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorRegister(&stream_a, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorGetByStream(NULL, &got, NULL, NULL, NULL,
						   NULL, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorGetByStream(&stream_a, NULL, NULL, NULL,
						   NULL, NULL, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorUnregister(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtAllocatorDestroyDesc(d), ACL_SUCCESS);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_allocator");
	TCase *tc = tcase_create("allocator");

	tcase_add_test(tc, test_register_get_unregister);
	tcase_add_test(tc, test_register_requires_callbacks);
	tcase_add_test(tc, test_null_arguments);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
