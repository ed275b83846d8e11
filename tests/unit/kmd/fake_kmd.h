/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake of libacl's command layer (lib/acl_kmd.h), for unit tests: the
 * same functions, served in-process by pretend NPUs, so that libacl's
 * real stream, ring, event and memory code runs without a kernel.
 *
 * Each fake NPU has host-RAM "device memory", GEM handles, the event
 * table and queue areas in shared memory the library maps as it maps the
 * driver's, and a doorbell that consumes the ring and runs the
 * descriptors synchronously (COPY, COPY_2D, FILL, EVENT_RECORD, WAIT,
 * HOST_BARRIER up to BARRIER_RELEASE, batches, graphs, COPY_INDIRECT),
 * publishing completion and error fields and signalling the eventfd as
 * the driver does. It checks what it is given the way the driver does
 * (fields, addresses against the file's allocations and registrations),
 * so a library bug shows up as a failed descriptor here too.
 *
 * Tests link fake_kmd.o before lib/libacl.a: the fake defines every
 * acl_kmd_* function, so the real acl_kmd.o (and libdrm) is never linked.
 * Every test process starts with no NPU; fake_npu_add() before the first
 * libacl call makes some.
 */
#ifndef FAKE_KMD_H
#define FAKE_KMD_H

#include <stdbool.h>
#include <stdint.h>

/**
 * struct fake_npu_cfg - one pretend NPU; zero fields take the defaults
 * @index: GET_INFO's index
 * @path: its node (default "/fake/dri/renderD<128 + index>")
 * @abi_version: what GET_INFO reports (default NPU_DMA_ABI_VERSION)
 * @info_err: GET_INFO fails with this -errno
 * @unopenable: opening the node fails with -EACCES (driver unknown)
 * @mem_size: device memory (default 16 MiB)
 * @max_queue_entries: (default 1024)
 * @max_copy_len: (default 1 MiB)
 * @max_event_slots: (default 64)
 * @caps_off: NPU_DMA_CAP_* bits not offered (all are by default)
 * @peers: GET_INFO's peer mask
 * @edu: GET_INFO reports NPU_DMA_BACKEND_EDU (default: a sim NPU)
 * @pci_address: its sysfs pci_address (default: none, as a sim NPU)
 * @free_huge: GET_INFO's mem_free_huge
 * @free_1g: GET_INFO's mem_free_1g
 * @info_size: GET_INFO's size, as an older driver's (default: the whole)
 */
struct fake_npu_cfg {
	uint32_t index;
	const char *path;
	uint32_t abi_version;
	int info_err;
	bool unopenable;
	uint64_t mem_size;
	uint32_t max_queue_entries;
	uint64_t max_copy_len;
	uint32_t max_event_slots;
	uint64_t caps_off;
	uint64_t peers;
	bool edu;
	const char *pci_address;
	uint64_t free_huge;
	uint64_t free_1g;
	uint32_t info_size;
};

/* Calls into the command layer, counted per function (fake_kmd_calls()). */
enum fake_kmd_op {
	FAKE_PROBE,
	FAKE_OPEN,
	FAKE_CLOSE,
	FAKE_GET_INFO,
	FAKE_MEM_ALLOC,
	FAKE_GEM_CLOSE,
	FAKE_HOST_REGISTER,
	FAKE_HOST_UNREGISTER,
	FAKE_QUEUE_CREATE,
	FAKE_QUEUE_DESTROY,
	FAKE_QUEUE_SUBMIT,
	FAKE_BARRIER_RELEASE,
	FAKE_GRAPH_CREATE,
	FAKE_GRAPH_DESTROY,
	FAKE_MMAP,
	FAKE_ATTR,
	FAKE_DRIVER_VERSION,
	FAKE_OP_COUNT
};

/* Add an NPU (before the library enumerates): 0, or -1 if too many. */
int fake_npu_add(const struct fake_npu_cfg *cfg);

/* The module version acl_kmd_driver_version() reports; NULL: not loaded. */
void fake_kmd_driver_version(const char *version);

/* How often @op was called since the process started. */
unsigned int fake_kmd_calls(enum fake_kmd_op op);

/* Doorbells that asked the driver to run their work inline (F_INLINE). */
unsigned int fake_kmd_inline_doorbells(void);

/* The next call of @op fails with @err (a -errno) and does nothing. */
void fake_kmd_fail_next(enum fake_kmd_op op, int err);

/*
 * Hold: doorbells still consume descriptors, but nothing runs until
 * fake_kmd_run() (a device that is slow). Off again: everything pending
 * runs at once.
 */
void fake_kmd_hold(bool on);

/*
 * Busy: every queue looks at work (NPU_DMA_QUEUE_S_NEED_WAKEUP clear),
 * so the library may publish without a doorbell; fake_kmd_run() then
 * picks up what was published, as the driver's worker would.
 */
void fake_kmd_busy(bool on);

/* Consume what busy queues published, and run whatever can run. */
void fake_kmd_run(void);

/* GEM handles open on NPU @index, over all its files. */
unsigned int fake_npu_handles(uint32_t index);
/* Files open on NPU @index. */
unsigned int fake_npu_files(uint32_t index);
/* Live queues on NPU @index. */
unsigned int fake_npu_queues(uint32_t index);
/* Host ranges registered on NPU @index. */
unsigned int fake_npu_registrations(uint32_t index);

#endif /* FAKE_KMD_H */
