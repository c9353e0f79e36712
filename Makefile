# SPDX-License-Identifier: GPL-2.0
#
# perfmon: one entry point for everything.
#   make deps     install the Debian packages and the guest kernel (idempotent)
#   make module   build perfmon.ko for the guest kernel
#   make lib      build libperfmon
#   make kernel   build the in-tree debug kernel with the pfm_* system calls
#   make check    host unit tests (with make install into a throwaway root and the
#                 man pages' lint); the core without the perf_event_open layer as a
#                 module, in the guest (module-noperf, check-guest-noperf); the DKMS
#                 build and the Debian packages, lintian clean (check-packages); the
#                 guest suite in QEMU on the stock kernel with perfmon.ko
#                 (check-guest), the multiplexing accuracy goals (check-mux), the
#                 perf clients (check-perf-clients); the same suite and clients on
#                 the in-tree debug kernel (check-guest-debug,
#                 check-perf-clients-debug); the fuzzer for a minute and the short
#                 load on each kernel.  The guest stages run in two lanes at once,
#                 beside the debug kernel's build; each stage's log in build/check/
#   make check-noperf   the core alone, without the perf_event_open layer: perfmon.ko
#                 (module-noperf), the host and simulator suites (check-host-noperf),
#                 the in-tree kernel build/intree/bzImage-noperf (kernel-noperf), and
#                 a few core suites in the guest on that module (check-guest-noperf)
#   make install  libperfmon, pfmon, pfm-perf, headers, perfmon.pc, man pages
#                 (PREFIX=/usr/local, DESTDIR)
#   make deb      Debian packages in build/deb/: perfmon-dkms, libperfmon1,
#                 libperfmon-dev, pfmon
#   make fuzz     the fuzzer on the debug kernel (tests/fuzz/README.md; also
#                 fuzz-module, fuzz-long, fuzz-repro)
#   make check-load   64 monitored threads for LOAD_SECONDS (600) on each kernel, with
#                 threads and processes coming and going: exact counts, no sample
#                 lost unaccounted, nothing left behind (tests/guest/load/README.md;
#                 check-load-short-module and check-load-short-debug: the short form)
#   make check-faults   fail-nth fault injection on every allocation and user copy
#                 of perfmon's entry points, in a debug guest (tests/guest/faults/README;
#                 check-faults-short: the short list check-guest-debug also runs)
#   make coverage line coverage of kernel/perfmon and arch/x86/perfmon by the guest
#                 suite on the debug kernel, the last fuzzer run and the host tests
#                 (tests/coverage/README.md)
#   make demo     boot the guest and measure a workload with pfmon
#   make check-perf-clients   perf, PAPI and stress-ng in the guest, natively and
#                 through the perf_event_open shim, on the stock kernel
#                 (tests/guest/clients/clients.mk; check-perf-clients-debug on the
#                 debug kernel; both in make check)
#   make bench    benchmarks (bench-msr: MSR accesses per operation on the simulated
#                 x86 PMUs, tests/sim/; bench-mux: set multiplexing in the guest;
#                 bench-ops, bench-mem: cost and memory against perf_events in the
#                 guest, under QEMU's instruction counting: tools/bench/bench.mk)
#   make clean

TOP	:= $(abspath .)
B	:= $(TOP)/build
ifeq ($(origin KVER),undefined)
KVER	:= $(shell $(TOP)/scripts/kver.sh)
endif
KDIR	?= /lib/modules/$(KVER)/build
GUEST_KERNEL ?= $(B)/guest/vmlinuz-$(KVER)
# The in-tree kernel (scripts/intree/): perfmon built in, bug detectors on.
DEBUG_KERNEL ?= $(B)/intree/bzImage
# Any warning ends the debug run: KASAN and UBSAN reports, WARN_ON()s; so does a
# thread stuck for 2 minutes (a deadlock would otherwise run into the timeout).  The
# guest console shows only emergencies: on a panic, replay the whole kernel log to
# it, so that the report that caused the panic is seen in full.  That kernel has
# no ACPI, so no HPET and no PM timer: tsc=reliable makes the TSC its clock, which
# it is (QEMU's TCG derives every vCPU's TSC from one host clock), where the
# kernel's guess for a non-Intel CPU in two sockets would leave it jiffies.  Nor
# can it calibrate the TSC: against the PIT alone that fails when the host is
# busy.  TCG's TSC runs at the host's rate, which the host's bogomips give
# (tsc_khz / 500), so tsc_early_khz says it.
HOST_TSC_KHZ = $(shell awk '/^bogomips/ { printf "%d", $$3 * 500; exit }' /proc/cpuinfo)
DEBUG_APPEND ?= panic_on_warn=1 hung_task_panic=1 panic_print=0x20 tsc=reliable \
	$(if $(HOST_TSC_KHZ),tsc_early_khz=$(HOST_TSC_KHZ))

