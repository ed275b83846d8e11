/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * npu_dma: the user-space ABI of an NPU's DRM node, /dev/dri/renderD*
 * (kernels without drivers/accel) or /dev/accel/accel* (with it).
 *
 * An open file is a context. It owns the device memory it allocates (GEM
 * objects, freed with DRM_IOCTL_GEM_CLOSE), the host memory it registers
 * and the queues it creates; closing the file (or the death of the
 * process) drains its queues, then frees all of it.
 *
 * Rules for every structure: fixed-width members only, explicit padding,
 * sizes a multiple of 8, every flags field checked against the valid-bits
 * mask and every pad/reserved field checked to be zero (-EINVAL). The
 * ioctl number carries the caller's structure size: the DRM core
 * zero-extends a shorter one, so a structure grows only by fields whose
 * zero means "as before". Feature discovery is DRM_IOCTL_NPU_DMA_GET_INFO's
 * @caps, never version guessing. Documentation/uapi.rst describes each
 * ioctl at length.
 */
#ifndef _UAPI_DRM_NPU_DMA_ACCEL_H
#define _UAPI_DRM_NPU_DMA_ACCEL_H

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* DRM_IOCTL_VERSION's name for this driver. */
#define NPU_DMA_DRIVER_NAME		"npu_dma"
#define NPU_DMA_ABI_VERSION		2

/* Backends (struct npu_dma_info.backend). */
#define NPU_DMA_BACKEND_EDU		0
#define NPU_DMA_BACKEND_SIM		1

/* Capabilities (struct npu_dma_info.caps). */
#define NPU_DMA_CAP_COPY_2D		(1ULL << 0)
#define NPU_DMA_CAP_FILL		(1ULL << 1)
#define NPU_DMA_CAP_EVENTS		(1ULL << 2)
#define NPU_DMA_CAP_WAIT		(1ULL << 3)
#define NPU_DMA_CAP_HOST_BARRIER	(1ULL << 4)
#define NPU_DMA_CAP_BATCH		(1ULL << 5)
#define NPU_DMA_CAP_PAGEABLE		(1ULL << 6)
#define NPU_DMA_CAP_NEED_WAKEUP		(1ULL << 7)	/* see NPU_DMA_QUEUE_S_NEED_WAKEUP */
#define NPU_DMA_CAP_GRAPH		(1ULL << 8)	/* GRAPH_CREATE, NPU_DMA_OP_GRAPH */
#define NPU_DMA_CAP_COPY_INDIRECT	(1ULL << 9)	/* NPU_DMA_OP_COPY_INDIRECT */
#define NPU_DMA_CAP_SUBMIT_INLINE	(1ULL << 10)	/* NPU_DMA_SUBMIT_F_INLINE */
#define NPU_DMA_CAP_PRIME		(1ULL << 11)	/* dma-buf export, import; MEM_INFO */
#define NPU_DMA_CAP_IPC			(1ULL << 12)	/* IPC_EXPORT .. IPC_CLOSE */
#define NPU_DMA_CAP_VMM			(1ULL << 13)	/* VMM_MAP, VMM_UNMAP */
#define NPU_DMA_CAP_SIGNAL		(1ULL << 14)	/* signals: SIGNAL, WAIT_SIGNAL */
#define NPU_DMA_CAP_SIGNAL_WAIT		(1ULL << 15)	/* SIGNAL_WAIT: a host waits */
#define NPU_DMA_CAP_QUEUE_CTL		(1ULL << 16)	/* QUEUE_CTL: priority, stop, abort */
#define NPU_DMA_CAP_REDUCE		(1ULL << 17)	/* NPU_DMA_OP_REDUCE */
#define NPU_DMA_CAP_SUBMIT_HELP		(1ULL << 18)	/* NPU_DMA_SUBMIT_F_HELP */

/**
 * struct npu_dma_info - DRM_IOCTL_NPU_DMA_GET_INFO: what this NPU is and can do
 * @size: out: sizeof(struct npu_dma_info) as the kernel knows it (in: zero)
 * @flags: in: must be 0
 * @abi_version: out: NPU_DMA_ABI_VERSION of the driver
 * @backend: out: NPU_DMA_BACKEND_*
 * @index: out: the NPU's index N, stable while the module is loaded:
 *	NPUs are numbered from 0 in the order they appeared, and user space
 *	orders them by it (not by DRM minor, which other drivers share);
 *	always below 64, the width of @peers
 * @nr_channels: out: DMA channels run in parallel
 * @mem_size: out: device memory in bytes
 * @mem_free: out: device memory not allocated by anyone, in bytes
 * @max_copy_len: out: largest @len of one COPY or FILL descriptor
 * @max_2d_pitch: out: largest pitch of a COPY_2D descriptor
 * @max_2d_height: out: largest height of a COPY_2D descriptor
 * @max_queue_entries: out: largest ring a queue may have
 * @max_event_slots: out: event slots of a context (see EVENT_RECORD)
 * @pad: zero
 * @caps: out: NPU_DMA_CAP_* bits
 * @mem_base: out: device address of the first byte of device memory;
 *	allocations lie in [@mem_base, @mem_base + @mem_size)
 * @peers: out: bit N set if NPU N (@index) is a peer of this NPU (device
 *	memory of each can be named in the other's descriptors); N < 64
 * @max_graph_tasks: out: most descriptors of one graph (NPU_DMA_CAP_GRAPH)
 * @pad2: zero
 * @events_offset: out: mmap() offset of this file's event table
 *	(struct npu_dma_event_slot[@max_event_slots], read-only)
 * @events_size: out: its length in bytes, a multiple of the page size:
 *	the mapping must be exactly this long
 * @max_pin_len: out: longest pageable host side of one descriptor, in
 *	bytes (a longer one completes with -E2BIG): split pageable copies
 *	to this (the queue_pinned_mb module parameter)
 * @vmm_size: out: bytes of the NPU's window of virtual device addresses
 *	(VMM_MAP), which starts right after its memory, at
 *	NPU_DMA_VMM_BASE(mem_base, mem_size); 0 without one
 * @mem_free_huge: out: of @mem_free, the bytes in wholly free 2 MiB
 *	blocks at 2 MiB-aligned addresses: what allocations in huge pages
 *	can still get (a snapshot, as @mem_free)
 * @mem_free_1g: out: likewise in 1 GiB blocks
 *
 * Fields are only ever added at the end: @size tells the caller how many
 * this driver filled, and an older caller's shorter struct gets its own.
 */
