/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared bits of the VM tests (run inside the guest by runtests.sh).
 */
#ifndef T_VM_H
#define T_VM_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npu_node.h"
#include "t_check.h"

#include "t_util.h"

/* The module file and the arguments npu-vm loaded it with. */
static inline const char *t_ko(void)
{
	const char *ko = getenv("NPU_DMA_KO");

	return ko ? ko : "kernel/npu-dma.ko";
}

static inline const char *t_default_args(void)
{
	const char *args = getenv("NPU_DMA_MODULE_ARGS");

	return args ? args : "nr_sim=2";
}

/*
 * NPU @index (its npu_index, GET_INFO's index) is there: its DRM node
 * and sysfs directory into *@n when @n is not NULL. 1 or 0.
 */
static inline int t_npu_find(int index, struct npu_node *n)
{
	struct npu_node tmp;

	return !npu_node_find("/sys", index, n ? n : &tmp);
}

/*
 * Read sysfs attribute @attr of NPU @index, in the directory of its bus
 * device (/sys/class/drm/renderDX/device/): 0, -ENOENT without the NPU,
 * or t_read_file()'s error.
 */
static inline int t_npu_attr(int index, const char *attr, char *buf, size_t size)
{
	struct npu_node n;

	if (!t_npu_find(index, &n))
		return -ENOENT;
	return t_read_attr(buf, size, "%s/%s", n.sysdir, attr);
}

/* Some NPU has sysfs backend @backend ("edu", "sim"): 1 or 0. */
static inline int t_npu_backend_present(const char *backend)
{
	char buf[16];
	int i;

	for (i = 0; i < 64; i++)
		if (!t_npu_attr(i, "backend", buf, sizeof(buf)) && !strcmp(buf, backend))
			return 1;
	return 0;
}

/*
 * Wait up to @ms milliseconds for NPU @index to be there, its node
 * openable (after a bind or a PCI rescan): 1, or 0 if it did not come.
 */
static inline int t_npu_wait(int index, int ms)
{
	struct npu_node n;
	int i, fd;

	for (i = 0; i <= ms / 10; i++) {
		if (t_npu_find(index, &n)) {
			fd = open(n.node, O_RDWR | O_CLOEXEC);
			if (fd >= 0) {
				close(fd);
				return 1;
			}
		}
		usleep(10000);
	}
	return 0;
}

/*
 * vgem (a DRM driver that is not ours) loaded for a test program: put
 * back as it was after the program, or its DRM nodes stay among the
 * guest's for every later program (t_install counts the nodes libacl
 * names). t_vgem_loaded() before, t_vgem_restore() with its answer after.
 */
static inline int t_vgem_loaded(void)
{
	return !access("/sys/module/vgem", F_OK);
}

static inline void t_vgem_restore(int was_loaded)
{
	if (!was_loaded && t_vgem_loaded() &&
	    system("modprobe -r vgem >/dev/null 2>&1"))
		fprintf(stderr, "vgem stays loaded (still in use)\n");
}

#endif /* T_VM_H */