CC	?= cc
CFLAGS_USER := -O2 -g -Wall -Wextra -Werror -I$(TOP)/include/uapi -I$(TOP)/libpfm-glue

.PHONY: all deps module lib kernel check check-host check-guest check-guest-debug \
	demo demo-run clean
all: module lib

deps:
	$(TOP)/scripts/deps.sh

# Within make check's lanes the kernels are built: a lane must not start a
# kernel build (the two images share one object tree) while the other boots them.
ifeq ($(PFM_KERNELS_BUILT),1)
KERNEL_DEP :=
KERNEL_NOPERF_DEP :=
else
KERNEL_DEP := kernel
KERNEL_NOPERF_DEP := kernel-noperf
endif

include libpfm-glue/lib.mk
include tools/tools.mk
include tests/host/host.mk
include tests/lib/lib.mk
include tests/guest/guest.mk
include tools/bench/bench.mk
include dist/install.mk
include tests/guest/clients/clients.mk
include tests/guest/clients/selftests.mk
include tests/coverage/coverage.mk
include tests/fuzz/fuzz.mk
include tests/guest/load/load.mk
include tests/guest/faults/faults.mk

PFM_KO	:= $(TOP)/kernel/perfmon/perfmon.ko
MKINITRAMFS := $(TOP)/scripts/guest/mkinitramfs.sh
RUN_GUEST := $(TOP)/scripts/guest/run.sh

# kbuild's jobs: make check runs its builds one after another, each on every CPU
JOBS ?= $(shell nproc)

module:
	$(MAKE) -j$(JOBS) -C $(KDIR) M=$(TOP)/kernel/perfmon PFM_TOP=$(TOP) modules
	$(TOP)/scripts/check-percpu-relocs.sh $(PFM_KO)

# The core alone, without the perf_event_open layer (PFM_PERF=n), in a tree of its
# own under build/ (links to the sources: kbuild writes its objects beside them).
NOPERF_TOP := $(B)/noperf
NOPERF_KO := $(NOPERF_TOP)/kernel/perfmon/perfmon.ko
.PHONY: module-noperf
module-noperf:
	$(TOP)/scripts/link-tree.sh $(TOP) $(NOPERF_TOP) kernel/perfmon arch/x86/perfmon include/uapi/perfmon
	$(MAKE) -j$(JOBS) -C $(KDIR) M=$(NOPERF_TOP)/kernel/perfmon PFM_TOP=$(NOPERF_TOP) PFM_PERF=n modules

kernel:
	$(TOP)/scripts/intree/build.sh $(B)/intree

# The same kernel with CONFIG_PERFMON_PERF off too, $(B)/intree/bzImage-noperf: built
# in bzImage's object tree after it, so that only what the option changes is rebuilt.
.PHONY: kernel-noperf
kernel-noperf:
	$(TOP)/scripts/intree/build.sh --noperf $(B)/intree

# The in-tree kernel's build tools first (deps.sh --kernel).  Then the in-tree
# debug kernel is built in the background (log build/check/build-kernel.log,
# then build-kernel.rc), with what reads it after it, at the lowest priority: it
# takes every CPU nothing else wants.  Beside it, the rest of deps.sh (downloads
# and unpacking, minutes on a fresh machine, that leave the CPUs to the kernel),
# the host's checks and the other builds, then the guest stages in two lanes
# (scripts/check-lanes.sh: a guest keeps one CPU busy), which take everything as
# built.  A lane's stages on the stock kernel run while the kernel builds; at
# check-kernel-ready a lane waits for it, and the debug kernel's stages follow.
# A whole check is bound by its CPU time: the lanes are balanced so that both end
# together after the kernel (each stage's time is in the table at the end).
CHECK_BUILD := check-host check-packages module module-noperf guest-bins \
	       perf-guest-bins perf-selftests $(FUZZ_BIN) check-fuzz-self $(COV_PLUGIN) \
	       $(LOAD_BIN)
CHECK_BUILD_AFTER := $(FUZZ_PCS) $(COV_RANGES)
CHECK_LANE_A := check-guest-noperf check-guest check-perf-clients check-load-short-module \
		check-fuzz-module !check-kernel-ready check-perf-clients-debug \
		check-fuzz-debug
