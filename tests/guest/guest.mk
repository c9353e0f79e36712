# SPDX-License-Identifier: GPL-2.0
#
# The guest test suite: one static binary, pfm_tests, run as root in the QEMU
# guest, with perfmon.ko loaded (make check-guest) or on the in-tree debug kernel
# (make check-guest-debug).  Static so that it runs whatever the guest's libc; the
# check library comes from the build host.
#
#   harness/   main.c (the runner, CK_RUN_SUITE), suites.h (the list), util.[ch]
#              and users.[ch] (helpers of every suite)
#   core/      the suites of the perfmon core: contexts, registers, sets, sampling ...
#   shim/      the suites of the perf_event_open shim (perf_*.c), perf's ring reader
#   compat/    the suites of the perf_counter_open and pmc(2) compatibility calls
#   run/       the guest's run scripts (run-suite.sh: make check-guest)
#   pfmon/     pfmon end to end (pfmon-check.sh) and its helper programs
#   apparmor/  the profile security.c confines an attacher with
#   clients/   not pfm_tests: real perf clients natively and through the shim
#              (clients.mk, make check-perf-clients)

GUEST_TEST_DIRS := harness core shim compat
GUEST_TEST_SRCS := $(foreach d,$(GUEST_TEST_DIRS),$(wildcard $(TOP)/tests/guest/$(d)/*.c))
GUEST_TEST_OBJS := $(patsubst $(TOP)/tests/guest/%.c,$(B)/guest/obj/tests/%.o,$(GUEST_TEST_SRCS)) \
		   $(B)/guest/obj/tests/mux_work.o
GUEST_TEST_HDRS := $(foreach d,$(GUEST_TEST_DIRS),$(wildcard $(TOP)/tests/guest/$(d)/*.h)) \
		   $(wildcard $(TOP)/libpfm-glue/*.h) \
		   $(wildcard $(TOP)/include/uapi/perfmon/*.h)
# recursive: pkg-config runs only when the tests are built
GUEST_CHECK_CFLAGS = $(shell pkg-config --cflags check)
GUEST_CHECK_LIBS   = $(shell pkg-config --static --libs check) -pthread

.PHONY: guest-bins
guest-bins: $(B)/guest/bin/pfm_tests $(B)/guest/bin/pfmon $(B)/guest/bin/workload $(B)/guest/bin/jsoncheck $(B)/guest/bin/runas

$(B)/guest/bin/pfm_tests: $(GUEST_TEST_OBJS) $(B)/lib/libperfmon.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -static -o $@ $(GUEST_TEST_OBJS) \
		$(B)/lib/libperfmon.a $(GUEST_CHECK_LIBS) -lm

$(B)/guest/obj/tests/%.o: $(TOP)/tests/guest/%.c $(GUEST_TEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -I$(TOP)/tests/guest/harness -I$(TOP)/tools/bench \
		$(GUEST_CHECK_CFLAGS) -c -o $@ $<

# the benchmark's workloads of known counts, for the mux_accuracy suite
$(B)/guest/obj/tests/mux_work.o: $(TOP)/tools/bench/mux_work.c $(TOP)/tools/bench/mux_work.h \
				 $(GUEST_TEST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_USER) -c -o $@ $<
