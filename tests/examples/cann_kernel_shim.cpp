// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stand-ins for the device kernels of CANN's runtime examples, for
 * run-cann-examples.sh: the host-side launch wrappers that CANN's
 * example/kernel_func/kernel_ops.h declares, each doing what its kernel
 * does to memory, in stream order, with the runtime's own copies, and
 * printing what the kernel prints (AscendC::printf). The examples'
 * sources stay unmodified; only the kernel is replaced (issue 26 item
 * 10). A kernel's blocks each handle one int at devPtr[block].
 *
 * WriteDo and ReadDo: the host buffers are pageable, so each
 * asynchronous copy has finished when aclrtMemcpyAsync returns (CANN's
 * rule for pageable memory, which libacl keeps): the work is queued
 * behind everything the stream already holds, and the buffer can go at
 * once. EasyOP, ShortOP and LongOP compute on device memory in place
 * (x += 1, x *= 2, a long loop then x += 1): a host function on the
 * stream reads the words, computes and writes them back, with the
 * launching thread's context, so the stream waits for it as for a
 * kernel; LongOP's loop is a 1.5 s sleep first (CANN's examples time out
 * on it after 1 s).
 */
#include <cstdio>
#include <vector>

#include <unistd.h>

#include "acl/acl.h"
#include "kernel_func/kernel_ops.h"

/* A launch has no status to return: a kernel that fails says so. */
static void shim_check(aclError ret, const char *what)
{
	if (ret != ACL_SUCCESS)
		std::fprintf(stderr, "kernel shim: %s failed: %d (%s)\n", what,
			     static_cast<int>(ret), aclGetRecentErrMsg());
}

void WriteDo(uint32_t blockDim, void *stream, int *devPtr, int value)
{
	std::vector<int> buf(blockDim, value);
	size_t size = buf.size() * sizeof(int);

	shim_check(aclrtMemcpyAsync(devPtr, size, buf.data(), size,
				    ACL_MEMCPY_HOST_TO_DEVICE, stream),
		   "WriteDo");
	for (uint32_t i = 0; i < blockDim; i++)
		std::printf("Source data: %d\n", value);
	std::fflush(stdout);
}

void ReadDo(uint32_t blockDim, void *stream, int *devPtr)
{
	std::vector<int> buf(blockDim, 0);
	size_t size = buf.size() * sizeof(int);

	shim_check(aclrtMemcpyAsync(buf.data(), size, devPtr, size,
				    ACL_MEMCPY_DEVICE_TO_HOST, stream),
		   "ReadDo");
	for (uint32_t i = 0; i < blockDim; i++)
		std::printf("Destination data: %d\n", buf[i]);
	std::fflush(stdout);
}

namespace {
enum shim_op { SHIM_ADD_ONE, SHIM_TIMES_TWO, SHIM_LONG_ADD_ONE };

struct shim_task {
	enum shim_op op;
	uint32_t blocks;
	uint32_t *x;
	aclrtContext ctx;
};

void shim_run(void *arg)
{
	shim_task *t = static_cast<shim_task *>(arg);
	std::vector<uint32_t> v(t->blocks);
	size_t size = v.size() * sizeof(uint32_t);

	shim_check(aclrtSetCurrentContext(t->ctx), "aclrtSetCurrentContext");
	if (t->op == SHIM_LONG_ADD_ONE)
		usleep(1500 * 1000);
	shim_check(aclrtMemcpy(v.data(), size, t->x, size,
			       ACL_MEMCPY_DEVICE_TO_HOST), "kernel read");
	for (uint32_t &w : v)
		w = t->op == SHIM_TIMES_TWO ? w * 2 : w + 1;
	shim_check(aclrtMemcpy(t->x, size, v.data(), size,
			       ACL_MEMCPY_HOST_TO_DEVICE), "kernel write");
	delete t;
}

void shim_launch(enum shim_op op, uint32_t blockDim, void *stream,
		 uint32_t *x)
{
	shim_task *t = new shim_task{ op, blockDim, x, nullptr };
	aclError ret;

	shim_check(aclrtGetCurrentContext(&t->ctx), "aclrtGetCurrentContext");
	ret = aclrtLaunchHostFunc(static_cast<aclrtStream>(stream), shim_run,
				  t);
	shim_check(ret, "aclrtLaunchHostFunc");
	if (ret != ACL_SUCCESS)
		delete t;
}
} // namespace

void EasyOP(uint32_t blockDim, void *stream, uint32_t *x)
{
	shim_launch(SHIM_ADD_ONE, blockDim, stream, x);
}

void ShortOP(uint32_t blockDim, void *stream, uint32_t *x)
{
	shim_launch(SHIM_TIMES_TWO, blockDim, stream, x);
}

void LongOP(uint32_t blockDim, void *stream, uint32_t *x)
{
	shim_launch(SHIM_LONG_ADD_ONE, blockDim, stream, x);
}
