/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fixture of the ABI tests (t_abi_desc, t_abi_ioctl): two files of
 * one NPU (the sim one when there is one: validation does not depend on
 * the engine), device allocations of each (one freed), host
 * registrations (writable, read-only, the other file's), unregistered and
 * read-only host memory, a queue.
 */
#ifndef T_ABI_H
#define T_ABI_H

#include <stdint.h>

#include "npu_raw.h"

#define BUF		(64 * 1024)
#define NO_ADDR		0xdead0000000ULL
#define KERNEL_ADDR	0xffff888000000000ULL

struct t_abi_env {
	int fd, fd2;
	struct npu_dma_info info;
	uint64_t dev, freed, foreign;
	uint32_t dev_h, freed_h, foreign_h;	/* their GEM handles */
	uint8_t *host, *host_ro, *host_other, *unreg, *rdonly;
	struct npu_raw_queue q;
};

extern struct t_abi_env e;

/* BUF bytes followed by an unmapped page, so overruns hit a hole. */
void *t_abi_map(int prot);
/* Check fixture: make and free the environment. */
void t_abi_setup(void);
void t_abi_teardown(void);

#endif /* T_ABI_H */
