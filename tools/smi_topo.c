// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-smi info -t topo: the peer matrix, with the link codes of CANN's
 * npu-smi and nvidia-smi topo -m where they apply (PIX, PXB, PHB, SYS),
 * SIM for NPUs simulated by the driver, "-" where there is no peer access.
 *
 * The driver decides who is a peer (sysfs "peers"); the PCI codes only
 * describe the path between two PCI peers, read from sysfs device paths.
 */
#include <string.h>

#include "smi_json.h"
#include "smi_topo.h"

#define MAX_DEPTH 32

const struct smi_topo_code smi_topo_legend[] = {
	{ "X", "this NPU itself" },
	{ "PIX", "peers behind the same PCIe bridge or switch "
		 "(at most one bridge level below it)" },
	{ "PXB", "peers crossing several PCIe bridges, without the host bridge" },
	{ "PHB", "peers under the same PCIe host bridge (root complex)" },
	{ "SYS", "peers under different host bridges (crossing the SMP interconnect)" },
	{ "SIM", "simulated peers: the driver copies between them in host memory" },
	{ "-", "no peer access: copies between these NPUs go through host memory" },
	{ NULL, NULL },
};

/*
 * Split a sysfs path into its components from the host bridge
 * ("pci0000:00") down. Return: the number of components, 0 if there is no
 * host bridge in the path.
 */
static int pci_components(const char *path, char *buf, size_t size,
			  char **comp)
{
	char *save, *tok;
	int n = 0;

	snprintf(buf, size, "%s", path);
	for (tok = strtok_r(buf, "/", &save); tok && n < MAX_DEPTH;
	     tok = strtok_r(NULL, "/", &save)) {
		if (!n && strncmp(tok, "pci", 3))
			continue;
		comp[n++] = tok;
	}
	return n;
}

const char *smi_topo_pci_link(const char *path_a, const char *path_b)
{
	char buf_a[256], buf_b[256], *a[MAX_DEPTH], *b[MAX_DEPTH];
	int na = pci_components(path_a, buf_a, sizeof(buf_a), a);
	int nb = pci_components(path_b, buf_b, sizeof(buf_b), b);
	int common = 0, below_a, below_b;

	while (common < na && common < nb && !strcmp(a[common], b[common]))
		common++;
	if (!common)
		return "SYS";
	if (common == na || common == nb)
		return "PIX";	/* one is a bridge above the other */
	if (common == 1)
		return "PHB";
	/* Bridges between the shared bridge and each function. */
	below_a = na - common - 1;
	below_b = nb - common - 1;
	return below_a <= 1 && below_b <= 1 ? "PIX" : "PXB";
}

const char *smi_topo_link(const struct smi_npu *a, const struct smi_npu *b)
{
	if (a->index == b->index)
		return "X";
	if (b->index > SMI_MAX_INDEX || !(a->peers & (1ULL << b->index)))
		return "-";
	if (smi_is_pci(a) && smi_is_pci(b))
		return smi_topo_pci_link(a->dev_path, b->dev_path);
	if (!smi_is_pci(a) && !smi_is_pci(b))
		return "SIM";
	return "SYS";
}

static int cell_width(const struct smi_system *sys)
{
	char label[16];
	int w = 6, i;

	for (i = 0; i < sys->nr_npus; i++) {
		int n = snprintf(label, sizeof(label), "NPU%d",
				 sys->npus[i].index);

		if (n + 2 > w)
			w = n + 2;
	}
	return w;
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static void text_row(const struct smi_system *sys,
		     const struct smi_npu *npu, int w, FILE *f)
{
	char label[16], numa[16] = "-";
	int i;

	snprintf(label, sizeof(label), "NPU%d", npu->index);
	fprintf(f, "%-*s", w, label);
	for (i = 0; i < sys->nr_npus; i++)
		fprintf(f, "%-*s", w, smi_topo_link(npu, &sys->npus[i]));
	if (npu->numa_node >= 0)
		snprintf(numa, sizeof(numa), "%d", npu->numa_node);
	fprintf(f, "%-16s%s\n", or_dash(npu->cpu_affinity), numa);
}

void smi_topo_text(const struct smi_system *sys, int index, FILE *f)
{
	int w = cell_width(sys), i;
	char label[16];

	fprintf(f, "%*s", w, "");
	for (i = 0; i < sys->nr_npus; i++) {
		snprintf(label, sizeof(label), "NPU%d", sys->npus[i].index);
		fprintf(f, "%-*s", w, label);
	}
	fprintf(f, "%-16s%s\n", "CPU Affinity", "NUMA Affinity");
	for (i = 0; i < sys->nr_npus; i++)
		if (smi_selected(&sys->npus[i], index))
			text_row(sys, &sys->npus[i], w, f);
	fputs("\nLegend:\n\n", f);
	for (i = 0; smi_topo_legend[i].code; i++)
		fprintf(f, "  %-4s = %s\n", smi_topo_legend[i].code,
			smi_topo_legend[i].meaning);
}

static void json_row(struct smi_json *j, const struct smi_system *sys,
		     const struct smi_npu *npu)
{
	int i;

	smi_json_object(j, NULL);
	smi_json_int(j, "npu", npu->index);
	smi_json_array(j, "links");
	for (i = 0; i < sys->nr_npus; i++)
		smi_json_str(j, NULL, smi_topo_link(npu, &sys->npus[i]));
	smi_json_end(j);
	smi_json_str(j, "cpu_affinity",
		     npu->cpu_affinity[0] ? npu->cpu_affinity : NULL);
	if (npu->numa_node >= 0)
		smi_json_int(j, "numa_node", npu->numa_node);
	else
		smi_json_null(j, "numa_node");
	smi_json_end(j);
}

void smi_topo_json(const struct smi_system *sys, int index, FILE *f)
{
	struct smi_json j;
	int i;

	smi_json_init(&j, f);
	smi_json_object(&j, NULL);
	/* Column order of every row's "links". */
	smi_json_array(&j, "npus");
	for (i = 0; i < sys->nr_npus; i++)
		smi_json_int(&j, NULL, sys->npus[i].index);
	smi_json_end(&j);
	smi_json_array(&j, "rows");
	for (i = 0; i < sys->nr_npus; i++)
		if (smi_selected(&sys->npus[i], index))
			json_row(&j, sys, &sys->npus[i]);
	smi_json_end(&j);
	smi_json_object(&j, "legend");
	for (i = 0; smi_topo_legend[i].code; i++)
		smi_json_str(&j, smi_topo_legend[i].code,
			     smi_topo_legend[i].meaning);
	smi_json_end(&j);
	smi_json_end(&j);
}
