// SPDX-License-Identifier: GPL-2.0-only
/*
 * An application outside the tree, as a user writes it against an
 * installed libacl: built by tests/vm/Makefile with nothing but
 * `pkg-config --cflags --libs acl` on the tree make install staged, and
 * run by t_install. It copies a pattern to the NPU and back and compares.
 *
 * Usage: t_install_app DEVICE BYTES
 * Prints "ok BYTES bytes via LIBRARY" and exits 0, or prints the failing
 * call, its aclError and aclGetRecentErrMsg() to stderr and exits 1.
 */
#define _GNU_SOURCE	/* dladdr() */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

static int failed(const char *call, aclError err)
{
	const char *msg = aclGetRecentErrMsg();

	fprintf(stderr, "%s: error %d: %s\n", call, (int)err,
		msg ? msg : "(no message)");
	return 1;
}

#define TRY(call)						\
	do {							\
		aclError _e = (call);				\
		if (_e != ACL_SUCCESS)				\
			return failed(#call, _e);		\
	} while (0)

static int round_trip(int32_t dev, size_t n, unsigned char *in,
		      unsigned char *out)
{
	void *d = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		in[i] = (unsigned char)(i * 7 + 3);
	TRY(aclrtSetDevice(dev));
	TRY(aclrtMalloc(&d, n, ACL_MEM_MALLOC_HUGE_FIRST));
	TRY(aclrtMemcpy(d, n, in, n, ACL_MEMCPY_HOST_TO_DEVICE));
	TRY(aclrtMemcpy(out, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST));
	TRY(aclrtFree(d));
	TRY(aclrtResetDevice(dev));
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char *in, *out;
	Dl_info where;
	size_t n;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEVICE BYTES\n", argv[0]);
		return 2;
	}
	n = strtoul(argv[2], NULL, 0);
	in = malloc(n);
	out = calloc(1, n);
	if (!n || !in || !out)
		return 2;
	TRY(aclInit(NULL));
	ret = round_trip(atoi(argv[1]), n, in, out);
	if (!ret && memcmp(in, out, n)) {
		fprintf(stderr, "data differs after the round trip\n");
		ret = 1;
	}
	if (!ret && dladdr((void *)aclrtMemcpy, &where))
		printf("ok %zu bytes via %s\n", n, where.dli_fname);
	aclFinalize();
	free(in);
	free(out);
	return ret;
}
