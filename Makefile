# SPDX-License-Identifier: GPL-2.0-only
#
# npu-dma top-level Makefile: delegates to kernel/, lib/, tools/, tests/.
#
#   make            module, library, tools and test programs
#   make module     kernel/npu-dma.ko (module npu_dma) for the distribution kernel
#   make check      lint, unit, vmcheck (each runs even if one before
#                   failed), then the summary; the test command CI runs
#   make unit       host-only Check unit tests
#   make vmcheck    Check tests inside the developer VM (tools/npu-vm)
#   make lint       module at W=1 and sparse, warnings are errors; the
#                   library's exports against lib/libacl.map
#   make checkpatch the kernel's checkpatch.pl --strict over kernel/ and
#                   include/uapi/ (also part of lint)
#   make check-debug the VM suite under the sanitizer kernel (KASAN, lockdep,
#                   kmemleak; scripts/build-debug-kernel.sh builds it: long)
#   make demo       boot the VM and run the demo: the seed's data flow through
#                   libacl under npu-trace, npu-smi, acl-bandwidth (build/demo/)
#   make bench      boot the VM, run the benchmark programs (bench/), print one
#                   table of results against targets, write build/bench/bench.json
#   make soak       boot the VM and run tests/soak/npu-soak for SOAK_SECONDS
#                   (default 300) with SOAK_ARGS (default 4 processes x 8
#                   streams, a kill every 20 s on average): not in CI
#   make fuzz       boot the VM and run tests/vm/t_fuzz for FUZZ_SECONDS
#                   (default 600) from a new seed (make check runs a fixed
#                   one for 45 s; FUZZ_SEED=0x... replays): not in CI
#   make deps       install build and test dependencies (Debian 12, root)
#   make install    libacl, headers, acl.pc, tools, man pages, udev rule
#                   (PREFIX=/usr/local, DESTDIR; Documentation/install.md)
#   make uninstall  remove what make install put there
#   make modules_install   the module built for the running kernel (KVER)
#                   into /lib/modules (INSTALL_MOD_PATH), then depmod
#   make dkms-install      the module through DKMS, rebuilt for new kernels
#   make dkms-check        DKMS build in scratch trees, then used in the VM
#
# V=1 shows every command: kbuild's and the user-space Makefiles'.

ROOT := $(CURDIR)
include $(ROOT)/common.mk
# scripts/kdir.sh finds the build tree (KDIR=... overrides it).
KDIR = $(shell $(ROOT)/scripts/kdir.sh)
KMAKE = $(MAKE) -C $(KDIR) M=$(ROOT)/kernel NPU_DMA_WERROR=y W=1

export ROOT

all: module userspace

deps:
	@$(ROOT)/scripts/deps.sh

module: deps
	@$(KMAKE) modules

lint: deps userspace
	@$(ROOT)/scripts/lint-kernel.sh "$(KDIR)"
	@$(ROOT)/scripts/check-symbols.sh lib/libacl.map lib/libacl.so
	@$(ROOT)/scripts/checkpatch.sh

checkpatch: deps
	@$(ROOT)/scripts/checkpatch.sh

userspace: deps
	@$(MAKE) $(S) -C lib
	@$(MAKE) $(S) -C tools
	@$(MAKE) $(S) -C bench
	@$(MAKE) $(S) -C tests/unit
	@$(MAKE) $(S) -C tests/vm
	@$(MAKE) $(S) -C tests/soak

unit: userspace
	@$(ROOT)/scripts/run-checks.sh unit tests/unit

vmcheck: module userspace
	@TEXT_TESTS="$(CHECK_DEBUG_TEXT_TESTS)" $(ROOT)/scripts/run-checks.sh vm tests/vm

# The stages run one after another from the script, not as make
# prerequisites: make would stop at the first that fails.
check:
	@MAKE="$(MAKE)" $(ROOT)/scripts/run-checks.sh check

# Multi-threaded TCG: single-threaded (npu-vm --tcg-single) was tried
# against the text-patching lockup and locked up in t_fuzz instead. The
# tests that patch kernel text (tracepoints, dynamic debug) run in a
# guest of their own with one vCPU, where no other vCPU can be caught in
# the patch (Documentation/reliability.md, "CI and make check-debug").
# KASAN and lockdep make the guest several times slower: Check's
# per-test timeouts are stretched too (t_acl_core's 120 s ran out).
# CHECK_DEBUG_TIMEOUT bounds both guest runs together (.ci/run sets what
# is left of its budget); the one-vCPU run gets CHECK_DEBUG_TEXT_SECONDS
# of it. Both runs go ahead even when the first fails.
CHECK_DEBUG_TIMEOUT ?= 10800
CHECK_DEBUG_TEXT_TESTS = t_trace t_npu_trace
CHECK_DEBUG_TEXT_SECONDS = 600
CHECK_DEBUG_VM = $(ROOT)/tools/npu-vm run --no-build --debug-kernel \
	-e NPU_TEST_TIMEOUT=3600 -e CK_TIMEOUT_MULTIPLIER=5
