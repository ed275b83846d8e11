/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-smi: PCI facts of the PCI-backed NPUs through libpci: vendor and
 * device names, negotiated link speed and width, NUMA node.
 */
#ifndef SMI_PCI_H
#define SMI_PCI_H

#include <stddef.h>

#include "smi.h"

/*
 * Fill npu->pci (and numa_node) of every PCI NPU in sys.
 * Return: 0, or -EIO when libpci cannot start; the NPUs then keep what
 * sysfs gave, so the caller may go on.
 */
int smi_pci_fill(struct smi_system *sys);

/* "2.5GT/s" .. "64GT/s" for a Link Status speed code, NULL if unknown. */
const char *smi_pci_speed_name(unsigned int code);

/*
 * Sysfs spells speeds "8.0 GT/s PCIe": keep the number and unit as
 * "8.0GT/s". Return: 0, or -EINVAL if s does not look like a speed.
 */
int smi_pci_sysfs_speed(const char *s, char *out, size_t size);

/*
 * Names of functions pci.ids does not know (QEMU's edu uses the
 * unregistered vendor 0x1234). Return: 1 if p's names were filled.
 */
int smi_pci_fallback_names(struct smi_pci *p);

#endif /* SMI_PCI_H */
