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
 * The host buffers are pageable, so each asynchronous copy has finished
 * when aclrtMemcpyAsync returns (CANN's rule for pageable memory, which
 * libacl keeps): the work is queued behind everything the stream
 * already holds, and the buffer can go at once.
 */
#include <cstdio>
#include <vector>

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