CHECK_LANE_B := check-mux !check-kernel-ready check-guest-debug check-load-short-debug
CHECK_KERNEL_RC := $(B)/check/build-kernel.rc
check:
	$(TOP)/scripts/deps.sh --kernel
	@mkdir -p $(B)/check && rm -f $(B)/check/build.secs $(B)/check/build-kernel.*
	@s=$$(date +%s); \
	{ nice -n 19 sh -c '$(MAKE) kernel && $(MAKE) $(CHECK_BUILD_AFTER)' \
		> $(B)/check/build-kernel.log 2>&1; \
	  echo $$? > $(CHECK_KERNEL_RC).tmp; \
	  echo $$(( $$(date +%s) - s )) > $(B)/check/build-kernel.secs; \
	  mv $(CHECK_KERNEL_RC).tmp $(CHECK_KERNEL_RC); } & \
	echo $$! > $(B)/check/build-kernel.pid; \
	$(TOP)/scripts/deps.sh || { wait; exit 1; }; \
	$(MAKE) $(CHECK_BUILD) || { wait; exit 1; }; \
	echo $$(( $$(date +%s) - s )) > $(B)/check/build.secs; \
	MAKE="$(MAKE) PFM_KERNELS_BUILT=1" $(TOP)/scripts/check-lanes.sh $(B)/check \
		"$(CHECK_LANE_A)" "$(CHECK_LANE_B)"; rc=$$?; wait; exit $$rc

# A lane's gate: the background kernel build of make check has ended well (its
# rc file), or it fails with the log's tail.  A build that died without writing
# the file fails it too.
.PHONY: check-kernel-ready
check-kernel-ready:
	@pid=$$(cat $(B)/check/build-kernel.pid 2>/dev/null); \
	while [ ! -e $(CHECK_KERNEL_RC) ]; do \
		if [ -z "$$pid" ] || ! kill -0 "$$pid" 2>/dev/null; then \
			sleep 1; [ -e $(CHECK_KERNEL_RC) ] && break; \
			echo "check: no kernel build running, and none ended"; exit 1; \
		fi; \
		sleep 2; \
	done; \
	grep '^intree:' $(B)/check/build-kernel.log || true; \
	if [ "$$(cat $(CHECK_KERNEL_RC))" != 0 ]; then \
		tail -n 40 $(B)/check/build-kernel.log; \
		echo "check: the kernel build failed ($(B)/check/build-kernel.log)"; exit 1; \
	fi

# DKMS builds the module against the installed headers; the packages install
# into a throwaway root and work there (dist/).
.PHONY: check-packages
check-packages: check-dkms check-deb

# pfmon end to end, after the suite (tests/guest/pfmon/pfmon-check.sh).
GUEST_TOOLS := $(B)/guest/bin/pfmon:/bin/pfmon $(B)/guest/bin/workload:/bin/workload \
	       $(TOP)/tests/guest/pfmon/pfmon-check.sh:/bin/pfmon-check \
	       $(TOP)/tests/guest/pfmon/pfmon-perf-check.sh:/bin/pfmon-perf-check \
	       $(TOP)/tests/guest/pfmon/pfmon-opts-check.sh:/bin/pfmon-opts-check \
	       $(TOP)/tests/guest/pfmon/pfmon-topo-check.sh:/bin/pfmon-topo-check \
	       $(TOP)/tests/guest/pfmon/pfmon-cgroup-check.sh:/bin/pfmon-cgroup-check \
	       $(TOP)/tests/guest/pfmon/pfmon-tp-check.sh:/bin/pfmon-tp-check \
	       $(TOP)/tests/guest/pfmon/pfmon-tp-opts-check.sh:/bin/pfmon-tp-opts-check \
	       $(TOP)/tests/guest/pfmon/workload-wait.sh:/bin/pfmon-workload-wait.sh \
	       $(TOP)/tests/guest/run/exec-images.sh:/bin/pfm-exec-images \
	       $(TOP)/tests/guest/run/watchdog.sh:/bin/pfm-watchdog \
	       $(TOP)/tests/guest/run/slowest.sh:/bin/pfm-slowest \
	       $(B)/guest/bin/jsoncheck:/bin/jsoncheck $(B)/guest/bin/runas:/bin/runas

# The stock kernel has AppArmor: security.c checks that it refuses an attach.
GUEST_APPARMOR := +/usr/sbin/apparmor_parser:/sbin/apparmor_parser \
		  $(TOP)/tests/guest/apparmor/pfm_confined:/etc/apparmor.d/pfm_confined \
		  $(TOP)/tests/guest/apparmor/parser.conf:/etc/apparmor/parser.conf