struct npu_dma_info {
	__u32 size;
	__u32 flags;
	__u32 abi_version;
	__u32 backend;
	__u32 index;
	__u32 nr_channels;
	__u64 mem_size;
	__u64 mem_free;
	__u64 max_copy_len;
	__u64 max_2d_pitch;
	__u32 max_2d_height;
	__u32 max_queue_entries;
	__u32 max_event_slots;
	__u32 pad;
	__u64 caps;
	__u64 mem_base;
	__u64 peers;
	__u32 max_graph_tasks;
	__u32 pad2;
	__u64 events_offset;
	__u64 events_size;
	__u64 max_pin_len;
	__u64 vmm_size;
	__u64 mem_free_huge;
	__u64 mem_free_1g;
};

/* Alignment of the VMM window and of its mappings' recommended size. */
#define NPU_DMA_VMM_ALIGN		(2ULL << 20)
#define NPU_DMA_VMM_BASE(mem_base, mem_size) \
	((mem_base) + (((mem_size) + NPU_DMA_VMM_ALIGN - 1) & ~(NPU_DMA_VMM_ALIGN - 1)))

/* Page-size policies of device memory (struct npu_dma_mem_alloc.policy). */
#define NPU_DMA_MEM_HUGE_FIRST		0	/* 2 MiB pages, else 4 KiB */
#define NPU_DMA_MEM_HUGE_ONLY		1	/* 2 MiB pages or -ENOMEM */
#define NPU_DMA_MEM_NORMAL_ONLY		2	/* 4 KiB pages */
#define NPU_DMA_MEM_POLICY_MAX		2

/*
 * struct npu_dma_mem_alloc.flags. F_P2P is accepted for CANN's _P2P
 * policies and changes nothing: any allocation may be named by the same
 * process's descriptors on a peer NPU (npu_dma_info.peers), with or
 * without it. That exposes nothing: a peer copy is checked against the
 * submitting process's own allocations on both NPUs.
 */
#define NPU_DMA_MEM_F_P2P		(1U << 0)	/* accepted, no effect */
#define NPU_DMA_MEM_FLAGS_MASK		NPU_DMA_MEM_F_P2P

/**
 * struct npu_dma_mem_alloc - DRM_IOCTL_NPU_DMA_MEM_ALLOC: allocate device memory
 * @size: in: bytes, > 0; rounded up to the page size the policy chose
 * @align: in: 0, or a power of two up to 1 GiB the address must honour
 * @policy: in: NPU_DMA_MEM_*
 * @flags: in: NPU_DMA_MEM_F_*
 * @dev_addr: out: device address of the allocation (in: zero)
 * @alloc_size: out: bytes reserved, after rounding (in: zero)
 * @handle: out: GEM handle of the allocation in this file (in: zero)
 * @pad: in: zero
 * @reserved: in: zero
 *
 * The allocation is a GEM object. DRM_IOCTL_GEM_CLOSE of @handle frees
 * it: at once for new descriptors (its addresses are refused from then
 * on), and its memory when the last copy already queued on it completes.
 */
struct npu_dma_mem_alloc {
	__u64 size;
	__u64 align;
	__u32 policy;
	__u32 flags;
	__u64 dev_addr;
	__u64 alloc_size;
	__u32 handle;
	__u32 pad;
	__u64 reserved[2];
};

/* struct npu_dma_mem_info.flags */
#define NPU_DMA_MEM_INFO_F_IMPORTED	(1U << 0)	/* a foreign dma-buf */
#define NPU_DMA_MEM_INFO_F_HUGE		(1U << 1)	/* 2 MiB pages (MEM_ALLOC's policy) */

/**
 * struct npu_dma_mem_info - DRM_IOCTL_NPU_DMA_MEM_INFO: where a handle is
 * @handle: in: a GEM handle of the file: from MEM_ALLOC, or from
 *	DRM_IOCTL_PRIME_FD_TO_HANDLE of a dma-buf
 * @flags: out: NPU_DMA_MEM_INFO_F_*
 * @dev_addr: out: the device address descriptors name it by, in this file
 * @size: out: its length in bytes (a multiple of the page size)
 * @reserved: in: zero
 *
 * A dma-buf of this NPU's memory imports as the same memory, at the same
 * device address; a foreign dma-buf (another driver's, or another NPU's)
 * gets an address in a window of this NPU's own, and the NPU's engine
 * reaches it as its exporter allows (Documentation/driver.rst).
 */
struct npu_dma_mem_info {
	__u32 handle;
	__u32 flags;
	__u64 dev_addr;
	__u64 size;
	__u64 reserved[2];
};

/* struct npu_dma_ipc_export.flags */
#define NPU_DMA_IPC_F_NO_PID_CHECK	(1U << 0)	/* any process may import */
#define NPU_DMA_IPC_F_KEY64		(1U << 1)	/* key[1] is 0: a 64-bit key */
#define NPU_DMA_IPC_F_SIGNAL		(1U << 2)	/* dev_addr is a signal id */
#define NPU_DMA_IPC_EXPORT_FLAGS	(NPU_DMA_IPC_F_NO_PID_CHECK | NPU_DMA_IPC_F_KEY64 | \
					 NPU_DMA_IPC_F_SIGNAL)
