// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-smi info: the NPU table (two lines per NPU, as CANN's npu-smi
 * prints them) and the process table, as text or JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "smi_info.h"
#include "smi_json.h"
#include "smi_table.h"

/*
 * Sub-columns inside the boxed columns, as in CANN's layout; cells that
 * are longer push the rest of their line, never the box.
 */
#define FMT_COL0 "%-5s %s"
#define FMT_COL2 "%-20s %s"

uint64_t smi_mib_up(uint64_t bytes)
{
	return (bytes >> 20) + !!(bytes & ((1ULL << 20) - 1));
}

static void npu_name(const struct smi_npu *npu, char *buf, size_t size)
{
	if (npu->pci.found)
		snprintf(buf, size, "%s %s", npu->pci.vendor, npu->pci.device);
	else if (smi_is_pci(npu))
		snprintf(buf, size, "PCI device");
	else
		snprintf(buf, size, "simulated (%s)",
			 npu->dev_name[0] ? npu->dev_name : "-");
}

static void npu_link(const struct smi_npu *npu, char *buf, size_t size)
{
	if (npu->pci.link_speed[0] && npu->pci.link_width)
		snprintf(buf, size, "%s x%u", npu->pci.link_speed,
			 npu->pci.link_width);
	else if (npu->pci.link_speed[0])
		snprintf(buf, size, "%s", npu->pci.link_speed);
	else
		snprintf(buf, size, "-");
}

static void numa_text(int node, char *buf, size_t size)
{
	if (node >= 0)
		snprintf(buf, size, "%d", node);
	else
		snprintf(buf, size, "-");
}

static void npu_rows(struct smi_table *t, const struct smi_npu *npu)
{
	char c0[192], c1[64], c2[96], a[48], b[48];
	const char *cells[3] = { c0, c1, c2 };

	snprintf(a, sizeof(a), "%d", npu->index);
	snprintf(c0, sizeof(c0), FMT_COL0, a, npu->backend);
	snprintf(c1, sizeof(c1), "%s", smi_is_pci(npu) ? npu->bus_id : "-");
	if (!npu->usage_hidden)
		snprintf(a, sizeof(a), "%-4" PRIu64 " / %" PRIu64,
			 smi_mib_up(npu->mem_used), smi_mib_up(npu->mem_size));
	else
		snprintf(a, sizeof(a), "%-4s / %" PRIu64, "-",
			 smi_mib_up(npu->mem_size));
	snprintf(b, sizeof(b), "%u", npu->dma_channels);
	snprintf(c2, sizeof(c2), FMT_COL2, a, b);
	smi_table_cells(t, cells);

	npu_name(npu, c0, sizeof(c0));
	npu_link(npu, c1, sizeof(c1));
	numa_text(npu->numa_node, a, sizeof(a));
	if (!npu->usage_hidden)
		snprintf(b, sizeof(b), "%u", npu->queues);
	else
		snprintf(b, sizeof(b), "-");
	snprintf(c2, sizeof(c2), FMT_COL2, a, b);
	smi_table_cells(t, cells);
	smi_table_rule(t, 0);
}

static int npu_table(const struct smi_system *sys, int index, FILE *f)
{
	char h0[64], h2[64];
	const char *head1[3] = { h0, "Bus-Id", h2 };
	const char *head2[3] = { "Name", "Link", NULL };
	struct smi_table t;
	int i, ret;

	smi_table_init(&t, 3);
	smi_table_span(&t, "npu-smi %-12s Driver: npu_dma   NPUs: %d",
		       SMI_VERSION, sys->nr_npus);
	smi_table_rule(&t, 0);
	snprintf(h0, sizeof(h0), FMT_COL0, "NPU", "Backend");
	snprintf(h2, sizeof(h2), FMT_COL2, "Memory-Usage(MiB)", "DMA-Ch");
	smi_table_cells(&t, head1);
	snprintf(h2, sizeof(h2), FMT_COL2, "NUMA", "Queues");
	head2[2] = h2;
	smi_table_cells(&t, head2);
	smi_table_rule(&t, 1);
	for (i = 0; i < sys->nr_npus; i++)
		if (smi_selected(&sys->npus[i], index))
			npu_rows(&t, &sys->npus[i]);
	ret = smi_table_print(&t, f);
	smi_table_free(&t);
	return ret;
}

/* Usage cells of a process: "-" where its fdinfo was not readable. */
static void proc_usage(const struct smi_proc *p, char *mem, char *dma,
		       size_t size)
{
	if (!p->has_usage) {
		snprintf(mem, size, "-");
		snprintf(dma, size, "-");
		return;
	}
	snprintf(mem, size, "%" PRIu64, smi_mib_up(p->mem_device));
	snprintf(dma, size, "%.1f", p->engine_ns / 1e6);
}

static int proc_table(const struct smi_system *sys, int index, FILE *f)
{
	static const char *const head[6] = {
		"NPU", "Process id", "Process name", "User",
		"Memory-Usage(MiB)", "DMA-Time(ms)"
	};
	struct smi_table t;
	int i, n = 0, ret;

	smi_table_init(&t, 6);
	smi_table_cells(&t, head);
	smi_table_rule(&t, 1);
	for (i = 0; i < sys->nr_procs; i++) {
		const struct smi_proc *p = &sys->procs[i];
		char npu[16], pid[16], mem[32], dma[32];
		const char *cells[6] = { npu, pid, p->name, p->user, mem, dma };

		if (index >= 0 && p->npu != index)
			continue;
		snprintf(npu, sizeof(npu), "%d", p->npu);
		snprintf(pid, sizeof(pid), "%d", (int)p->pid);
		proc_usage(p, mem, dma, sizeof(mem));
		smi_table_cells(&t, cells);
		n++;
	}
	if (!n)
		smi_table_span(&t, "No running processes found");
	ret = smi_table_print(&t, f);
	smi_table_free(&t);
	return ret;
}

