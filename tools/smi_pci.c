// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-smi: PCI facts through libpci.
 *
 * libpci reports fatal errors through a callback that must not return
 * (its default exits the process). npu-smi must rather fall back to what
 * sysfs said, so the callback jumps back to smi_pci_fill().
 *
 * Without root, sysfs lets a process read only the first 64 bytes of
 * config space, where the PCI Express capability never is: the link is
 * then read from the world-readable current_link_speed/width attributes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pci/pci.h>

#include "smi_pci.h"

static jmp_buf pci_fail;

static void __attribute__((noreturn)) on_error(char *msg, ...)
{
	(void)msg;
	longjmp(pci_fail, 1);
}

static void on_warning(char *msg, ...)
{
	(void)msg;
}

const char *smi_pci_speed_name(unsigned int code)
{
	static const char *const names[] = {
		[1] = "2.5GT/s", [2] = "5GT/s", [3] = "8GT/s",
		[4] = "16GT/s", [5] = "32GT/s", [6] = "64GT/s",
	};

	return code < sizeof(names) / sizeof(names[0]) ? names[code] : NULL;
}

int smi_pci_sysfs_speed(const char *s, char *out, size_t size)
{
	double v;
	int n = 0;

	/* %n is set only if the unit matched too. */
	if (sscanf(s, "%lf GT/s%n", &v, &n) != 1 || !n || v <= 0)
		return -EINVAL;
	snprintf(out, size, "%.*sGT/s", (int)strcspn(s, " G"), s);
	return 0;
}

int smi_pci_fallback_names(struct smi_pci *p)
{
	/* QEMU's devices under the vendor id it borrowed, absent from pci.ids. */
	if (p->vendor_id != 0x1234)
		return 0;
	snprintf(p->vendor, sizeof(p->vendor), "QEMU");
	if (p->device_id == 0x11e8)
		snprintf(p->device, sizeof(p->device), "edu");
	else
		snprintf(p->device, sizeof(p->device), "Device %04x",
			 p->device_id);
	return 1;
}

static void lookup_names(struct pci_access *pacc, struct smi_pci *p)
{
	int flags = PCI_LOOKUP_NO_NUMBERS;

	if (!pci_lookup_name(pacc, p->vendor, sizeof(p->vendor),
			     flags | PCI_LOOKUP_VENDOR, p->vendor_id) ||
	    !pci_lookup_name(pacc, p->device, sizeof(p->device),
			     flags | PCI_LOOKUP_DEVICE, p->vendor_id,
			     p->device_id)) {
		if (smi_pci_fallback_names(p))
			return;
		snprintf(p->vendor, sizeof(p->vendor), "Vendor %04x", p->vendor_id);
		snprintf(p->device, sizeof(p->device), "Device %04x", p->device_id);
	}
}

static void sysfs_link(const char *bus_id, struct smi_pci *p)
{
	char path[128], buf[64];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/current_link_speed",
		 bus_id);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f))
		smi_pci_sysfs_speed(buf, p->link_speed, sizeof(p->link_speed));
	fclose(f);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/current_link_width",
		 bus_id);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fscanf(f, "%u", &p->link_width) != 1)
		p->link_width = 0;
	fclose(f);
}

static void read_link(struct pci_dev *d, const char *bus_id, struct smi_pci *p)
{
	struct pci_cap *cap = pci_find_cap(d, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
	const char *speed;
	u16 sta;

	if (!cap) {
		/* No capability, or config space beyond 64 bytes unreadable. */
		sysfs_link(bus_id, p);
		return;
	}
	sta = pci_read_word(d, cap->addr + PCI_EXP_LNKSTA);
	speed = smi_pci_speed_name(sta & PCI_EXP_LNKSTA_SPEED);
	if (sta == 0xffff || !speed) {
		sysfs_link(bus_id, p);
		return;
	}
	snprintf(p->link_speed, sizeof(p->link_speed), "%s", speed);
	p->link_width = (sta & PCI_EXP_LNKSTA_WIDTH) >> 4;
}

static void fill_one(struct pci_access *pacc, struct smi_npu *npu)
{
	unsigned int dom, bus, dev, fn;
	struct pci_dev *d;

	if (sscanf(npu->bus_id, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
		return;
	d = pci_get_dev(pacc, dom, bus, dev, fn);
	if (!d)
		return;
	pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_NUMA_NODE | PCI_FILL_CAPS);
	npu->pci.found = 1;
	npu->pci.vendor_id = d->vendor_id;
	npu->pci.device_id = d->device_id;
	lookup_names(pacc, &npu->pci);
	read_link(d, npu->bus_id, &npu->pci);
	if (d->numa_node >= 0)
		npu->numa_node = d->numa_node;
	pci_free_dev(d);
}

int smi_pci_fill(struct smi_system *sys)
{
	/* volatile: read after longjmp. */
	struct pci_access *volatile pacc = NULL;
	int i;

	if (setjmp(pci_fail)) {
		if (pacc)
			pci_cleanup(pacc);
		return -EIO;
	}
	pacc = pci_alloc();
	if (!pacc)
		return -ENOMEM;
	pacc->error = on_error;
	pacc->warning = on_warning;
	pci_init(pacc);
	for (i = 0; i < sys->nr_npus; i++)
		if (smi_is_pci(&sys->npus[i]))
			fill_one(pacc, &sys->npus[i]);
	pci_cleanup(pacc);
	return 0;
}