check-debug: userspace
	@$(ROOT)/scripts/build-debug-kernel.sh
	@$(ROOT)/scripts/build-debug-kernel.sh module
	@rc=0; \
	$(CHECK_DEBUG_VM) \
		--timeout $$(($(CHECK_DEBUG_TIMEOUT) - $(CHECK_DEBUG_TEXT_SECONDS))) \
		-e NPU_TEST_EXCLUDE="$(CHECK_DEBUG_TEXT_TESTS)" -- \
		$(ROOT)/scripts/build-debug-kernel.sh guest-check || rc=$$?; \
	$(CHECK_DEBUG_VM) --cpus 1 --timeout $(CHECK_DEBUG_TEXT_SECONDS) -- \
		$(ROOT)/scripts/build-debug-kernel.sh guest-check \
		$(CHECK_DEBUG_TEXT_TESTS) || rc=$$?; \
	exit $$rc

demo: module
	@$(MAKE) $(S) -C lib
	@$(MAKE) $(S) -C tools
	@mkdir -p $(ROOT)/build/demo
	@$(ROOT)/tools/npu-vm run --no-build --share $(ROOT)/build/demo -- \
		$(ROOT)/scripts/demo.sh $(ROOT)/build/demo

bench: module userspace
	@mkdir -p $(ROOT)/build/bench
	@$(ROOT)/tools/npu-vm run --no-build --share $(ROOT)/build/bench \
		-e BENCH_HOST_LOAD="$$(cut -d' ' -f1-3 /proc/loadavg)" \
		-e BENCH_HOST_CPU="$$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)" \
		-e BENCH_COMMIT="$$(git -C $(ROOT) describe --always --dirty 2>/dev/null)" -- \
		$(ROOT)/scripts/bench.sh -o $(ROOT)/build/bench

SOAK_SECONDS ?= 300
SOAK_ARGS ?= -p 4 -s 8 -k 20
soak: module userspace
	@$(ROOT)/tools/npu-vm run --no-build --timeout $$(( $(SOAK_SECONDS) + 900 )) -- \
		$(ROOT)/tests/soak/npu-soak -v -t $(SOAK_SECONDS) $(SOAK_ARGS)

FUZZ_SECONDS ?= 600
FUZZ_SEED ?= random
fuzz: module userspace
	@$(ROOT)/tools/npu-vm run --no-build --timeout $$(( $(FUZZ_SECONDS) + 600 )) \
		-e NPU_FUZZ_SECONDS=$(FUZZ_SECONDS) -e NPU_FUZZ_SEED=$(FUZZ_SEED) \
		-e NPU_TEST_TIMEOUT=$$(( $(FUZZ_SECONDS) + 300 )) -- \
		$(ROOT)/tests/vm/runtests.sh t_fuzz

# CANN's own runtime examples, built unmodified against our headers and
# run in the VM; needs a CANN runtime repository (CANN_RUNTIME_SRC), else
# SKIP. Not part of check: Documentation/testing.rst, "CANN's examples".
cann-examples: module userspace
	@$(ROOT)/tests/examples/run-cann-examples.sh

# Installs build only what they install (lib, tools), not the tests.
INSTALL_DIRS := lib tools man packaging

install uninstall:
	@for d in $(INSTALL_DIRS); do $(MAKE) $(S) -C $$d $@ || exit; done

# The plain install on a user's machine (Documentation/install.md): for
# the running kernel (or KVER=...) through its build tree, built the way
# kernel/Makefile and DKMS build it: no deps.sh (it would install the
# developer VM's packages), no W=1 or -Werror (a newer compiler's new
# warning must not stop an install). Unsigned (the headers package has
# no signing key: DKMS signs with its own). kbuild skips depmod without
# System.map: it runs here, unless the module is staged
# (INSTALL_MOD_PATH) for a package.
modules_install: KVER = $(shell uname -r)
modules_install: KDIR = $(shell $(ROOT)/scripts/kdir.sh $(KVER))
modules_install:
	@test -n "$(KDIR)"
	@$(MAKE) $(S) -C kernel KDIR=$(KDIR) modules
	@$(MAKE) $(S) -C $(KDIR) M=$(ROOT)/kernel INSTALL_MOD_DIR=updates \
		CONFIG_MODULE_SIG_ALL= modules_install
	@$(if $(INSTALL_MOD_PATH),:,depmod $(KVER))

dkms-source dkms-install dkms-uninstall:
	@$(MAKE) $(S) -C packaging $@

# The module built by DKMS in scratch trees, loaded and used in the VM.
dkms-check: userspace
	@$(ROOT)/packaging/dkms/check.sh

clean:
	-@$(MAKE) $(S) -C $(KDIR) M=$(ROOT)/kernel clean 2>/dev/null
	@$(MAKE) $(S) -C tests/unit clean
	@$(MAKE) $(S) -C tests/vm clean
	@$(MAKE) $(S) -C tests/soak clean
	@$(MAKE) $(S) -C lib clean
	@$(MAKE) $(S) -C tools clean
	@$(MAKE) $(S) -C bench clean
	@rm -rf build

.PHONY: all deps module lint checkpatch userspace unit vmcheck check check-debug demo bench soak fuzz \
	cann-examples \
	clean install uninstall modules_install dkms-source dkms-install dkms-uninstall \
	dkms-check
