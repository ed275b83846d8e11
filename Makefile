# SPDX-License-Identifier: GPL-2.0-only
#
# npu-dma top-level Makefile: delegates to kernel/, lib/, tools/, tests/.
#
#   make            module, library, tools and test programs
#   make module     kernel/npu_dma.ko for the distribution kernel
#   make check      everything below; the test command CI runs
#   make unit       host-only Check unit tests
#   make vmcheck    Check tests inside the developer VM (tools/npu-vm)
#   make lint       module at W=1 and sparse, warnings are errors
#   make demo       boot the VM and show the NPUs
#   make bench      boot the VM and run the benchmark programs (bench/)
#   make deps       install build and test dependencies (Debian 12, root)

ROOT := $(CURDIR)
KVER = $(shell $(ROOT)/scripts/kver.sh)
KDIR = /usr/src/linux-headers-$(KVER)
KMAKE = $(MAKE) -C $(KDIR) M=$(ROOT)/kernel NPU_DMA_WERROR=y W=1

export ROOT

all: module userspace

deps:
	@$(ROOT)/scripts/deps.sh

module: deps
	@$(KMAKE) modules

lint: deps
	@$(ROOT)/scripts/lint-kernel.sh "$(KDIR)"

userspace: deps
	@$(MAKE) -s -C lib
	@$(MAKE) -s -C tools
	@$(MAKE) -s -C bench
	@$(MAKE) -s -C tests/unit
	@$(MAKE) -s -C tests/vm

unit: userspace
	@$(ROOT)/scripts/run-checks.sh unit tests/unit

vmcheck: module userspace
	@$(ROOT)/scripts/run-checks.sh vm tests/vm

check: lint unit vmcheck
	@$(ROOT)/scripts/run-checks.sh summary

demo: module
	@$(ROOT)/tools/npu-vm run --no-build -- $(ROOT)/scripts/demo.sh

bench: module userspace
	@$(ROOT)/tools/npu-vm run --no-build -- $(ROOT)/scripts/bench.sh

clean:
	-@$(MAKE) -s -C $(KDIR) M=$(ROOT)/kernel clean 2>/dev/null
	@$(MAKE) -s -C tests/unit clean
	@$(MAKE) -s -C tests/vm clean
	@$(MAKE) -s -C lib clean
	@$(MAKE) -s -C tools clean
	@$(MAKE) -s -C bench clean
	@rm -rf build

.PHONY: all deps module lint userspace unit vmcheck check demo bench clean
