# SPDX-License-Identifier: GPL-2.0
#
# pfm_faults: the fault injection sweep of perfmon's entry points on the debug
# kernel (tests/guest/faults/README).  Static, with the guest suite's helpers.
#
#   make check-faults        every scenario, then the kernel log and kmemleak
#   make check-faults-short  the few make check's debug guest runs (FAULTS_SHORT)
#   FAULTS_CASES=a,b         only these scenarios (comma separated)

FAULTS_SRCS := $(wildcard $(TOP)/tests/guest/faults/*.c)
FAULTS_OBJS := $(patsubst $(TOP)/tests/guest/%.c,$(B)/guest/obj/tests/%.o,$(FAULTS_SRCS)) \
	       $(B)/guest/obj/tests/harness/util.o $(B)/guest/obj/tests/harness/fail_nth.o
FAULTS_HDRS := $(wildcard $(TOP)/tests/guest/faults/*.h) $(GUEST_TEST_HDRS)

$(B)/guest/bin/pfm_faults: $(FAULTS_OBJS) $(B)/lib/libperfmon.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $(FAULTS_OBJS) $(B)/lib/libperfmon.a \
		$(GUEST_CHECK_LIBS)

$(B)/guest/obj/tests/faults/%.o: $(TOP)/tests/guest/faults/%.c $(FAULTS_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -I$(TOP)/tests/guest/harness -I$(TOP)/include/uapi/perfmon \
		$(GUEST_CHECK_CFLAGS) -c -o $@ $<

FAULTS_GUEST := $(B)/guest/bin/pfm_faults:/bin/pfm_faults \
		$(TOP)/tests/guest/run/watchdog.sh:/bin/pfm-watchdog

.PHONY: check-faults check-faults-short
check-faults: $(KERNEL_DEP) $(B)/guest/bin/pfm_faults
	$(MKINITRAMFS) $(B)/guest/check-faults.cpio.gz $(TOP)/tests/guest/run/run-faults.sh \
		$(FAULTS_GUEST)
	$(RUN_GUEST) --kernel $(DEBUG_KERNEL) --initrd $(B)/guest/check-faults.cpio.gz \
		--append "$(DEBUG_APPEND) $(if $(FAULTS_CASES),PFM_FAULTS_CASES=$(FAULTS_CASES))" \
		--timeout 2400 --log $(B)/guest/check-faults.log

check-faults-short: $(KERNEL_DEP) $(B)/guest/bin/pfm_faults
	$(MKINITRAMFS) $(B)/guest/check-faults-short.cpio.gz $(TOP)/tests/guest/run/run-faults.sh \
		$(FAULTS_GUEST)
	$(RUN_GUEST) --kernel $(DEBUG_KERNEL) --initrd $(B)/guest/check-faults-short.cpio.gz \
		--append "$(DEBUG_APPEND) PFM_FAULTS_SHORT=1" --timeout 600 \
		--log $(B)/guest/check-faults-short.log

# make check-guest-debug's guest runs the short sweep after its suite
guest-bins: $(B)/guest/bin/pfm_faults
