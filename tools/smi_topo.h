/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-smi info -t topo: the peer matrix. Each cell names how NPU a
 * reaches NPU b's memory (the legend is smi_topo_legend[]).
 */
#ifndef SMI_TOPO_H
#define SMI_TOPO_H

#include <stdio.h>

#include "smi.h"

struct smi_topo_code {
	const char *code;
	const char *meaning;
};

/* Every code a cell can hold, NULL-terminated. */
extern const struct smi_topo_code smi_topo_legend[];

/*
 * How two PCI functions are connected, from their resolved sysfs paths
 * (/sys/devices/pci0000:00/0000:00:1c.0/0000:01:00.0): PIX, PXB, PHB or
 * SYS.
 */
const char *smi_topo_pci_link(const char *path_a, const char *path_b);
/* The cell of row a, column b: X, -, SIM or a PCI code. */
const char *smi_topo_link(const struct smi_npu *a, const struct smi_npu *b);

/* Rows of all NPUs (index -1) or of one; columns always all NPUs. */
void smi_topo_text(const struct smi_system *sys, int index, FILE *f);
void smi_topo_json(const struct smi_system *sys, int index, FILE *f);

#endif /* SMI_TOPO_H */