/* Pids one share may allow (NPU_DMA_IPC_SET_PIDS, in all). */
#define NPU_DMA_IPC_MAX_PIDS		1024

/**
 * struct npu_dma_ipc_export - DRM_IOCTL_NPU_DMA_IPC_EXPORT: share memory by key
 * @dev_addr: in: the first byte to share, in an allocation of this file
 * @size: in: bytes to share; the window is widened to whole pages and
 *	must lie in that one allocation
 * @flags: in: NPU_DMA_IPC_F_*
 * @pad: in: zero
 * @key: out: the share's key, random; names it on this NPU to any process
 *	on the share's pid list (or to any, with NPU_DMA_IPC_F_NO_PID_CHECK).
 *	With NPU_DMA_IPC_F_KEY64 only @key[0] is random and @key[1] is 0,
 *	for APIs whose handles are 64 bits (CANN's shareable handles)
 * @reserved: in: zero
 *
 * The share lasts until the file revokes it (IPC_CLOSE), frees the
 * allocation or closes. Imports made before that keep their memory.
 */
struct npu_dma_ipc_export {
	__u64 dev_addr;
	__u64 size;
	__u32 flags;
	__u32 pad;
	__u64 key[2];
	__u64 reserved[2];
};

/**
 * struct npu_dma_ipc_set_pids - DRM_IOCTL_NPU_DMA_IPC_SET_PIDS: who may import
 * @key: in: a share of this file
 * @pids: in: user pointer to @count __s32 process ids, in the caller's pid
 *	namespace; each must name a live process, which the share then
 *	remembers (not its number: a later process given the number is not
 *	allowed)
 * @count: in: 1 to NPU_DMA_IPC_MAX_PIDS
 * @flags: in: zero
 * @reserved: in: zero
 */
struct npu_dma_ipc_set_pids {
	__u64 key[2];
	__u64 pids;
	__u32 count;
	__u32 flags;
	__u64 reserved[2];
};

/**
 * struct npu_dma_ipc_import - DRM_IOCTL_NPU_DMA_IPC_IMPORT: map a share
 * @key: in: a share's key, of this file's NPU
 * @flags: in: NPU_DMA_IPC_IMPORT_F_*
 * @handle: out, with NPU_DMA_IPC_IMPORT_F_HANDLE: a GEM handle of the
 *	whole allocation instead of a mapping of the window (the share must
 *	cover the whole allocation), to map with VMM_MAP; GEM_CLOSE it
 * @dev_addr: out: the window's device address, the same as the
 *	exporter's; copies of this file may name it until IPC_CLOSE (with
 *	NPU_DMA_IPC_IMPORT_F_HANDLE: the allocation's, named by the handle)
 * @size: out: the window's size
 * @reserved: in: zero
 *
 * -ENOENT for no such share, -EXDEV for another NPU's, -EACCES for a
 * process not on its pid list, -EEXIST if the window overlaps memory the
 * file already names.
 */
struct npu_dma_ipc_import {
	__u64 key[2];
	__u32 flags;
	__u32 handle;
	__u64 dev_addr;
	__u64 size;
	__u64 reserved[2];
};

/* struct npu_dma_ipc_import.flags */
#define NPU_DMA_IPC_IMPORT_F_HANDLE	(1U << 0)	/* a GEM handle, for VMM_MAP */
#define NPU_DMA_IPC_IMPORT_F_SIGNAL	(1U << 1)	/* a signal's id in this file */

/* struct npu_dma_ipc_close.flags: exactly one */
#define NPU_DMA_IPC_CLOSE_EXPORT	(1U << 0)	/* revoke @key */
#define NPU_DMA_IPC_CLOSE_IMPORT	(1U << 1)	/* unmap @dev_addr */

/**
 * struct npu_dma_ipc_close - DRM_IOCTL_NPU_DMA_IPC_CLOSE
 * @key: in: NPU_DMA_IPC_CLOSE_EXPORT: a share of this file, revoked
 *	(no new imports; existing ones keep their memory)
 * @dev_addr: in: NPU_DMA_IPC_CLOSE_IMPORT: an import of this file, unmapped
 *	(copies already queued keep the memory until they complete)
 * @flags: in: NPU_DMA_IPC_CLOSE_*
 * @pad: in: zero
 * @reserved: in: zero
 */
