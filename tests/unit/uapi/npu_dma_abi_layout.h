/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frozen layout of ABI v2, include/uapi/drm/npu_dma_accel.h: the size
 * of every structure, the offset of every member and every ioctl number
 * (DRM_IOCTL_NPU_DMA_*: DRM_IOWR/DRM_IOW of DRM_COMMAND_BASE + n, type
 * 'd'), as compile-time asserts. One list for both languages: the unit
 * test (npu_dma_abi_ut.c) includes it as C11, scripts/check-uapi.sh as
 * C11 and C++11. A change that moves anything fails the build of both.
 * The header includes the DRM core's "drm.h": build with libdrm's
 * include directory (pkg-config --cflags libdrm) or the kernel's uapi.
 */
#ifndef NPU_DMA_ABI_LAYOUT_H
#define NPU_DMA_ABI_LAYOUT_H

#include <stddef.h>
#include <drm/npu_dma_accel.h>

#ifdef __cplusplus
#define ABI_ASSERT(cond, what) static_assert(cond, what)
#else
#define ABI_ASSERT(cond, what) _Static_assert(cond, what)
#endif

/* A size, which the rules want a multiple of 8. */
#define ABI(type, size) \
	ABI_ASSERT(sizeof(struct type) == (size) && (size) % 8 == 0, #type)
#define OFF(type, field, off) \
	ABI_ASSERT(offsetof(struct type, field) == (off), #type "." #field)
#define IOCTL(cmd, nr) ABI_ASSERT(DRM_IOCTL_NPU_DMA_##cmd == (nr), #cmd)

ABI(npu_dma_info, 152);
OFF(npu_dma_info, size, 0);
OFF(npu_dma_info, flags, 4);
OFF(npu_dma_info, abi_version, 8);
OFF(npu_dma_info, backend, 12);
OFF(npu_dma_info, index, 16);
OFF(npu_dma_info, nr_channels, 20);
OFF(npu_dma_info, mem_size, 24);
OFF(npu_dma_info, mem_free, 32);
OFF(npu_dma_info, max_copy_len, 40);
OFF(npu_dma_info, max_2d_pitch, 48);
OFF(npu_dma_info, max_2d_height, 56);
OFF(npu_dma_info, max_queue_entries, 60);
OFF(npu_dma_info, max_event_slots, 64);
OFF(npu_dma_info, pad, 68);
OFF(npu_dma_info, caps, 72);
OFF(npu_dma_info, mem_base, 80);
OFF(npu_dma_info, peers, 88);
OFF(npu_dma_info, max_graph_tasks, 96);
OFF(npu_dma_info, pad2, 100);
OFF(npu_dma_info, events_offset, 104);
OFF(npu_dma_info, events_size, 112);
OFF(npu_dma_info, max_pin_len, 120);
OFF(npu_dma_info, vmm_size, 128);
OFF(npu_dma_info, mem_free_huge, 136);
OFF(npu_dma_info, mem_free_1g, 144);

ABI(npu_dma_mem_alloc, 64);
OFF(npu_dma_mem_alloc, size, 0);
OFF(npu_dma_mem_alloc, align, 8);
OFF(npu_dma_mem_alloc, policy, 16);
OFF(npu_dma_mem_alloc, flags, 20);
OFF(npu_dma_mem_alloc, dev_addr, 24);
OFF(npu_dma_mem_alloc, alloc_size, 32);
OFF(npu_dma_mem_alloc, handle, 40);
OFF(npu_dma_mem_alloc, pad, 44);
OFF(npu_dma_mem_alloc, reserved, 48);

ABI(npu_dma_host_register, 40);
OFF(npu_dma_host_register, addr, 0);
OFF(npu_dma_host_register, size, 8);
OFF(npu_dma_host_register, flags, 16);
OFF(npu_dma_host_register, pad, 20);
OFF(npu_dma_host_register, reserved, 24);

ABI(npu_dma_host_unregister, 32);
OFF(npu_dma_host_unregister, addr, 0);
OFF(npu_dma_host_unregister, flags, 8);
OFF(npu_dma_host_unregister, pad, 12);
OFF(npu_dma_host_unregister, reserved, 16);

ABI(npu_dma_queue_create, 64);
OFF(npu_dma_queue_create, entries, 0);
OFF(npu_dma_queue_create, flags, 4);
OFF(npu_dma_queue_create, eventfd, 8);
OFF(npu_dma_queue_create, queue_id, 12);
OFF(npu_dma_queue_create, mmap_offset, 16);
OFF(npu_dma_queue_create, mmap_size, 24);
OFF(npu_dma_queue_create, reserved, 32);

ABI(npu_dma_queue_destroy, 24);
OFF(npu_dma_queue_destroy, queue_id, 0);
OFF(npu_dma_queue_destroy, flags, 4);
OFF(npu_dma_queue_destroy, reserved, 8);

ABI(npu_dma_queue_submit, 24);
OFF(npu_dma_queue_submit, queue_id, 0);
OFF(npu_dma_queue_submit, flags, 4);
OFF(npu_dma_queue_submit, reserved, 8);

ABI(npu_dma_barrier_release, 32);
OFF(npu_dma_barrier_release, queue_id, 0);
OFF(npu_dma_barrier_release, flags, 4);
OFF(npu_dma_barrier_release, seq, 8);
OFF(npu_dma_barrier_release, reserved, 16);

ABI(npu_dma_desc, 64);
OFF(npu_dma_desc, opcode, 0);
OFF(npu_dma_desc, fill_size, 1);
OFF(npu_dma_desc, flags, 2);
OFF(npu_dma_desc, height, 4);
OFF(npu_dma_desc, src, 8);
OFF(npu_dma_desc, dst, 16);
OFF(npu_dma_desc, len, 24);
OFF(npu_dma_desc, src_pitch, 32);
OFF(npu_dma_desc, dst_pitch, 40);
OFF(npu_dma_desc, value, 48);
OFF(npu_dma_desc, wait_queue, 56);
OFF(npu_dma_desc, reserved, 60);

ABI(npu_dma_queue_ctrl, 128);
OFF(npu_dma_queue_ctrl, sq_tail, 0);
OFF(npu_dma_queue_ctrl, pad0, 4);
OFF(npu_dma_queue_ctrl, sq_head, 64);
OFF(npu_dma_queue_ctrl, flags, 68);
OFF(npu_dma_queue_ctrl, submitted_seq, 72);
OFF(npu_dma_queue_ctrl, completed_seq, 80);
OFF(npu_dma_queue_ctrl, barrier_seq, 88);
OFF(npu_dma_queue_ctrl, error_seq, 96);
OFF(npu_dma_queue_ctrl, error, 104);
OFF(npu_dma_queue_ctrl, error_count, 108);
OFF(npu_dma_queue_ctrl, last_error_seq, 112);
OFF(npu_dma_queue_ctrl, last_error, 120);
OFF(npu_dma_queue_ctrl, pad1, 124);

ABI(npu_dma_event_slot, 32);
OFF(npu_dma_event_slot, seq, 0);
OFF(npu_dma_event_slot, queue_id, 8);
OFF(npu_dma_event_slot, pad, 12);
OFF(npu_dma_event_slot, timestamp_ns, 16);
OFF(npu_dma_event_slot, reserved, 24);

ABI(npu_dma_graph_create, 40);
OFF(npu_dma_graph_create, descs, 0);
OFF(npu_dma_graph_create, count, 8);
OFF(npu_dma_graph_create, flags, 12);
OFF(npu_dma_graph_create, graph_id, 16);
OFF(npu_dma_graph_create, error_index, 20);
OFF(npu_dma_graph_create, reserved, 24);

ABI(npu_dma_graph_destroy, 24);
OFF(npu_dma_graph_destroy, graph_id, 0);
OFF(npu_dma_graph_destroy, flags, 4);
OFF(npu_dma_graph_destroy, reserved, 8);

ABI(npu_dma_mem_info, 40);
OFF(npu_dma_mem_info, flags, 4);
OFF(npu_dma_mem_info, dev_addr, 8);
OFF(npu_dma_mem_info, size, 16);
OFF(npu_dma_mem_info, reserved, 24);

ABI(npu_dma_ipc_export, 56);
OFF(npu_dma_ipc_export, size, 8);
OFF(npu_dma_ipc_export, flags, 16);
OFF(npu_dma_ipc_export, key, 24);
OFF(npu_dma_ipc_export, reserved, 40);

ABI(npu_dma_ipc_set_pids, 48);
OFF(npu_dma_ipc_set_pids, pids, 16);
OFF(npu_dma_ipc_set_pids, count, 24);
OFF(npu_dma_ipc_set_pids, flags, 28);
OFF(npu_dma_ipc_set_pids, reserved, 32);

ABI(npu_dma_ipc_import, 56);
OFF(npu_dma_ipc_import, flags, 16);
OFF(npu_dma_ipc_import, handle, 20);
OFF(npu_dma_ipc_import, dev_addr, 24);
OFF(npu_dma_ipc_import, size, 32);
OFF(npu_dma_ipc_import, reserved, 40);

ABI(npu_dma_ipc_close, 48);
OFF(npu_dma_ipc_close, dev_addr, 16);
OFF(npu_dma_ipc_close, flags, 24);
OFF(npu_dma_ipc_close, reserved, 32);

ABI(npu_dma_vmm_map, 48);
OFF(npu_dma_vmm_map, size, 8);
OFF(npu_dma_vmm_map, offset, 16);
OFF(npu_dma_vmm_map, handle, 24);
OFF(npu_dma_vmm_map, flags, 28);
OFF(npu_dma_vmm_map, reserved, 32);

ABI(npu_dma_vmm_unmap, 32);
OFF(npu_dma_vmm_unmap, flags, 8);
OFF(npu_dma_vmm_unmap, reserved, 16);

ABI(npu_dma_signal_create, 24);
OFF(npu_dma_signal_create, flags, 4);
OFF(npu_dma_signal_create, reserved, 8);

ABI(npu_dma_signal_destroy, 24);
OFF(npu_dma_signal_destroy, flags, 4);
OFF(npu_dma_signal_destroy, reserved, 8);

ABI(npu_dma_signal_wait, 32);
OFF(npu_dma_signal_wait, flags, 4);
OFF(npu_dma_signal_wait, timeout_ns, 8);
OFF(npu_dma_signal_wait, reserved, 16);

ABI(npu_dma_queue_ctl, 40);
OFF(npu_dma_queue_ctl, op, 4);
OFF(npu_dma_queue_ctl, value, 8);
OFF(npu_dma_queue_ctl, flags, 12);
OFF(npu_dma_queue_ctl, seq, 16);
OFF(npu_dma_queue_ctl, reserved, 24);

/*
 * Direction, size and number: a changed structure changes its ioctl.
 * The driver's commands are DRM_COMMAND_BASE (0x40) + 0..0x14 of type 'd'.
 */
ABI_ASSERT(DRM_COMMAND_BASE == 0x40, "DRM_COMMAND_BASE");
ABI_ASSERT(DRM_NPU_DMA_GET_INFO == 0 && DRM_NPU_DMA_QUEUE_CTL == 0x14, "command indexes");
IOCTL(GET_INFO, 0xc0986440u);
IOCTL(MEM_ALLOC, 0xc0406441u);
IOCTL(HOST_REGISTER, 0x40286442u);
IOCTL(HOST_UNREGISTER, 0x40206443u);
IOCTL(QUEUE_CREATE, 0xc0406444u);
IOCTL(QUEUE_DESTROY, 0x40186445u);
IOCTL(QUEUE_SUBMIT, 0x40186446u);
IOCTL(BARRIER_RELEASE, 0x40206447u);
IOCTL(GRAPH_CREATE, 0xc0286448u);
IOCTL(GRAPH_DESTROY, 0x40186449u);
IOCTL(MEM_INFO, 0xc028644au);
IOCTL(IPC_EXPORT, 0xc038644bu);
IOCTL(IPC_SET_PIDS, 0x4030644cu);
IOCTL(IPC_IMPORT, 0xc038644du);
IOCTL(IPC_CLOSE, 0x4030644eu);
IOCTL(VMM_MAP, 0x4030644fu);
IOCTL(VMM_UNMAP, 0x40206450u);
IOCTL(SIGNAL_CREATE, 0xc0186451u);
IOCTL(SIGNAL_DESTROY, 0x40186452u);
IOCTL(SIGNAL_WAIT, 0x40206453u);
IOCTL(QUEUE_CTL, 0xc0286454u);
/* Device memory is freed by the DRM core's GEM_CLOSE. */
ABI_ASSERT(DRM_IOCTL_GEM_CLOSE == 0x40086409u && sizeof(struct drm_gem_close) == 8,
	   "GEM_CLOSE");

#undef ABI
#undef OFF
#undef IOCTL
#undef ABI_ASSERT

#endif /* NPU_DMA_ABI_LAYOUT_H */
