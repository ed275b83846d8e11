/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-smi: the processes using the NPUs, from /proc. A file of an NPU is
 * a DRM client; its fdinfo carries the DRM usage stats the driver prints
 * (the kernel's Documentation/gpu/drm-usage-stats.rst).
 */
#ifndef SMI_PROC_H
#define SMI_PROC_H

#include <stdint.h>

#include "smi.h"

/* What one file's /proc/PID/fdinfo/FD says, as far as npu-smi reads it. */
struct smi_fdinfo {
	int is_npu;		/* drm-driver: npu_dma */
	int has_client_id;
	uint64_t client_id;	/* drm-client-id */
	uint64_t engine_ns;	/* drm-engine-dma, in ns */
	uint64_t mem_device;	/* drm-memory-device, in bytes */
	uint64_t mem_host;	/* drm-memory-host, in bytes */
};

/*
 * Parse fdinfo text into @fi. Keys npu-smi does not know are skipped; a
 * value that does not parse leaves its field 0.
 */
void smi_fdinfo_parse(const char *text, struct smi_fdinfo *fi);

/*
 * Fill sys->procs for the NPUs in sys: every process of procroot with a
 * file open whose device numbers sysroot's dev/char maps to an NPU and
 * whose fdinfo says drm-driver npu_dma, with its usage; then every pid
 * of an NPU's sysfs clients not seen that way (its fds were not readable:
 * another user's process, without root), with usage unknown. Sorted by
 * NPU, then pid. Return: 0 or -ENOMEM.
 */
int smi_collect_procs(const char *sysroot, const char *procroot,
		      struct smi_system *sys);

#endif /* SMI_PROC_H */
