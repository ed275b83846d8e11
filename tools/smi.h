/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-smi: what the tool knows about the NPUs, gathered from sysfs (the
 * attributes of each NPU's DRM node's bus device), /proc (the DRM
 * usage stats in fdinfo) and libpci, and the exit codes scripts rely on.
 */
#ifndef SMI_H
#define SMI_H

#include <stdint.h>
#include <sys/types.h>

#define SMI_VERSION "0.1.0"

/* Exit codes (documented in --help and Documentation/npu-smi.rst). */
enum smi_exit {
	SMI_EXIT_OK = 0,
	SMI_EXIT_IO = 1,		/* reading sysfs or /proc, or writing output failed */
	SMI_EXIT_USAGE = 2,		/* bad option or argument */
	SMI_EXIT_NO_NPU = 3,		/* module not loaded, or no NPU */
	SMI_EXIT_NO_SUCH_NPU = 4,	/* the NPU chosen with -i does not exist */
};

/* GET_INFO's peers mask is 64 bits wide: so are NPU indices here. */
#define SMI_MAX_INDEX 63

/* What libpci says about the PCI function behind an NPU. */
struct smi_pci {
	int found;			/* libpci listed the function */
	unsigned int vendor_id;
	unsigned int device_id;
	char vendor[80];		/* names: pci.ids, else our fallback table */
	char device[96];
	char link_speed[16];		/* "8GT/s"; "" when there is no PCIe link */
	unsigned int link_width;	/* lanes; 0 when unknown */
};

struct smi_npu {
	int index;			/* sysfs npu_index: libacl's device N */
	char node[64];			/* "/dev/dri/renderD128", "/dev/accel/accel0" */
	char backend[16];		/* "edu", "sim" */
	char bus_id[32];		/* PCI address; "" for non-PCI NPUs */
	char dev_name[64];		/* name of the bus device behind the node */
	char dev_path[256];		/* its resolved sysfs path, for topology */
	int numa_node;			/* -1 when the kernel reports none */
	char cpu_affinity[64];		/* local_cpulist; "" when unknown */
	uint64_t mem_size;		/* bytes */
	int usage_hidden;		/* mem_used, queues unreadable (root only) */
	uint64_t mem_used;		/* bytes */
	unsigned int dma_channels;
	unsigned int queues;
	uint64_t peers;			/* bit N: NPU N is a peer */
	int nr_clients;
	pid_t *clients;			/* sysfs clients: pids with the NPU open */
	struct smi_pci pci;
};

/*
 * One row of the process table: a process with one NPU open, and what
 * the fdinfo of its files of that NPU says (DRM usage stats), summed over
 * its distinct files (drm-client-id).
 */
struct smi_proc {
	int npu;
	pid_t pid;
	char name[64];			/* /proc/PID/comm; "-" if it exited */
	char user[32];			/* owner of /proc/PID */
	int has_usage;			/* fdinfo was readable: the rest is set */
	unsigned int files;		/* distinct open files (DRM clients) */
	uint64_t mem_device;		/* bytes, drm-memory-device */
	uint64_t mem_host;		/* bytes, drm-memory-host (pinned) */
	uint64_t engine_ns;		/* drm-engine-dma: DMA engine time */
};

struct smi_system {
	int nr_npus;
	struct smi_npu *npus;		/* sorted by index */
	int nr_procs;
	struct smi_proc *procs;		/* sorted by NPU, then pid */
};

/* What to print: all NPUs (-1) or the one chosen with -i. */
static inline int smi_selected(const struct smi_npu *npu, int index)
{
	return index < 0 || npu->index == index;
}

static inline int smi_is_pci(const struct smi_npu *npu)
{
	return npu->bus_id[0] != '\0';
}

#endif /* SMI_H */
