/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the npu-smi unit tests: fake NPUs built in memory (no sysfs,
 * no device), output captured in memory, and a JSON validity oracle.
 */
#ifndef FAKE_SMI_H
#define FAKE_SMI_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smi.h"

/* A fake NPU: PCI when bus_id is non-empty; dev_path as sysfs resolves it. */
static inline void fake_npu(struct smi_npu *n, int index, const char *backend,
			    const char *bus_id, const char *dev_path,
			    uint64_t peers)
{
	memset(n, 0, sizeof(*n));
	n->index = index;
	n->numa_node = -1;
	snprintf(n->backend, sizeof(n->backend), "%s", backend);
	snprintf(n->bus_id, sizeof(n->bus_id), "%s", bus_id);
	snprintf(n->dev_path, sizeof(n->dev_path), "%s", dev_path);
	snprintf(n->dev_name, sizeof(n->dev_name), "%s",
		 strrchr(dev_path, '/') ? strrchr(dev_path, '/') + 1 : dev_path);
	n->peers = peers;
}

/* The usual VM: two edu NPUs (peers) and two simulated NPUs (peers). */
static inline void fake_system_4(struct smi_system *sys,
				 struct smi_npu npus[4])
{
	fake_npu(&npus[0], 0, "edu", "0000:00:02.0",
		 "/sys/devices/pci0000:00/0000:00:02.0", 1ULL << 1);
	fake_npu(&npus[1], 1, "edu", "0000:00:03.0",
		 "/sys/devices/pci0000:00/0000:00:03.0", 1ULL << 0);
	fake_npu(&npus[2], 2, "sim", "",
		 "/sys/devices/platform/npu_dma_sim.0", 1ULL << 3);
	fake_npu(&npus[3], 3, "sim", "",
		 "/sys/devices/platform/npu_dma_sim.1", 1ULL << 2);
	memset(sys, 0, sizeof(*sys));
	sys->nr_npus = 4;
	sys->npus = npus;
}

/* Output written to a FILE, kept in memory. */
struct fake_out {
	FILE *f;
	char *text;
	size_t len;
};

static inline void fake_out_open(struct fake_out *o)
{
	o->text = NULL;
	o->f = open_memstream(&o->text, &o->len);
	ck_assert_ptr_nonnull(o->f);
}

/* Close the stream; o->text holds everything written (free it). */
static inline const char *fake_out_close(struct fake_out *o)
{
	ck_assert_int_eq(fclose(o->f), 0);
	return o->text;
}

/*
 * 1 if text is valid JSON to python3's json module, 0 if not, -1 if
 * python3 is missing (the caller then does not judge).
 */
static inline int fake_json_valid(const char *text)
{
	char path[] = "/tmp/smi_json_ut.XXXXXX";
	int fd = mkstemp(path), rc;
	char cmd[128];
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	if (system("python3 -c '' 2>/dev/null")) {
		unlink(path);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "python3 -m json.tool %s >/dev/null 2>&1", path);
	rc = system(cmd);
	unlink(path);
	return rc == 0;
}

/* Assertions on captured output that print the output when they fail. */
#define fake_assert_has(text, needle) \
	ck_assert_msg(strstr(text, needle), "'%s' not in:\n%s", needle, text)
#define fake_assert_lacks(text, needle) \
	ck_assert_msg(!strstr(text, needle), "'%s' in:\n%s", needle, text)
/* Valid JSON, unless python3 is missing to judge. */
#define fake_assert_json(text) \
	ck_assert_msg(fake_json_valid(text) != 0, "invalid JSON:\n%s", text)

#endif /* FAKE_SMI_H */