struct npu_dma_ipc_close {
	__u64 key[2];
	__u64 dev_addr;
	__u32 flags;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * struct npu_dma_vmm_map - DRM_IOCTL_NPU_DMA_VMM_MAP: map memory at a virtual address
 * @va: in: where, in the NPU's VMM window (page aligned)
 * @size: in: bytes (page aligned, not zero)
 * @offset: in: where in the allocation the mapping starts (page aligned)
 * @handle: in: a GEM handle of the file: one of its allocations, or one
 *	imported (PRIME, IPC_IMPORT with NPU_DMA_IPC_IMPORT_F_HANDLE)
 * @flags: in: zero
 * @reserved: in: zero
 *
 * Descriptors of this file may then name [@va, @va + @size), as they name
 * allocations; the mapping holds the memory until VMM_UNMAP or close.
 * -EEXIST if the range overlaps a mapping of the file.
 */
struct npu_dma_vmm_map {
	__u64 va;
	__u64 size;
	__u64 offset;
	__u32 handle;
	__u32 flags;
	__u64 reserved[2];
};

/**
 * struct npu_dma_vmm_unmap - DRM_IOCTL_NPU_DMA_VMM_UNMAP
 * @va: in: the start of a mapping of the file
 * @flags: in: zero
 * @pad: in: zero
 * @reserved: in: zero
 *
 * Copies already queued keep the memory until they complete; later ones
 * naming the range fail with -EFAULT.
 */
struct npu_dma_vmm_unmap {
	__u64 va;
	__u32 flags;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * struct npu_dma_signal_create - DRM_IOCTL_NPU_DMA_SIGNAL_CREATE
 * @id: out: the signal's id in this file (not 0)
 * @flags: in: zero
 * @reserved: in: zero
 *
 * A signal counts records: a SIGNAL descriptor is one more record, done
 * when it runs; a WAIT_SIGNAL waits for the records submitted before it
 * (with NPU_DMA_DESC_F_SIGNAL_RESET: for one done since the last such
 * wait passed, a notify's wait-and-reset). Shared with other processes
 * by IPC_EXPORT with NPU_DMA_IPC_F_SIGNAL; when its creator's file
 * closes, waits that are not met end with -EPIPE.
 */
struct npu_dma_signal_create {
	__u32 id;
	__u32 flags;
	__u64 reserved[2];
};

/**
 * struct npu_dma_signal_destroy - DRM_IOCTL_NPU_DMA_SIGNAL_DESTROY
 * @id: in: a signal id of this file (created or imported)
 * @flags: in: zero
 * @reserved: in: zero
 */
struct npu_dma_signal_destroy {
	__u32 id;
	__u32 flags;
	__u64 reserved[2];
};

/* struct npu_dma_signal_wait.flags */
#define NPU_DMA_SIGNAL_WAIT_F_QUERY	(1U << 0)	/* do not sleep: -EBUSY */

/**
 * struct npu_dma_signal_wait - DRM_IOCTL_NPU_DMA_SIGNAL_WAIT: the host waits
 * @id: in: a signal id of this file (created or imported)
 * @flags: in: NPU_DMA_SIGNAL_WAIT_F_*
 * @timeout_ns: in: give up at this CLOCK_MONOTONIC time (ns); INT64_MAX:
 *	never. Absolute, so that a call restarted after a signal handler
 *	keeps its deadline.
 * @reserved: in: zero
 *
 * Waits until every record of the signal submitted before the call, by
 * any process, is done: 0. -EBUSY with NPU_DMA_SIGNAL_WAIT_F_QUERY if
 * one is not, -ETIME when @timeout_ns passes first, -EPIPE when the
 * signal's creator let go of it first. What an IPC event's importer
 * synchronizes and queries.
 */
struct npu_dma_signal_wait {
	__u32 id;
	__u32 flags;
	__s64 timeout_ns;
	__u64 reserved[2];
};

/* struct npu_dma_host_register.flags */
#define NPU_DMA_HOST_F_READONLY		(1U << 0)	/* device only reads */
#define NPU_DMA_HOST_FLAGS_MASK		NPU_DMA_HOST_F_READONLY

/**
 * struct npu_dma_host_register - DRM_IOCTL_NPU_DMA_HOST_REGISTER: pin host memory
 * @addr: in: start of the range in the caller's address space (any byte)
 * @size: in: length in bytes, > 0
 * @flags: in: NPU_DMA_HOST_F_*
 * @pad: in: zero
 * @reserved: in: zero
 *
 * The pages are pinned (FOLL_LONGTERM) and charged to RLIMIT_MEMLOCK
 * unless the caller has CAP_IPC_LOCK. Descriptors then name host memory
 * by its address; it must lie inside one registered range.
 */
struct npu_dma_host_register {
	__u64 addr;
	__u64 size;
	__u32 flags;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * struct npu_dma_host_unregister - DRM_IOCTL_NPU_DMA_HOST_UNREGISTER
 * @addr: in: @addr of an earlier HOST_REGISTER in this context
 * @flags: in: 0
 * @pad: in: zero
 * @reserved: in: zero
 *
 * Copies already queued on the range still complete: the pages are
 * released when the last of them does.
 */
struct npu_dma_host_unregister {
	__u64 addr;
	__u32 flags;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * struct npu_dma_queue_create - DRM_IOCTL_NPU_DMA_QUEUE_CREATE: one stream
 * @entries: in: descriptors in the ring, a power of two up to
 *	npu_dma_info.max_queue_entries
 * @flags: in: 0
 * @eventfd: in: eventfd signalled after completions, or -1 for none
 * @queue_id: out: the queue's id (unique across all NPUs) (in: zero)
 * @mmap_offset: out: offset to pass to mmap() on this file for the
 *	queue's area (a GEM fake offset; in: zero)
 * @mmap_size: out: its length (struct npu_dma_queue_ctrl + the ring), a
 *	multiple of the page size: the mapping must be exactly this long
 *	(in: zero)
 * @reserved: in: zero
 */
struct npu_dma_queue_create {
	__u32 entries;
	__u32 flags;
	__s32 eventfd;
	__u32 queue_id;
	__u64 mmap_offset;
	__u64 mmap_size;
	__u64 reserved[4];
};

/**
 * struct npu_dma_queue_destroy - DRM_IOCTL_NPU_DMA_QUEUE_DESTROY
 * @queue_id: in: a queue of this context
 * @flags: in: 0
 * @reserved: in: zero
 *
 * Waits for the work submitted to the queue before the call to finish
 * (interruptible; a stopped queue's work is dropped instead), then
 * cancels what other threads submitted meanwhile and frees the queue. A
 * mapping of its area stays valid until munmap().
 */
struct npu_dma_queue_destroy {
	__u32 queue_id;
	__u32 flags;
	__u64 reserved[2];
};

/**
 * struct npu_dma_queue_submit - DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT: the doorbell
 * @queue_id: in: a queue of this context
 * @flags: in: 0, NPU_DMA_SUBMIT_F_INLINE, NPU_DMA_SUBMIT_F_HELP or both
 * @reserved: in: zero
 *
 * Consumes the descriptors between the kernel's head and the tail user
 * space published. Returns the number consumed. Each is copied out of the
 * ring once, validated, and queued; an invalid one completes at once with
 * its error recorded in struct npu_dma_queue_ctrl.
 *
 * A queue and a file may have only so much consumed and not completed
 * (module parameters queue_max_jobs, file_max_jobs, and for pageable
 * host memory queue_pinned_mb, file_pinned_mb, total_pinned_mb); an
 * idle queue always takes its first descriptor (or batch). What does
 * not fit stays in the ring, published, and sq_head shows how far the
 * kernel got. Descriptors without pageable memory are then picked up by
 * the queue itself as earlier ones complete. Pageable memory is pinned
 * only by this ioctl, never by the queue on its own: after publishing a
 * descriptor with F_*_PAGEABLE, ring the doorbell whatever
 * NPU_DMA_QUEUE_S_NEED_WAKEUP says; -EAGAIN means such a descriptor is
 * still waiting (possibly after others were consumed): ring again once
 * completed_seq has moved.
 *
 * NPU_DMA_SUBMIT_F_INLINE: the caller is about to wait for this work. If
 * the queue was idle and what this doorbell consumed is small (copies,
 * 2-D copies and fills of at most the module parameter inline_max_bytes
 * in all, event records, NOPs), the work runs in the caller's context
 * before the ioctl returns, with no wake-up of the queue's worker, and
 * NPU_DMA_QUEUE_S_NEED_WAKEUP stays set; otherwise the flag changes
 * nothing. Either way completion is published as usual.
 *
 * NPU_DMA_SUBMIT_F_HELP: the caller is about to wait for the queue's
 * work, whoever published it. If the queue's worker was woken but has
 * not started yet, and everything queued is small in the same sense
 * (at most inline_max_bytes in all), the caller runs it
 * before the ioctl returns, where it would otherwise wait for the
 * worker's wake-up first; a worker already running, or larger work,
 * and the flag changes nothing. NPU_DMA_QUEUE_S_NEED_WAKEUP is left as
 * it was. Valid with nothing new published (the doorbell consumes what
 * there is, and returns 0 if that is nothing).
 */
#define NPU_DMA_SUBMIT_F_INLINE		(1U << 0)
#define NPU_DMA_SUBMIT_F_HELP		(1U << 1)

struct npu_dma_queue_submit {
	__u32 queue_id;
	__u32 flags;
	__u64 reserved[2];
};

/**
 * struct npu_dma_barrier_release - DRM_IOCTL_NPU_DMA_BARRIER_RELEASE
 * @queue_id: in: a queue of this context
 * @flags: in: 0
 * @seq: in: sequence number of a HOST_BARRIER descriptor of that queue
 * @reserved: in: zero
 *
 * Lets the queue run past the barrier. -EINVAL if @seq is not a barrier
 * the queue has reached (npu_dma_queue_ctrl.barrier_seq).
 */
struct npu_dma_barrier_release {
	__u32 queue_id;
	__u32 flags;
	__u64 seq;
	__u64 reserved[2];
};

/*
 * Queue priorities (NPU_DMA_QUEUE_CTL_SET_PRIORITY): 0 is the highest,
 * as CANN numbers its streams' priorities; a new queue has 0.
 */
#define NPU_DMA_QUEUE_PRIO_HIGHEST	0
#define NPU_DMA_QUEUE_PRIO_LOWEST	7

/* struct npu_dma_queue_ctl.op */
#define NPU_DMA_QUEUE_CTL_SET_PRIORITY	1
#define NPU_DMA_QUEUE_CTL_STOP		2
#define NPU_DMA_QUEUE_CTL_ABORT		3

/**
 * struct npu_dma_queue_ctl - DRM_IOCTL_NPU_DMA_QUEUE_CTL: control a queue
 * @queue_id: in: a queue of this context
 * @op: in: NPU_DMA_QUEUE_CTL_*
 * @value: in: SET_PRIORITY: NPU_DMA_QUEUE_PRIO_HIGHEST ..
 *	NPU_DMA_QUEUE_PRIO_LOWEST; other ops: zero
 * @flags: in: 0
 * @seq: out: STOP and ABORT: the queue's last sequence number taken from
 *	the ring (in: zero)
 * @reserved: in: zero
 *
 * SET_PRIORITY: whenever the NPU's DMA channels are all busy, a channel
 * that comes free goes to the waiting queue of highest priority (in
 * arrival order among equals), and a job holding channels for a long
 * time (a batch, a copy shared among channels) gives them up between
 * its parts to a waiter of higher priority than its own.
 *
 * STOP: the queue starts no more jobs (nor graph tasks); what runs
 * finishes, what is queued stays queued. Returns once nothing of the
 * queue runs, having set NPU_DMA_QUEUE_S_STOPPED and signalled the
 * eventfd, so that waiters stop waiting. Queues waiting on it wait
 * until it is aborted. Destroying a stopped queue drops its work.
 *
 * ABORT: everything the queue has taken and not finished, and every
 * descriptor published in its ring and not taken yet, completes with
 * -ECANCELED: jobs not started are not run, running copies stop at
 * their next piece. Doorbells meanwhile may be cancelled alike (a tail
 * published past the ring is left for its doorbell to refuse). Returns
 * once all of that retired (another thread's doorbells do not hold it
 * up); the queue is then usable again, not stopped, at its priority;
 * -ENOMEM if the published descriptors could not be taken (they stay
 * in the ring). A signal record it dropped never comes: a queue
 * waiting for it waits on (abort that one too).
 */
struct npu_dma_queue_ctl {
	__u32 queue_id;
	__u32 op;
	__u32 value;
	__u32 flags;
	__u64 seq;
	__u64 reserved[2];
};

/* Descriptor opcodes (struct npu_dma_desc.opcode). */
#define NPU_DMA_OP_NOP			0
#define NPU_DMA_OP_COPY			1	/* @len bytes @src -> @dst */
#define NPU_DMA_OP_COPY_2D		2	/* @height rows of @len bytes */
#define NPU_DMA_OP_FILL			3	/* @len bytes of @value at @dst */
#define NPU_DMA_OP_EVENT_RECORD		4	/* timestamp into slot @dst */
#define NPU_DMA_OP_WAIT			5	/* until @wait_queue reaches @value */
#define NPU_DMA_OP_HOST_BARRIER		6	/* until BARRIER_RELEASE */
#define NPU_DMA_OP_BATCH_BEGIN		7	/* copies up to BATCH_END ... */
#define NPU_DMA_OP_BATCH_END		8	/* ... may run in any order */
#define NPU_DMA_OP_GRAPH		9	/* the @len tasks of graph @value */
#define NPU_DMA_OP_COPY_INDIRECT	10	/* addresses read when it runs */
#define NPU_DMA_OP_SIGNAL		11	/* signal @value: one more record */
#define NPU_DMA_OP_WAIT_SIGNAL		12	/* until signal @value is recorded */
#define NPU_DMA_OP_REDUCE		13	/* @dst[i] = op(@dst[i], @src[i]) */
#define NPU_DMA_OP_MAX			13

/*
 * NPU_DMA_OP_REDUCE: how elements combine (low byte of @value) and what
 * they are (second byte). NPU_DMA_REDUCE_VALUE() builds @value.
 */
#define NPU_DMA_REDUCE_OP_SUM		0
#define NPU_DMA_REDUCE_OP_MAX		1
#define NPU_DMA_REDUCE_OP_MIN		2
#define NPU_DMA_REDUCE_NR_OPS		3

#define NPU_DMA_REDUCE_T_S8		0
#define NPU_DMA_REDUCE_T_U8		1
#define NPU_DMA_REDUCE_T_S16		2
#define NPU_DMA_REDUCE_T_U16		3
#define NPU_DMA_REDUCE_T_S32		4
#define NPU_DMA_REDUCE_T_U32		5
#define NPU_DMA_REDUCE_T_F16		6	/* IEEE 754 binary16 */
#define NPU_DMA_REDUCE_T_BF16		7	/* bfloat16 */
#define NPU_DMA_REDUCE_T_F32		8	/* IEEE 754 binary32 */
#define NPU_DMA_REDUCE_NR_TYPES		9

#define NPU_DMA_REDUCE_VALUE(op, type)	((__u64)(op) | (__u64)(type) << 8)

/* struct npu_dma_desc.flags */
#define NPU_DMA_DESC_F_SRC_HOST		(1U << 0)	/* @src is a host address */
#define NPU_DMA_DESC_F_DST_HOST		(1U << 1)	/* @dst is a host address */
#define NPU_DMA_DESC_F_SRC_PAGEABLE	(1U << 2)	/* host, not registered */
#define NPU_DMA_DESC_F_DST_PAGEABLE	(1U << 3)	/* host, not registered */
#define NPU_DMA_DESC_F_SIGNAL_RESET	(1U << 4)	/* WAIT_SIGNAL: wait and reset */
#define NPU_DMA_DESC_FLAGS_MASK		0x001f

/**
 * struct npu_dma_desc - one entry of a queue's submission ring
 * @opcode: NPU_DMA_OP_*
 * @fill_size: FILL: size of the pattern element, 1, 2 or 4; else 0
 * @flags: NPU_DMA_DESC_F_*. A host address (F_*_HOST) must lie in one
 *	registered range of the context unless F_*_PAGEABLE says it is
 *	ordinary memory to pin for this copy only; any other address is
 *	device memory of this NPU inside one allocation of the context.
 * @height: COPY_2D: rows (1..max_2d_height); else 0
 * @src: COPY, COPY_2D, REDUCE: source address; COPY_INDIRECT: device
 *	address of the __u64 that holds the source address; else 0
 * @dst: COPY, COPY_2D, FILL, REDUCE: destination address;
 *	EVENT_RECORD: event slot index; COPY_INDIRECT: device address of
 *	the __u64 that holds the destination address; else 0
 * @len: COPY: bytes; COPY_2D: bytes per row; FILL: bytes, a multiple of
 *	@fill_size; REDUCE: bytes of each side, a multiple of the element
 *	size; GRAPH: the graph's task count; COPY_INDIRECT: bytes,
 *	or 0 to read them from the __u64 at @value; else 0
 * @src_pitch: COPY_2D: bytes between rows of the source, >= @len;
 *	COPY_INDIRECT: added (modulo 2^64) to the source address read;
 *	else 0
 * @dst_pitch: COPY_2D: bytes between rows of the destination, >= @len;
 *	COPY_INDIRECT: added (modulo 2^64) to the destination address read
 * @value: FILL: the pattern in the low @fill_size bytes;
 *	WAIT: the sequence number @wait_queue must complete;
 *	GRAPH: the graph id (DRM_IOCTL_NPU_DMA_GRAPH_CREATE), below 2^32;
 *	COPY_INDIRECT with @len 0: device address of the __u64 that holds
 *	the length, in the allocation that holds the source's;
 *	REDUCE: NPU_DMA_REDUCE_VALUE(NPU_DMA_REDUCE_OP_*,
 *	NPU_DMA_REDUCE_T_*), higher bits zero; else 0
 * @wait_queue: WAIT: id of a queue of the same process; else 0
 * @reserved: zero
 *
 * Every descriptor consumed from a queue takes the next sequence number
 * (the first is 1), except GRAPH, which takes @len of them: one per task
 * of the graph, in the graph's order.
 *
 * COPY_INDIRECT copies inside this NPU's memory, as a device engine that
 * fetches its parameters would: the words it names (8-byte aligned, in
 * allocations of the context on this NPU, no host flags) are checked
 * when it is submitted, and read when it runs, after every earlier
 * descriptor of its queue completed; the copy they describe must then
 * lie in allocations of the context on this NPU, or the descriptor fails
 * (-EFAULT; -EINVAL for a length above max_copy_len). A length of 0
 * copies nothing. It may be a graph task (read again at every replay),
 * not a batch member.
 *
 * REDUCE (NPU_DMA_CAP_REDUCE; -EOPNOTSUPP from an engine without it)
 * combines the @len / size elements at @src into those at @dst, in
 * place: dst[i] = op(dst[i], src[i]), elements little-endian, in
 * ascending order. Both sides are device memory of the context on this
 * NPU (no host flags), aligned to the element size. Integer SUM wraps
 * modulo 2^bits (two's complement for the signed types); MAX and MIN
 * compare as signed or unsigned by the type. Floating-point SUM is the
 * IEEE 754 addition, rounded to nearest even, subnormals kept, overflow
 * to infinity; MAX and MIN order -0 below +0. A NaN operand, or SUM of
 * opposite infinities, gives the type's default quiet NaN (positive,
 * top mantissa bit set: 0x7e00, 0x7fc0, 0x7fc00000), never a payload.
 * It may be a graph task (combined again at every replay), not a batch
 * member.
 */
struct npu_dma_desc {
	__u8 opcode;
	__u8 fill_size;
	__u16 flags;
	__u32 height;
	__u64 src;
	__u64 dst;
	__u64 len;
	__u64 src_pitch;
	__u64 dst_pitch;
	__u64 value;
	__u32 wait_queue;
	__u32 reserved;
};

/**
 * struct npu_dma_queue_ctrl - head of a queue's shared area
 * @sq_tail: user: free-running index one past the last descriptor
 *	written; store with release semantics, then ring the doorbell
 * @pad0: unused, keeps @sq_tail on its own cache line
 * @sq_head: kernel: free-running index of the next descriptor it will
 *	consume; slots before it may be reused (load with acquire)
 * @flags: kernel: NPU_DMA_QUEUE_S_* state bits
 * @submitted_seq: kernel: sequence number of the last descriptor consumed
 * @completed_seq: kernel: every descriptor up to this one has completed
 *	(load with acquire before reading results or event slots)
 * @barrier_seq: kernel: HOST_BARRIER the queue is stopped at, or 0
 * @error_seq: kernel: sequence number of the first failed descriptor, or 0
 * @error: kernel: its negative errno
 * @error_count: kernel: descriptors failed so far
 * @last_error_seq: kernel: sequence number of the latest failed descriptor
 * @last_error: kernel: its negative errno
 * @pad1: unused
 *
 * The ring of @entries struct npu_dma_desc starts at
 * NPU_DMA_QUEUE_RING_OFFSET of the mapping; entry i lives at
 * i & (entries - 1). The kernel never trusts what it reads here: it keeps
 * its own head and validates every descriptor it copies out.
 */
struct npu_dma_queue_ctrl {
	__u32 sq_tail;
	__u32 pad0[15];
	__u32 sq_head;
	__u32 flags;
	__u64 submitted_seq;
	__u64 completed_seq;
	__u64 barrier_seq;
	__u64 error_seq;
	__s32 error;
	__u32 error_count;
	__u64 last_error_seq;
	__s32 last_error;
	__u32 pad1;
};

#define NPU_DMA_QUEUE_RING_OFFSET	4096

/* struct npu_dma_queue_ctrl.flags */
#define NPU_DMA_QUEUE_S_DEAD		(1U << 0)	/* destroyed or NPU gone */
/*
 * The queue is idle and will not look at the ring again by itself: ring
 * the doorbell after publishing sq_tail. While it is clear the kernel is
 * working the queue and picks up newly published descriptors without a
 * doorbell. Protocol: store sq_tail (release), full barrier, load flags;
 * ring if set. (The kernel sets it, then a full barrier, then looks at
 * sq_tail once more.) A doorbell is never wrong, only slower.
 */
#define NPU_DMA_QUEUE_S_NEED_WAKEUP	(1U << 1)
/*
 * Stopped by QUEUE_CTL STOP, until an abort: completed_seq stays where it
 * is (set once nothing of the queue runs, with the eventfd signalled).
 */
#define NPU_DMA_QUEUE_S_STOPPED		(1U << 2)

/**
 * struct npu_dma_event_slot - one slot of a context's event table
 * @seq: sequence number of the EVENT_RECORD that last completed here
 * @queue_id: queue it ran on
 * @pad: zero
 * @timestamp_ns: CLOCK_MONOTONIC time of its completion
 * @reserved: zero
 *
 * The table (npu_dma_info.max_event_slots slots) is mapped read-only at
 * mmap offset npu_dma_info.events_offset. The kernel writes
 * @timestamp_ns and @queue_id before @seq (release).
 */
struct npu_dma_event_slot {
	__u64 seq;
	__u32 queue_id;
	__u32 pad;
	__u64 timestamp_ns;
	__u64 reserved;
};

/**
 * struct npu_dma_graph_create - DRM_IOCTL_NPU_DMA_GRAPH_CREATE
 * @descs: in: user address of @count struct npu_dma_desc
 * @count: in: 1..npu_dma_info.max_graph_tasks
 * @flags: in: 0
 * @graph_id: out: id for NPU_DMA_OP_GRAPH and GRAPH_DESTROY (in: zero)
 * @error_index: out: on a failed validation, the descriptor that failed
 *	(in: zero)
 * @reserved: in: zero
 *
 * Validates the descriptors once, as a doorbell would, and keeps them
 * with every address resolved: the graph holds a reference on each
 * allocation, registration and queue it names, so freed memory cannot be
 * handed out again while a graph names it. Any opcode but GRAPH may
 * appear; pageable host memory (F_*_PAGEABLE) may not; batch markers
 * follow the doorbell's rules. A graph belongs to the file.
 */
struct npu_dma_graph_create {
	__u64 descs;
	__u32 count;
	__u32 flags;
	__u32 graph_id;
	__u32 error_index;
	__u64 reserved[2];
};

/**
 * struct npu_dma_graph_destroy - DRM_IOCTL_NPU_DMA_GRAPH_DESTROY
 * @graph_id: in: a graph of this file
 * @flags: in: 0
 * @reserved: in: zero
 *
 * Forgets the id at once; the references go when the last queued replay
 * of the graph has completed.
 */
struct npu_dma_graph_destroy {
	__u32 graph_id;
	__u32 flags;
	__u64 reserved[2];
};

/*
 * Driver ioctls, after DRM_COMMAND_BASE. Device memory is freed with the
 * core's DRM_IOCTL_GEM_CLOSE; the core's DRM_IOCTL_VERSION names the
 * driver (NPU_DMA_DRIVER_NAME).
 */
#define DRM_NPU_DMA_GET_INFO		0x00
#define DRM_NPU_DMA_MEM_ALLOC		0x01
#define DRM_NPU_DMA_HOST_REGISTER	0x02
#define DRM_NPU_DMA_HOST_UNREGISTER	0x03
#define DRM_NPU_DMA_QUEUE_CREATE	0x04
#define DRM_NPU_DMA_QUEUE_DESTROY	0x05
#define DRM_NPU_DMA_QUEUE_SUBMIT	0x06
#define DRM_NPU_DMA_BARRIER_RELEASE	0x07
#define DRM_NPU_DMA_GRAPH_CREATE	0x08
#define DRM_NPU_DMA_GRAPH_DESTROY	0x09
#define DRM_NPU_DMA_MEM_INFO		0x0a
#define DRM_NPU_DMA_IPC_EXPORT		0x0b
#define DRM_NPU_DMA_IPC_SET_PIDS	0x0c
#define DRM_NPU_DMA_IPC_IMPORT		0x0d
#define DRM_NPU_DMA_IPC_CLOSE		0x0e
#define DRM_NPU_DMA_VMM_MAP		0x0f
#define DRM_NPU_DMA_VMM_UNMAP		0x10
#define DRM_NPU_DMA_SIGNAL_CREATE	0x11
#define DRM_NPU_DMA_SIGNAL_DESTROY	0x12
#define DRM_NPU_DMA_SIGNAL_WAIT		0x13
#define DRM_NPU_DMA_QUEUE_CTL		0x14

#define DRM_IOCTL_NPU_DMA_GET_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NPU_DMA_GET_INFO, struct npu_dma_info)
#define DRM_IOCTL_NPU_DMA_MEM_ALLOC \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NPU_DMA_MEM_ALLOC, struct npu_dma_mem_alloc)
#define DRM_IOCTL_NPU_DMA_HOST_REGISTER \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_HOST_REGISTER, struct npu_dma_host_register)
#define DRM_IOCTL_NPU_DMA_HOST_UNREGISTER \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_HOST_UNREGISTER, struct npu_dma_host_unregister)
#define DRM_IOCTL_NPU_DMA_QUEUE_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NPU_DMA_QUEUE_CREATE, struct npu_dma_queue_create)
#define DRM_IOCTL_NPU_DMA_QUEUE_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_QUEUE_DESTROY, struct npu_dma_queue_destroy)
#define DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_QUEUE_SUBMIT, struct npu_dma_queue_submit)
#define DRM_IOCTL_NPU_DMA_BARRIER_RELEASE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_BARRIER_RELEASE, struct npu_dma_barrier_release)
#define DRM_IOCTL_NPU_DMA_GRAPH_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NPU_DMA_GRAPH_CREATE, struct npu_dma_graph_create)
#define DRM_IOCTL_NPU_DMA_GRAPH_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_GRAPH_DESTROY, struct npu_dma_graph_destroy)
#define DRM_IOCTL_NPU_DMA_MEM_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NPU_DMA_MEM_INFO, struct npu_dma_mem_info)
#define DRM_IOCTL_NPU_DMA_IPC_EXPORT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NPU_DMA_IPC_EXPORT, struct npu_dma_ipc_export)
#define DRM_IOCTL_NPU_DMA_IPC_SET_PIDS \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_IPC_SET_PIDS, struct npu_dma_ipc_set_pids)
#define DRM_IOCTL_NPU_DMA_IPC_IMPORT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NPU_DMA_IPC_IMPORT, struct npu_dma_ipc_import)
#define DRM_IOCTL_NPU_DMA_IPC_CLOSE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_IPC_CLOSE, struct npu_dma_ipc_close)
#define DRM_IOCTL_NPU_DMA_VMM_MAP \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_VMM_MAP, struct npu_dma_vmm_map)
#define DRM_IOCTL_NPU_DMA_VMM_UNMAP \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_VMM_UNMAP, struct npu_dma_vmm_unmap)
#define DRM_IOCTL_NPU_DMA_SIGNAL_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NPU_DMA_SIGNAL_CREATE, struct npu_dma_signal_create)
#define DRM_IOCTL_NPU_DMA_SIGNAL_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_SIGNAL_DESTROY, struct npu_dma_signal_destroy)
#define DRM_IOCTL_NPU_DMA_SIGNAL_WAIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NPU_DMA_SIGNAL_WAIT, struct npu_dma_signal_wait)
#define DRM_IOCTL_NPU_DMA_QUEUE_CTL \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NPU_DMA_QUEUE_CTL, struct npu_dma_queue_ctl)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_DRM_NPU_DMA_ACCEL_H */