# SUITE=name runs one guest suite only (the kernel hands CK_RUN_SUITE to init).
GUEST_SUITE := $(if $(SUITE),CK_RUN_SUITE=$(SUITE))

check-guest: module guest-bins
	$(MKINITRAMFS) $(B)/guest/check.cpio.gz $(TOP)/tests/guest/run/run-suite.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/pfm_tests:/bin/pfm_tests $(GUEST_TOOLS) \
		$(GUEST_APPARMOR)
	$(RUN_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/guest/check.cpio.gz \
		$(if $(GUEST_SUITE),--append "$(GUEST_SUITE)") --timeout 900 \
		--log $(B)/guest/check.log

# The core without the perf_event_open layer, built as module, on the host and in
# the tree, and a few of its guest suites on that module: one boot, not the whole
# suite (tests/guest/run/run-suite-noperf.sh; NOPERF_SUITES: comma separated).
NOPERF_SUITES ?= ctx,rw,state,sysfs
.PHONY: check-noperf check-guest-noperf
check-noperf: module-noperf check-host-noperf $(KERNEL_NOPERF_DEP) check-guest-noperf

check-guest-noperf: module-noperf guest-bins
	$(MKINITRAMFS) $(B)/guest/check-noperf.cpio.gz $(TOP)/tests/guest/run/run-suite-noperf.sh \
		$(NOPERF_KO):/lib/perfmon.ko $(B)/guest/bin/pfm_tests:/bin/pfm_tests $(GUEST_TOOLS)
	$(RUN_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/guest/check-noperf.cpio.gz \
		--append "PFM_NOPERF_SUITES=$(NOPERF_SUITES)" --timeout 600 \
		--log $(B)/guest/check-noperf.log

# The accuracy goals for multiplexed counts (tests/guest/core/mux_accuracy.c: the
# estimates within 2% on average, every event within 5%, the 95% bounds holding),
# in a guest whose clock counts instructions (4 ns each, as bench-mux's: the second
# CPU left down, the delay loop not calibrated: tools/bench/bench.mk), so that a
# run's time is its work whatever the host's load, and the figures repeat.
# PFM_MUX_REPS=n on the kernel command line (MUX_CHECK_APPEND) changes the runs
# per configuration.
MUX_CHECK_QEMU_OPTS ?= -icount shift=2,sleep=off -smp 1
MUX_CHECK_APPEND ?=
.PHONY: check-mux
check-mux: module guest-bins
	$(MKINITRAMFS) $(B)/guest/check-mux.cpio.gz $(TOP)/tests/guest/run/run-mux-accuracy.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/pfm_tests:/bin/pfm_tests
	PFM_QEMU_OPTS="$(MUX_CHECK_QEMU_OPTS)" $(RUN_GUEST) --kernel $(GUEST_KERNEL) \
		--initrd $(B)/guest/check-mux.cpio.gz \
		--append "lpj=4000000 $(MUX_CHECK_APPEND)" --timeout 900 \
		--log $(B)/guest/check-mux.log

# The same suite on the debug kernel, through the system calls.
check-guest-debug: $(KERNEL_DEP) guest-bins
	$(MKINITRAMFS) $(B)/guest/check-debug.cpio.gz $(TOP)/tests/guest/run/run-suite-intree.sh \
		$(B)/guest/bin/pfm_tests:/bin/pfm_tests $(GUEST_TOOLS) \
		$(B)/guest/bin/pfm_faults:/bin/pfm_faults
	$(RUN_GUEST) --kernel $(DEBUG_KERNEL) --initrd $(B)/guest/check-debug.cpio.gz \
		--append "$(DEBUG_APPEND) $(GUEST_SUITE)" --timeout 900 \
		--log $(B)/guest/check-debug.log

demo: deps
	$(MAKE) demo-run

demo-run: module guest-bins
	$(MKINITRAMFS) $(B)/guest/demo.cpio.gz $(TOP)/tools/pfmon/demo.sh \
		$(PFM_KO):/lib/perfmon.ko $(B)/guest/bin/pfmon:/bin/pfmon \
		$(B)/guest/bin/workload:/bin/workload
	$(RUN_GUEST) --kernel $(GUEST_KERNEL) --initrd $(B)/guest/demo.cpio.gz \
		--log $(B)/guest/demo.log

clean:
	rm -rf $(B)
	-$(MAKE) -C $(KDIR) M=$(TOP)/kernel/perfmon clean >/dev/null 2>&1
	@# kbuild cleans only below M: the x86 drivers are built from ../../arch
	rm -f $(TOP)/arch/x86/perfmon/*.o $(TOP)/arch/x86/perfmon/.*.cmd