int smi_info_text(const struct smi_system *sys, int index, FILE *f)
{
	int ret = npu_table(sys, index, f);

	fputc('\n', f);
	return ret ? ret : proc_table(sys, index, f);
}

static void json_opt_str(struct smi_json *j, const char *key, const char *s)
{
	smi_json_str(j, key, s && *s ? s : NULL);
}

static void json_opt_int(struct smi_json *j, const char *key, int64_t v)
{
	if (v >= 0)
		smi_json_int(j, key, v);
	else
		smi_json_null(j, key);
}

static void json_pci(struct smi_json *j, const struct smi_npu *npu)
{
	char id[8];

	if (!smi_is_pci(npu)) {
		smi_json_null(j, "pci");
		return;
	}
	smi_json_object(j, "pci");
	smi_json_str(j, "bus_id", npu->bus_id);
	if (npu->pci.found) {
		snprintf(id, sizeof(id), "0x%04x", npu->pci.vendor_id);
		smi_json_str(j, "vendor_id", id);
		snprintf(id, sizeof(id), "0x%04x", npu->pci.device_id);
		smi_json_str(j, "device_id", id);
	}
	json_opt_str(j, "vendor", npu->pci.vendor);
	json_opt_str(j, "device", npu->pci.device);
	json_opt_str(j, "link_speed", npu->pci.link_speed);
	json_opt_int(j, "link_width",
		     npu->pci.link_width ? (int64_t)npu->pci.link_width : -1);
	smi_json_end(j);
}

/* A usage value, null when only root may read it. */
static void json_opt_usage(struct smi_json *j, const struct smi_npu *npu,
			   const char *key, uint64_t v)
{
	if (!npu->usage_hidden)
		smi_json_uint(j, key, v);
	else
		smi_json_null(j, key);
}

static void json_memory(struct smi_json *j, const struct smi_npu *npu)
{
	smi_json_object(j, "memory");
	smi_json_uint(j, "total_bytes", npu->mem_size);
	json_opt_usage(j, npu, "used_bytes", npu->mem_used);
	smi_json_uint(j, "total_mib", smi_mib_up(npu->mem_size));
	json_opt_usage(j, npu, "used_mib", smi_mib_up(npu->mem_used));
	smi_json_end(j);
}

static void json_npu(struct smi_json *j, const struct smi_system *sys,
		     const struct smi_npu *npu)
{
	int i;

	smi_json_object(j, NULL);
	smi_json_int(j, "index", npu->index);
	json_opt_str(j, "node", npu->node);
	smi_json_str(j, "backend", npu->backend);
	json_opt_str(j, "device", npu->dev_name);
	json_pci(j, npu);
	json_opt_int(j, "numa_node", npu->numa_node);
	json_opt_str(j, "cpu_affinity", npu->cpu_affinity);
	json_memory(j, npu);
	smi_json_uint(j, "dma_channels", npu->dma_channels);
	json_opt_usage(j, npu, "queues", npu->queues);
	smi_json_array(j, "peers");
	for (i = 0; i <= SMI_MAX_INDEX; i++)
		if (npu->peers & (1ULL << i))
			smi_json_int(j, NULL, i);
	smi_json_end(j);
	smi_json_array(j, "pids");
	for (i = 0; i < sys->nr_procs; i++)
		if (sys->procs[i].npu == npu->index)
			smi_json_int(j, NULL, sys->procs[i].pid);
	smi_json_end(j);
	smi_json_end(j);
}

/* A number known only when the process's fdinfo was readable. */
static void json_usage(struct smi_json *j, const char *key,
		       const struct smi_proc *p, uint64_t v)
{
	if (p->has_usage)
		smi_json_uint(j, key, v);
	else
		smi_json_null(j, key);
}

static void json_proc_usage(struct smi_json *j, const struct smi_proc *p)
{
	json_usage(j, "files", p, p->files);
	json_usage(j, "device_memory_bytes", p, p->mem_device);
	json_usage(j, "host_memory_bytes", p, p->mem_host);
	json_usage(j, "dma_time_ns", p, p->engine_ns);
}

static void json_procs(struct smi_json *j, const struct smi_system *sys,
		       int index)
{
	int i;

	smi_json_array(j, "processes");
	for (i = 0; i < sys->nr_procs; i++) {
		const struct smi_proc *p = &sys->procs[i];

		if (index >= 0 && p->npu != index)
			continue;
		smi_json_object(j, NULL);
		smi_json_int(j, "npu", p->npu);
		smi_json_int(j, "pid", p->pid);
		smi_json_str(j, "name", p->name);
		smi_json_str(j, "user", p->user);
		json_proc_usage(j, p);
		smi_json_end(j);
	}
	smi_json_end(j);
}

void smi_info_json(const struct smi_system *sys, int index, FILE *f)
{
	struct smi_json j;
	int i;

	smi_json_init(&j, f);
	smi_json_object(&j, NULL);
	smi_json_str(&j, "version", SMI_VERSION);
	smi_json_str(&j, "driver", "npu_dma");
	smi_json_array(&j, "npus");
	for (i = 0; i < sys->nr_npus; i++)
		if (smi_selected(&sys->npus[i], index))
			json_npu(&j, sys, &sys->npus[i]);
	smi_json_end(&j);
	json_procs(&j, sys, index);
	smi_json_end(&j);
}
